//! What the command-line tests share: running `qbb`, reading what it printed, scratch folders.
//!
//! Each test file uses a part of it, so the parts another file does not use are not dead code.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the lab's binary with `args`, as a user would.
pub fn qbb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qbb"))
        .args(args)
        .output()
        .expect("qbb runs")
}

/// Runs the lab's binary with `args` and `--out dir`, as a user asking for a report in `dir`;
/// the run must succeed.
pub fn qbb_writing_to(dir: &Path, args: &[&str]) -> Output {
    let out = qbb(&[args, &["--out", arg(dir)]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

/// What the run printed on standard output (the lab prints UTF-8).
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// What the run printed on standard error, for assertions and their messages.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// An empty path under the temporary folder, named after the test and this process.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qbb-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// `dir` as a path argument.
pub fn arg(dir: &Path) -> &str {
    dir.to_str().expect("UTF-8 temp path")
}

/// Redraws the report in `dir` from its JSON file `json` with `qbb <command> --json`, and checks
/// that every file comes out the same, byte for byte: a redraw keeps the figures, the machine
/// and the date, and the tables and charts depend on nothing else.
pub fn assert_redraw_is_identical(command: &str, dir: &Path, json: &str) {
    let again = scratch(&format!("{command}-redraw"));
    qbb_writing_to(&again, &[command, "--json", arg(&dir.join(json))]);
    let files = files_below(dir);
    assert!(files.len() > 1, "{files:?}");
    assert_eq!(files, files_below(&again));
    for file in files {
        assert!(
            fs::read(dir.join(&file)).unwrap() == fs::read(again.join(&file)).unwrap(),
            "{} differs after a redraw",
            file.display()
        );
    }
    fs::remove_dir_all(&again).unwrap();
}

/// Copies the files below `from` under `to`, keeping their layout.
pub fn copy_tree(from: &Path, to: &Path) {
    for file in files_below(from) {
        let target = to.join(&file);
        fs::create_dir_all(target.parent().unwrap()).unwrap();
        fs::copy(from.join(&file), &target).unwrap();
    }
}

/// The files below `dir`, relative to it, in path order.
fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                found.push(path.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    found.sort();
    found
}

//! The lab's own files, damaged: `qbb report --json` (a results.json), `qbb instructions --json`
//! (an instructions.json) and `qbb report --criterion` (criterion's folder) given an empty, a
//! truncated or a corrupted file answer in one line that names the file, and the field where one
//! is wrong; no panic, and nothing is written.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{arg, qbb, scratch, stderr};

/// A file of the reports committed in this repository.
fn committed(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../reports/amd-epyc-f23m1")
        .join(name);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Damaged copies of `text`, each with words its error must hold: empty, cut in half, and with
/// the value at `pointer` replaced by a map (the error names `field`).
fn damaged(text: &str, pointer: &str, field: &str) -> Vec<(&'static str, String, String)> {
    let mut value: serde_json::Value = serde_json::from_str(text).unwrap();
    *value
        .pointer_mut(pointer)
        .expect("the field is in the file") = serde_json::json!({ "fast": true });
    let corrupted = serde_json::to_string_pretty(&value).unwrap();
    vec![
        ("empty", String::new(), "EOF while parsing".to_string()),
        (
            "truncated",
            text[..text.len() / 2].to_string(),
            "EOF while parsing".to_string(),
        ),
        (
            "corrupted",
            corrupted,
            format!("field `{field}`: invalid type: map"),
        ),
    ]
}

/// Runs `qbb` with `args` and `--out` a fresh folder: it must fail with exit code 2 and one line
/// on standard error that names `file` and holds `expected`, and write nothing.
fn assert_refused(args: &[&str], file: &Path, expected: &str) {
    let out = scratch("damaged-out");
    let run = qbb(&[args, &["--out", arg(&out)]].concat());
    let err = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(&file.display().to_string()),
        "names the file: {err}"
    );
    assert!(err.contains(expected), "{expected:?} in: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!out.exists(), "nothing is written on bad input");
}

#[test]
fn a_damaged_results_json_is_named_in_one_line() {
    let dir = scratch("damaged-results");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("results.json");
    let text = committed("results.json");
    for (what, damaged, expected) in damaged(&text, "/results/0/ns_per_op", "results[0].ns_per_op")
    {
        fs::write(&path, damaged).unwrap();
        println!("{what}");
        assert_refused(&["report", "--json", arg(&path)], &path, &expected);
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_damaged_instructions_json_is_named_in_one_line() {
    let dir = scratch("damaged-instructions");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join("instructions.json");
    let text = committed("instructions.json");
    for (what, damaged, expected) in damaged(&text, "/machine/rustc", "machine.rustc") {
        fs::write(&path, damaged).unwrap();
        println!("{what}");
        assert_refused(&["instructions", "--json", arg(&path)], &path, &expected);
    }
    fs::remove_dir_all(&dir).unwrap();
}

/// A criterion folder with one routine benchmark, as `cargo bench --bench routines` leaves it;
/// returns the folder of its latest run.
fn criterion_run(dir: &Path) -> PathBuf {
    let latest = dir.join("flip").join("scalar").join("new");
    fs::create_dir_all(&latest).unwrap();
    fs::write(
        latest.join("benchmark.json"),
        "{\"group_id\": \"flip\",\n \"function_id\": \"scalar\",\n \"throughput\": {\"Elements\": 1024}}\n",
    )
    .unwrap();
    fs::write(
        latest.join("sample.json"),
        "{\"iters\": [1.0, 2.0],\n \"times\": [2048.0, 4096.0]}\n",
    )
    .unwrap();
    latest
}

#[test]
fn a_damaged_criterion_folder_is_named_in_one_line() {
    let dir = scratch("damaged-criterion");
    let latest = criterion_run(&dir);
    for (name, pointer, field) in [
        ("benchmark.json", "/group_id", "group_id"),
        ("sample.json", "/times", "times"),
    ] {
        let path = latest.join(name);
        let text = fs::read_to_string(&path).unwrap();
        for (what, damaged, expected) in damaged(&text, pointer, field) {
            fs::write(&path, damaged).unwrap();
            println!("{name} {what}");
            assert_refused(&["report", "--criterion", arg(&dir)], &path, &expected);
        }
        fs::write(&path, text).unwrap();
    }
    fs::remove_dir_all(&dir).unwrap();
}

//! `qbb instructions` run as a user runs it, on two summaries gungraun 0.20 wrote for
//! benches/benches/callgrind.rs (tests/fixtures/gungraun, `piece-at` on scalar and avx2, each
//! with the count of an earlier run as its baseline).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn qbb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qbb"))
        .args(args)
        .output()
        .expect("qbb runs")
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gungraun")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qbb-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

/// Copies the fixture's files under `to`, keeping their layout.
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        let target = to.join(path.file_name().unwrap());
        if path.is_dir() {
            copy_tree(&path, &target);
        } else {
            fs::copy(&path, &target).unwrap();
        }
    }
}

#[test]
fn gungraun_summaries_become_the_table_json_markdown_and_chart() {
    let out = scratch("instructions-cli");
    let fixture = fixture();
    let run = qbb(&[
        "instructions",
        "--gungraun",
        fixture.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    let table = String::from_utf8(run.stdout).unwrap();
    assert!(table.contains("│ piece-at "), "{table}");
    assert!(
        table.contains("24.2") && table.contains("14.6 0.60× *"),
        "{table}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("instructions.json")).unwrap()).unwrap();
    let rows = json["results"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["backend"], "scalar");
    assert_eq!(rows[0]["instructions_per_pass"], 24761);
    assert_eq!(rows[0]["calls_per_pass"], 1024);
    assert_eq!(rows[1]["backend"], "avx2");
    assert_eq!(rows[1]["instructions_per_pass"], 14968);
    assert_eq!(rows[1]["vs_scalar"], 0.6045);
    let md = fs::read_to_string(out.join("instructions.md")).unwrap();
    assert!(md.contains("| piece-at | 24.2 | **14.6 0.60×** |"), "{md}");
    assert!(out.join("instructions.svg").is_file());

    // Redrawing from the JSON keeps the counts.
    let again = scratch("instructions-redraw");
    let json_arg = out.join("instructions.json");
    let run = qbb(&[
        "instructions",
        "--json",
        json_arg.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(run.status.success());
    assert_eq!(
        fs::read_to_string(again.join("instructions.json")).unwrap(),
        fs::read_to_string(&json_arg).unwrap()
    );
    fs::remove_dir_all(&out).unwrap();
    fs::remove_dir_all(&again).unwrap();
}

#[test]
fn bad_input_is_named_without_a_panic() {
    let broken = scratch("instructions-broken");
    copy_tree(&fixture(), &broken);
    let summary = broken.join("qbb-benches/callgrind/routines/piece_at.avx2/summary.json");
    let text = fs::read_to_string(&summary).unwrap();
    fs::write(&summary, &text[..text.len() / 2]).unwrap();
    let nowhere = broken.join("nowhere");
    for (args, expected) in [
        (
            vec!["--gungraun", broken.to_str().unwrap()],
            "piece_at.avx2/summary.json` is not JSON",
        ),
        (
            vec!["--gungraun", nowhere.to_str().unwrap()],
            "run `cargo bench -p qbb-benches --features callgrind --bench callgrind -- \
             --save-summary=pretty-json` first",
        ),
        (
            vec!["--json", summary.to_str().unwrap()],
            "is not an instructions.json of qbb",
        ),
    ] {
        let out = broken.join("out");
        let mut all = vec!["instructions", "--out", out.to_str().unwrap()];
        all.extend(args);
        let run = qbb(&all);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(expected), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!out.exists(), "nothing is written on bad input");
    }
    fs::remove_dir_all(&broken).unwrap();
}

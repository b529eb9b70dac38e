//! `qbb instructions` run as a user runs it, on two summaries gungraun 0.20 wrote for
//! benches/benches/callgrind.rs (tests/fixtures/gungraun, `piece-at` on scalar and avx2, each
//! with the count of an earlier run as its baseline).

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{
    arg, assert_redraw_is_identical, copy_tree, qbb, qbb_writing_to, scratch, stderr, stdout,
};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gungraun")
}

#[test]
fn gungraun_summaries_become_the_table_json_markdown_and_chart() {
    let out = scratch("instructions-cli");
    let run = qbb_writing_to(&out, &["instructions", "--gungraun", arg(&fixture())]);
    let table = stdout(&run);
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

    assert_redraw_is_identical("instructions", &out, "instructions.json");
    fs::remove_dir_all(&out).unwrap();
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
            vec!["--gungraun", arg(&broken)],
            "piece_at.avx2/summary.json` is not JSON",
        ),
        (
            vec!["--gungraun", arg(&nowhere)],
            "run `cargo bench -p qbb-benches --features callgrind --bench callgrind -- \
             --save-summary=pretty-json` first",
        ),
        (
            vec!["--json", arg(&summary)],
            "is not an instructions.json of qbb",
        ),
    ] {
        let out = broken.join("out");
        let mut all = vec!["instructions", "--out", arg(&out)];
        all.extend(args);
        let run = qbb(&all);
        let err = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{err}");
        assert!(err.contains(expected), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(!out.exists(), "nothing is written on bad input");
    }
    fs::remove_dir_all(&broken).unwrap();
}

//! `qbb compare` and `qbb report`, run as a user runs them (on one benchmark, to stay short).

mod common;

use common::{assert_redraw_is_identical, qbb, qbb_writing_to, scratch, stderr, stdout};

#[test]
fn compare_writes_the_table_json_markdown_and_charts() {
    let dir = scratch("compare-cli");
    let args = ["compare", "--quick", "--bench", "flip", "--backend", "swar"];
    let out = qbb_writing_to(&dir, &args);
    let progress = stderr(&out);
    assert!(
        progress.contains("[ 1/1] flip: scalar "),
        "progress: {progress}"
    );
    let table = stdout(&out);
    assert!(table.contains("│ flip "), "{table}");
    assert!(table.contains("scalar") && table.contains("swar"));

    let json = std::fs::read_to_string(dir.join("results.json")).expect("results.json");
    let value: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
    assert!(
        value["machine"]["rustc"]
            .as_str()
            .unwrap()
            .starts_with("rustc ")
    );
    let rows = value["results"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["backend"], "scalar");
    assert_eq!(rows[1]["backend"], "swar");
    assert!(rows[1]["ns_per_op"].as_f64().unwrap() > 0.0);
    assert!(dir.join("results.md").is_file());
    assert!(dir.join("overview.svg").is_file());
    assert!(dir.join("charts/flip.svg").is_file());

    assert_redraw_is_identical("report", &dir, "results.json");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_names_are_refused_with_a_reason() {
    let out = qbb(&["compare", "--bench", "hex_sets"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("`hex_sets` is not a benchmark"), "{err}");

    let out = qbb(&["compare", "--backend", "mmx"]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("unknown backend `mmx`"), "{err}");
}

#[test]
fn report_without_criterion_results_says_what_to_run() {
    let out = qbb(&["report", "--criterion", "/nonexistent/criterion"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("cargo bench -p qbb-benches"), "{err}");
}

//! `qbb compare` and `qbb report`, run as a user runs them (on one benchmark, to stay short).

use std::path::PathBuf;
use std::process::{Command, Output};

fn qbb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qbb"))
        .args(args)
        .output()
        .expect("qbb runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qbb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn compare_writes_the_table_json_markdown_and_charts() {
    let dir = scratch("compare-cli");
    let out_arg = dir.to_str().expect("UTF-8 temp path");
    let out = qbb(&[
        "compare",
        "--quick",
        "--bench",
        "flip",
        "--backend",
        "swar",
        "--out",
        out_arg,
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("[ 1/1] flip: scalar "),
        "progress: {stderr}"
    );
    let table = String::from_utf8(out.stdout).expect("UTF-8");
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

    // Redrawing from the JSON keeps the numbers.
    let again = scratch("report-json-cli");
    let json_arg = dir.join("results.json");
    let out = qbb(&[
        "report",
        "--json",
        json_arg.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let redrawn = std::fs::read_to_string(again.join("results.json")).unwrap();
    assert_eq!(redrawn, json);
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&again).unwrap();
}

#[test]
fn bad_names_are_refused_with_a_reason() {
    let out = qbb(&["compare", "--bench", "hex_sets"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`hex_sets` is not a benchmark"), "{stderr}");

    let out = qbb(&["compare", "--backend", "mmx"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown backend `mmx`"));
}

#[test]
fn report_without_criterion_results_says_what_to_run() {
    let out = qbb(&["report", "--criterion", "/nonexistent/criterion"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cargo bench -p qbb-benches"), "{stderr}");
}

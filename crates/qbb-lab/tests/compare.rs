//! `qbb compare`, `qbb report` and `qbb charts`, run as a user runs them (on one benchmark, or on the
//! committed reports, to stay short).

mod common;

use common::{assert_redraw_is_identical, qbb, qbb_writing_to, scratch, stderr, stdout};

/// A turn's probe: the median over the rows (one benchmark's) of each row's probe of that turn.
fn turn_probe(rows: &[serde_json::Value], turn: usize) -> f64 {
    let mut probes: Vec<f64> = rows
        .iter()
        .map(|r| r["turn_probe"][turn].as_f64().unwrap())
        .collect();
    probes.sort_by(f64::total_cmp);
    let n = probes.len();
    (probes[(n - 1) / 2] + probes[n / 2]) / 2.0
}

#[test]
fn compare_writes_the_table_json_markdown_and_charts() {
    let dir = scratch("compare-cli");
    let args = ["compare", "--quick", "--bench", "flip", "--backend", "swar"];
    let out = qbb_writing_to(&dir, &args);
    let progress = stderr(&out);
    assert!(
        progress.contains("[ 1/1] flip (") && progress.contains(" in the usual state): scalar "),
        "progress: {progress}"
    );
    assert!(
        cfg!(not(any(target_arch = "x86_64", target_arch = "aarch64")))
            || progress.contains("core state: the neighbour probe's usual figure, "),
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
    assert!(value["machine"]["clock_ghz"].as_f64().unwrap() > 0.0);
    // The baseline candidates, raised to x86-64-v3 where the CPU runs it.
    let rows = value["results"].as_array().expect("rows");
    let names: Vec<&str> = rows
        .iter()
        .map(|r| r["backend"].as_str().unwrap())
        .collect();
    let raised = qbb::BackendKind::Avx2.is_available();
    let want: &[&str] = if raised {
        &["scalar", "swar", "scalar-v3", "swar-v3"]
    } else {
        &["scalar", "swar"]
    };
    assert_eq!(names, want);
    for row in rows {
        assert!(row["ns_per_op"].as_f64().unwrap() > 0.0);
        assert!(row["cycles_per_op"].as_f64().unwrap() > 0.0);
        let baseline = row["baseline"].as_str().unwrap();
        assert!(want.contains(&baseline));
        // Timed in turns, each in every placement of the loop, the neighbour probed before
        // every sample: a speed-up with its interval, from the turns in the core's usual
        // state, whose probes (the median over the rows) lie within a tenth of one figure (or
        // from every turn, where too few do).
        let turns = row["turn_ns"].as_array().unwrap().len();
        let usual: Vec<usize> = row["usual_turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as usize)
            .collect();
        assert_eq!(usual.len(), row["samples"].as_u64().unwrap() as usize);
        assert!(usual.len() >= 6 && usual.len() <= turns);
        assert!(usual.windows(2).all(|w| w[0] < w[1]) && usual[usual.len() - 1] < turns);
        let probes: Vec<f64> = row["turn_probe"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_f64().unwrap())
            .collect();
        assert_eq!(probes.len(), turns);
        assert!(probes.iter().all(|&p| p > 0.0));
        if usual.len() < turns {
            let in_state: Vec<f64> = usual.iter().map(|&t| turn_probe(rows, t)).collect();
            let low = in_state.iter().copied().fold(f64::INFINITY, f64::min);
            let high = in_state.iter().copied().fold(0.0, f64::max);
            assert!(high <= low * 1.1 / 0.9 * 1.0001, "{in_state:?}");
        }
        assert_eq!(
            row["placement_ns"].as_array().unwrap().len(),
            qbb_benches::PLACEMENTS
        );
        let speedup = row["speedup_vs_baseline"].as_f64().unwrap();
        let [low, high] = [0, 1].map(|i| row["speedup_interval"][i].as_f64().unwrap());
        assert!(low <= speedup && speedup <= high, "{row}");
        if row["backend"] == baseline {
            assert_eq!((low, speedup, high), (1.0, 1.0, 1.0));
        }
        assert!(row["speedup_vs_scalar"].as_f64().unwrap() > 0.0);
    }
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

#[test]
fn charts_draw_every_committed_machine_side_by_side() {
    let dir = scratch("charts-cli");
    let reports = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../reports");
    let files = ["amd-epyc-f23m1", "amd-epyc-f26m2"].map(|m| {
        let file = reports.join(m).join("results.json");
        file.to_str().unwrap().to_string()
    });
    let out = qbb(&[
        "charts",
        "--out",
        dir.to_str().unwrap(),
        &files[0],
        &files[1],
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("of 2 reports"), "{}", stderr(&out));
    let chart = |id: &str| std::fs::read_to_string(dir.join(format!("{id}.svg"))).unwrap();
    let nibble_add = chart("nibble-add");
    assert!(nibble_add.contains("amd-epyc-f23m1: AMD EPYC, family 23, model 1"));
    assert!(nibble_add.contains("amd-epyc-f26m2: AMD EPYC, family 26, model 2"));
    // The Zen 1 report predates the NNUE routines: its group says so.
    assert!(chart("nnue-refresh").contains("not measured in this report"));

    let out = qbb(&["charts", "--out", dir.to_str().unwrap(), "no-such.json"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("no-such.json"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

//! `qbb model` run as a user runs it, on four probes cut from a listing of stable rustc 1.95
//! (tests/fixtures/model/probes.s: `piece_at` on scalar, avx2 and avx512, and scalar's
//! `to_mailbox`, which loops over the 64 squares).
//!
//! The tests that model need an llvm-mca of LLVM 17 or newer (Debian: `apt-get install
//! llvm-19`) and say so when they skip; the tests of bad input run everywhere.

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::{arg, qbb, qbb_writing_to, scratch, stderr, stdout};
use serde_json::Value;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/model/probes.s")
}

/// A results.json of a Zen 3 machine with a measured clock: two throughput rows, one latency.
const RESULTS: &str = r#"{
  "machine": {"id": "amd-epyc-f25m1", "cpu": "AMD EPYC", "clock_ghz": 2.5,
              "cpu_details": "family 25, model 1, stepping 1, 2 logical CPUs, virtual machine",
              "features": [], "missing_features": [],
              "rustc": "rustc 1.95.0 (59807616e 2026-04-14)", "flags": "profile release",
              "os": "linux", "load": "0", "date": "2026-11-25"},
  "source": "qbb compare", "unit": "ns per call", "corpus": "1024 positions",
  "results": [
    {"routine": "piece-at", "measure": "throughput", "benchmark": "piece-at", "catalogue_row": 1,
     "title": "piece at square", "backend": "scalar", "support": "native", "ns_per_op": 2.4,
     "ns_min": 2.4, "ns_max": 2.4, "samples": 1, "calls_per_sample": 1024},
    {"routine": "piece-at", "measure": "throughput", "benchmark": "piece-at", "catalogue_row": 1,
     "title": "piece at square", "backend": "avx2", "support": "native", "ns_per_op": 40.0,
     "ns_min": 40.0, "ns_max": 40.0, "samples": 1, "calls_per_sample": 1024},
    {"routine": "piece-at", "measure": "latency", "benchmark": "piece-at-latency", "catalogue_row": 1,
     "title": "piece at square", "backend": "scalar", "support": "native", "ns_per_op": 3.0,
     "ns_min": 3.0, "ns_max": 3.0, "samples": 1, "calls_per_sample": 1024}
  ]
}"#;

/// `qbb model` of the fixture's probes into `out`, with `extra` arguments; the run must succeed.
/// None, and `out` removed, where no llvm-mca of LLVM 17 or newer is installed: the test skips.
fn model_of_the_fixture(out: &Path, extra: &[&str]) -> Option<Output> {
    let listing = fixture();
    let args = [&["model", "--asm", arg(&listing), "--out", arg(out)], extra].concat();
    let run = qbb(&args);
    if stderr(&run).contains("no usable llvm-mca") {
        eprintln!("skipping: no llvm-mca of LLVM 17 or newer (`apt-get install llvm-19`)");
        fs::remove_dir_all(out).unwrap();
        return None;
    }
    assert!(run.status.success(), "{}", stderr(&run));
    Some(run)
}

#[test]
fn the_model_of_four_probes_with_its_measurements() {
    let out = scratch("model-cli");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("results.json"), RESULTS).unwrap();
    let Some(run) = model_of_the_fixture(&out, &["--cpu", "znver4"]) else {
        return;
    };
    assert!(stdout(&run).contains("| piece-at |"), "{}", stdout(&run));

    let json: Value =
        serde_json::from_str(&fs::read_to_string(out.join("model.json")).unwrap()).unwrap();
    assert!(
        json["llvm_mca"]["version"]
            .as_str()
            .unwrap()
            .starts_with("LLVM version ")
    );
    assert_eq!(
        json["listings"][0]["compiler"],
        "rustc 1.95.0 (59807616e 2026-04-14)"
    );
    assert_eq!(json["listings"][0]["probes"], 4);
    let cpus: Vec<&str> = json["cpus"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        cpus,
        ["znver4", "znver3"],
        "the measured machine's CPU is added"
    );

    let rows = json["predictions"].as_array().unwrap();
    let find = |routine: &str, backend: &str, cpu: &str| -> &Value {
        rows.iter()
            .find(|r| r["routine"] == routine && r["backend"] == backend && r["cpu"] == cpu)
            .unwrap_or_else(|| panic!("no row {routine} {backend} {cpu}"))
    };
    let avx512 = find("piece-at", "avx512", "znver4");
    assert!(
        avx512["cycles_per_call"].as_f64().unwrap() > 0.0,
        "{avx512}"
    );
    assert!(avx512["uops_per_call"].as_f64().unwrap() > 0.0);
    assert_eq!(
        avx512["instructions"], 5,
        "the probe without ret and vzeroupper"
    );
    assert_eq!(
        find("piece-at", "avx512", "znver3")["not_available"],
        "CPU lacks AVX-512"
    );
    let looped = find("to-mailbox", "scalar", "znver3");
    // rdi and rsi are read and then overwritten; `setb r9b` keeps the rest of r9.
    assert_eq!(
        looped["notes"],
        serde_json::json!([
            "fresh arguments: mov edi, 0; mov esi, 0; mov r9d, 0",
            "loop: modelled as one pass"
        ])
    );
    assert!(
        find("flip", "avx2", "znver3")["error"]
            .as_str()
            .unwrap()
            .contains("no probe")
    );

    let compared = &json["predicted_vs_measured"];
    assert_eq!(compared["cpu"], "znver3");
    assert_eq!(compared["clock"]["ghz"], 2.5);
    let pairs = compared["rows"].as_array().unwrap();
    assert_eq!(pairs.len(), 2, "the latency row is not compared");
    assert_eq!(pairs[0]["measured_cycles"], 6.0);
    assert_eq!(pairs[0]["differs"], false);
    assert_eq!(pairs[1]["measured_cycles"], 100.0);
    assert_eq!(
        pairs[1]["differs"], true,
        "no model puts piece_at at 100 cycles"
    );

    let md = fs::read_to_string(out.join("model.md")).unwrap();
    assert!(md.contains("## `znver4`: AMD Zen 4"), "{md}");
    assert!(
        md.contains("## Predicted against measured: `znver3`"),
        "{md}"
    );
    assert!(
        md.contains("avx512: not available on `znver3`: CPU lacks AVX-512."),
        "{md}"
    );
    assert!(md.contains(" ↺ |"), "the loop is marked: {md}");
    assert!(
        md.contains("1 of 2 rows differ by more than 1.5×: piece-at on avx2."),
        "{md}"
    );
    fs::remove_dir_all(&out).unwrap();
}

/// On the machine whose timings it compares, `qbb model` also runs the modelled blocks on the
/// core: a quick `qbb compare` of piece-at here, then the fixture's probes modelled beside it.
#[test]
fn the_blocks_of_this_machines_timings_run_on_its_core() {
    let dir = scratch("model-on-core");
    let args = [
        "compare",
        "--quick",
        "--bench",
        "piece-at",
        "--backend",
        "scalar",
    ];
    qbb_writing_to(&dir, &args);
    let Some(run) = model_of_the_fixture(&dir, &[]) else {
        return;
    };
    assert!(stderr(&run).contains("on this core"), "{}", stderr(&run));
    let json: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("model.json")).unwrap()).unwrap();
    let rows = json["predicted_vs_measured"]["rows"].as_array().unwrap();
    let scalar = rows
        .iter()
        .find(|r| r["routine"] == "piece-at" && r["backend"] == "scalar")
        .expect("scalar piece-at is measured and modelled");
    let cycles = scalar["block_on_core_cycles"].as_f64();
    assert!(cycles.is_some_and(|c| c > 0.0), "{scalar}");
    let md = fs::read_to_string(dir.join("model.md")).unwrap();
    assert!(md.contains("| block on this core |"), "{md}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_named_without_a_panic() {
    let dir = scratch("model-bad");
    fs::create_dir_all(&dir).unwrap();
    let empty = dir.join("empty.s");
    fs::write(&empty, "no functions here\n").unwrap();
    let missing = dir.join("missing.s");
    let out = dir.join("out");
    let listing = fixture();
    let cases: [(Vec<&str>, &str); 5] = [
        (vec!["--asm", arg(&missing)], "reading the listing"),
        (vec!["--asm", arg(&empty)], "holds no functions"),
        (
            vec![
                "--asm",
                arg(&listing),
                "--llvm-mca",
                "/nonexistent/llvm-mca",
            ],
            "apt-get install llvm-19",
        ),
        (
            vec!["--asm", arg(&listing), "--cpu", "pentium5"],
            "`pentium5` is not a CPU",
        ),
        (vec!["--ghz", "0"], "not a positive number of GHz"),
    ];
    for (args, expected) in cases {
        let mut all = vec!["model", "--out", arg(&out)];
        all.extend(args.iter().copied());
        let run = qbb(&all);
        let err = stderr(&run);
        assert!(!run.status.success(), "{all:?} succeeded");
        assert!(err.contains(expected), "{all:?}: {err}");
        assert!(!err.contains("panicked"), "{all:?}: {err}");
    }

    // A results.json that is not one is named before anything runs.
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("results.json"), "{\"results\": 3").unwrap();
    let run = qbb(&["model", "--asm", arg(&fixture()), "--out", arg(&out)]);
    assert!(
        stderr(&run).contains("results.json` is not a results.json of `qbb compare`"),
        "{}",
        stderr(&run)
    );
    fs::remove_dir_all(&dir).unwrap();
}

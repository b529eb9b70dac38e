//! `qbb-engine bench`: the node count is a fingerprint of the search alone (the same on every
//! backend), and the binary's last line is the `N nodes M nps` that testers parse.

use std::process::{Command, Output};

use qbb::BackendKind;
use qbb_engine::bench::{self, PositionOutcome};

/// Every position's nodes and best move at `depth` on `backend`, and the total.
fn bench_on(backend: BackendKind, depth: u32) -> (Vec<(u64, Option<String>)>, u64) {
    let mut each = Vec::new();
    let summary = bench::run(backend, depth, true, &mut |o: &PositionOutcome| {
        each.push((o.nodes, o.best_move.clone()));
    })
    .unwrap_or_else(|e| panic!("bench on {backend}: {e}"));
    (each, summary.nodes)
}

#[test]
fn the_node_count_is_the_same_on_scalar_and_the_best_backend() {
    let best = BackendKind::detect_best();
    let (scalar, scalar_total) = bench_on(BackendKind::Scalar, 5);
    let (fast, fast_total) = bench_on(best, 5);
    assert_eq!(scalar.len(), bench::POSITIONS.len());
    assert_eq!(scalar, fast, "scalar against {best}, position by position");
    assert_eq!(scalar_total, fast_total);
    assert_eq!(scalar_total, scalar.iter().map(|(n, _)| n).sum::<u64>());
    assert!(scalar.iter().all(|(n, mv)| *n > 0 && mv.is_some()));
    // And the same again: nothing carries over from one run to the next.
    assert_eq!(bench_on(best, 5).1, fast_total);
}

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qbb-engine"))
        .args(args)
        .env_remove("QBB_BACKEND")
        .output()
        .expect("the engine runs")
}

fn stdout_lines(output: &Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(String::from)
        .collect()
}

/// `N nodes M nps`, as a tester reads it: exactly four words, two of them numbers.
fn parse_summary(line: &str) -> Option<(u64, u64)> {
    match line.split(' ').collect::<Vec<_>>()[..] {
        [nodes, "nodes", nps, "nps"] => Some((nodes.parse().ok()?, nps.parse().ok()?)),
        _ => None,
    }
}

#[test]
fn the_binary_ends_with_the_summary_line() {
    let output = engine(&["bench", "4"]);
    assert!(output.status.success(), "{output:?}");
    let lines = stdout_lines(&output);
    let last = lines.last().expect("some output");
    let (nodes, nps) = parse_summary(last).unwrap_or_else(|| panic!("last line: {last:?}"));
    assert!(nodes > 0 && nps > 0, "{last}");
    // The count the library gives at the same depth, on the backend the binary picks.
    assert_eq!(nodes, bench_on(BackendKind::detect_best(), 4).1);
    // Only the last line has the summary's shape: a tester that takes the first match agrees.
    let summaries = lines.iter().filter(|l| parse_summary(l).is_some()).count();
    assert_eq!(summaries, 1, "{lines:?}");
    assert_eq!(lines.len(), bench::POSITIONS.len() + 1, "{lines:?}");
}

#[test]
fn bad_depths_are_refused_by_name_without_a_panic() {
    for (depth, problem) in [
        ("x", "\"x\" is not a whole number"),
        ("0", "\"0\" is not a whole number from 1"),
        ("1000", "\"1000\" is not a whole number from 1"),
    ] {
        let output = engine(&["bench", depth]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "bench {depth}: {stderr}");
        assert!(stderr.contains(problem), "bench {depth}: {stderr}");
        assert!(!stderr.contains("panicked"), "bench {depth}: {stderr}");
        assert!(output.stdout.is_empty(), "bench {depth}");
    }
}

//! The engine's search speed on every backend this CPU runs: nodes per second of a fixed-depth
//! search from a few positions, single thread, a fresh transposition table each time.
//!
//! `cargo bench -p qbb-benches --bench engine` searches every position `QBB_ENGINE_ROUNDS` times
//! (default 3), the backends interleaved within each round so that a noisy moment hurts them
//! alike, and keeps the best time of each. A command-line word filters the backends
//! (`cargo bench --bench engine -- avx2`). With `QBB_ENGINE_JSON=path` the results are also
//! written as JSON.
//!
//! Every backend searches exactly the same tree (same evaluation, same move order), so the node
//! counts must agree: the bench checks it, and the ratio of the times is the ratio of the speeds.

use std::time::{Duration, Instant};

use qbb::{Backend, BackendKind};
use qbb_benches::harness::HarnessArgs;
use qbb_engine::Position;
use qbb_engine::search::{SearchJob, Searcher};
use qbb_engine::time::Limits;

/// (name, FEN, depth): an opening, a tactical middle game, a quiet middle game, an end game.
const POSITIONS: [(&str, &str, u32); 4] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        10,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        9,
    ),
    (
        "queens gambit",
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
        9,
    ),
    (
        "rook end game",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        14,
    ),
];

const HASH_MB: usize = 16;

/// One search and its node count, timed inside the backend's feature region (the dispatch is not
/// timed).
#[inline(always)]
fn search<B: Backend>(b: B, fen: &str, depth: u32) -> (u64, Duration) {
    let mut searcher = Searcher::new(HASH_MB).expect("16 MiB for the table");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let job = SearchJob::new(Position::from_fen(fen).expect("bench FENs parse"), limits);
    let started = Instant::now();
    let result = searcher.think(b, &job, &mut |_| {});
    (result.nodes, started.elapsed())
}

struct Row {
    backend: BackendKind,
    nodes: u64,
    best: Vec<Duration>,
}

fn main() {
    let args = HarnessArgs::from_env("QBB_ENGINE_ROUNDS", 3);
    let rounds = args.rounds;
    let backends: Vec<BackendKind> = BackendKind::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .filter(|k| args.wants(&[k.name()]))
        .collect();
    if backends.is_empty() {
        args.nothing_matches("engine");
        return;
    }

    let mut rows: Vec<Row> = backends
        .iter()
        .map(|&backend| Row {
            backend,
            nodes: 0,
            best: vec![Duration::MAX; POSITIONS.len()],
        })
        .collect();
    let mut nodes_per_position = vec![None; POSITIONS.len()];
    for _ in 0..rounds {
        for (p, &(name, fen, depth)) in POSITIONS.iter().enumerate() {
            for row in &mut rows {
                let (nodes, time) = qbb::with_backend!(row.backend, |b| search(b, fen, depth))
                    .expect("available backend");
                let expected = *nodes_per_position[p].get_or_insert(nodes);
                assert_eq!(
                    nodes, expected,
                    "{}: {name} searched {nodes} nodes, another backend {expected}",
                    row.backend
                );
                row.best[p] = row.best[p].min(time);
            }
        }
    }
    for row in &mut rows {
        row.nodes = nodes_per_position.iter().map(|n| n.unwrap_or(0)).sum();
    }

    let scalar_nps = rows
        .iter()
        .find(|r| r.backend == BackendKind::Scalar)
        .map(nps);
    println!(
        "search to fixed depth, single thread, best of {rounds} rounds ({})",
        POSITIONS
            .iter()
            .map(|(n, _, d)| format!("{n} d{d}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "{:<10} {:>12} {:>10} {:>12} {:>10}",
        "backend", "nodes", "seconds", "nps", "vs scalar"
    );
    for row in &rows {
        let ratio = scalar_nps.map_or(String::from("-"), |s| format!("{:.2}x", nps(row) / s));
        println!(
            "{:<10} {:>12} {:>10.3} {:>12.0} {:>10}",
            row.backend.name(),
            row.nodes,
            total(row).as_secs_f64(),
            nps(row),
            ratio
        );
    }
    if let Ok(path) = std::env::var("QBB_ENGINE_JSON") {
        let entries: Vec<String> = rows
            .iter()
            .map(|row| {
                format!(
                    "    {{\"backend\": \"{}\", \"nodes\": {}, \"seconds\": {:.4}, \"nps\": {:.0}}}",
                    row.backend.name(),
                    row.nodes,
                    total(row).as_secs_f64(),
                    nps(row)
                )
            })
            .collect();
        let positions: Vec<String> = POSITIONS
            .iter()
            .map(|(n, f, d)| format!("    {{\"name\": \"{n}\", \"fen\": \"{f}\", \"depth\": {d}}}"))
            .collect();
        let json = format!(
            "{{\n  \"bench\": \"engine search, fixed depth, single thread\",\n  \"rounds\": {rounds},\n  \"hash_mb\": {HASH_MB},\n  \"positions\": [\n{}\n  ],\n  \"results\": [\n{}\n  ]\n}}\n",
            positions.join(",\n"),
            entries.join(",\n")
        );
        if let Err(e) = std::fs::write(&path, json) {
            eprintln!("cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
}

fn total(row: &Row) -> Duration {
    row.best.iter().sum()
}

fn nps(row: &Row) -> f64 {
    row.nodes as f64 / total(row).as_secs_f64()
}

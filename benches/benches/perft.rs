//! Perft side by side: the engine on every backend this CPU runs, cozy-chess and shakmaty, on the
//! same positions in the same run, single thread. The engine runs twice per backend: with its
//! move generator's slider attacks, checks and pins from its own tables (the default), and from
//! the backend's `slider_attacks` and `checks_and_pins` routines ("backend attacks").
//!
//! `cargo bench -p qbb-benches --bench perft` runs every case `QBB_PERFT_ROUNDS` times (default 5),
//! the runners interleaved within each round so that a noisy moment hurts them alike, and keeps the
//! best time of each: wall-clock time, and the thread's CPU time, which on a shared machine does
//! not count the time slices other processes take (the ratios are computed from it). A command-line word filters the runners or cases by name
//! (`cargo bench --bench perft -- avx2`). With `QBB_PERFT_JSON=path` the results are also written
//! as JSON.
//!
//! Bulk counting counts the last ply's moves without playing them (all three do it the same way);
//! without bulk counting every leaf move is made, its child kept observable with `black_box`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use qbb::BackendKind;
use qbb_benches::build_info;
use qbb_benches::harness::{HarnessArgs, cpu_name};
use qbb_engine::Attacks;
use shakmaty::Position as _;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Clone, Copy)]
struct Case {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    bulk: bool,
}

const CASES: [Case; 4] = [
    Case {
        name: "startpos d6 bulk",
        fen: START,
        depth: 6,
        bulk: true,
    },
    Case {
        name: "kiwipete d5 bulk",
        fen: KIWIPETE,
        depth: 5,
        bulk: true,
    },
    Case {
        name: "startpos d5 no-bulk",
        fen: START,
        depth: 5,
        bulk: false,
    },
    Case {
        name: "kiwipete d4 no-bulk",
        fen: KIWIPETE,
        depth: 4,
        bulk: false,
    },
];

#[derive(Clone, Copy, PartialEq)]
enum Runner {
    Engine(BackendKind, Attacks),
    Cozy,
    Shakmaty,
}

impl Runner {
    fn name(self) -> String {
        match self {
            Runner::Engine(kind, Attacks::Tables) => format!("qbb-engine {kind}"),
            Runner::Engine(kind, attacks) => format!("qbb-engine {kind} ({attacks} attacks)"),
            Runner::Cozy => "cozy-chess".to_string(),
            Runner::Shakmaty => "shakmaty".to_string(),
        }
    }

    /// Node count and times of one perft.
    fn run(self, case: Case) -> Timed {
        match self {
            Runner::Engine(kind, attacks) => {
                let pos = qbb_engine::Position::from_fen(case.fen).expect("bench FENs parse");
                // Timed inside the backend's feature region (the dispatch is not timed).
                qbb::with_backend!(kind, |b| {
                    timed(|| qbb_engine::perft_with(b, attacks, &pos, case.depth, case.bulk))
                })
                .expect("available backend")
            }
            Runner::Cozy => {
                let board = cozy_chess::Board::from_fen(case.fen, false).expect("bench FENs parse");
                timed(|| cozy_perft(&board, case.depth, case.bulk))
            }
            Runner::Shakmaty => {
                let pos: shakmaty::Chess = shakmaty::fen::Fen::from_ascii(case.fen.as_bytes())
                    .expect("bench FENs parse")
                    .into_position(shakmaty::CastlingMode::Standard)
                    .expect("bench FENs are legal");
                timed(|| {
                    if case.bulk {
                        shakmaty::perft(&pos, case.depth)
                    } else {
                        shakmaty_perft_no_bulk(&pos, case.depth)
                    }
                })
            }
        }
    }
}

/// A perft's node count, wall-clock time and thread CPU time.
#[derive(Clone, Copy)]
struct Timed {
    nodes: u64,
    wall: Duration,
    cpu: Duration,
}

fn timed(f: impl FnOnce() -> u64) -> Timed {
    let cpu = cpu_time::ThreadTime::now();
    let wall = Instant::now();
    let nodes = f();
    Timed {
        nodes,
        wall: wall.elapsed(),
        cpu: cpu.elapsed(),
    }
}

fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64() / 1e6
}

fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if bulk && depth == 1 {
            nodes += moves.len() as u64;
        } else {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += if depth == 1 {
                    black_box(&child);
                    1
                } else {
                    cozy_perft(&child, depth - 1, bulk)
                };
            }
        }
        false
    });
    nodes
}

fn shakmaty_perft_no_bulk(pos: &shakmaty::Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play_unchecked(mv);
            if depth == 1 {
                black_box(&child);
                1
            } else {
                shakmaty_perft_no_bulk(&child, depth - 1)
            }
        })
        .sum()
}

/// How the peers were built, which decides what the margin over them means: without
/// `-C target-cpu=...` they run baseline x86-64 code, while the engine still dispatches to the
/// CPU's best backend.
fn peers_build() -> String {
    if build_info::RUSTFLAGS.contains("target-cpu") {
        format!(
            "every crate built with RUSTFLAGS=\"{}\": the peers use this CPU's instructions too",
            build_info::RUSTFLAGS
        )
    } else {
        "every crate built for baseline x86-64: the engine dispatches to its backends, the peers \
         get no CPU extensions (RUSTFLAGS=\"-C target-cpu=native\" builds them for this CPU)"
            .to_string()
    }
}

fn main() {
    let args = HarnessArgs::from_env("QBB_PERFT_ROUNDS", 5);
    let rounds = args.rounds;
    let mut runners: Vec<Runner> = Attacks::ALL
        .into_iter()
        .flat_map(|attacks| {
            BackendKind::ALL
                .into_iter()
                .filter(|k| k.is_available())
                .map(move |kind| Runner::Engine(kind, attacks))
        })
        .collect();
    runners.extend([Runner::Cozy, Runner::Shakmaty]);
    let wanted = |case: &Case, runner: Runner| args.wants(&[case.name, &runner.name()]);
    if !CASES.iter().any(|c| runners.iter().any(|&r| wanted(c, r))) {
        args.nothing_matches("perft");
        return;
    }

    // best[case][runner]: the node count and the best wall and CPU times.
    let mut best: Vec<Vec<Option<Timed>>> = vec![vec![None; runners.len()]; CASES.len()];
    for round in 1..=rounds {
        eprintln!("round {round}/{rounds}");
        for (c, case) in CASES.iter().enumerate() {
            for (r, &runner) in runners.iter().enumerate() {
                if !wanted(case, runner) {
                    continue;
                }
                let run = runner.run(*case);
                let entry = best[c][r].get_or_insert(run);
                assert_eq!(
                    entry.nodes,
                    run.nodes,
                    "{} {}: node counts differ",
                    runner.name(),
                    case.name
                );
                entry.wall = entry.wall.min(run.wall);
                entry.cpu = entry.cpu.min(run.cpu);
            }
        }
    }

    println!(
        "perft, single thread, best of {rounds} rounds, on {}",
        cpu_name()
    );
    println!("{}", peers_build());
    println!();
    println!(
        "| case | runner | nodes | Mnps (wall) | Mnps (CPU time) | vs cozy-chess | vs shakmaty |"
    );
    println!("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
    let mut json = Vec::new();
    let cozy = runners.iter().position(|&r| r == Runner::Cozy);
    let shak = runners.iter().position(|&r| r == Runner::Shakmaty);
    for (c, case) in CASES.iter().enumerate() {
        let cpu_mnps = |r: Option<usize>| r.and_then(|r| best[c][r]).map(|t| mnps(t.nodes, t.cpu));
        for (r, runner) in runners.iter().enumerate() {
            let Some(t) = best[c][r] else {
                continue;
            };
            let (wall, cpu) = (mnps(t.nodes, t.wall), mnps(t.nodes, t.cpu));
            let ratio =
                |peer: Option<f64>| peer.map_or("-".to_string(), |p| format!("{:.2}", cpu / p));
            println!(
                "| {} | {} | {} | {wall:.1} | {cpu:.1} | {} | {} |",
                case.name,
                runner.name(),
                t.nodes,
                ratio(cpu_mnps(cozy)),
                ratio(cpu_mnps(shak)),
            );
            json.push(format!(
                "{{\"case\":\"{}\",\"runner\":\"{}\",\"nodes\":{},\"seconds\":{:.6},\
                 \"mnps\":{wall:.2},\"cpu_seconds\":{:.6},\"cpu_mnps\":{cpu:.2}}}",
                case.name,
                runner.name(),
                t.nodes,
                t.wall.as_secs_f64(),
                t.cpu.as_secs_f64()
            ));
        }
    }
    if let Ok(path) = std::env::var("QBB_PERFT_JSON") {
        let text = format!(
            "{{\"cpu\":\"{}\",\"rounds\":{rounds},\"rustflags\":\"{}\",\"results\":[\n{}\n]}}\n",
            cpu_name(),
            build_info::RUSTFLAGS.replace('"', "\\\""),
            json.join(",\n")
        );
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("cannot write {path}: {e}");
            std::process::exit(1);
        }
    }
}

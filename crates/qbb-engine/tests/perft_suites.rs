//! Perft against the published suites, on every backend this CPU runs: the node counts of
//! standard.epd, tricky.epd, random.epd and fischer.epd (each entry to the depth the test
//! chooses), the start position and Kiwipete to depth 5.
//!
//! `QBB_PERFT_MAX_DEPTH=n` caps every depth at `n` (at least 4 for the start position and
//! Kiwipete): the short run under an emulator, which is some hundred times slower.

use qbb::BackendKind;
use qbb_corpus::Suite;
use qbb_engine::{Attacks, Position, divide_on, perft_on};

/// Which entries of a suite to check, and to what depth.
#[derive(Clone, Copy)]
struct Check {
    suite: Suite,
    depth: u32,
    /// Check every `step`-th entry.
    step: usize,
    bulk: bool,
    /// Where the move generator takes its attacks, checks and pins from.
    attacks: Attacks,
}

/// The deepest perft any test runs: `QBB_PERFT_MAX_DEPTH`, or no cap.
fn max_depth() -> u32 {
    match std::env::var("QBB_PERFT_MAX_DEPTH") {
        Ok(v) => v
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("QBB_PERFT_MAX_DEPTH={v:?} is not a depth")),
        Err(_) => u32::MAX,
    }
}

/// The mismatches (`fen`, depth, expected, counted) of one check on one backend.
fn mismatches(kind: BackendKind, check: Check) -> Vec<String> {
    let mut mismatches = Vec::new();
    for entry in check.suite.entries().iter().step_by(check.step) {
        let pos = match Position::from_fen(entry.fen) {
            Ok(pos) => pos,
            Err(e) => {
                mismatches.push(format!("{}: {e}", entry.fen));
                continue;
            }
        };
        let deepest = check.depth.min(max_depth());
        for &(depth, expected) in entry.counts.iter().filter(|(d, _)| *d <= deepest) {
            let counted = perft_on(kind, check.attacks, &pos, depth, check.bulk)
                .expect("available backends run");
            if counted != expected {
                mismatches.push(format!(
                    "{} depth {depth}: expected {expected}, counted {counted}",
                    entry.fen
                ));
            }
        }
    }
    mismatches
}

fn available() -> Vec<BackendKind> {
    let kinds: Vec<_> = BackendKind::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect();
    assert!(kinds.contains(&BackendKind::Scalar));
    kinds
}

/// Runs `check` on every backend, with the move generator's attacks from the engine's tables
/// and from the backend's routines.
fn check_on_every_backend(check: Check) {
    for kind in available() {
        for attacks in Attacks::ALL {
            let check = Check { attacks, ..check };
            let mismatches = mismatches(kind, check);
            assert!(
                mismatches.is_empty(),
                "{kind}, attacks from {attacks}: {} mismatches in {}:\n{}",
                mismatches.len(),
                check.suite,
                mismatches.join("\n")
            );
        }
    }
}

#[test]
fn standard_suite_to_depth_4() {
    check_on_every_backend(Check {
        suite: Suite::Standard,
        depth: 4,
        step: 1,
        bulk: true,
        attacks: Attacks::Tables,
    });
}

#[test]
fn tricky_suite_to_depth_4() {
    check_on_every_backend(Check {
        suite: Suite::Tricky,
        depth: 4,
        step: 1,
        bulk: true,
        attacks: Attacks::Tables,
    });
}

#[test]
fn random_suite_to_depth_3() {
    check_on_every_backend(Check {
        suite: Suite::Random,
        depth: 3,
        step: 1,
        bulk: true,
        attacks: Attacks::Tables,
    });
}

#[test]
fn fischer_suite_sample_to_depth_4() {
    check_on_every_backend(Check {
        suite: Suite::Fischer,
        depth: 4,
        step: 8,
        bulk: true,
        attacks: Attacks::Tables,
    });
}

/// Without bulk counting every leaf move is made: the same counts, through make-move.
#[test]
fn standard_suite_without_bulk_counting_to_depth_3() {
    check_on_every_backend(Check {
        suite: Suite::Standard,
        depth: 3,
        step: 1,
        bulk: false,
        attacks: Attacks::Tables,
    });
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Counts of one position to a depth on the backend `kind`: whole, by divide on one and on two
/// threads, and with the move generator's attacks from the backend's routines.
fn deep(kind: BackendKind, fen: &str, depth: u32) -> [u64; 4] {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let divided = |threads| -> u64 {
        divide_on(
            kind,
            Attacks::Tables,
            &pos,
            depth,
            true,
            threads,
            &|_, _| {},
        )
        .expect("available backends run on two threads")
        .iter()
        .map(|&(_, n)| n)
        .sum()
    };
    let whole =
        |attacks| perft_on(kind, attacks, &pos, depth, true).expect("available backends run");
    [
        whole(Attacks::Tables),
        divided(1),
        divided(2),
        whole(Attacks::Backend),
    ]
}

#[test]
fn start_position_and_kiwipete_to_depth_5() {
    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    // (start position, Kiwipete) at depths 4 and 5
    let (depth, start_count, kiwipete_count) = if max_depth() >= 5 {
        (5, 4_865_609, 193_690_690)
    } else {
        (4, 197_281, 4_085_603)
    };
    for kind in available() {
        let start = deep(kind, START, depth);
        assert_eq!(start, [start_count; 4], "{kind}: start position");
        let kiwipete = deep(kind, KIWIPETE, depth);
        assert_eq!(kiwipete, [kiwipete_count; 4], "{kind}: Kiwipete");
    }
}

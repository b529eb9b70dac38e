//! `qbb-engine bench`: a fixed-depth search of a fixed set of positions, the convention engine
//! testers (OpenBench and its kin) use to fingerprint a build and to measure its speed.
//!
//! The node count is the fingerprint: a change that does not mean to change the search (a faster
//! backend, a refactoring) must leave it alone, and one that does must say its new count. So the
//! count may depend on nothing but the code: each position is searched to a depth (never to a
//! time; a depth-only search has no deadline, see [`crate::search::time::TimeBudget`]), on one thread,
//! with the transposition table and the move ordering's history cleared before it. Every backend
//! searches the same tree, so the count is also the same on every backend; only the speed
//! differs.

use std::collections::TryReserveError;
use std::time::Duration;
use std::{fmt, io, thread};

use qbb::{BackendError, BackendKind};

use crate::board::Position;
use crate::search::time::Limits;
use crate::search::{self, SEARCH_STACK_BYTES, SearchJob, Searcher};

/// The depth `bench` searches to when none is given: long enough for a stable speed, short enough
/// to run on every commit; 3.7 million nodes, about two seconds on an AMD EPYC (Zen 2) core on
/// its best backend (sse2), in a release build.
pub const DEFAULT_DEPTH: u32 = 11;

/// The depths `bench` accepts: those the search accepts.
pub const DEPTHS: std::ops::RangeInclusive<u32> = 1..=search::MAX_DEPTH;

/// The transposition table of every bench search, in MiB (OpenBench's convention).
pub const HASH_MB: usize = 16;

/// The positions, four of each kind, so that no one part of the engine decides the count alone.
pub const POSITIONS: [&str; 16] = [
    // Openings: wide, quiet trees with castling rights on both sides, where move ordering
    // (history, killers) and late move reductions do most of the work.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "rnbqkb1r/ppp2ppp/4pn2/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR w KQkq - 2 4",
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    // Middlegames: every piece type in play, pins, pawn tension and kings castled on opposite
    // sides: the evaluation's terms and the pruning margins all get a say.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    // Endgames: few pieces and deep lines, where the transposition table, the fifty-move clock
    // and the null move's zugzwang guard (no null move with pawns alone) matter.
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/8/8/4k3/8/4K3/4P3/8 w - - 0 1",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/3N4 b - - 0 1",
    // Tactics: sacrifices, mates, promotions and a root in check: the check extension, the
    // quiescence search, the exchange evaluation and mate scores.
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "5rk1/1ppb3p/p1pb4/6q1/3P1p1r/2P1R2P/PP1BQ1P1/5RKN b - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
];

/// What the search of one position gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionOutcome {
    /// Its index in [`POSITIONS`].
    pub index: usize,
    pub nodes: u64,
    pub best_move: Option<String>,
    pub elapsed: Duration,
}

impl fmt::Display for PositionOutcome {
    /// A progress line, deliberately not of the summary's `N nodes M nps` shape, so that a
    /// tester reading the output finds only one line that is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "position {:>2}/{}  nodes {:>9}  bestmove {:<5}  {:>7.3} s  {}",
            self.index + 1,
            POSITIONS.len(),
            self.nodes,
            self.best_move.as_deref().unwrap_or("(none)"),
            self.elapsed.as_secs_f64(),
            POSITIONS[self.index],
        )
    }
}

/// The whole bench: its nodes and the time spent searching them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Summary {
    /// Nodes per second, as an integer.
    pub fn nps(&self) -> u64 {
        let nanos = self.elapsed.as_nanos().max(1);
        (u128::from(self.nodes) * 1_000_000_000 / nanos) as u64
    }
}

impl fmt::Display for Summary {
    /// The line testers read: `N nodes M nps`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} nodes {} nps", self.nodes, self.nps())
    }
}

/// Why the bench could not run.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("depth {0} is out of range: expected {start} to {end}", start = DEPTHS.start(), end = DEPTHS.end())]
    Depth(u32),
    #[error("cannot allocate the transposition table: {0}")]
    Memory(#[from] TryReserveError),
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("cannot start the search thread: {0}")]
    Thread(#[from] io::Error),
}

/// Searches every position of [`POSITIONS`] to `depth` on `backend`, calling `each` after each
/// one, and returns the totals.
pub fn run(
    backend: BackendKind,
    depth: u32,
    use_nnue: bool,
    each: &mut (dyn FnMut(&PositionOutcome) + Send),
) -> Result<Summary, BenchError> {
    if !DEPTHS.contains(&depth) {
        return Err(BenchError::Depth(depth));
    }
    backend.check_available()?;
    thread::scope(|scope| {
        let searching = thread::Builder::new()
            .name("bench".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn_scoped(scope, || search_all(backend, depth, use_nnue, each))?;
        // A panic in the search is a bug: let it surface as one.
        searching
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// The body of [`run`], on a thread with room for the search's stack.
fn search_all(
    backend: BackendKind,
    depth: u32,
    use_nnue: bool,
    each: &mut dyn FnMut(&PositionOutcome),
) -> Result<Summary, BenchError> {
    let mut searcher = Searcher::new(HASH_MB)?;
    searcher.evaluator_mut().set_use_nnue(use_nnue);
    let mut summary = Summary {
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    for (index, fen) in POSITIONS.iter().enumerate() {
        let position = Position::from_fen(fen).unwrap_or_else(|e| panic!("bench FEN {fen}: {e}"));
        searcher.new_game();
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let job = SearchJob::new(position, limits);
        let result = searcher.think_on(backend, &job, &mut |_| {})?;
        let outcome = PositionOutcome {
            index,
            nodes: result.nodes,
            best_move: result.best_move,
            elapsed: job.started.elapsed(),
        };
        summary.nodes += outcome.nodes;
        summary.elapsed += outcome.elapsed;
        each(&outcome);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_legal_and_has_a_move() {
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut moves = crate::board::MoveList::new();
            pos.generate_moves(qbb::Scalar, &mut moves);
            assert!(!moves.is_empty(), "{fen} has no legal move");
        }
    }

    #[test]
    fn the_summary_line_is_nodes_then_integer_nps() {
        let summary = Summary {
            nodes: 3_000,
            elapsed: Duration::from_millis(1_500),
        };
        assert_eq!(summary.to_string(), "3000 nodes 2000 nps");
        let instant = Summary {
            nodes: 5,
            elapsed: Duration::ZERO,
        };
        assert_eq!(instant.nps(), 5_000_000_000);
    }

    #[test]
    fn a_depth_out_of_range_is_refused() {
        for depth in [0, search::MAX_DEPTH + 1] {
            let refused = run(BackendKind::Scalar, depth, true, &mut |_| {});
            assert!(matches!(refused, Err(BenchError::Depth(d)) if d == depth));
        }
    }
}

//! Perft: the number of leaf nodes of the legal move tree to a given depth, the standard test of
//! a move generator (and a measure of its speed).
//!
//! With bulk counting (the default) the last ply is not played: the leaves are counted by
//! [`Position::count_moves`], and the child of a quiet move or of a plain capture one ply above
//! them is not made either, but counted from what it shares with its siblings (`siblings.rs`).
//! Without bulk counting, every leaf move is made.
//!
//! Dispatch happens once: `perft_by` (behind [`perft`]) runs the node inside the backend's
//! feature region, and the node calls `perft_by` again for the children. The closure handed to
//! `with_features` has the same type at every level, so the region function calls itself: the
//! whole recursion is one function compiled with the backend's target features, and never
//! leaves it.
//!
//! [`perft_with`] chooses where the move generator takes its attacks, checks and pins from
//! ([`Attacks`]), once, before the recursion starts.
//!
//! A program that picks the backend at run time calls [`perft_on`] or [`divide_on`] with its
//! `BackendKind`. They are not generic: the recursion for every backend of the target is
//! compiled once, in this library, instead of again in each program and test that counts.

mod lanes;
mod siblings;

use std::hint::black_box;

use qbb::{Backend, BackendError, BackendKind};

use crate::board::attack_source::{AttackSource, Attacks, BackendAttacks, TableAttacks};
use crate::board::movegen::Generator;
use crate::board::moves::{Move, MoveList};
use crate::board::position::Position;
use lanes::{LANES, count_batch};
use siblings::Siblings;

/// Leaf nodes of the legal move tree of `pos` to `depth` plies.
#[inline(always)]
pub fn perft<B: Backend>(b: B, pos: &Position, depth: u32, bulk: bool) -> u64 {
    perft_with(b, Attacks::Tables, pos, depth, bulk)
}

/// [`perft`] with the move generator's attacks, checks and pins from `attacks`.
#[inline(always)]
pub fn perft_with<B: Backend>(
    b: B,
    attacks: Attacks,
    pos: &Position,
    depth: u32,
    bulk: bool,
) -> u64 {
    // Each combination is a function of its own: one way of counting compiles without the code
    // of the other.
    match (attacks, bulk) {
        (Attacks::Tables, true) => perft_by::<B, _, true>(b, TableAttacks, pos, depth),
        (Attacks::Tables, false) => perft_by::<B, _, false>(b, TableAttacks, pos, depth),
        (Attacks::Backend, true) => perft_by::<B, _, true>(b, BackendAttacks, pos, depth),
        (Attacks::Backend, false) => perft_by::<B, _, false>(b, BackendAttacks, pos, depth),
    }
}

/// How many children of a node one ply above the leaves are made before any is counted (bulk
/// counting): chosen by timing batches of 1, 2, 4 and 8 with `qbb perft 6` (the commit that set
/// it gives the figures); 8 was the fastest, a little ahead of 4. Timed again when the quiet
/// node got its own copy of the generator, 4, 8 and 16 came within 2 % of one another (the
/// commit that says so gives the figures). It is also the number of lanes the avx512 backend
/// counts at once (`lanes.rs`).
const CHILDREN_BATCH: usize = LANES;

// ANCHOR: perft
/// Leaf nodes of the legal move tree of `pos` to `depth` plies, attacks from `a`, the last ply
/// counted (`BULK`) or played.
#[inline(always)]
fn perft_by<B: Backend, A: AttackSource, const BULK: bool>(
    b: B,
    a: A,
    pos: &Position,
    depth: u32,
) -> u64 {
    // The node runs in a closure that must inline into the feature region: without the attribute
    // LLVM keeps the (large, recursive) body out of line, compiled without the backend's features.
    b.with_features(
        #[inline(always)]
        |b| {
            if depth == 0 {
                return 1;
            }
            if BULK && depth == 1 {
                return pos.count_moves_by(b, a);
            }
            let mut moves = MoveList::new();
            pos.generate_moves_by(b, a, &mut moves);
            if depth == 1 {
                return make_each(b, pos, &moves);
            }
            if !BULK && depth == 2 {
                // Every leaf is made, and the last two plies are one function here too: one list
                // holds each child's moves in turn, instead of a call and a new list per child.
                let mut leaves = MoveList::new();
                return moves
                    .iter()
                    .map(|&mv| {
                        let child = pos.make_move_unkeyed(b, mv);
                        child.generate_moves_by(b, a, &mut leaves);
                        make_each(b, &child, &leaves)
                    })
                    .sum();
            }
            if BULK && depth == 2 {
                // The children are counted here, in this loop, rather than each in a call of its
                // own: the last two plies are one function. The child of a quiet move or of a
                // plain capture is counted from what the children share, without being made
                // (`siblings.rs`). The others are made in batches before they are counted, so
                // that a child's count does not start at the end of its own make's chain (load
                // the move, build the delta, xor, flip) but from a board made earlier
                // (`CHILDREN_BATCH` says how it was timed).
                let g = Generator::new(b, a);
                let siblings = Siblings::new(g, pos);
                // One array for all the batches: a new one per batch cost eight copies of the
                // parent before any child was made. Its slots hold what the children share (key,
                // clocks, side), so that making a child writes only the rest.
                let mut children = [pos.unkeyed_child_slot(); CHILDREN_BATCH];
                let (mut made, mut nodes) = (0, 0);
                // A loop, not an iterator: once the count of a batch grew large, the library's
                // closures inside `map` and `sum` no longer inlined into the feature region.
                for &mv in moves.as_slice() {
                    if let Some(count) = siblings.count_quiet(g, pos, mv) {
                        nodes += count;
                        continue;
                    }
                    if let Some(count) = siblings.count_capture(g, mv) {
                        nodes += count;
                        continue;
                    }
                    pos.make_move_unkeyed_into(b, mv, &mut children[made]);
                    made += 1;
                    if made == CHILDREN_BATCH {
                        nodes += count_batch(g, &children);
                        made = 0;
                    }
                }
                return nodes + count_batch(g, &children[..made]);
            }
            moves
                .iter()
                .map(|&mv| perft_by::<B, A, BULK>(b, a, &pos.make_move_unkeyed(b, mv), depth - 1))
                .sum()
        },
    )
}
// ANCHOR_END: perft

/// Makes every move of `moves` on `pos`, each child kept observable so that the optimiser cannot
/// drop the work: perft's leaves without bulk counting. Returns how many there were.
#[inline(always)]
fn make_each<B: Backend>(b: B, pos: &Position, moves: &MoveList) -> u64 {
    for &mv in moves {
        black_box(pos.make_move_unkeyed(b, mv));
    }
    moves.len() as u64
}

/// [`perft_with`] on the backend `kind` names (an error when this CPU lacks it).
pub fn perft_on(
    kind: BackendKind,
    attacks: Attacks,
    pos: &Position,
    depth: u32,
    bulk: bool,
) -> Result<u64, BackendError> {
    qbb::with_backend!(kind, |b| perft_with(b, attacks, pos, depth, bulk))
}

/// [`divide_with_progress`] on the backend `kind` names.
pub fn divide_on(
    kind: BackendKind,
    attacks: Attacks,
    pos: &Position,
    depth: u32,
    bulk: bool,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<(Move, u64)>, PerftError> {
    let divided = qbb::with_backend!(kind, |b| {
        divide_with_progress(b, attacks, pos, depth, bulk, threads, progress)
    })??;
    Ok(divided)
}

/// Why a perft by backend kind could not run.
#[derive(Debug, thiserror::Error)]
pub enum PerftError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error(transparent)]
    Threads(#[from] ThreadError),
}

/// Why a multi-threaded perft could not start.
#[derive(Debug, thiserror::Error)]
#[error("could not start {threads} perft threads: {source}")]
pub struct ThreadError {
    threads: usize,
    source: rayon::ThreadPoolBuildError,
}

/// Perft per root move on `threads` threads (the root moves are shared out), with the move
/// generator's attacks from `attacks`, reporting `progress(done, total)` after each root move.
/// Depth 0 has no root moves.
pub fn divide_with_progress<B: Backend>(
    b: B,
    attacks: Attacks,
    pos: &Position,
    depth: u32,
    bulk: bool,
    threads: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Vec<(Move, u64)>, ThreadError> {
    let mut moves = MoveList::new();
    if depth > 0 {
        pos.generate_moves(b, &mut moves);
    }
    let total = moves.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let count = |&mv: &Move| {
        let nodes = perft_with(b, attacks, &pos.make_move(b, mv), depth - 1, bulk);
        let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        progress(finished, total);
        (mv, nodes)
    };
    if threads <= 1 {
        return Ok(moves.iter().map(count).collect());
    }
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| ThreadError { threads, source })?;
    Ok(pool.install(|| moves.as_slice().par_iter().map(count).collect()))
}

//! Perft's bulk count a batch of children at a time, each child a lane of the same vectors.
//!
//! One ply above the leaves perft makes the children it cannot count from their siblings (those
//! of captures, promotions, castling and the double pushes that give an en-passant capture:
//! `siblings.rs`) in batches of eight, and counts the moves of each.
//! Much of a count is set-wise arithmetic that is the same for every child: the piece sets from
//! the planes and, in a node with no check and no pin, the moves of the knights, sliders and
//! pawns, which need no test per piece. Counting needs no list of who goes where: a knight jump
//! in one direction takes each knight to one square, so a popcount per jump counts them all;
//! along one direction each square is reached by at most one slider (the nearest one behind it),
//! so a popcount per direction of the sliders' occluded fill counts every slider move.
//!
//! So the batch's children are laid side by side, child `i` in lane `i` of every set
//! ([`Lanes`]), and that arithmetic runs once for the batch. What differs between the children
//! stays per child: the king (its moves, castling, the checks and pins), and, for a child in
//! check, with a pinned piece or an en-passant capture, all its other moves too (the generator's
//! own [`Generator::king_moves`] and [`Generator::other_moves`]).
//!
//! The lanes are plain arrays; the compiler turns their operations into vector instructions of
//! the backend's feature region. The avx512 backend holds a batch in one register and counts the
//! bits of each lane with one instruction (`VPOPCNTDQ`); the other backends count child by child
//! ([`counts_as_lanes`] says why).

use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Shl, Shr};

use qbb::backend::scalar::piece_sets_of;
use qbb::direction::{NOT_A, NOT_AB, NOT_GH, NOT_H};
use qbb::{Backend, BackendKind, Bitboard, Direction, PieceSets};

use crate::board::attack_source::AttackSource;
use crate::board::movegen::{Counter, Generator, RANK_7, pawn_captures, pawn_pushes};
use crate::board::position::Position;
use crate::board::relative_sets::RelativeSets;

/// The children counted together: perft's batch.
pub(crate) const LANES: usize = 8;

/// One bitboard per child of the batch.
#[derive(Copy, Clone, PartialEq, Eq)]
struct Lanes([u64; LANES]);

impl Lanes {
    const ZERO: Lanes = Lanes([0; LANES]);

    #[inline(always)]
    fn splat(bb: u64) -> Lanes {
        Lanes([bb; LANES])
    }

    #[inline(always)]
    fn map(self, f: impl Fn(u64) -> u64) -> Lanes {
        Lanes(self.0.map(f))
    }

    /// Shifted towards higher squares by `n` (lower for negative `n`), what leaves the board
    /// dropped.
    #[inline(always)]
    fn shift(self, n: i32) -> Lanes {
        if n > 0 { self << n } else { self >> -n }
    }

    /// Each lane's population count.
    #[inline(always)]
    fn popcounts(self) -> Lanes {
        self.map(|bb| u64::from(bb.count_ones()))
    }
}

macro_rules! lane_wise {
    ($($trait:ident $method:ident $op:tt),*) => {$(
        impl $trait for Lanes {
            type Output = Lanes;
            #[inline(always)]
            fn $method(self, other: Lanes) -> Lanes {
                Lanes(std::array::from_fn(|i| self.0[i] $op other.0[i]))
            }
        }
    )*};
}

lane_wise!(BitAnd bitand &, BitOr bitor |, BitXor bitxor ^, Add add +);

impl Shl<i32> for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn shl(self, n: i32) -> Lanes {
        self.map(|bb| bb << n)
    }
}

impl Shr<i32> for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn shr(self, n: i32) -> Lanes {
        self.map(|bb| bb >> n)
    }
}

impl Bitboard for Lanes {}

/// The same set in every lane.
impl From<u64> for Lanes {
    #[inline(always)]
    fn from(bb: u64) -> Lanes {
        Lanes::splat(bb)
    }
}

impl Not for Lanes {
    type Output = Lanes;
    #[inline(always)]
    fn not(self) -> Lanes {
        self.map(|bb| !bb)
    }
}

/// The piece sets of the batch's children: the scalar reference's formulas (catalogue row 3)
/// run on the lanes, once for the batch.
struct LaneSets(PieceSets<Lanes>);

impl LaneSets {
    /// The sets of `children`'s quads; lanes past the last child are empty boards.
    #[inline(always)]
    fn new(children: &[Position]) -> LaneSets {
        LaneSets(piece_sets_of(std::array::from_fn(|p| {
            Lanes(std::array::from_fn(|i| {
                children.get(i).map_or(0, |child| child.quad.bb[p])
            }))
        })))
    }

    /// Child `i`'s sets, named from its side.
    #[inline(always)]
    fn child(&self, i: usize) -> RelativeSets {
        let sets = &self.0;
        RelativeSets::of(PieceSets {
            black: sets.black.0[i],
            white: sets.white.0[i],
            occupied: sets.occupied.0[i],
            odd: sets.odd.0[i],
            pawns: sets.pawns.0[i],
            knights: sets.knights.0[i],
            bishops: sets.bishops.0[i],
            rooks: sets.rooks.0[i],
            queens: sets.queens.0[i],
            kings: sets.kings.0[i],
        })
    }

    // ANCHOR: free_moves
    /// The moves of the knights, sliders and pawns of the lanes in `free` (whose nodes have no
    /// check and no pin), summed over the lanes.
    #[inline(always)]
    fn free_moves(&self, free: Lanes) -> u64 {
        let sets = &self.0;
        // Relative orientation: "black" (plane 0) is the side to move.
        let us = sets.black & sets.occupied;
        let them = sets.white;
        let targets = !us;
        let empty = !sets.occupied;
        let ours = us & free;
        let mut counts = Lanes::ZERO;

        // Each jump and each direction written out: as loops over a table, the compiler kept
        // the loops, with each pass's shift read at run time.
        let knights = sets.knights & ours;
        counts = counts
            + jump(knights, 17, NOT_A, targets)
            + jump(knights, 15, NOT_H, targets)
            + jump(knights, 10, NOT_AB, targets)
            + jump(knights, 6, NOT_GH, targets)
            + jump(knights, -6, NOT_AB, targets)
            + jump(knights, -10, NOT_GH, targets)
            + jump(knights, -15, NOT_A, targets)
            + jump(knights, -17, NOT_H, targets);

        let orth = (sets.rooks | sets.queens) & ours;
        let diag = (sets.bishops | sets.queens) & ours;
        counts = counts
            + slide(orth, empty, Direction::North, targets)
            + slide(orth, empty, Direction::East, targets)
            + slide(orth, empty, Direction::South, targets)
            + slide(orth, empty, Direction::West, targets)
            + slide(diag, empty, Direction::NorthEast, targets)
            + slide(diag, empty, Direction::SouthEast, targets)
            + slide(diag, empty, Direction::SouthWest, targets)
            + slide(diag, empty, Direction::NorthWest, targets);

        // Pawns as the generator's `pawn_moves` takes them: those on the seventh rank promote,
        // four moves per square.
        let pawns = sets.pawns & ours;
        let (pawns, promoting) = (pawns & Lanes::splat(!RANK_7), pawns & Lanes::splat(RANK_7));
        let (push, double) = pawn_pushes(pawns, empty);
        let (west, east) = pawn_captures(pawns, them);
        counts = counts + push.popcounts() + double.popcounts();
        counts = counts + west.popcounts() + east.popcounts();
        if promoting != Lanes::ZERO {
            let (push, _) = pawn_pushes(promoting, empty);
            let (west, east) = pawn_captures(promoting, them);
            let promotions = push.popcounts() + west.popcounts() + east.popcounts();
            counts = counts + promotions + promotions + promotions + promotions;
        }
        counts.0.iter().sum()
    }
    // ANCHOR_END: free_moves
}

/// How many of `targets` the `knights` reach with the jump that shifts a square's index by
/// `shift` and may land on `lands`, per lane.
#[inline(always)]
fn jump(knights: Lanes, shift: i32, lands: u64, targets: Lanes) -> Lanes {
    (knights.shift(shift) & Lanes::splat(lands) & targets).popcounts()
}

/// How many of `targets` the `sliders` reach in direction `dir`, per lane, `empty` letting them
/// through: the Kogge-Stone occluded fill of the scalar reference (`occluded_fill`), lane by
/// lane, then one step more. Each square is reached by the nearest slider behind it alone.
#[inline(always)]
fn slide(sliders: Lanes, empty: Lanes, dir: Direction, targets: Lanes) -> Lanes {
    let step = dir.delta();
    let wrap = Lanes::splat(dir.wrap_mask());
    let mut fill = sliders;
    let mut pro = empty & wrap;
    fill = fill | (pro & fill.shift(step));
    pro = pro & pro.shift(step);
    fill = fill | (pro & fill.shift(2 * step));
    pro = pro & pro.shift(2 * step);
    fill = fill | (pro & fill.shift(4 * step));
    (fill.shift(step) & wrap & targets).popcounts()
}

/// Whether backend `B` counts a batch as lanes ([`count_batch`]). With AVX-512 the batch's eight
/// lanes are one register and `VPOPCNTDQ` counts the bits of each in one instruction. With AVX2
/// a lane set is two registers and its popcount fourteen instructions (per register, a lookup of
/// each nibble's count and a sum of the bytes): the batch ran more instructions than counting
/// each child on its own (the commit that chose this gives the counts), so narrower backends
/// count child by child.
const fn counts_as_lanes<B: Backend>() -> bool {
    matches!(B::KIND, BackendKind::Avx512)
}

/// The number of legal moves of each of `children` (at most [`LANES`]), summed: perft's bulk
/// count of a batch, with checks and pins from `a`.
#[inline(always)]
pub(crate) fn count_batch<B: Backend, A: AttackSource>(
    g: Generator<'_, B, A>,
    children: &[Position],
) -> u64 {
    let Generator { b, a, .. } = g;
    if !counts_as_lanes::<B>() {
        let mut nodes = 0;
        for child in children {
            nodes += child.count_moves_by(b, a);
        }
        return nodes;
    }
    debug_assert!(children.len() <= LANES);
    let sets = LaneSets::new(children);
    let mut counter = Counter(0);
    let mut free = Lanes::ZERO;
    for (i, child) in children.iter().enumerate() {
        let board = sets.child(i);
        let node = g.king_moves::<_, false>(child, &board, &mut counter);
        if node.is_free() && child.en_passant().is_none() {
            free.0[i] = !0;
        } else {
            g.other_moves::<_, false>(child, &board, &node, &mut counter);
        }
    }
    counter.0 + sets.free_moves(free)
}

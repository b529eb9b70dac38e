//! From the four planes to sets of squares: the article's disjoint piece sets and the sixteen
//! code sets.

use crate::quad::Quad;
use crate::repr::{Bitboard, HexSets, PieceSets};

// ANCHOR: piece_sets
#[inline]
pub(super) fn piece_sets(quad: &Quad) -> PieceSets {
    piece_sets_of(quad.bb)
}

/// The formulas of [`PieceSets`] on four planes of any type of bitboard: `u64` here, the engine's
/// lanes of eight boards in its perft.
#[inline(always)]
pub fn piece_sets_of<T: Bitboard>([bb0, bb1, bb2, bb3]: [T; 4]) -> PieceSets<T> {
    let occupied = bb1 | bb2 | bb3;
    let odd = bb1 ^ bb2 ^ bb3; // pawn or knight or rook
    PieceSets {
        black: bb0,
        white: bb0 ^ occupied,
        occupied,
        odd,
        pawns: odd & bb1,
        knights: odd & bb2,
        bishops: bb1 & bb2,
        rooks: odd & bb3,
        queens: bb1 & bb3,
        kings: bb2 & bb3,
    }
}
// ANCHOR_END: piece_sets

// ANCHOR: hex_sets
#[inline]
pub(super) fn hex_sets(quad: &Quad) -> HexSets {
    let mut out = HexSets::default();
    for (code, set) in out.0.iter_mut().enumerate() {
        // A square is in set `code` when every plane agrees with the corresponding bit.
        *set = (0..4).fold(!0u64, |acc, plane| {
            let bb = quad.bb[plane];
            acc & if code >> plane & 1 != 0 { bb } else { !bb }
        });
    }
    out
}
// ANCHOR_END: hex_sets

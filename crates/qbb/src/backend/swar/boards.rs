//! The other representations from the planes and back: the classical board from the sixteen code
//! sets, and the denser 2 + 6 board straight from the planes.

use super::sets::{hex_sets, pair_sets};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

// ANCHOR: classical
/// The twelve piece codes 2..=13 of the hex tree; `bb[colour * 6 + type - 1]` holds code
/// `type << 1 | colour`.
#[inline]
pub(super) fn to_classical(quad: &Quad) -> ClassicalBoard {
    let hex = hex_sets(quad);
    ClassicalBoard {
        bb: std::array::from_fn(|i| hex.0[2 * (i % 6 + 1) + i / 6]),
    }
}

/// Each colour's pair of sets is merged once into a type set; a plane is then the union of the
/// three types that have its bit (17 ORs instead of 20).
#[inline]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    let [wp, wn, wb, wr, wq, wk, bp, bn, bb, br, bq, bk] = board.bb;
    let (p, n, b, r, q, k) = (wp | bp, wn | bn, wb | bb, wr | br, wq | bq, wk | bk);
    Quad {
        bb: [bp | bn | bb | br | bq | bk, p | b | q, n | b | k, r | q | k],
    }
}
// ANCHOR_END: classical

// ANCHOR: dense
/// Straight from the planes, without the sixteen sets: a type is one combination of planes 3:2
/// and plane 1 (the colour plane 0 is ignored), and the pieces are the squares of some type
/// (occupied, but not type 7).
#[inline]
pub(super) fn to_dense(quad: &Quad) -> DenseBoard {
    let [colour, t1, t2, t3] = quad.bb;
    let high = pair_sets(t2, t3);
    let typed = (t1 | t2 | t3) & !(high[3] & t1);
    DenseBoard {
        bb: [
            typed & !colour,
            typed & colour,
            high[0] & t1,  // 001 pawn
            high[1] & !t1, // 010 knight
            high[1] & t1,  // 011 bishop
            high[2] & !t1, // 100 rook
            high[2] & t1,  // 101 queen
            high[3] & !t1, // 110 king
        ],
    }
}

/// A plane is the union of the three types that have its bit, and the pieces are the union of the
/// three planes (2 ORs, where the six types take 5).
#[inline]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    let [_, black, p, n, b, r, q, k] = board.bb;
    let planes = [p | b | q, n | b | k, r | q | k];
    let typed = planes[0] | planes[1] | planes[2];
    Quad {
        bb: [black & typed, planes[0], planes[1], planes[2]],
    }
}
// ANCHOR_END: dense

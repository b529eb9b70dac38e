//! From the four planes to sets of squares: the sixteen code sets, the classical board and the
//! denser 2 + 6 board, and back.

use crate::repr::{ClassicalBoard, DenseBoard, HexSets};

// ANCHOR: hex_sets
/// The four ways two planes can agree on a square, indexed by the two bits: `[!y & !x, !y & x,
/// y & !x, y & x]`.
#[inline(always)]
fn pair_sets(x: u64, y: u64) -> [u64; 4] {
    let (nx, ny) = (!x, !y);
    [ny & nx, ny & x, y & nx, y & x]
}

/// The article's `quad2hexBB` tree: the four combinations of planes 1:0 and the four of planes
/// 3:2 (8 ANDs), then one AND per code (16 more) instead of three per code.
#[inline]
pub fn hex_sets(planes: &[u64; 4]) -> HexSets {
    let low = pair_sets(planes[0], planes[1]);
    let high = pair_sets(planes[2], planes[3]);
    HexSets(std::array::from_fn(|code| high[code >> 2] & low[code & 3]))
}
// ANCHOR_END: hex_sets

// ANCHOR: classical
/// The twelve piece codes 2..=13 of the hex tree; `bb[colour * 6 + type - 1]` holds code
/// `type << 1 | colour`.
#[inline]
pub fn to_classical(planes: &[u64; 4]) -> ClassicalBoard {
    let hex = hex_sets(planes);
    ClassicalBoard {
        bb: std::array::from_fn(|i| hex.0[2 * (i % 6 + 1) + i / 6]),
    }
}

/// Each colour's pair of sets is merged once into a type set; a plane is then the union of the
/// three types that have its bit (17 ORs instead of 20).
#[inline]
pub fn from_classical(board: &ClassicalBoard) -> [u64; 4] {
    let [wp, wn, wb, wr, wq, wk, bp, bn, bb, br, bq, bk] = board.bb;
    let (p, n, b, r, q, k) = (wp | bp, wn | bn, wb | bb, wr | br, wq | bq, wk | bk);
    [bp | bn | bb | br | bq | bk, p | b | q, n | b | k, r | q | k]
}
// ANCHOR_END: classical

// ANCHOR: dense
/// Straight from the planes, without the sixteen sets: a type is one combination of planes 3:2
/// and plane 1 (the colour plane 0 is ignored), and the pieces are the squares of some type
/// (occupied, but not type 7).
#[inline]
pub fn to_dense(planes: &[u64; 4]) -> DenseBoard {
    let [colour, t1, t2, t3] = *planes;
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
pub fn from_dense(board: &DenseBoard) -> [u64; 4] {
    let [_, black, p, n, b, r, q, k] = board.bb;
    let planes = [p | b | q, n | b | k, r | q | k];
    let typed = planes[0] | planes[1] | planes[2];
    [black & typed, planes[0], planes[1], planes[2]]
}
// ANCHOR_END: dense

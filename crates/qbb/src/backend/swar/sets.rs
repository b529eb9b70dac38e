//! From the four planes to sets of squares: the sixteen code sets of `quad2hexBB` (the disjoint
//! piece sets are scalar's, see mod.rs).

use crate::quad::Quad;
use crate::repr::HexSets;

// ANCHOR: hex_sets
/// The four ways two planes can agree on a square, indexed by the two bits: `[!y & !x, !y & x,
/// y & !x, y & x]`.
#[inline(always)]
pub(super) fn pair_sets(x: u64, y: u64) -> [u64; 4] {
    let (nx, ny) = (!x, !y);
    [ny & nx, ny & x, y & nx, y & x]
}

/// The article's `quad2hexBB` tree: the four combinations of planes 1:0 and the four of planes
/// 3:2 (8 ANDs), then one AND per code (16 more) instead of three per code.
#[inline]
pub(super) fn hex_sets(quad: &Quad) -> HexSets {
    let low = pair_sets(quad.bb[0], quad.bb[1]);
    let high = pair_sets(quad.bb[2], quad.bb[3]);
    HexSets(std::array::from_fn(|code| high[code >> 2] & low[code & 3]))
}
// ANCHOR_END: hex_sets

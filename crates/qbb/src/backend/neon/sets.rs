//! From the four planes to sets of squares: the sixteen code sets of `quad2hexBB`, two per
//! instruction; the disjoint piece sets come from swar (see mod.rs).

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::{cast, load, pair};
use crate::quad::Quad;
use crate::repr::HexSets;

// ANCHOR: hex_sets
/// The four ways two planes `[x, y]` can agree on a square, two registers of two sets:
/// `[!y & !x, !y & x]` and `[y & !x, y & x]`. `[!x, x]` is the register xor `[!0, 0]`; `bic`
/// (and-not) and `and` with `y` in both lanes do the rest.
#[inline]
#[features(neon)]
fn pair_sets(planes: uint64x2_t) -> [uint64x2_t; 2] {
    let x = vdupq_laneq_u64::<0>(planes);
    let y = vdupq_laneq_u64::<1>(planes);
    let not_x_x = veorq_u64(x, pair(!0, 0));
    [vbicq_u64(not_x_x, y), vandq_u64(not_x_x, y)]
}

/// The article's tree: the four combinations of planes 1:0 in two registers, and each of the four
/// of planes 3:2 broadcast and ANDed with both: 8 ANDs make the 16 sets, in code order.
#[inline]
#[features(neon)]
pub(super) fn hex_sets(quad: &Quad) -> HexSets {
    let [low_planes, high_planes] = load(quad);
    let low = pair_sets(low_planes);
    let [h01, h23] = pair_sets(high_planes);
    let high = [
        vdupq_laneq_u64::<0>(h01),
        vdupq_laneq_u64::<1>(h01),
        vdupq_laneq_u64::<0>(h23),
        vdupq_laneq_u64::<1>(h23),
    ];
    let sets: [uint64x2_t; 8] = std::array::from_fn(|i| vandq_u64(high[i / 2], low[i % 2]));
    HexSets(cast(sets))
}
// ANCHOR_END: hex_sets

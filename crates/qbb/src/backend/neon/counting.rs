//! Counting: population counts of eight sets, weighted and summed, with NEON's byte popcount.

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::cast;

// ANCHOR: weighted_popcount
/// `cnt` counts the bits of each of the 64 bytes; `uaddlp` adds neighbouring bytes into 16-bit
/// lanes (four per set) and two rounds of `addp` finish each set's count, the eight counts in set
/// order in one register. A widening multiply (`smull`, `smlal2`) weights them into 32-bit lanes
/// and `addv` sums those.
#[inline]
#[features(neon)]
pub(super) fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
    let bytes: [uint8x16_t; 4] = cast(*sets);
    let quarters = bytes.map(|b| vpaddlq_u8(vcntq_u8(b)));
    let halves = [
        vpaddq_u16(quarters[0], quarters[1]),
        vpaddq_u16(quarters[2], quarters[3]),
    ];
    let counts = vreinterpretq_s16_u16(vpaddq_u16(halves[0], halves[1]));
    let weights: int16x8_t = cast(*weights);
    let products = vmlal_high_s16(
        vmull_s16(vget_low_s16(counts), vget_low_s16(weights)),
        counts,
        weights,
    );
    vaddvq_s32(products)
}
// ANCHOR_END: weighted_popcount

//! Population counts of eight sets at once, weighted and summed.

use std::simd::prelude::*;

// ANCHOR: weighted_popcount
/// `popCountWeight8`: eight lane-wise population counts (the nibble-table `pshufb` count of
/// Mula with AVX2, `vpopcntq` with AVX-512), widened beside the weights, multiplied and summed.
#[inline]
pub(super) fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
    let counts = u64x8::from_array(*sets).count_ones().cast::<i32>();
    (counts * i16x8::from_array(*weights).cast::<i32>()).reduce_sum()
}
// ANCHOR_END: weighted_popcount

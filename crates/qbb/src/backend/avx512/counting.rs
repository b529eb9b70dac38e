//! Counting: `vpopcntq` counts eight sets at once, and `vpmaddwd` weighs and adds them.

use crate::backend::features;
use core::arch::x86_64::*;

// ANCHOR: weighted_popcount
/// `popCountWeight8` without the bit tricks: `vpopcntq` counts all eight sets, `vpmovqw` narrows
/// the counts (at most 64) to 16 bits, and `vpmaddwd` multiplies them by the weights and adds
/// pairs (at most 2 * 64 * 32768 in magnitude, far from overflowing 32 bits); two more adds
/// finish the sum.
#[inline]
#[features(avx512)]
pub(super) fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
    // SAFETY: the unaligned loads read the 64 bytes of `sets` and the 16 bytes of `weights`.
    let (sets, weights) = unsafe {
        (
            _mm512_loadu_si512(sets.as_ptr().cast()),
            _mm_loadu_si128(weights.as_ptr().cast()),
        )
    };
    let counts = _mm512_cvtepi64_epi16(_mm512_popcnt_epi64(sets));
    let pairs = _mm_madd_epi16(counts, weights);
    let fours = _mm_add_epi32(pairs, _mm_unpackhi_epi64(pairs, pairs));
    let all = _mm_add_epi32(fours, _mm_shuffle_epi32::<0b01>(fours));
    _mm_cvtsi128_si32(all)
}
// ANCHOR_END: weighted_popcount

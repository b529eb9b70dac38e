//! The article's `popCountWeight8`: eight population counts and their weighted sum.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::cast;

// ANCHOR: weighted_popcount
/// The count of each byte, by Mula's nibble lookup: `pshufb` (SSSE3) looks up the counts of the
/// sixteen low nibbles in a 16-entry table, then those of the high nibbles. It replaces the
/// article's three SWAR steps (two masks, shifts and adds each) by two lookups and one add.
#[inline]
#[features(sse2)]
fn byte_counts(v: __m128i) -> __m128i {
    let table = _mm_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    let nibble = _mm_set1_epi8(0x0F);
    let low = _mm_and_si128(v, nibble);
    let high = _mm_and_si128(_mm_srli_epi16::<4>(v), nibble);
    _mm_add_epi8(_mm_shuffle_epi8(table, low), _mm_shuffle_epi8(table, high))
}

/// Then as the article: `psadbw` against zero adds the eight byte counts of each set, two
/// `packsswb` bring the eight counts into eight 16-bit words in set order, `pmaddwd` multiplies
/// them by the weights and adds pairs, and two shifted adds sum the four 32-bit partials.
#[inline]
#[features(sse2)]
pub(super) fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
    let [v, w, x, y]: [__m128i; 4] = cast(*sets);
    let zero = _mm_setzero_si128();
    let counts = |a: __m128i| _mm_sad_epu8(byte_counts(a), zero);
    let vw = _mm_packs_epi16(counts(v), counts(w));
    let xy = _mm_packs_epi16(counts(x), counts(y));
    let sums = _mm_madd_epi16(_mm_packs_epi16(vw, xy), cast(*weights));
    let sums = _mm_add_epi32(sums, _mm_srli_si128::<4>(sums));
    let sums = _mm_add_epi32(sums, _mm_srli_si128::<8>(sums));
    _mm_cvtsi128_si32(sums)
}
// ANCHOR_END: weighted_popcount

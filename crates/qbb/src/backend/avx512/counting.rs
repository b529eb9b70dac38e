//! Counting and nibble arithmetic: `vpopcntq` counts eight sets at once, `vpternlogq` merges the
//! masking steps of the SWAR nibble formulas.

use crate::backend::features;
use core::arch::x86_64::*;

use super::vector::{A, B, C};
use crate::repr::NibbleBoard;

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

// ANCHOR: nibble_arith
/// The high bit of every nibble.
const HIGH: i8 = 0x88u8 as i8;

/// A nibble board in one 256-bit register.
#[inline]
#[features(avx512)]
fn load(board: &NibbleBoard) -> __m256i {
    // SAFETY: a `NibbleBoard` is 32 bytes aligned to 32: one aligned load.
    unsafe { _mm256_load_si256(board.0.as_ptr().cast()) }
}

#[inline]
#[features(avx512)]
fn store(nibbles: __m256i) -> NibbleBoard {
    let mut out = NibbleBoard::default();
    // SAFETY: a `NibbleBoard` is 32 bytes aligned to 32: one aligned store.
    unsafe { _mm256_store_si256(out.0.as_mut_ptr().cast(), nibbles) };
    out
}

/// The Nibble article's SWAR add: add the low three bits of every nibble (no carry can leave a
/// nibble), then put the high bits back by xor, `sum ^ ((a ^ b) & H)` in one `vpternlogq`.
#[inline]
#[features(avx512)]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b, high) = (load(a), load(b), _mm256_set1_epi8(HIGH));
    let low_sum = _mm256_add_epi64(_mm256_andnot_si256(high, a), _mm256_andnot_si256(high, b));
    let high_bits = _mm256_ternarylogic_epi64::<{ (A ^ B) & C }>(a, b, high);
    store(_mm256_xor_si256(low_sum, high_bits))
}

/// The SWAR subtraction: set every minuend's high bit so that no borrow leaves a nibble, subtract
/// the low three bits, then fix the high bit by xor with `!(a ^ b) & H`.
#[inline]
#[features(avx512)]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b, high) = (load(a), load(b), _mm256_set1_epi8(HIGH));
    let difference = _mm256_sub_epi64(_mm256_or_si256(a, high), _mm256_andnot_si256(high, b));
    let high_bits = _mm256_ternarylogic_epi64::<{ !(A ^ B) & C }>(a, b, high);
    store(_mm256_xor_si256(difference, high_bits))
}

/// The average rounded down, `(a & b) + ((a ^ b) >> 1)`: the shift lets each nibble's low bit
/// fall into its neighbour's high bit, which the mask `0x77` clears; the sum is at most 15, so
/// no carry leaves a nibble.
#[inline]
#[features(avx512)]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b) = (load(a), load(b));
    let half_difference = _mm256_srli_epi64::<1>(_mm256_xor_si256(a, b));
    let halves = _mm256_and_si256(half_difference, _mm256_set1_epi8(0x77));
    store(_mm256_add_epi64(_mm256_and_si256(a, b), halves))
}
// ANCHOR_END: nibble_arith

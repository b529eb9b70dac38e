//! Hashing a quad from scratch: Manino's multiplicative hash four planes at a time, and Zobrist
//! with table gathers.

use std::arch::x86_64::*;

use super::lanes::{from_u64s, load, xor_lanes};
use super::mailbox::to_mailbox;
use crate::hash::{MANINO_A, MANINO_B, MANINO_C, ZOBRIST};
use crate::quad::Quad;

// ANCHOR: hash
/// `half * k` modulo 2^64 for a 32-bit `half` in the low half of each lane and a 64-bit constant
/// per lane. `vpmuludq` multiplies 32 x 32 -> 64 bits, so the product is
/// `half * lo32(k) + (half * hi32(k) << 32)`: the high half of the constant only matters for the
/// low 32 bits of its partial product.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn mul_64_by_32(half: __m256i, k: [u64; 4]) -> __m256i {
    let low = _mm256_mul_epu32(half, from_u64s(k));
    let high = _mm256_mul_epu32(half, from_u64s(k.map(|x| x >> 32)));
    _mm256_add_epi64(low, _mm256_slli_epi64::<32>(high))
}

/// Manino's hash: the eight products of the four planes' halves in two registers (`vpmuludq`
/// reads the low 32 bits of each lane, so the low halves need no masking and the high halves one
/// shift), xor-ed together and folded.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(super) fn hash_manino(quad: &Quad, state: u64) -> u64 {
    let q = load(quad);
    let low = mul_64_by_32(q, MANINO_A);
    let high = mul_64_by_32(_mm256_srli_epi64::<32>(q), MANINO_B);
    state.wrapping_mul(MANINO_C) ^ xor_lanes(_mm256_xor_si256(low, high))
}

/// Zobrist by gathers: the mailbox gives each square's code, `code * 64 + square` indexes
/// `ZOBRIST` (empty squares read the all-zero row), and `vpgatherdq` fetches four keys per
/// instruction: 16 gathers, no branches, whatever the number of pieces.
#[inline]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
pub(super) fn hash_zobrist(quad: &Quad) -> u64 {
    let mailbox = to_mailbox(quad);
    let table = ZOBRIST.as_ptr().cast::<i64>();
    let mut keys = _mm256_setzero_si256();
    for (group, codes) in mailbox.0.chunks_exact(8).enumerate() {
        let codes = u64::from_le_bytes(codes.try_into().expect("chunks of 8"));
        let squares = _mm256_add_epi32(
            _mm256_set1_epi32(8 * group as i32),
            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        );
        let codes = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(codes as i64));
        let index = _mm256_add_epi32(_mm256_slli_epi32::<6>(codes), squares);
        // SAFETY: every index is code * 64 + square with code < 16 and square < 64, inside the
        // 16 x 64 keys of `ZOBRIST`.
        let (first, second) = unsafe {
            (
                _mm256_i32gather_epi64::<8>(table, _mm256_castsi256_si128(index)),
                _mm256_i32gather_epi64::<8>(table, _mm256_extracti128_si256::<1>(index)),
            )
        };
        keys = _mm256_xor_si256(keys, _mm256_xor_si256(first, second));
    }
    xor_lanes(keys)
}
// ANCHOR_END: hash

//! Hashing a quad from scratch: Manino's multiplies two planes at a time with `pmuludq`; Zobrist
//! comes from the swar backend (no gather before AVX2, see mod.rs).

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, load, pair};
use crate::hash::{MANINO_A, MANINO_B, MANINO_C};
use crate::quad::Quad;

// ANCHOR: hash
/// `lo32(bb) * K` modulo 2^64 for a 64-bit constant `K`, two planes at once: `pmuludq` multiplies
/// the low 32 bits of each lane into a full 64-bit product, so `lo32 * K = lo32 * lo32(K) +
/// (lo32 * hi32(K) << 32)`. Manino's split of each plane into 32-bit halves is exactly what
/// this instruction wants.
#[inline]
#[features(sse2)]
fn mul_low32(x: __m128i, k: __m128i) -> __m128i {
    let low = _mm_mul_epu32(x, k);
    let high = _mm_mul_epu32(x, _mm_srli_epi64::<32>(k));
    _mm_add_epi64(low, _mm_slli_epi64::<32>(high))
}

#[inline]
#[features(sse2)]
pub(super) fn hash_manino(quad: &Quad, state: u64) -> u64 {
    let planes = load(quad);
    let mut key = _mm_setzero_si128();
    for (i, plane) in planes.into_iter().enumerate() {
        let a = pair(MANINO_A[2 * i], MANINO_A[2 * i + 1]);
        let b = pair(MANINO_B[2 * i], MANINO_B[2 * i + 1]);
        let terms = _mm_xor_si128(
            mul_low32(plane, a),
            mul_low32(_mm_srli_epi64::<32>(plane), b),
        );
        key = _mm_xor_si128(key, terms);
    }
    let [k0, k1]: [u64; 2] = cast(key);
    state.wrapping_mul(MANINO_C) ^ k0 ^ k1
}
// ANCHOR_END: hash

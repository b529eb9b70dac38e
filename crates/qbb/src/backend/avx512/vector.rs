//! What every avx512 kernel needs: quads and tables into registers and back, the truth-table
//! columns that spell `vpternlogq` immediates, and lane reductions.

use crate::backend::features;
use core::arch::x86_64::*;

use crate::quad::Quad;

/// The truth-table columns of `vpternlogq`'s three operands: the immediate of any boolean function
/// of `a, b, c` is that function applied to these bytes, e.g. `A & (B | C)`.
pub(super) const A: i32 = 0xF0;
pub(super) const B: i32 = 0xCC;
pub(super) const C: i32 = 0xAA;

/// The quad in a 256-bit register, plane `p` in lane `p`.
#[inline]
#[features(avx512)]
pub(super) fn load_quad(quad: &Quad) -> __m256i {
    // SAFETY: a `Quad` is 32 bytes aligned to 32: the aligned load reads exactly its planes.
    unsafe { _mm256_load_si256(quad.bb.as_ptr().cast()) }
}

/// The quad in the low half of a 512-bit register, the high half zero.
#[inline]
#[features(avx512)]
pub(super) fn load_quad_512(quad: &Quad) -> __m512i {
    _mm512_zextsi256_si512(load_quad(quad))
}

/// Four lanes back into a quad.
#[inline]
#[features(avx512)]
pub(super) fn store_quad(planes: __m256i) -> Quad {
    let mut quad = Quad::EMPTY;
    // SAFETY: the aligned store writes exactly the 32 bytes of the quad's planes.
    unsafe { _mm256_store_si256(quad.bb.as_mut_ptr().cast(), planes) };
    quad
}

/// A table of eight 64-bit lanes as a vector (a load from the constant pool).
#[inline]
#[features(avx512)]
pub(super) fn qwords(table: &[u64; 8]) -> __m512i {
    // SAFETY: reads the 64 bytes of `table`; the unaligned load has no alignment requirement.
    unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
}

/// A table of 64 bytes as a vector.
#[inline]
#[features(avx512)]
pub(super) fn bytes(table: &[u8; 64]) -> __m512i {
    // SAFETY: reads the 64 bytes of `table`; the unaligned load has no alignment requirement.
    unsafe { _mm512_loadu_si512(table.as_ptr().cast()) }
}

/// The same bitboard in all eight lanes.
#[inline]
#[features(avx512)]
pub(super) fn splat(bb: u64) -> __m512i {
    _mm512_set1_epi64(bb as i64)
}

/// The union of the eight lanes.
#[inline]
#[features(avx512)]
pub(super) fn or_lanes(v: __m512i) -> u64 {
    _mm512_reduce_or_epi64(v) as u64
}

/// The xor of the eight lanes (Intel defines no xor reduction: fold halves, quarters, pairs).
#[inline]
#[features(avx512)]
pub(super) fn xor_lanes(v: __m512i) -> u64 {
    let four = _mm256_xor_si256(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64::<1>(v));
    let two = _mm_xor_si128(
        _mm256_castsi256_si128(four),
        _mm256_extracti128_si256::<1>(four),
    );
    let one = _mm_xor_si128(two, _mm_unpackhi_epi64(two, two));
    _mm_cvtsi128_si64(one) as u64
}

//! The quad in one register: moving the four planes in and out of a `__m256i`, and the few lane
//! operations every routine of the backend shares.

use crate::backend::features;
use std::arch::x86_64::*;
use std::mem::transmute;

use crate::quad::Quad;

/// The four planes in one register, lane `p` = plane `p`.
#[inline]
#[features(avx2)]
pub(super) fn load(quad: &Quad) -> __m256i {
    // SAFETY: `Quad` is 32 bytes aligned to 32, so one aligned 256-bit load reads exactly it.
    unsafe { _mm256_load_si256((quad as *const Quad).cast()) }
}

/// The register back as a quad.
#[inline]
#[features(avx2)]
pub(super) fn to_quad(v: __m256i) -> Quad {
    Quad { bb: to_u64s(v) }
}

/// The four lanes as integers, lane 0 first.
#[inline]
#[features(avx2)]
pub(super) fn to_u64s(v: __m256i) -> [u64; 4] {
    // SAFETY: both types are 32 bytes of plain integer data; every bit pattern is valid in each.
    unsafe { transmute::<__m256i, [u64; 4]>(v) }
}

/// Four lanes from four integers, lane 0 first (a constant pool load when they are constants).
#[inline]
#[features(avx2)]
pub(super) fn from_u64s(l: [u64; 4]) -> __m256i {
    _mm256_setr_epi64x(l[0] as i64, l[1] as i64, l[2] as i64, l[3] as i64)
}

/// 32 bytes, byte 0 first (a constant pool load when they are constants).
#[inline]
#[features(avx2)]
pub(super) fn from_bytes(b: [u8; 32]) -> __m256i {
    // SAFETY: both types are 32 bytes of plain integer data; every bit pattern is valid in each.
    unsafe { transmute::<[u8; 32], __m256i>(b) }
}

/// The same bitboard in all four lanes (`vpbroadcastq`, straight from memory when it is there).
#[inline]
#[features(avx2)]
pub(super) fn splat(bb: u64) -> __m256i {
    _mm256_set1_epi64x(bb as i64)
}

/// The same byte in all 32 byte lanes.
#[inline]
#[features(avx2)]
pub(super) fn splat8(byte: u8) -> __m256i {
    _mm256_set1_epi8(byte as i8)
}

/// The union of the four lanes: fold the upper 128 bits onto the lower, then the upper 64.
#[inline]
#[features(avx2)]
pub(super) fn or_lanes(v: __m256i) -> u64 {
    let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    _mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))) as u64
}

/// The exclusive or of the four lanes.
#[inline]
#[features(avx2)]
pub(super) fn xor_lanes(v: __m256i) -> u64 {
    let x = _mm_xor_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    _mm_cvtsi128_si64(_mm_xor_si128(x, _mm_unpackhi_epi64(x, x))) as u64
}

/// Four unions at once, `[or_lanes(a), or_lanes(b), or_lanes(c), or_lanes(d)]`: a 4x4 transpose
/// whose shuffles or the lanes together on the way (2 unpacks + 2 lane swaps instead of 4 folds).
#[inline]
#[features(avx2)]
pub(super) fn or_lanes4(a: __m256i, b: __m256i, c: __m256i, d: __m256i) -> [u64; 4] {
    // [a0|a1, b0|b1, a2|a3, b2|b3] and the same for c, d
    let ab = _mm256_or_si256(_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b));
    let cd = _mm256_or_si256(_mm256_unpacklo_epi64(c, d), _mm256_unpackhi_epi64(c, d));
    // low halves [a0|a1, b0|b1, c0|c1, d0|d1] or high halves [a2|a3, b2|b3, c2|c3, d2|d3]
    to_u64s(_mm256_or_si256(
        _mm256_permute2x128_si256::<0x20>(ab, cd),
        _mm256_permute2x128_si256::<0x31>(ab, cd),
    ))
}

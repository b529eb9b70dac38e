//! One square of the quad: read its vertical nibble, write it.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, splat, to_quad};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// The AVX2 article's vertical nibble. Shifting every plane left by `63 - sq` moves the square's
/// bit into the sign bit of its lane; `vpmovmskb` collects the signs of all 32 bytes, of which bits
/// 7, 15, 23 and 31 are the four lane signs; one multiply by `1 + 2^7 + 2^14 + 2^21` then drops
/// them side by side into the top nibble (shifted copies 7 apart cannot carry into each other).
#[inline]
#[features(avx2)]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let to_sign = _mm_cvtsi32_si128(63 ^ sq.index() as i32); // 63 - sq
    let signs = _mm256_movemask_epi8(_mm256_sll_epi64(load(quad), to_sign)) as u32;
    ((signs & 0x8080_8080).wrapping_mul(0x0020_4081) >> 28) as u8
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
/// The inverse of the vertical nibble: `pdep` deposits code bit `p` into bit 0 of byte `p` (and
/// ignores the bits above the nibble), times 255 makes each byte 0x00 or 0xFF, and `vpmovsxbq`
/// sign-extends byte `p` into lane `p`: all ones in the planes where the code has its bit.
#[inline]
#[features(avx2)]
pub(super) fn plane_masks(code: u8) -> __m256i {
    let bytes = _pdep_u32(u32::from(code), 0x0101_0101) * 0xFF;
    _mm256_cvtepi8_epi64(_mm_cvtsi32_si128(bytes as i32))
}

/// Writes a nibble with one bit select over all four planes: the code's plane masks on the
/// square's bit, the old planes everywhere else.
#[inline]
#[features(avx2)]
pub(super) fn set_piece(quad: &mut Quad, sq: Square, code: u8) {
    let square = splat(sq.bit());
    let kept = _mm256_andnot_si256(square, load(quad));
    let written = _mm256_and_si256(square, plane_masks(code));
    *quad = to_quad(_mm256_or_si256(kept, written));
}
// ANCHOR_END: set_piece

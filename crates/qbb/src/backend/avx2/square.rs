//! One square of the quad, all four planes in one register: the vertical nibble read with
//! `vpsllq` + `vpmovmskb` + one multiply, and written through a table of the codes' plane masks.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, load, splat, to_quad};
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
/// The inverse of the vertical nibble, read from a table: row `code` holds the code's four plane
/// masks, lane `p` all ones where the code has bit `p`: 512 bytes, and one load puts a row straight
/// into a vector register, where `pdep`, a multiply and `vpmovsxbq` took the code through a
/// general-purpose register first.
static PLANE_MASKS: [[u64; 4]; 16] = const_table!([0; 4], |code| [
    0u64.wrapping_sub((code & 1) as u64),
    0u64.wrapping_sub((code >> 1 & 1) as u64),
    0u64.wrapping_sub((code >> 2 & 1) as u64),
    0u64.wrapping_sub((code >> 3 & 1) as u64),
]);

/// The code's plane masks (bits above the nibble ignored); the avx512 backend's move delta reads
/// them too.
#[inline]
#[features(avx2)]
pub(in crate::backend) fn plane_masks(code: u8) -> __m256i {
    cast(PLANE_MASKS[usize::from(code & 15)])
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

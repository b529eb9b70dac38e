//! One square at a time: mask registers carry nibbles.
//!
//! A 256-bit register holds the four planes in four lanes, and an AVX-512 mask register has one bit
//! per lane; so a nibble and a lane mask are the same four bits. `vptestmq` reads a square's nibble
//! straight into a mask, and a piece code used as a write mask puts a square into exactly the
//! planes its bits select.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{load_quad, store_quad};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// The article's `getPiece` as one test: lane `p` of `vptestmq` asks "is the square's bit set in
/// plane `p`?" and writes the answer to bit `p` of a mask register, which is then the nibble.
#[inline]
#[features(avx512)]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let square = _mm256_set1_epi64x(sq.bit() as i64);
    _mm256_test_epi64_mask(load_quad(quad), square)
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
/// Clear the square in every plane, then set it in the planes the code selects: the code's four
/// bits are the write mask of the `or`.
#[inline]
#[features(avx512)]
pub(super) fn set_piece(quad: &mut Quad, sq: Square, code: u8) {
    let square = _mm256_set1_epi64x(sq.bit() as i64);
    let cleared = _mm256_andnot_si256(square, load_quad(quad));
    *quad = store_quad(_mm256_mask_or_epi64(cleared, code & 15, cleared, square));
}
// ANCHOR_END: set_piece

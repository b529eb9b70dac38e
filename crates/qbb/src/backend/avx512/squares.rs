//! One square at a time, and the whole-quad xor updates: mask registers carry nibbles.
//!
//! A 256-bit register holds the four planes in four lanes, and an AVX-512 mask register has one bit
//! per lane; so a nibble and a lane mask are the same four bits. `vptestmq` reads a square's nibble
//! straight into a mask, and a piece code used as a write mask puts a square into exactly the
//! planes its bits select.

use crate::backend::features;
use core::arch::x86_64::*;

use super::vector::{A, B, C, load_quad, store_quad};
use crate::aspects::{MoveAspects, Special};
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

// ANCHOR: move_delta
/// One aspect of a move, `code` on `sq`, as a quad: the square's bit broadcast into the planes
/// that the code's bits select (a zero-masked broadcast with the code as the mask). Code 0 gives
/// the empty quad, so absent aspects need no branch.
#[inline]
#[features(avx512)]
fn aspect(sq: Square, code: u8) -> __m256i {
    _mm256_maskz_set1_epi64(code & 15, sq.bit() as i64)
}

/// The xor of the move's aspects, three at a time with `vpternlogq`.
#[inline]
#[features(avx512)]
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
    // Without castling the rook aspect is code 0 on any square: nothing.
    let (rook_from, rook_to, rook) = match m.special {
        Special::Castle {
            rook_from,
            rook_to,
            rook,
        } => (rook_from, rook_to, rook),
        _ => (m.from, m.from, 0),
    };
    let moved = _mm256_ternarylogic_epi64::<{ A ^ B ^ C }>(
        aspect(m.from, m.piece),
        aspect(m.to, m.landing_code()),
        aspect(m.capture_square(), m.captured),
    );
    let delta = _mm256_ternarylogic_epi64::<{ A ^ B ^ C }>(
        moved,
        aspect(rook_from, rook),
        aspect(rook_to, rook),
    );
    store_quad(delta)
}
// ANCHOR_END: move_delta

// ANCHOR: flip
/// Recolour, then mirror. The occupied set is the union of planes 1..3, built from three
/// broadcasts by one `vpternlogq`; a write mask limits the xor to plane 0; `vpshufb` reverses the
/// bytes (the ranks) of every plane at once.
#[inline]
#[features(avx512)]
pub(super) fn flip(quad: &Quad) -> Quad {
    let planes = load_quad(quad);
    let occupied = _mm256_ternarylogic_epi64::<{ A | B | C }>(
        _mm256_set1_epi64x(quad.bb[1] as i64),
        _mm256_set1_epi64x(quad.bb[2] as i64),
        _mm256_set1_epi64x(quad.bb[3] as i64),
    );
    let recoloured = _mm256_mask_xor_epi64(planes, 0b0001, planes, occupied);
    // Byte i of each 128-bit half comes from byte (i & 8) + 7 - (i & 7): a swap per 64-bit lane.
    let reverse_bytes = _mm256_set_epi8(
        8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, //
        8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7,
    );
    store_quad(_mm256_shuffle_epi8(recoloured, reverse_bytes))
}
// ANCHOR_END: flip

//! Make/unmake by xor and the colour flip, the quad in one 256-bit register: a piece code is the
//! write mask that puts a move's square into its planes, `vpternlogq` xors three aspects at once,
//! and a write mask limits the recolouring to plane 0.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{A, B, C, load_quad, store_quad};
use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;
use crate::square::Square;

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

//! Make/unmake by xor and the colour flip, the quad in one 256-bit register: `vpternlogq` puts
//! each aspect of a move into the delta in one instruction, and a write mask limits the
//! recolouring to plane 0.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{A, B, C, load_quad, store_quad};
use crate::aspects::{MoveAspects, Special};
use crate::backend::avx2::plane_masks;
use crate::quad::Quad;

// ANCHOR: move_delta
/// One aspect of a move xor-ed into `delta`: the code's plane masks (avx2's table, chapter 2) on
/// the squares' bits, `(masks & squares) ^ delta` in one `vpternlogq`. A code of 0 has all-zero
/// masks and adds nothing.
#[inline]
#[features(avx512)]
fn xor_aspect(delta: __m256i, squares: u64, code: u8) -> __m256i {
    let squares = _mm256_set1_epi64x(squares as i64);
    _mm256_ternarylogic_epi64::<{ (A & B) ^ C }>(plane_masks(code), squares, delta)
}

/// The delta of a move without branches except for castling, whose rook's two squares share one
/// code and so make one aspect (equal squares, as in Chess960, cancel).
#[inline]
#[features(avx512)]
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
    let mut delta = _mm256_setzero_si256();
    delta = xor_aspect(delta, m.from.bit(), m.piece);
    delta = xor_aspect(delta, m.to.bit(), m.landing_code());
    delta = xor_aspect(delta, m.capture_square().bit(), m.captured);
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = m.special
    {
        delta = xor_aspect(delta, rook_from.bit() ^ rook_to.bit(), rook);
    }
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

//! Make/unmake by xor and the colour flip, both on the whole quad in one register: a move's
//! aspects from `square`'s plane masks, the mirror one `vpshufb` for all four planes.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{from_bytes, from_u64s, load, splat, to_quad};
use super::square::plane_masks;
use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;

// ANCHOR: move_delta
/// One aspect of a move as a quad: the code's plane masks (one row of a table) cut down to the
/// squares' bits.
#[inline]
#[features(avx2)]
fn aspect(squares: u64, code: u8) -> __m256i {
    _mm256_and_si256(plane_masks(code), splat(squares))
}

/// The delta of a move without branches except for castling: a capture of code 0 has all-zero
/// plane masks and adds nothing, and the castling rook's two squares share one code, so their
/// bits are xor-ed first (equal squares, as in Chess960, cancel).
#[inline]
#[features(avx2)]
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
    let mut delta = _mm256_xor_si256(
        aspect(m.from.bit(), m.piece),
        aspect(m.to.bit(), m.landing_code()),
    );
    delta = _mm256_xor_si256(delta, aspect(m.capture_square().bit(), m.captured));
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = m.special
    {
        delta = _mm256_xor_si256(delta, aspect(rook_from.bit() ^ rook_to.bit(), rook));
    }
    to_quad(delta)
}
// ANCHOR_END: move_delta

// ANCHOR: flip
/// Reverses the eight bytes of each 64-bit lane (the ranks of each plane); `vpshufb` indices
/// count within each 128-bit half.
const MIRROR: [u8; 32] = const_table!(|i| ((i & 8) + 7 - (i & 7)) as u8);

/// Mirror and colour swap in one register: `vpshufb` reverses the bytes of all four planes at
/// once, then `vpermq` broadcasts planes 1, 2 and 3 so that their union (the occupied squares)
/// lands in lane 0, where it toggles the colour plane.
#[inline]
#[features(avx2)]
pub(super) fn flip(quad: &Quad) -> Quad {
    let m = _mm256_shuffle_epi8(load(quad), from_bytes(MIRROR));
    let occupied = _mm256_or_si256(
        _mm256_or_si256(
            _mm256_permute4x64_epi64::<0x55>(m),
            _mm256_permute4x64_epi64::<0xAA>(m),
        ),
        _mm256_permute4x64_epi64::<0xFF>(m),
    );
    let colour_toggle = _mm256_and_si256(occupied, from_u64s([!0, 0, 0, 0]));
    to_quad(_mm256_xor_si256(m, colour_toggle))
}
// ANCHOR_END: flip

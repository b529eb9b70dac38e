//! One square at a time, and the whole quad at once: the four planes are the four lanes of a
//! `u64x4`, so reading a nibble, writing one, building a move's delta and flipping the board each
//! touch all four planes with one vector operation.

use std::simd::prelude::*;

use super::{lanes, quad};
use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// The vertical nibble of the AVX2 article: shift the square's bit into the sign of each plane,
/// then gather the four signs (one `movmskpd` on x86) as the four bits of the code.
#[inline]
pub fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let to_sign = u64x4::splat(63 - sq.index() as u64);
    let signs = (lanes(quad) << to_sign)
        .cast::<i64>()
        .simd_lt(i64x4::splat(0));
    signs.to_bitmask() as u8
}
// ANCHOR_END: piece_at

/// The code's four bits, one per lane: lane `p` holds bit `p` of `code` in its lowest bit.
#[inline(always)]
fn code_bits(code: u8) -> u64x4 {
    const PLANE: u64x4 = u64x4::from_array([0, 1, 2, 3]);
    (u64x4::splat(u64::from(code)) >> PLANE) & u64x4::splat(1)
}

// ANCHOR: set_piece
/// Clear the square in all four planes, then shift the code's bits, one per plane, onto it.
#[inline]
pub fn set_piece(q: &mut Quad, sq: Square, code: u8) {
    let cleared = lanes(q) & u64x4::splat(!sq.bit());
    *q = quad(cleared | code_bits(code) << u64x4::splat(sq.index() as u64));
}
// ANCHOR_END: set_piece

// ANCHOR: move_delta
/// The quad whose only nibble is `code` on `sq` (all zero for code 0).
#[inline(always)]
fn aspect(sq: Square, code: u8) -> u64x4 {
    code_bits(code) << u64x4::splat(sq.index() as u64)
}

/// The xor of the move's aspects, each the code's bits shifted onto its square;
/// a missing capture has code 0 and contributes nothing, so only castling needs a branch.
#[inline]
pub fn move_delta(m: &MoveAspects) -> Quad {
    let mut delta = aspect(m.from, m.piece)
        ^ aspect(m.to, m.landing_code())
        ^ aspect(m.capture_square(), m.captured);
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = m.special
    {
        delta ^= aspect(rook_from, rook) ^ aspect(rook_to, rook);
    }
    quad(delta)
}
// ANCHOR_END: move_delta

// ANCHOR: flip
/// Byte-swap all four planes at once (one byte shuffle), then toggle the colour lane where any type
/// lane is set.
#[inline]
pub fn flip(q: &Quad) -> Quad {
    const TYPE_LANES: u64x4 = u64x4::from_array([0, !0, !0, !0]);
    const COLOUR_LANE: u64x4 = u64x4::from_array([!0, 0, 0, 0]);
    let mirrored = lanes(q).swap_bytes();
    let occupied = (mirrored & TYPE_LANES).reduce_or();
    quad(mirrored ^ (u64x4::splat(occupied) & COLOUR_LANE))
}
// ANCHOR_END: flip

//! One square: the four planes are the four lanes of a `u64x4`, so reading a nibble and writing
//! one each touch all four planes with one vector operation.

use std::simd::prelude::*;

use super::lanes::{lanes, quad};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// The vertical nibble of the AVX2 article: shift the square's bit into the sign of each plane,
/// then gather the four signs (one `movmskpd` on x86) as the four bits of the code.
#[inline]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let to_sign = u64x4::splat(63 - sq.index() as u64);
    let signs = (lanes(quad) << to_sign)
        .cast::<i64>()
        .simd_lt(i64x4::splat(0));
    signs.to_bitmask() as u8
}
// ANCHOR_END: piece_at

/// The code's four bits, one per lane: lane `p` holds bit `p` of `code` in its lowest bit.
#[inline(always)]
pub(super) fn code_bits(code: u8) -> u64x4 {
    const PLANE: u64x4 = u64x4::from_array([0, 1, 2, 3]);
    (u64x4::splat(u64::from(code)) >> PLANE) & u64x4::splat(1)
}

// ANCHOR: set_piece
/// Clear the square in all four planes, then shift the code's bits, one per plane, onto it.
#[inline]
pub(super) fn set_piece(q: &mut Quad, sq: Square, code: u8) {
    let cleared = lanes(q) & u64x4::splat(!sq.bit());
    *q = quad(cleared | code_bits(code) << u64x4::splat(sq.index() as u64));
}
// ANCHOR_END: set_piece

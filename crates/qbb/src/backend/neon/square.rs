//! One square: read its nibble, write one, with a shift count per lane (`ushl`: a negative
//! count shifts right) and the bitwise select `bsl`.

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::{counts, load, splat, to_quad};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// Each plane shifted right by the square, so its bit of the square is bit 0, then left by its
/// plane number (a count per lane: `[0, 1]` and `[2, 3]`), so the four bits sit side by side;
/// the lanes' sum (`addv`, no bit shared) is the nibble.
#[inline]
#[features(neon)]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let [low, high] = load(quad);
    let down = vdupq_n_s64(-(sq.index() as i64));
    let one = splat(1);
    let bit = |planes: uint64x2_t, up: [i64; 2]| {
        let at_zero = vandq_u64(vshlq_u64(planes, down), one);
        vshlq_u64(at_zero, counts(up))
    };
    let side_by_side = vorrq_u64(bit(low, [0, 1]), bit(high, [2, 3]));
    vaddvq_u64(side_by_side) as u8
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
/// The code broadcast and shifted right by plane number puts bit `p` of the code at bit 0 of
/// plane `p`'s lane; shifted left by the square it lands on the square, and `bsl` takes the
/// square's bit from it and every other bit from the plane.
#[inline]
#[features(neon)]
pub(super) fn set_piece(quad: &mut Quad, sq: Square, code: u8) {
    let [low, high] = load(quad);
    let code = splat(u64::from(code));
    let (square, up) = (splat(sq.bit()), vdupq_n_s64(sq.index() as i64));
    let one = splat(1);
    let place = |planes: uint64x2_t, down: [i64; 2]| {
        let bit = vandq_u64(vshlq_u64(code, counts(down)), one);
        vbslq_u64(square, vshlq_u64(bit, up), planes)
    };
    *quad = to_quad([place(low, [0, -1]), place(high, [-2, -3])]);
}
// ANCHOR_END: set_piece

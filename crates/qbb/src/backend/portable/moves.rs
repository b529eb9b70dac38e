//! Make/unmake by xor and the colour flip, on the four planes as the four lanes of a `u64x4`: a
//! move's delta and the flipped board each take a few vector operations.

use std::simd::prelude::*;

use super::lanes::{lanes, quad};
use super::square::code_bits;
use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: move_delta
/// The quad whose only nibble is `code` on `sq` (all zero for code 0).
#[inline(always)]
fn aspect(sq: Square, code: u8) -> u64x4 {
    code_bits(code) << u64x4::splat(sq.index() as u64)
}

/// The xor of the move's aspects, each the code's bits shifted onto its square;
/// a missing capture has code 0 and contributes nothing, so only castling needs a branch.
#[inline]
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
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
pub(super) fn flip(q: &Quad) -> Quad {
    const TYPE_LANES: u64x4 = u64x4::from_array([0, !0, !0, !0]);
    const COLOUR_LANE: u64x4 = u64x4::from_array([!0, 0, 0, 0]);
    let mirrored = lanes(q).swap_bytes();
    let occupied = (mirrored & TYPE_LANES).reduce_or();
    quad(mirrored ^ (u64x4::splat(occupied) & COLOUR_LANE))
}
// ANCHOR_END: flip

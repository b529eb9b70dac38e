//! Make/unmake by xor and the colour flip, a quad in two registers: each aspect of a move is a
//! unit quad shifted onto its square (`psllq`, `pxor`), and the mirror is one SSSE3 `pshufb` per
//! register.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, to_quad};
use super::square::nibble_at;
use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;

// ANCHOR: move_delta
/// The xor of the aspects' unit quads, each shifted onto its square: two `psllq` and two `pxor`
/// per aspect. A missing capture is code 0, whose unit quad is empty, so it needs no branch;
/// castling, rare and so well predicted, keeps its branch.
#[inline]
#[features(sse2)]
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
    let xor =
        |a: [__m128i; 2], b: [__m128i; 2]| [_mm_xor_si128(a[0], b[0]), _mm_xor_si128(a[1], b[1])];
    let mut delta = xor(
        nibble_at(m.from, m.piece),
        nibble_at(m.to, m.landing_code()),
    );
    delta = xor(delta, nibble_at(m.capture_square(), m.captured));
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = m.special
    {
        delta = xor(delta, nibble_at(rook_from, rook));
        delta = xor(delta, nibble_at(rook_to, rook));
    }
    to_quad(delta)
}
// ANCHOR_END: move_delta

// ANCHOR: flip
/// The mirror is a byte reversal inside each 64-bit lane, one `pshufb` (SSSE3) per register for
/// two planes; SSE2 alone would need `pshuflw`, `pshufhw` and a shift-or of the bytes. The colour
/// toggle needs the union of planes 1..3 in lane 0 only: two integer ORs and one `movq` (which
/// clears lane 1) are cheaper than folding it across the lanes.
#[inline]
#[features(sse2)]
pub(super) fn flip(quad: &Quad) -> Quad {
    let [low, high] = load(quad);
    let toggle = _mm_cvtsi64_si128(quad.occupied() as i64); // [bb1 | bb2 | bb3, 0]
    let mirror = _mm_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    to_quad([
        _mm_shuffle_epi8(_mm_xor_si128(low, toggle), mirror),
        _mm_shuffle_epi8(high, mirror),
    ])
}
// ANCHOR_END: flip

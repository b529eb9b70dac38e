//! One square's nibble, the make/unmake delta and the colour flip.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, to_quad};
use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// One shift by `63 - s` moves the square's bit of all four planes onto the sign bits of the
/// lanes; `shufps` gathers the four upper halves in plane order and `movmskps` reads the four
/// sign bits at once: the vertical nibble, with no bit handled alone.
#[inline]
#[features(sse2)]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let [low, high] = load(quad);
    let count = _mm_cvtsi32_si128(63 - sq.index() as i32);
    let low = _mm_castsi128_ps(_mm_sll_epi64(low, count));
    let high = _mm_castsi128_ps(_mm_sll_epi64(high, count));
    // [low.dword1, low.dword3, high.dword1, high.dword3]: the tops of planes 0, 1, 2, 3
    let tops = _mm_shuffle_ps::<0b11_01_11_01>(low, high);
    _mm_movemask_ps(tops) as u8
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
/// `UNIT[c]` is the quad holding code `c` on a1 and nothing else: lane `p` = bit `p` of `c`.
/// Shifted left by `s` (one `psllq` per register, both lanes by the same count) it is the code on
/// square `s`: the article's `fromTable` of aspects, 512 bytes instead of one entry per square.
static UNIT: [Quad; 16] = {
    let mut table = [Quad::EMPTY; 16];
    let mut code = 0;
    while code < 16 {
        table[code] = Quad::nibble_at(Square::A1, code as u8);
        code += 1;
    }
    table
};

/// The quad of `code & 15` on `sq`, as two registers.
#[inline]
#[features(sse2)]
fn nibble_at(sq: Square, code: u8) -> [__m128i; 2] {
    let count = _mm_cvtsi32_si128(sq.index() as i32);
    load(&UNIT[usize::from(code & 15)]).map(|unit| _mm_sll_epi64(unit, count))
}

/// Clear the square in all four planes (`pandn`), then or in the code's unit quad shifted onto it.
#[inline]
#[features(sse2)]
pub(super) fn set_piece(quad: &mut Quad, sq: Square, code: u8) {
    let square = _mm_set1_epi64x(sq.bit() as i64);
    let [low, high] = load(quad);
    let [code_low, code_high] = nibble_at(sq, code);
    *quad = to_quad([
        _mm_or_si128(_mm_andnot_si128(square, low), code_low),
        _mm_or_si128(_mm_andnot_si128(square, high), code_high),
    ]);
}
// ANCHOR_END: set_piece

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

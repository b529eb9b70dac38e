//! One square of the quad, two planes per register: the vertical nibble read with `psllq` +
//! `shufps` + `movmskps`, and written by shifting a code's one-square quad onto the square.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, to_quad};
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
static UNIT: [Quad; 16] = const_table!(Quad::EMPTY, |code| Quad::nibble_at(Square::A1, code as u8));

/// The quad of `code & 15` on `sq`, as two registers.
#[inline]
#[features(sse2)]
pub(super) fn nibble_at(sq: Square, code: u8) -> [__m128i; 2] {
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

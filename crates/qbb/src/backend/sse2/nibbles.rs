//! Nibble arithmetic: the Nibble article's SWAR formulas on 128-bit registers, 32 lanes each.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::cast;
use crate::repr::NibbleBoard;

// ANCHOR: nibble_arith
/// The two registers of each board through a lane-wise operation.
#[inline]
#[features(sse2)]
fn lanes(
    a: &NibbleBoard,
    b: &NibbleBoard,
    op: impl Fn(__m128i, __m128i) -> __m128i,
) -> NibbleBoard {
    let ([a0, a1], [b0, b1]): ([__m128i; 2], [__m128i; 2]) = (cast(a.0), cast(b.0));
    NibbleBoard(cast([op(a0, b0), op(a1, b1)]))
}

/// `z = ((x & ~H) + (y & ~H)) ^ ((x ^ y) & H)`: the low three bits add without reaching the
/// next lane, the top bit adds by xor. `paddb` also stops every carry at the byte's edge, so only
/// the low nibble's carry needs the mask.
#[inline]
#[features(sse2)]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let h = _mm_set1_epi8(0x88u8 as i8);
    lanes(a, b, |x, y| {
        let low = _mm_add_epi8(_mm_andnot_si128(h, x), _mm_andnot_si128(h, y));
        _mm_xor_si128(low, _mm_and_si128(_mm_xor_si128(x, y), h))
    })
}

/// `z = ((x | H) - (y & ~H)) ^ ((x ^ ~y) & H)`: with the top bits of `x` set and those of `y`
/// clear, no lane borrows from its neighbour.
#[inline]
#[features(sse2)]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let h = _mm_set1_epi8(0x88u8 as i8);
    lanes(a, b, |x, y| {
        let low = _mm_sub_epi8(_mm_or_si128(x, h), _mm_andnot_si128(h, y));
        _mm_xor_si128(low, _mm_andnot_si128(_mm_xor_si128(x, y), h)) // (x ^ ~y) & H
    })
}

/// `z = (x & y) + (((x ^ y) & ~L) >> 1)`; with each lane's bottom bit cleared, a 64-bit shift
/// moves no bit across a lane.
#[inline]
#[features(sse2)]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let l = _mm_set1_epi8(0x11);
    lanes(a, b, |x, y| {
        let half = _mm_srli_epi64::<1>(_mm_andnot_si128(l, _mm_xor_si128(x, y)));
        _mm_add_epi8(_mm_and_si128(x, y), half)
    })
}
// ANCHOR_END: nibble_arith

// Transitional, until the layout moves them here.
pub(super) use super::mailbox::{from_nibble_board, to_nibble_board};

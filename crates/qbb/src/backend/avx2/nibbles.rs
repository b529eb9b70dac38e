//! SWAR nibble arithmetic (the Nibble article) four 64-bit words wide: the 64 nibbles of a
//! nibble board in one register, the article's masks keeping carries and borrows inside lanes.

use crate::backend::features;
use std::arch::x86_64::*;

use crate::repr::NibbleBoard;

// ANCHOR: nibble_arith
/// The most significant bit of every nibble (the article's H) and the least (L).
const H: i64 = 0x8888_8888_8888_8888_u64 as i64;
const L: i64 = 0x1111_1111_1111_1111_u64 as i64;

#[inline]
#[features(avx2)]
fn load(board: &NibbleBoard) -> __m256i {
    // SAFETY: `NibbleBoard` is 32 bytes aligned to 32: one aligned load reads exactly it.
    unsafe { _mm256_load_si256(board.0.as_ptr().cast()) }
}

#[inline]
#[features(avx2)]
fn store(v: __m256i) -> NibbleBoard {
    // SAFETY: both types are 32 bytes of plain integer data; every bit pattern is valid in each.
    NibbleBoard(unsafe { std::mem::transmute::<__m256i, [u8; 32]>(v) })
}

/// `z = ((x & ~H) + (y & ~H)) ^ ((x ^ y) & H)`: add the low three bits of each nibble, which
/// cannot carry out of it, then add the top bits modulo 2 with an xor.
#[inline]
#[features(avx2)]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (x, y, h) = (load(a), load(b), _mm256_set1_epi64x(H));
    let low_sum = _mm256_add_epi64(_mm256_andnot_si256(h, x), _mm256_andnot_si256(h, y));
    store(_mm256_xor_si256(
        low_sum,
        _mm256_and_si256(_mm256_xor_si256(x, y), h),
    ))
}

/// `z = ((x | H) - (y & ~H)) ^ ((x ^ ~y) & H)`: with the top bit of every minuend nibble set and
/// of every subtrahend nibble clear, no nibble borrows from its neighbour; the xor fixes the top
/// bits.
#[inline]
#[features(avx2)]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (x, y, h) = (load(a), load(b), _mm256_set1_epi64x(H));
    let low_diff = _mm256_sub_epi64(_mm256_or_si256(x, h), _mm256_andnot_si256(h, y));
    // (x ^ ~y) & H == ~(x ^ y) & H
    let top = _mm256_andnot_si256(_mm256_xor_si256(x, y), h);
    store(_mm256_xor_si256(low_diff, top))
}

/// `z = (x & y) + (((x ^ y) & ~L) >> 1)`, from `x + y = (x ^ y) + 2 (x & y)`: clearing the
/// lowest bit of each nibble before the shift keeps it from falling into the nibble below.
#[inline]
#[features(avx2)]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (x, y, l) = (load(a), load(b), _mm256_set1_epi64x(L));
    let half_diff = _mm256_srli_epi64::<1>(_mm256_andnot_si256(l, _mm256_xor_si256(x, y)));
    store(_mm256_add_epi64(_mm256_and_si256(x, y), half_diff))
}
// ANCHOR_END: nibble_arith

// Transitional, until the layout moves them here.
pub(super) use super::mailbox::{from_nibble_board, to_nibble_board};

//! Two planes per register: moving data in and out of `__m128i`, and the few lane operations the
//! routines share.
//!
//! A quad is two registers, `[bb0, bb1]` and `[bb2, bb3]` (lane 0 first), as in the article's
//! `__m128i* p = (__m128i*) &quad`.

use std::arch::x86_64::*;
use std::mem::{size_of, transmute_copy};

use crate::quad::Quad;
use crate::repr::PieceSets;

/// Plain integer data: any bit pattern is a valid value, and there is no padding.
///
/// # Safety
///
/// Implement only for types made of integers (or integer vectors) with no padding bytes.
pub(super) unsafe trait Plain: Copy {}

// SAFETY: arrays of integers and of integer vectors, without padding.
unsafe impl<const N: usize> Plain for [u64; N] {}
// SAFETY: as above.
unsafe impl<const N: usize> Plain for [u8; N] {}
// SAFETY: as above.
unsafe impl<const N: usize> Plain for [i16; N] {}
// SAFETY: as above.
unsafe impl<const N: usize> Plain for [__m128i; N] {}
// SAFETY: an integer vector: 16 bytes, every bit pattern valid.
unsafe impl Plain for __m128i {}
// SAFETY: `repr(C)`: ten `u64` in declaration order, 80 bytes, no padding.
unsafe impl Plain for PieceSets {}

/// The same bytes seen as another plain type of the same size (a register move or a load/store,
/// never a conversion).
#[inline(always)]
pub(super) fn cast<A: Plain, B: Plain>(a: A) -> B {
    const { assert!(size_of::<A>() == size_of::<B>()) };
    // SAFETY: both types are plain integer data of the same size (checked at compile time), so
    // every bit pattern of `a` is a valid `B`; `transmute_copy` reads without alignment needs.
    unsafe { transmute_copy(&a) }
}

/// The quad as two registers, `[bb0, bb1]` and `[bb2, bb3]`.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,sse4.2,popcnt")]
pub(super) fn load(quad: &Quad) -> [__m128i; 2] {
    cast(quad.bb)
}

/// Two registers back as a quad.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,sse4.2,popcnt")]
pub(super) fn to_quad(v: [__m128i; 2]) -> Quad {
    Quad { bb: cast(v) }
}

/// `[lo, hi]` (a constant pool load when both are constants).
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,sse4.2,popcnt")]
pub(super) fn pair(lo: u64, hi: u64) -> __m128i {
    _mm_set_epi64x(hi as i64, lo as i64)
}

/// The same bitboard in both lanes.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,sse4.2,popcnt")]
pub(super) fn splat(bb: u64) -> __m128i {
    _mm_set1_epi64x(bb as i64)
}

/// `[hi, lo]`: the lanes exchanged.
#[inline]
#[target_feature(enable = "sse2,ssse3,sse4.1,sse4.2,popcnt")]
pub(super) fn swap_lanes(v: __m128i) -> __m128i {
    _mm_shuffle_epi32::<0b01_00_11_10>(v)
}

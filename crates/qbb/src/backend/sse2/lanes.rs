//! Two planes per register: moving data in and out of `__m128i`, and the few lane operations the
//! routines share.
//!
//! A quad is two registers, `[bb0, bb1]` and `[bb2, bb3]` (lane 0 first), as in the article's
//! `__m128i* p = (__m128i*) &quad`.

use crate::backend::features;
use std::arch::x86_64::*;

use crate::quad::Quad;

pub(super) use crate::backend::plain::cast;

/// The quad as two registers, `[bb0, bb1]` and `[bb2, bb3]`.
#[inline]
#[features(sse2)]
pub(super) fn load(quad: &Quad) -> [__m128i; 2] {
    cast(quad.bb)
}

/// Two registers back as a quad.
#[inline]
#[features(sse2)]
pub(super) fn to_quad(v: [__m128i; 2]) -> Quad {
    Quad { bb: cast(v) }
}

/// `[lo, hi]` (a constant pool load when both are constants).
#[inline]
#[features(sse2)]
pub(super) fn pair(lo: u64, hi: u64) -> __m128i {
    _mm_set_epi64x(hi as i64, lo as i64)
}

/// The same bitboard in both lanes.
#[inline]
#[features(sse2)]
pub(super) fn splat(bb: u64) -> __m128i {
    _mm_set1_epi64x(bb as i64)
}

/// `[hi, lo]`: the lanes exchanged.
#[inline]
#[features(sse2)]
pub(super) fn swap_lanes(v: __m128i) -> __m128i {
    _mm_shuffle_epi32::<0b01_00_11_10>(v)
}

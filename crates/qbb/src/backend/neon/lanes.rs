//! Two planes per register: moving data in and out of `uint64x2_t`, and the few lane operations
//! the routines share.
//!
//! A quad is two registers, `[bb0, bb1]` and `[bb2, bb3]` (lane 0 first); a mailbox is four
//! `uint8x16_t`, sixteen squares each.

use crate::backend::features;
use std::arch::aarch64::*;

use crate::quad::Quad;

pub(super) use crate::backend::plain::cast;

/// The quad as two registers, `[bb0, bb1]` and `[bb2, bb3]`.
#[inline]
#[features(neon)]
pub(super) fn load(quad: &Quad) -> [uint64x2_t; 2] {
    cast(quad.bb)
}

/// Two registers back as a quad.
#[inline]
#[features(neon)]
pub(super) fn to_quad(v: [uint64x2_t; 2]) -> Quad {
    Quad { bb: cast(v) }
}

/// `[lo, hi]`.
#[inline]
#[features(neon)]
pub(super) fn pair(lo: u64, hi: u64) -> uint64x2_t {
    vcombine_u64(vcreate_u64(lo), vcreate_u64(hi))
}

/// The same bitboard in both lanes.
#[inline]
#[features(neon)]
pub(super) fn splat(bb: u64) -> uint64x2_t {
    vdupq_n_u64(bb)
}

/// `[hi, lo]`: the lanes exchanged (`ext` of the register with itself, by eight bytes).
#[inline]
#[features(neon)]
pub(super) fn swap_lanes(v: uint64x2_t) -> uint64x2_t {
    vextq_u64::<1>(v, v)
}

/// The two lanes as bitboards.
#[inline]
#[features(neon)]
pub(super) fn lanes(v: uint64x2_t) -> [u64; 2] {
    [vgetq_lane_u64::<0>(v), vgetq_lane_u64::<1>(v)]
}

/// A shift count per lane, for `ushl` (`vshlq_u64`): positive shifts left, negative right.
#[inline]
#[features(neon)]
pub(super) fn counts([lo, hi]: [i64; 2]) -> int64x2_t {
    vcombine_s64(vcreate_s64(lo as u64), vcreate_s64(hi as u64))
}

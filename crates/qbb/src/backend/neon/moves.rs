//! The colour flip: `rev64`, a byte swap of each plane, two registers for the quad (the delta
//! quad comes from swar, see mod.rs).

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::{load, swap_lanes, to_quad};
use crate::quad::Quad;

// ANCHOR: flip
/// `rev64` mirrors both planes of a register (rank `r` becomes rank `7 - r`); the occupied
/// squares (`bb1 | bb2 | bb3`) are gathered into lane 0 of a register whose lane 1 is zero, so
/// one `eor` toggles the colour plane and leaves plane 1 alone.
#[inline]
#[features(neon)]
pub(super) fn flip(quad: &Quad) -> Quad {
    let mirror = |v: uint64x2_t| vreinterpretq_u64_u8(vrev64q_u8(vreinterpretq_u8_u64(v)));
    let [low, high] = load(quad).map(mirror);
    // lane 0: bb2 | bb3 | bb1
    let occupied = vorrq_u64(vorrq_u64(high, swap_lanes(high)), swap_lanes(low));
    let colour_toggle = vcombine_u64(vget_low_u64(occupied), vcreate_u64(0));
    to_quad([veorq_u64(low, colour_toggle), high])
}
// ANCHOR_END: flip

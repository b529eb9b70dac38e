//! NNUE inference eight `i16` lanes per register. NEON has 32 registers, so a whole accumulator
//! (sixteen) stays in registers while every row is added (`add` / `sub`, eight lanes each); the
//! forward pass clips with `smax` / `smin`, multiplies with `mul` (the low 16 bits of `v * w`)
//! and multiplies again, widening and accumulating into 32-bit lanes (`smlal`, `smlal2`). The
//! loops are [`crate::nnue`]'s, over the register type below.

use crate::backend::features;
use crate::nnue::{self, Accumulators, Network, QA, Vector};
use crate::quad::Quad;
use std::arch::aarch64::*;

/// Registers per part of an accumulator: the whole of one of 128 lanes, sixteen registers, which
/// leave sixteen for a row and the rest.
const REGS: usize = 16;

// ANCHOR: nnue
impl Vector for int16x8_t {
    const LANES: usize = 8;
    type Sums = int32x4_t;

    #[inline]
    #[features(neon)]
    unsafe fn load(from: *const i16) -> int16x8_t {
        // SAFETY: the caller's promise: eight lanes at `from`.
        unsafe { vld1q_s16(from) }
    }

    #[inline]
    #[features(neon)]
    unsafe fn store(self, to: *mut i16) {
        // SAFETY: as in `load`.
        unsafe { vst1q_s16(to, self) }
    }

    #[inline]
    #[features(neon)]
    unsafe fn add(self, row: int16x8_t) -> int16x8_t {
        vaddq_s16(self, row)
    }

    #[inline]
    #[features(neon)]
    unsafe fn sub(self, row: int16x8_t) -> int16x8_t {
        vsubq_s16(self, row)
    }

    #[inline]
    #[features(neon)]
    unsafe fn zero_sums() -> int32x4_t {
        vdupq_n_s32(0)
    }

    /// The clipped value `v` times `v * w` (`mul` keeps the low 16 bits, as the reference does),
    /// widened to 32 bits and accumulated by `smlal` (low four lanes) and `smlal2` (high four).
    #[inline]
    #[features(neon)]
    unsafe fn add_activated(sums: int32x4_t, x: int16x8_t, w: int16x8_t) -> int32x4_t {
        let (zero, ceiling) = (vdupq_n_s16(0), vdupq_n_s16(QA as i16));
        let v = vminq_s16(vmaxq_s16(x, zero), ceiling);
        let vw = vmulq_s16(v, w);
        vmlal_high_s16(vmlal_s16(sums, vget_low_s16(v), vget_low_s16(vw)), v, vw)
    }

    #[inline]
    #[features(neon)]
    unsafe fn total(sums: int32x4_t) -> i32 {
        vaddvq_s32(sums)
    }
}
// ANCHOR_END: nnue

// ANCHOR: nnue_routines
#[inline]
#[features(neon)]
pub(super) fn nnue_refresh<const N: usize>(quad: &Quad, net: &Network<N>) -> Accumulators<N> {
    // SAFETY: this function is compiled with the neon features, which `int16x8_t`'s methods use.
    unsafe { nnue::refresh::<int16x8_t, REGS, N>(quad, net) }
}

#[inline]
#[features(neon)]
pub(super) fn nnue_update<const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::update::<int16x8_t, REGS, N>(acc, before, delta, net) }
}

#[inline]
#[features(neon)]
pub(super) fn nnue_evaluate<const N: usize>(acc: &Accumulators<N>, net: &Network<N>) -> i32 {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::evaluate::<int16x8_t, REGS, N>(acc, net) }
}
// ANCHOR_END: nnue_routines

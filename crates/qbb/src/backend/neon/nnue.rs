//! NNUE inference eight `i16` lanes per register. NEON has 32 registers, so a whole accumulator
//! (sixteen) stays in registers while every row is added (`add` / `sub`, eight lanes each); the
//! forward pass clips with `smax` / `smin`, multiplies with `mul` (the low 16 bits of `v * w`)
//! and multiplies again, widening and accumulating into 32-bit lanes (`smlal`, `smlal2`).

use crate::backend::features;
use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, QA};
use std::arch::aarch64::*;

/// An accumulator is edited whole: its sixteen registers leave sixteen for a row and the rest.
const PARTS: usize = 1;

/// Registers per part.
const REGS: usize = HIDDEN / 8 / PARTS;

// ANCHOR: nnue
/// Part `part` of `lanes` in registers.
#[inline]
#[features(neon)]
fn load(lanes: &Lanes, part: usize) -> [int16x8_t; REGS] {
    let base = lanes.0.as_ptr();
    // SAFETY: `Lanes` is `HIDDEN` i16: eight lanes at `8 * (part * REGS + i)` lie within it.
    std::array::from_fn(|i| unsafe { vld1q_s16(base.add(8 * (part * REGS + i))) })
}

#[inline]
#[features(neon)]
fn store(regs: [int16x8_t; REGS], lanes: &mut Lanes, part: usize) {
    let base = lanes.0.as_mut_ptr();
    for (i, reg) in regs.into_iter().enumerate() {
        // SAFETY: as in `load`, and `lanes` is borrowed mutably.
        unsafe { vst1q_s16(base.add(8 * (part * REGS + i)), reg) };
    }
}

/// `regs` with part `part` of `row` subtracted (`out`) or added, lane by lane (wrapping).
#[inline]
#[features(neon)]
fn edit(regs: [int16x8_t; REGS], row: &Lanes, part: usize, out: bool) -> [int16x8_t; REGS] {
    let row = load(row, part);
    if out {
        std::array::from_fn(|i| vsubq_s16(regs[i], row[i]))
    } else {
        std::array::from_fn(|i| vaddq_s16(regs[i], row[i]))
    }
}

crate::nnue::accumulator_loops!(#[inline] #[features(neon)]);

/// The clipped value `v` times `v * w` (`mul` keeps the low 16 bits, as the reference does),
/// widened to 32 bits and accumulated by `smlal` (low four lanes) and `smlal2` (high four).
#[inline]
#[features(neon)]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (vdupq_n_s16(0), vdupq_n_s16(QA as i16));
    let mut sum = vdupq_n_s32(0);
    for (lanes, weights) in net.output_halves(acc) {
        for part in 0..PARTS {
            let (x, w) = (load(lanes, part), load(weights, part));
            for i in 0..REGS {
                let v = vminq_s16(vmaxq_s16(x[i], zero), ceiling);
                let vw = vmulq_s16(v, w[i]);
                sum = vmlal_high_s16(vmlal_s16(sum, vget_low_s16(v), vget_low_s16(vw)), v, vw);
            }
        }
    }
    net.finish(vaddvq_s32(sum))
}
// ANCHOR_END: nnue

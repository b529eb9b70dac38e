//! NNUE inference eight `i16` lanes per register. An accumulator of 128 lanes would take all
//! sixteen XMM registers, so it is edited in two halves of eight registers each (`paddw` /
//! `psubw`, each row a memory operand); the forward pass clips with `pmaxsw` / `pminsw` and
//! multiplies and adds pairs with `pmullw` + `pmaddwd`, all SSE2.

use crate::backend::features;
use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, Perspective, QA, changes, feature};
use crate::quad::Quad;
use crate::square::Squares;
use std::arch::x86_64::*;

/// Registers per half accumulator.
const REGS: usize = HIDDEN / 8 / 2;

// ANCHOR: nnue
/// Half `half` (0 or 1) of `lanes`.
#[inline]
#[features(sse2)]
fn load(lanes: &Lanes, half: usize) -> [__m128i; REGS] {
    let base = lanes.0.as_ptr().cast::<__m128i>();
    // SAFETY: `Lanes` is `HIDDEN` i16 aligned to 64: aligned 16-byte loads within it.
    std::array::from_fn(|i| unsafe { _mm_load_si128(base.add(half * REGS + i)) })
}

#[inline]
#[features(sse2)]
fn store(regs: [__m128i; REGS], lanes: &mut Lanes, half: usize) {
    let base = lanes.0.as_mut_ptr().cast::<__m128i>();
    for (i, reg) in regs.into_iter().enumerate() {
        // SAFETY: as in `load`, and `lanes` is borrowed mutably.
        unsafe { _mm_store_si128(base.add(half * REGS + i), reg) };
    }
}

/// `regs` (one half) with that half of `row` subtracted (`out`) or added, lane by lane.
#[inline]
#[features(sse2)]
fn edit(regs: [__m128i; REGS], row: &Lanes, half: usize, out: bool) -> [__m128i; REGS] {
    let row = load(row, half);
    if out {
        std::array::from_fn(|i| _mm_sub_epi16(regs[i], row[i]))
    } else {
        std::array::from_fn(|i| _mm_add_epi16(regs[i], row[i]))
    }
}

// Plain loops below, no iterator adapters: a closure compiled with the backend's features
// cannot inline into a generic adapter compiled without them, and would stay a call.

#[inline]
#[features(sse2)]
pub(super) fn nnue_refresh(quad: &Quad, net: &Network) -> Accumulators {
    let mut acc = Accumulators::default();
    let perspectives = [
        (&mut acc.us, Perspective::Us),
        (&mut acc.them, Perspective::Them),
    ];
    for (lanes, perspective) in perspectives {
        for half in 0..2 {
            let mut regs = load(&net.feature_bias, half);
            for sq in Squares(quad.occupied()) {
                if let Some(f) = feature(quad.nibble(sq), sq, perspective) {
                    regs = edit(regs, net.row(f), half, false);
                }
            }
            store(regs, lanes, half);
        }
    }
    acc
}

/// Each half of each perspective's accumulator is loaded once, edited by every changed square
/// (the old piece's row out, the new one's in) and stored once.
#[inline]
#[features(sse2)]
pub(super) fn nnue_update(acc: &mut Accumulators, before: &Quad, delta: &Quad, net: &Network) {
    let perspectives = [
        (&mut acc.us, Perspective::Us),
        (&mut acc.them, Perspective::Them),
    ];
    for (lanes, perspective) in perspectives {
        for half in 0..2 {
            let mut regs = load(lanes, half);
            for change in changes(before, delta) {
                if let Some(f) = feature(change.before, change.sq, perspective) {
                    regs = edit(regs, net.row(f), half, true);
                }
                if let Some(f) = feature(change.after, change.sq, perspective) {
                    regs = edit(regs, net.row(f), half, false);
                }
            }
            store(regs, lanes, half);
        }
    }
}

/// `pmaddwd` multiplies eight pairs of `i16` and adds neighbours into four `i32`: with the
/// clipped value `v` on one side and `v * w` (`pmullw`, the low 16 bits) on the other, it is
/// `v * v * w` summed in pairs.
#[inline]
#[features(sse2)]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16));
    let mut sum = _mm_setzero_si128();
    let layers = [
        (&acc.us, &net.output_weights[0]),
        (&acc.them, &net.output_weights[1]),
    ];
    for (lanes, weights) in layers {
        for half in 0..2 {
            let (x, w) = (load(lanes, half), load(weights, half));
            for i in 0..REGS {
                let v = _mm_min_epi16(_mm_max_epi16(x[i], zero), ceiling);
                sum = _mm_add_epi32(sum, _mm_madd_epi16(v, _mm_mullo_epi16(v, w[i])));
            }
        }
    }
    let pairs = _mm_add_epi32(sum, _mm_unpackhi_epi64(sum, sum));
    let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b01>(pairs));
    net.finish(_mm_cvtsi128_si32(total))
}
// ANCHOR_END: nnue

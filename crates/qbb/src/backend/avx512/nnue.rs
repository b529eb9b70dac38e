//! NNUE inference 32 `i16` lanes per register (AVX-512 BW): an accumulator of 128 lanes is four
//! ZMM registers, a quarter of the 32 the instruction set has, so both perspectives' edits and
//! the whole forward pass stay in registers; `vpmaddwd` on ZMM does 32 multiply-adds at once.

use crate::backend::features;
use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, QA};
use std::arch::x86_64::*;

/// An accumulator is edited whole: four of the 32 ZMM registers.
const PARTS: usize = 1;

/// Registers per part.
const REGS: usize = HIDDEN / 32 / PARTS;

// ANCHOR: nnue
/// Part `part` of `lanes` in registers.
#[inline]
#[features(avx512)]
fn load(lanes: &Lanes, part: usize) -> [__m512i; REGS] {
    let base = lanes.0.as_ptr().cast::<__m512i>();
    // SAFETY: `Lanes` is `HIDDEN` i16 aligned to 64: aligned 64-byte loads within it.
    std::array::from_fn(|i| unsafe { _mm512_load_si512(base.add(part * REGS + i)) })
}

#[inline]
#[features(avx512)]
fn store(regs: [__m512i; REGS], lanes: &mut Lanes, part: usize) {
    let base = lanes.0.as_mut_ptr().cast::<__m512i>();
    for (i, reg) in regs.into_iter().enumerate() {
        // SAFETY: as in `load`, and `lanes` is borrowed mutably.
        unsafe { _mm512_store_si512(base.add(part * REGS + i), reg) };
    }
}

/// `regs` with part `part` of `row` subtracted (`out`) or added, lane by lane.
#[inline]
#[features(avx512)]
fn edit(regs: [__m512i; REGS], row: &Lanes, part: usize, out: bool) -> [__m512i; REGS] {
    let row = load(row, part);
    if out {
        std::array::from_fn(|i| _mm512_sub_epi16(regs[i], row[i]))
    } else {
        std::array::from_fn(|i| _mm512_add_epi16(regs[i], row[i]))
    }
}

crate::nnue::accumulator_loops!(#[inline] #[features(avx512)]);

/// As avx2's, 32 lanes at a time; `vpmaddwd` leaves sixteen `i32` sums, which one reduction adds.
#[inline]
#[features(avx512)]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (_mm512_setzero_si512(), _mm512_set1_epi16(QA as i16));
    let mut sum = _mm512_setzero_si512();
    for (lanes, weights) in net.output_halves(acc) {
        for part in 0..PARTS {
            let (x, w) = (load(lanes, part), load(weights, part));
            for i in 0..REGS {
                let v = _mm512_min_epi16(_mm512_max_epi16(x[i], zero), ceiling);
                sum = _mm512_add_epi32(sum, _mm512_madd_epi16(v, _mm512_mullo_epi16(v, w[i])));
            }
        }
    }
    net.finish(_mm512_reduce_add_epi32(sum))
}
// ANCHOR_END: nnue

//! NNUE inference eight `i16` lanes per register. An accumulator of 128 lanes would take all
//! sixteen XMM registers, so it is edited in two halves of eight registers each (`paddw` /
//! `psubw`, each row a memory operand); the forward pass clips with `pmaxsw` / `pminsw` and
//! multiplies and adds pairs with `pmullw` + `pmaddwd`, all SSE2.

use crate::backend::features;
use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, QA};
use std::arch::x86_64::*;

/// An accumulator is edited in two halves: a whole one would take all sixteen XMM registers
/// and leave none for a row or an address.
const PARTS: usize = 2;

/// Registers per part.
const REGS: usize = HIDDEN / 8 / PARTS;

// ANCHOR: nnue
/// Part `part` of `lanes` in registers.
#[inline]
#[features(sse2)]
fn load(lanes: &Lanes, part: usize) -> [__m128i; REGS] {
    let base = lanes.0.as_ptr().cast::<__m128i>();
    // SAFETY: `Lanes` is `HIDDEN` i16 aligned to 64: aligned 16-byte loads within it.
    std::array::from_fn(|i| unsafe { _mm_load_si128(base.add(part * REGS + i)) })
}

#[inline]
#[features(sse2)]
fn store(regs: [__m128i; REGS], lanes: &mut Lanes, part: usize) {
    let base = lanes.0.as_mut_ptr().cast::<__m128i>();
    for (i, reg) in regs.into_iter().enumerate() {
        // SAFETY: as in `load`, and `lanes` is borrowed mutably.
        unsafe { _mm_store_si128(base.add(part * REGS + i), reg) };
    }
}

/// `regs` with part `part` of `row` subtracted (`out`) or added, lane by lane.
#[inline]
#[features(sse2)]
fn edit(regs: [__m128i; REGS], row: &Lanes, part: usize, out: bool) -> [__m128i; REGS] {
    let row = load(row, part);
    if out {
        std::array::from_fn(|i| _mm_sub_epi16(regs[i], row[i]))
    } else {
        std::array::from_fn(|i| _mm_add_epi16(regs[i], row[i]))
    }
}

crate::nnue::accumulator_loops!(#[inline] #[features(sse2)]);

/// `pmaddwd` multiplies eight pairs of `i16` and adds neighbours into four `i32`: with the
/// clipped value `v` on one side and `v * w` (`pmullw`, the low 16 bits) on the other, it is
/// `v * v * w` summed in pairs.
#[inline]
#[features(sse2)]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16));
    let mut sum = _mm_setzero_si128();
    for (lanes, weights) in net.output_halves(acc) {
        for part in 0..PARTS {
            let (x, w) = (load(lanes, part), load(weights, part));
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

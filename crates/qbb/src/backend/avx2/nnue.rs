//! NNUE inference sixteen `i16` lanes per register: an accumulator of 128 lanes is eight YMM
//! registers, loaded once, edited row by row with `vpaddw` / `vpsubw` (each row a memory
//! operand), and stored once; the forward pass clips with `vpmaxsw` / `vpminsw` and multiplies
//! and adds pairs with `vpmullw` + `vpmaddwd`.

use crate::backend::features;
use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, QA};
use std::arch::x86_64::*;

/// An accumulator is edited whole: eight of the sixteen YMM registers.
const PARTS: usize = 1;

/// Registers per part.
const REGS: usize = HIDDEN / 16 / PARTS;

// ANCHOR: nnue
/// Part `part` of `lanes` in registers.
#[inline]
#[features(avx2)]
fn load(lanes: &Lanes, part: usize) -> [__m256i; REGS] {
    let base = lanes.0.as_ptr().cast::<__m256i>();
    // SAFETY: `Lanes` is `HIDDEN` i16 aligned to 64: aligned 32-byte loads within it.
    std::array::from_fn(|i| unsafe { _mm256_load_si256(base.add(part * REGS + i)) })
}

#[inline]
#[features(avx2)]
fn store(regs: [__m256i; REGS], lanes: &mut Lanes, part: usize) {
    let base = lanes.0.as_mut_ptr().cast::<__m256i>();
    for (i, reg) in regs.into_iter().enumerate() {
        // SAFETY: as in `load`, and `lanes` is borrowed mutably.
        unsafe { _mm256_store_si256(base.add(part * REGS + i), reg) };
    }
}

/// `regs` with part `part` of `row` subtracted (`out`) or added, lane by lane.
#[inline]
#[features(avx2)]
fn edit(regs: [__m256i; REGS], row: &Lanes, part: usize, out: bool) -> [__m256i; REGS] {
    let row = load(row, part);
    if out {
        std::array::from_fn(|i| _mm256_sub_epi16(regs[i], row[i]))
    } else {
        std::array::from_fn(|i| _mm256_add_epi16(regs[i], row[i]))
    }
}

crate::nnue::accumulator_loops!(#[inline] #[features(avx2)]);

/// `vpmaddwd` multiplies sixteen pairs of `i16` and adds neighbours into eight `i32`: with the
/// clipped value `v` on one side and `v * w` (`vpmullw`, the low 16 bits) on the other, it is
/// `v * v * w` summed in pairs, the squared clipped ReLU and the output layer in two instructions.
#[inline]
#[features(avx2)]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
    let mut sum = _mm256_setzero_si256();
    for (lanes, weights) in net.output_halves(acc) {
        for part in 0..PARTS {
            let (x, w) = (load(lanes, part), load(weights, part));
            for i in 0..REGS {
                let v = _mm256_min_epi16(_mm256_max_epi16(x[i], zero), ceiling);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, _mm256_mullo_epi16(v, w[i])));
            }
        }
    }
    // Eight sums to one: halves, then pairs within a half.
    let half = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let pairs = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
    let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b01>(pairs));
    net.finish(_mm_cvtsi128_si32(total))
}
// ANCHOR_END: nnue

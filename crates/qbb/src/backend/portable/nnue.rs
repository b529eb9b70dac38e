//! NNUE inference with `std::simd`: the accumulator as `i16x32` vectors (one ZMM register with
//! AVX-512, two YMM with AVX2, four XMM at the baseline), edited row by row, and the forward pass
//! with the 16-bit product widened to `i32` lanes for the second multiply.

use std::simd::prelude::*;

use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, QA};

/// Lanes per vector, and vectors per part of an accumulator.
const WIDTH: usize = 32;
/// An accumulator is edited whole (the compiler maps the vectors to the target's registers).
const PARTS: usize = 1;
const VECTORS: usize = HIDDEN / WIDTH / PARTS;

// ANCHOR: nnue
/// Part `part` of `lanes` as vectors.
#[inline(always)]
fn load(lanes: &Lanes, part: usize) -> [i16x32; VECTORS] {
    std::array::from_fn(|i| i16x32::from_slice(&lanes.0[(part * VECTORS + i) * WIDTH..]))
}

#[inline(always)]
fn store(vectors: [i16x32; VECTORS], lanes: &mut Lanes, part: usize) {
    for (i, v) in vectors.into_iter().enumerate() {
        let at = (part * VECTORS + i) * WIDTH;
        v.copy_to_slice(&mut lanes.0[at..at + WIDTH]);
    }
}

/// `acc` with part `part` of `row` subtracted (`out`) or added (the vector types' `+` and `-`
/// wrap, as the reference's lanes do).
#[inline(always)]
fn edit(acc: [i16x32; VECTORS], row: &Lanes, part: usize, out: bool) -> [i16x32; VECTORS] {
    let row = load(row, part);
    if out {
        std::array::from_fn(|i| acc[i] - row[i])
    } else {
        std::array::from_fn(|i| acc[i] + row[i])
    }
}

crate::nnue::accumulator_loops!(#[inline]);

/// Clip, multiply by the weight in 16 bits (wrapping, as `vpmullw`), widen both factors and
/// multiply again in 32 bits; the sum wraps like the reference's.
#[inline]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (i16x32::splat(0), i16x32::splat(QA as i16));
    let mut sum = i32x32::splat(0);
    for (lanes, weights) in net.output_halves(acc) {
        for part in 0..PARTS {
            let (x, w) = (load(lanes, part), load(weights, part));
            for i in 0..VECTORS {
                let v = x[i].simd_clamp(zero, ceiling);
                sum += v.cast::<i32>() * (v * w[i]).cast::<i32>();
            }
        }
    }
    net.finish(sum.reduce_sum())
}
// ANCHOR_END: nnue

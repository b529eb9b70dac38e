//! NNUE inference with `std::simd`: the accumulator as `i16x32` vectors (one ZMM register with
//! AVX-512, two YMM with AVX2, four XMM at the baseline), edited row by row, and the forward pass
//! with the 16-bit product widened to `i32` lanes for the second multiply.

use std::simd::prelude::*;

use crate::nnue::{Accumulators, HIDDEN, Lanes, Network, Perspective, QA, changes, feature};
use crate::quad::Quad;
use crate::square::Squares;

/// Lanes per vector, and vectors per accumulator.
const WIDTH: usize = 32;
const VECTORS: usize = HIDDEN / WIDTH;

// ANCHOR: nnue
#[inline(always)]
fn load(lanes: &Lanes) -> [i16x32; VECTORS] {
    std::array::from_fn(|i| i16x32::from_slice(&lanes.0[i * WIDTH..]))
}

#[inline(always)]
fn store(vectors: [i16x32; VECTORS], lanes: &mut Lanes) {
    for (i, v) in vectors.into_iter().enumerate() {
        v.copy_to_slice(&mut lanes.0[i * WIDTH..(i + 1) * WIDTH]);
    }
}

/// `acc` with `row` subtracted (`out`) or added (the vector types' `+` and `-` wrap, as the
/// reference's lanes do).
#[inline(always)]
fn edit(acc: [i16x32; VECTORS], row: &Lanes, out: bool) -> [i16x32; VECTORS] {
    let row = load(row);
    if out {
        std::array::from_fn(|i| acc[i] - row[i])
    } else {
        std::array::from_fn(|i| acc[i] + row[i])
    }
}

#[inline]
pub(super) fn nnue_refresh(quad: &Quad, net: &Network) -> Accumulators {
    let mut acc = Accumulators::default();
    let perspectives = [
        (&mut acc.us, Perspective::Us),
        (&mut acc.them, Perspective::Them),
    ];
    for (lanes, perspective) in perspectives {
        let mut vectors = load(&net.feature_bias);
        for sq in Squares(quad.occupied()) {
            if let Some(f) = feature(quad.nibble(sq), sq, perspective) {
                vectors = edit(vectors, net.row(f), false);
            }
        }
        store(vectors, lanes);
    }
    acc
}

/// Each perspective's accumulator is loaded once, edited by every changed square and stored
/// once.
#[inline]
pub(super) fn nnue_update(acc: &mut Accumulators, before: &Quad, delta: &Quad, net: &Network) {
    let perspectives = [
        (&mut acc.us, Perspective::Us),
        (&mut acc.them, Perspective::Them),
    ];
    for (lanes, perspective) in perspectives {
        let mut vectors = load(lanes);
        for change in changes(before, delta) {
            if let Some(f) = feature(change.before, change.sq, perspective) {
                vectors = edit(vectors, net.row(f), true);
            }
            if let Some(f) = feature(change.after, change.sq, perspective) {
                vectors = edit(vectors, net.row(f), false);
            }
        }
        store(vectors, lanes);
    }
}

/// Clip, multiply by the weight in 16 bits (wrapping, as `vpmullw`), widen both factors and
/// multiply again in 32 bits; the sum wraps like the reference's.
#[inline]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    let (zero, ceiling) = (i16x32::splat(0), i16x32::splat(QA as i16));
    let mut sum = i32x32::splat(0);
    let layers = [
        (&acc.us, &net.output_weights[0]),
        (&acc.them, &net.output_weights[1]),
    ];
    for (lanes, weights) in layers {
        let (x, w) = (load(lanes), load(weights));
        for i in 0..VECTORS {
            let v = x[i].simd_clamp(zero, ceiling);
            sum += v.cast::<i32>() * (v * w[i]).cast::<i32>();
        }
    }
    net.finish(sum.reduce_sum())
}
// ANCHOR_END: nnue

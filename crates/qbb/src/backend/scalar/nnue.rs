//! NNUE inference, the reference: one lane at a time, as the network is defined (see
//! [`crate::nnue`]).

use crate::nnue::{Accumulators, Lanes, Network, Perspective, QA, changes, feature};
use crate::quad::Quad;
use crate::square::Squares;

// ANCHOR: nnue
/// The bias, plus the row of each piece, for each perspective.
#[inline(always)]
pub(super) fn nnue_refresh<const N: usize>(quad: &Quad, net: &Network<N>) -> Accumulators<N> {
    let mut acc = Accumulators {
        us: net.feature_bias,
        them: net.feature_bias,
    };
    for sq in Squares(quad.occupied()) {
        let code = quad.nibble(sq);
        if let Some(f) = feature(code, sq, Perspective::Us) {
            add(&mut acc.us, net.row(f));
        }
        if let Some(f) = feature(code, sq, Perspective::Them) {
            add(&mut acc.them, net.row(f));
        }
    }
    acc
}

/// For each square the delta changes: the row of what stood there out, the row of what stands
/// there now in, for each perspective.
#[inline(always)]
pub(super) fn nnue_update<const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    for change in changes(before, delta) {
        for (lanes, perspective) in acc.perspectives_mut() {
            if let Some(f) = feature(change.before, change.sq, perspective) {
                sub(lanes, net.row(f));
            }
            if let Some(f) = feature(change.after, change.sq, perspective) {
                add(lanes, net.row(f));
            }
        }
    }
}

/// `sum clamp(x, 0, QA)^2 * w` over both perspectives, computed as every backend computes it:
/// `v * (v * w)` with the inner product kept to 16 bits (exact while `|v * w| < 2^15`, which
/// training keeps true), the outer one and the sum in `i32`, wrapping.
#[inline(always)]
pub(super) fn nnue_evaluate<const N: usize>(acc: &Accumulators<N>, net: &Network<N>) -> i32 {
    let mut sum = 0i32;
    for (lanes, weights) in net.output_halves(acc) {
        for (&x, &w) in lanes.0.iter().zip(&weights.0) {
            let v = x.clamp(0, QA as i16);
            sum = sum.wrapping_add(i32::from(v) * i32::from(v.wrapping_mul(w)));
        }
    }
    net.finish(sum)
}

#[inline(always)]
fn add<const N: usize>(acc: &mut Lanes<N>, row: &Lanes<N>) {
    for (a, &r) in acc.0.iter_mut().zip(&row.0) {
        *a = a.wrapping_add(r);
    }
}

#[inline(always)]
fn sub<const N: usize>(acc: &mut Lanes<N>, row: &Lanes<N>) {
    for (a, &r) in acc.0.iter_mut().zip(&row.0) {
        *a = a.wrapping_sub(r);
    }
}
// ANCHOR_END: nnue

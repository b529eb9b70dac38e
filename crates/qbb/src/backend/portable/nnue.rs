//! NNUE inference with `std::simd`: the accumulator as `i16x32` vectors (one ZMM register with
//! AVX-512, two YMM with AVX2, four XMM at the baseline), edited row by row, and the forward pass
//! with the 16-bit product widened to `i32` lanes for the second multiply. The loops are
//! [`crate::nnue`]'s, over the vector type below.

use std::simd::prelude::*;

use crate::nnue::{self, Accumulators, Network, QA, Vector};
use crate::quad::Quad;

/// Vectors per part of an accumulator: the whole of one of 128 lanes (the compiler maps the vectors
/// to the target's registers).
const VECTORS: usize = 4;

// ANCHOR: nnue
/// No method needs more than `std::simd`, which compiles for whatever the caller enables.
impl Vector for i16x32 {
    const LANES: usize = 32;
    type Sums = i32x32;

    #[inline(always)]
    unsafe fn load(from: *const i16) -> i16x32 {
        // SAFETY: the caller's promise: 32 lanes at `from`.
        unsafe { from.cast::<i16x32>().read_unaligned() }
    }

    #[inline(always)]
    unsafe fn store(self, to: *mut i16) {
        // SAFETY: as in `load`.
        unsafe { to.cast::<i16x32>().write_unaligned(self) }
    }

    /// The vector types' `+` and `-` wrap, as the reference's lanes do.
    #[inline(always)]
    unsafe fn add(self, row: i16x32) -> i16x32 {
        self + row
    }

    #[inline(always)]
    unsafe fn sub(self, row: i16x32) -> i16x32 {
        self - row
    }

    #[inline(always)]
    unsafe fn zero_sums() -> i32x32 {
        i32x32::splat(0)
    }

    /// Clip, multiply by the weight in 16 bits (wrapping, as `vpmullw`), widen both factors and
    /// multiply again in 32 bits; the sum wraps like the reference's.
    #[inline(always)]
    unsafe fn add_activated(sums: i32x32, x: i16x32, w: i16x32) -> i32x32 {
        let v = x.simd_clamp(i16x32::splat(0), i16x32::splat(QA as i16));
        sums + v.cast::<i32>() * (v * w).cast::<i32>()
    }

    #[inline(always)]
    unsafe fn total(sums: i32x32) -> i32 {
        sums.reduce_sum()
    }
}
// ANCHOR_END: nnue

#[inline]
pub(super) fn nnue_refresh<const N: usize>(quad: &Quad, net: &Network<N>) -> Accumulators<N> {
    // SAFETY: `i16x32`'s methods need no feature.
    unsafe { nnue::refresh::<i16x32, VECTORS, N>(quad, net) }
}

#[inline]
pub(super) fn nnue_update<const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::update::<i16x32, VECTORS, N>(acc, before, delta, net) }
}

#[inline]
pub(super) fn nnue_evaluate<const N: usize>(acc: &Accumulators<N>, net: &Network<N>) -> i32 {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::evaluate::<i16x32, VECTORS, N>(acc, net) }
}

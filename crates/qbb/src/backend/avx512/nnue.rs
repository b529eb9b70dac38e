//! NNUE inference 32 `i16` lanes per register (AVX-512 BW): an accumulator of 128 lanes is four
//! ZMM registers, a quarter of the 32 the instruction set has, so both perspectives' edits and
//! the whole forward pass stay in registers; `vpmaddwd` on ZMM does 32 multiply-adds at once. The
//! loops are [`crate::nnue`]'s, over the register type below.

use crate::backend::features;
use crate::nnue::{self, Accumulators, Network, QA, Vector};
use crate::quad::Quad;
use std::arch::x86_64::*;

/// Registers per part of an accumulator: the whole of one of 128 lanes, four of the 32 ZMM
/// registers.
const REGS: usize = 4;

// ANCHOR: nnue
impl Vector for __m512i {
    const LANES: usize = 32;
    type Sums = __m512i;

    #[inline]
    #[features(avx512)]
    unsafe fn load(from: *const i16) -> __m512i {
        // SAFETY: the caller's promise: 32 lanes at `from`, aligned to 64 bytes.
        unsafe { _mm512_load_si512(from.cast()) }
    }

    #[inline]
    #[features(avx512)]
    unsafe fn store(self, to: *mut i16) {
        // SAFETY: as in `load`.
        unsafe { _mm512_store_si512(to.cast(), self) }
    }

    #[inline]
    #[features(avx512)]
    unsafe fn add(self, row: __m512i) -> __m512i {
        _mm512_add_epi16(self, row)
    }

    #[inline]
    #[features(avx512)]
    unsafe fn sub(self, row: __m512i) -> __m512i {
        _mm512_sub_epi16(self, row)
    }

    #[inline]
    #[features(avx512)]
    unsafe fn zero_sums() -> __m512i {
        _mm512_setzero_si512()
    }

    /// As avx2's, 32 lanes at a time.
    #[inline]
    #[features(avx512)]
    unsafe fn add_activated(sums: __m512i, x: __m512i, w: __m512i) -> __m512i {
        let (zero, ceiling) = (_mm512_setzero_si512(), _mm512_set1_epi16(QA as i16));
        let v = _mm512_min_epi16(_mm512_max_epi16(x, zero), ceiling);
        _mm512_add_epi32(sums, _mm512_madd_epi16(v, _mm512_mullo_epi16(v, w)))
    }

    /// `vpmaddwd` left sixteen `i32` sums, which one reduction adds.
    #[inline]
    #[features(avx512)]
    unsafe fn total(sums: __m512i) -> i32 {
        _mm512_reduce_add_epi32(sums)
    }
}
// ANCHOR_END: nnue

#[inline]
#[features(avx512)]
pub(super) fn nnue_refresh<const N: usize>(quad: &Quad, net: &Network<N>) -> Accumulators<N> {
    // SAFETY: this function is compiled with the avx512 features, which `__m512i`'s methods use.
    unsafe { nnue::refresh::<__m512i, REGS, N>(quad, net) }
}

#[inline]
#[features(avx512)]
pub(super) fn nnue_update<const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::update::<__m512i, REGS, N>(acc, before, delta, net) }
}

#[inline]
#[features(avx512)]
pub(super) fn nnue_evaluate<const N: usize>(acc: &Accumulators<N>, net: &Network<N>) -> i32 {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::evaluate::<__m512i, REGS, N>(acc, net) }
}

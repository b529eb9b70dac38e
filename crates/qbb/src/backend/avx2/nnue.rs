//! NNUE inference sixteen `i16` lanes per register: an accumulator of 128 lanes is eight YMM
//! registers, loaded once, edited row by row with `vpaddw` / `vpsubw` (each row a memory
//! operand), and stored once; the forward pass clips with `vpmaxsw` / `vpminsw` and multiplies
//! and adds pairs with `vpmullw` + `vpmaddwd`. The loops are [`crate::nnue`]'s, over the register
//! type below.

use crate::backend::features;
use crate::nnue::{self, Accumulators, Network, QA, Vector};
use crate::quad::Quad;
use std::arch::x86_64::*;

/// Registers per part of an accumulator: the whole of one of 128 lanes, eight of the sixteen YMM
/// registers.
const REGS: usize = 8;

// ANCHOR: nnue
impl Vector for __m256i {
    const LANES: usize = 16;
    type Sums = __m256i;

    #[inline]
    #[features(avx2)]
    unsafe fn load(from: *const i16) -> __m256i {
        // SAFETY: the caller's promise: sixteen lanes at `from`, aligned to 32 bytes.
        unsafe { _mm256_load_si256(from.cast()) }
    }

    #[inline]
    #[features(avx2)]
    unsafe fn store(self, to: *mut i16) {
        // SAFETY: as in `load`.
        unsafe { _mm256_store_si256(to.cast(), self) }
    }

    #[inline]
    #[features(avx2)]
    unsafe fn add(self, row: __m256i) -> __m256i {
        _mm256_add_epi16(self, row)
    }

    #[inline]
    #[features(avx2)]
    unsafe fn sub(self, row: __m256i) -> __m256i {
        _mm256_sub_epi16(self, row)
    }

    #[inline]
    #[features(avx2)]
    unsafe fn zero_sums() -> __m256i {
        _mm256_setzero_si256()
    }

    /// `vpmaddwd` multiplies sixteen pairs of `i16` and adds neighbours into eight `i32`: with the
    /// clipped value `v` on one side and `v * w` (`vpmullw`, the low 16 bits) on the other, it is
    /// `v * v * w` summed in pairs, the squared clipped ReLU and the output layer in two
    /// instructions.
    #[inline]
    #[features(avx2)]
    unsafe fn add_activated(sums: __m256i, x: __m256i, w: __m256i) -> __m256i {
        let (zero, ceiling) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), ceiling);
        _mm256_add_epi32(sums, _mm256_madd_epi16(v, _mm256_mullo_epi16(v, w)))
    }

    /// Eight sums to one: halves, then pairs within a half.
    #[inline]
    #[features(avx2)]
    unsafe fn total(sums: __m256i) -> i32 {
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sums),
            _mm256_extracti128_si256::<1>(sums),
        );
        let pairs = _mm_add_epi32(half, _mm_unpackhi_epi64(half, half));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b01>(pairs));
        _mm_cvtsi128_si32(total)
    }
}
// ANCHOR_END: nnue

#[inline]
#[features(avx2)]
pub(super) fn nnue_refresh<const N: usize>(quad: &Quad, net: &Network<N>) -> Accumulators<N> {
    // SAFETY: this function is compiled with the avx2 features, which `__m256i`'s methods use.
    unsafe { nnue::refresh::<__m256i, REGS, N>(quad, net) }
}

#[inline]
#[features(avx2)]
pub(super) fn nnue_update<const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::update::<__m256i, REGS, N>(acc, before, delta, net) }
}

#[inline]
#[features(avx2)]
pub(super) fn nnue_evaluate<const N: usize>(acc: &Accumulators<N>, net: &Network<N>) -> i32 {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::evaluate::<__m256i, REGS, N>(acc, net) }
}

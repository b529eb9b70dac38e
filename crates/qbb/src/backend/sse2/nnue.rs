//! NNUE inference eight `i16` lanes per register. An accumulator of 128 lanes would take all
//! sixteen XMM registers, so it is edited in two halves of eight registers each (`paddw` /
//! `psubw`, each row a memory operand); the forward pass clips with `pmaxsw` / `pminsw` and
//! multiplies and adds pairs with `pmullw` + `pmaddwd`, all SSE2. The loops are
//! [`crate::nnue`]'s, over the register type below.

use crate::backend::features;
use crate::nnue::{self, Accumulators, Network, QA, Vector};
use crate::quad::Quad;
use std::arch::x86_64::*;

/// Registers per part of an accumulator: half of one of 128 lanes, since a whole one would take all
/// sixteen XMM registers and leave none for a row or an address.
const REGS: usize = 8;

// ANCHOR: nnue
impl Vector for __m128i {
    const LANES: usize = 8;
    type Sums = __m128i;

    #[inline]
    #[features(sse2)]
    unsafe fn load(from: *const i16) -> __m128i {
        // SAFETY: the caller's promise: eight lanes at `from`, aligned to 16 bytes.
        unsafe { _mm_load_si128(from.cast()) }
    }

    #[inline]
    #[features(sse2)]
    unsafe fn store(self, to: *mut i16) {
        // SAFETY: as in `load`.
        unsafe { _mm_store_si128(to.cast(), self) }
    }

    #[inline]
    #[features(sse2)]
    unsafe fn add(self, row: __m128i) -> __m128i {
        _mm_add_epi16(self, row)
    }

    #[inline]
    #[features(sse2)]
    unsafe fn sub(self, row: __m128i) -> __m128i {
        _mm_sub_epi16(self, row)
    }

    #[inline]
    #[features(sse2)]
    unsafe fn zero_sums() -> __m128i {
        _mm_setzero_si128()
    }

    /// `pmaddwd` multiplies eight pairs of `i16` and adds neighbours into four `i32`: with the
    /// clipped value `v` on one side and `v * w` (`pmullw`, the low 16 bits) on the other, it is
    /// `v * v * w` summed in pairs.
    #[inline]
    #[features(sse2)]
    unsafe fn add_activated(sums: __m128i, x: __m128i, w: __m128i) -> __m128i {
        let (zero, ceiling) = (_mm_setzero_si128(), _mm_set1_epi16(QA as i16));
        let v = _mm_min_epi16(_mm_max_epi16(x, zero), ceiling);
        _mm_add_epi32(sums, _mm_madd_epi16(v, _mm_mullo_epi16(v, w)))
    }

    #[inline]
    #[features(sse2)]
    unsafe fn total(sums: __m128i) -> i32 {
        let pairs = _mm_add_epi32(sums, _mm_unpackhi_epi64(sums, sums));
        let total = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b01>(pairs));
        _mm_cvtsi128_si32(total)
    }
}
// ANCHOR_END: nnue

#[inline]
#[features(sse2)]
pub(super) fn nnue_refresh<const N: usize>(quad: &Quad, net: &Network<N>) -> Accumulators<N> {
    // SAFETY: this function is compiled with the sse2 features, which `__m128i`'s methods use.
    unsafe { nnue::refresh::<__m128i, REGS, N>(quad, net) }
}

#[inline]
#[features(sse2)]
pub(super) fn nnue_update<const N: usize>(
    acc: &mut Accumulators<N>,
    before: &Quad,
    delta: &Quad,
    net: &Network<N>,
) {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::update::<__m128i, REGS, N>(acc, before, delta, net) }
}

#[inline]
#[features(sse2)]
pub(super) fn nnue_evaluate<const N: usize>(acc: &Accumulators<N>, net: &Network<N>) -> i32 {
    // SAFETY: as in `nnue_refresh`.
    unsafe { nnue::evaluate::<__m128i, REGS, N>(acc, net) }
}

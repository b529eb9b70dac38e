//! Sets of squares from the quad, two per instruction: the disjoint piece sets and the article's
//! `quad2hexBB`, with `punpck*qdq` and `shufpd` moving planes between the two lanes.
//!
//! Producing sets two per register is cheap; a caller that then reads them one `u64` at a time
//! pays for moving each lane back to an integer register, which can cost more than the SIMD saved.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, load};
use crate::quad::Quad;
use crate::repr::{HexSets, PieceSets};

// ANCHOR: piece_sets
/// `_mm_shuffle_pd` on integer lanes: lane 0 from `a`, lane 1 from `b`, each chosen by a bit of
/// `IMM` (bit 0 for `a`, bit 1 for `b`; 0 = lane 0, 1 = lane 1).
#[inline]
#[features(sse2)]
pub(super) fn pick<const IMM: i32>(a: __m128i, b: __m128i) -> __m128i {
    _mm_castpd_si128(_mm_shuffle_pd::<IMM>(
        _mm_castsi128_pd(a),
        _mm_castsi128_pd(b),
    ))
}

/// The article's formulas, two sets per instruction: each output pair is laid out as the struct
/// stores it (`[black, white]`, `[occupied, odd]`, `[pawns, knights]`, `[bishops, rooks]`,
/// `[queens, kings]`), so five aligned stores write the result.
#[inline]
#[features(sse2)]
pub(super) fn piece_sets(quad: &Quad) -> PieceSets {
    let [b01, b23] = load(quad);
    let b11 = _mm_unpackhi_epi64(b01, b01);
    let b12 = pick::<0b01>(b01, b23);
    let b33 = _mm_unpackhi_epi64(b23, b23);
    let b22 = _mm_unpacklo_epi64(b23, b23);
    let occupied = _mm_or_si128(_mm_or_si128(b11, b22), b33); // in both lanes
    let odd = _mm_xor_si128(_mm_xor_si128(b11, b22), b33);
    let colours = _mm_unpacklo_epi64(b01, _mm_xor_si128(b01, occupied)); // [bb0, bb0 ^ occ]
    let occupied_odd = _mm_unpacklo_epi64(occupied, odd);
    let pawns_knights = _mm_and_si128(odd, b12); // [odd & bb1, odd & bb2]
    let bishops_rooks = _mm_and_si128(_mm_unpacklo_epi64(b11, odd), b23); // [bb1 & bb2, odd & bb3]
    let queens_kings = _mm_and_si128(b12, b33); // [bb1 & bb3, bb2 & bb3]
    cast([
        colours,
        occupied_odd,
        pawns_knights,
        bishops_rooks,
        queens_kings,
    ])
}
// ANCHOR_END: piece_sets

// ANCHOR: hex_sets
/// The article's `quad2hexBB`, register for register: the four combinations of planes 1:0 and of
/// planes 3:2 are made side by side, and each output register pairs codes `2k` and `2k + 1`.
#[inline]
#[features(sse2)]
fn quad2hex(quad: &Quad) -> [__m128i; 8] {
    let [q10, q32] = load(quad); // lanes [q0, q1] and [q2, q3]
    let ones = _mm_cmpeq_epi8(q10, q10);
    let both = _mm_and_si128(q10, q32); //         [ q2 &  q0,  q3 &  q1]
    let neither = _mm_xor_si128(_mm_or_si128(q10, q32), ones); // [~q2 & ~q0, ~q3 & ~q1]
    let low_only = _mm_xor_si128(q10, both); //    [~q2 &  q0, ~q3 &  q1]
    let high_only = _mm_xor_si128(q32, both); //   [ q2 & ~q0,  q3 & ~q1]
    let n31 = _mm_unpackhi_epi64(neither, neither); // ~q3 & ~q1 twice
    let b31 = _mm_unpackhi_epi64(low_only, low_only); // ~q3 &  q1 twice
    let c31 = _mm_unpackhi_epi64(high_only, high_only); // q3 & ~q1 twice
    let d31 = _mm_unpackhi_epi64(both, both); //  q3 &  q1 twice
    let e20 = _mm_unpacklo_epi64(neither, low_only); // [~q2 & ~q0, ~q2 &  q0]
    let f20 = _mm_unpacklo_epi64(high_only, both); //   [ q2 & ~q0,  q2 &  q0]
    [
        _mm_and_si128(n31, e20), // codes 0, 1
        _mm_and_si128(b31, e20), // 2, 3
        _mm_and_si128(n31, f20), // 4, 5
        _mm_and_si128(b31, f20), // 6, 7
        _mm_and_si128(c31, e20), // 8, 9
        _mm_and_si128(d31, e20), // 10, 11
        _mm_and_si128(c31, f20), // 12, 13
        _mm_and_si128(d31, f20), // 14, 15
    ]
}

#[inline]
#[features(sse2)]
pub(super) fn hex_sets(quad: &Quad) -> HexSets {
    HexSets(cast(quad2hex(quad)))
}
// ANCHOR_END: hex_sets

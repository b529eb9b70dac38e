//! Sets of squares, two per instruction: the disjoint piece sets, the article's `quad2hexBB`, and
//! the classical and dense boards.
//!
//! Producing sets two per register is cheap; a caller that then reads them one `u64` at a time
//! pays for moving each lane back to an integer register, which can cost more than the SIMD saved.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, load, swap_lanes, to_quad};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, PieceSets};

// ANCHOR: piece_sets
/// `_mm_shuffle_pd` on integer lanes: lane 0 from `a`, lane 1 from `b`, each chosen by a bit of
/// `IMM` (bit 0 for `a`, bit 1 for `b`; 0 = lane 0, 1 = lane 1).
#[inline]
#[features(sse2)]
fn pick<const IMM: i32>(a: __m128i, b: __m128i) -> __m128i {
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

// ANCHOR: classical
/// The six types two per register, straight from the planes (plane 0, the colour, is left out):
/// `[P, N]`, `[B, R]`, `[Q, K]`, each lane the AND of planes 1..3 or their complements. A xor with
/// `[ones, 0]` or `[0, ones]` complements a plane in one lane only, so both lanes of a pair come
/// from the same three ANDs. Also returns `[!q0, q0]`, the two colours.
#[inline]
#[features(sse2)]
fn type_pairs(quad: &Quad) -> ([__m128i; 3], __m128i) {
    let [q01, q23] = load(quad);
    let ones = _mm_cmpeq_epi8(q01, q01);
    let (not_lane0, not_lane1) = (_mm_move_epi64(ones), _mm_slli_si128::<8>(ones));
    let q1 = _mm_unpackhi_epi64(q01, q01);
    let q2 = _mm_unpacklo_epi64(q23, q23);
    let q3 = _mm_unpackhi_epi64(q23, q23);
    let q1_not1 = _mm_xor_si128(q1, not_lane1); // [ q1, !q1]
    let q2_not0 = _mm_xor_si128(q2, not_lane0); // [!q2,  q2]
    let q2_not1 = _mm_xor_si128(q2, not_lane1); // [ q2, !q2]
    let pn = _mm_andnot_si128(q3, _mm_and_si128(q2_not0, q1_not1)); // 001, 010
    let br = _mm_and_si128(
        _mm_xor_si128(q3, not_lane0),
        _mm_and_si128(q2_not1, q1_not1),
    ); // 011, 100
    let qk = _mm_and_si128(q3, _mm_and_si128(q2_not0, q1_not1)); // 101, 110
    let colours = _mm_xor_si128(_mm_unpacklo_epi64(q01, q01), not_lane0); // [!q0, q0]
    ([pn, br, qk], colours)
}

/// The white pieces are the type pairs with `!q0`, the black ones with `q0`.
#[inline]
#[features(sse2)]
pub(super) fn to_classical(quad: &Quad) -> ClassicalBoard {
    let (types, colours) = type_pairs(quad);
    let white = _mm_unpacklo_epi64(colours, colours);
    let black = _mm_unpackhi_epi64(colours, colours);
    let [pn, br, qk] = types;
    ClassicalBoard {
        bb: cast([
            _mm_and_si128(pn, white),
            _mm_and_si128(br, white),
            _mm_and_si128(qk, white),
            _mm_and_si128(pn, black),
            _mm_and_si128(br, black),
            _mm_and_si128(qk, black),
        ]),
    }
}

/// White and black of a type merged in one `por` for two types at once, then each plane a union
/// of three types: `[plane 1, plane 2]` = `[P, N] | [B, B] | [Q, K]`, and `[black, plane 3]`
/// from two picks of lanes.
#[inline]
#[features(sse2)]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    let [white_pn, white_br, white_qk, black_pn, black_br, black_qk]: [__m128i; 6] = cast(board.bb);
    let pn = _mm_or_si128(white_pn, black_pn);
    let br = _mm_or_si128(white_br, black_br);
    let qk = _mm_or_si128(white_qk, black_qk);
    let black = _mm_or_si128(_mm_or_si128(black_pn, black_br), black_qk); // [bP|bB|bQ, bN|bR|bK]
    let planes_12 = _mm_or_si128(_mm_or_si128(pn, _mm_unpacklo_epi64(br, br)), qk);
    // lane 0 collects the black sets, lane 1 the rooks, queens and kings
    let black_rq = pick::<0b10>(black, br); // [bP|bB|bQ, R]
    let black_k = _mm_unpackhi_epi64(black, qk); //  [bN|bR|bK, K]
    let queens = _mm_slli_si128::<8>(qk); //          [0, Q]
    let planes_03 = _mm_or_si128(_mm_or_si128(black_rq, black_k), queens);
    to_quad([
        _mm_unpacklo_epi64(planes_03, planes_12),
        _mm_unpackhi_epi64(planes_12, planes_03),
    ])
}
// ANCHOR_END: classical

// ANCHOR: dense
/// The type pairs are the six type sets; their union, folded across the lanes, is every piece,
/// and `[!q0, q0]` splits it into `[white, black]`.
#[inline]
#[features(sse2)]
pub(super) fn to_dense(quad: &Quad) -> DenseBoard {
    let ([pn, br, qk], colours) = type_pairs(quad);
    let pieces = _mm_or_si128(_mm_or_si128(pn, br), qk);
    let typed = _mm_or_si128(pieces, swap_lanes(pieces));
    DenseBoard {
        bb: cast([_mm_and_si128(typed, colours), pn, br, qk]),
    }
}

/// `[plane 1, plane 2]` = `[P, N] | [B, B] | [Q, K]`; `[typed, plane 3]` from picks of lanes, then
/// `typed & black` in lane 0 (the white set is implied and not read).
#[inline]
#[features(sse2)]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    let [colours, pn, br, qk]: [__m128i; 4] = cast(board.bb);
    let planes_12 = _mm_or_si128(_mm_or_si128(pn, _mm_unpacklo_epi64(br, br)), qk);
    let pieces = _mm_or_si128(_mm_or_si128(pn, br), qk); // [P|B|Q, N|R|K]
    let typed_r = pick::<0b10>(pieces, br); //      [P|B|Q, R]
    let typed_k = _mm_unpackhi_epi64(pieces, qk); // [N|R|K, K]
    let queens = _mm_slli_si128::<8>(qk); //        [0, Q]
    let typed_3 = _mm_or_si128(_mm_or_si128(typed_r, typed_k), queens); // [typed, R|Q|K]
    let black = _mm_unpackhi_epi64(colours, _mm_cmpeq_epi8(colours, colours)); // [black, ones]
    let planes_03 = _mm_and_si128(typed_3, black);
    to_quad([
        _mm_unpacklo_epi64(planes_03, planes_12),
        _mm_unpackhi_epi64(planes_12, planes_03),
    ])
}
// ANCHOR_END: dense

//! The other board representations, the classical twelve bitboards and the dense eight, to and
//! from the quad: the six piece types made two per register, a lane complemented by one `pxor`.
//!
//! As for the sets, reading the results one `u64` at a time pays for moving lanes out of the
//! registers.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, load, swap_lanes, to_quad};
use super::sets::pick;
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

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

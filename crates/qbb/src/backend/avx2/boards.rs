//! The other board representations, the classical twelve bitboards and the dense eight, to and
//! from the quad, four sets per instruction: `sets`' `matching` of broadcast planes one way, each
//! set broadcast and masked into the planes of its code the other way.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, from_u64s, splat, to_quad};
use super::sets::{broadcast_planes, matching};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

// ANCHOR: classical
/// The piece code of each of the twelve classical bitboards: white pawn .. king, black pawn ..
/// king.
const CLASSICAL_CODES: [u8; 12] = [2, 4, 6, 8, 10, 12, 3, 5, 7, 9, 11, 13];

/// Lane `p` all ones where `code` has bit `p`: the planes to which a set of that code contributes.
const fn planes_of(code: u8) -> [u64; 4] {
    const_table!(|p| if code >> p & 1 != 0 { !0 } else { 0 })
}

/// `planes_of` each classical code, as a constant table.
const CLASSICAL_PLANES: [[u64; 4]; 12] = const_table!([0; 4], |i| planes_of(CLASSICAL_CODES[i]));

/// Twelve sets by code, three rows of four codes, each row one `matching` of the four planes.
#[inline]
#[features(avx2)]
pub(super) fn to_classical(quad: &Quad) -> ClassicalBoard {
    let planes = broadcast_planes(quad);
    let rows = [
        matching(planes, [2, 4, 6, 8]),
        matching(planes, [10, 12, 3, 5]),
        matching(planes, [7, 9, 11, 13]),
    ];
    ClassicalBoard { bb: cast(rows) }
}

/// Each set broadcast to the four lanes and kept in the planes where its code has a bit: the
/// union over the twelve sets is the quad, lane by lane.
#[inline]
#[features(avx2)]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    let mut quad = _mm256_setzero_si256();
    for (&set, planes) in board.bb.iter().zip(CLASSICAL_PLANES) {
        let contribution = _mm256_and_si256(splat(set), from_u64s(planes));
        quad = _mm256_or_si256(quad, contribution);
    }
    to_quad(quad)
}
// ANCHOR_END: classical

// ANCHOR: dense
/// `[white, black, pawns, knights | bishops, rooks, queens, kings]`: the type sets are `matching`
/// of planes 1..3 against the type (colour ignored); the colour sets are the typed squares (any
/// type bit, but not all three) split by plane 0.
#[inline]
#[features(avx2)]
pub(super) fn to_dense(quad: &Quad) -> DenseBoard {
    let [b0, b1, b2, b3] = broadcast_planes(quad);
    let any_type = _mm256_or_si256(_mm256_or_si256(b1, b2), b3);
    let type_7 = _mm256_and_si256(_mm256_and_si256(b1, b2), b3);
    let typed = _mm256_andnot_si256(type_7, any_type);
    let colour = _mm256_xor_si256(b0, from_u64s([!0, 0, 0, 0])); // [~b0, b0, ..]
    let pawns_knights = matching([b1, b2, b3], [0, 0, 1, 2]);
    let row0 = _mm256_blend_epi32::<0b1111_0000>(_mm256_and_si256(typed, colour), pawns_knights);
    let row1 = matching([b1, b2, b3], [3, 4, 5, 6]);
    DenseBoard {
        bb: cast([row0, row1]),
    }
}

/// Each type set broadcast and kept in the planes of its type bits, plus lane 0 (the colour
/// plane) for all of them; lane 0 is then cut down to the black squares.
#[inline]
#[features(avx2)]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    let mut quad = _mm256_setzero_si256();
    for (kind, &set) in (1..=6u8).zip(&board.bb[2..]) {
        let mut lanes = planes_of(kind << 1);
        lanes[0] = !0; // every typed square, black or white, for now
        quad = _mm256_or_si256(quad, _mm256_and_si256(splat(set), from_u64s(lanes)));
    }
    let black_in_lane_0 = _mm256_blend_epi32::<0b0000_0011>(
        _mm256_set1_epi64x(-1),
        splat(board.bb[DenseBoard::BLACK]),
    );
    to_quad(_mm256_and_si256(quad, black_in_lane_0))
}
// ANCHOR_END: dense

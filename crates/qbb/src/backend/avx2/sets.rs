//! Sets from the quad and back: the disjoint piece sets, the 16 hex sets, the classical and the
//! dense boards. Four sets per instruction: each lane computes a different set from broadcast
//! planes, with per-lane constants saying which planes to take complemented.

use crate::backend::features;
use std::arch::x86_64::*;
use std::mem::transmute;

use super::lanes::{from_u64s, load, splat, to_quad};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, PieceSets};

/// Lane `j` = the squares where plane `i` of `planes` equals bit `i` of `codes[j]`, for every
/// plane given: each broadcast plane is xor-ed with all ones in the lanes whose code wants a zero
/// there, and the results are intersected.
#[inline]
#[features(avx2)]
fn matching<const N: usize>(planes: [__m256i; N], codes: [u8; 4]) -> __m256i {
    let mut set = _mm256_set1_epi64x(-1);
    for (i, plane) in planes.into_iter().enumerate() {
        let complement = codes.map(|c| if c >> i & 1 == 0 { !0 } else { 0 });
        set = _mm256_and_si256(set, _mm256_xor_si256(plane, from_u64s(complement)));
    }
    set
}

/// The four planes, each broadcast to all lanes (`vpbroadcastq` loads straight from the quad).
#[inline]
#[features(avx2)]
fn broadcast_planes(quad: &Quad) -> [__m256i; 4] {
    let [b0, b1, b2, b3] = quad.bb;
    [splat(b0), splat(b1), splat(b2), splat(b3)]
}

// ANCHOR: piece_sets
/// The article's formulas, three output rows of four sets each: `occupied` and `odd` are computed
/// in all lanes at once from broadcast planes, `vpermq` lines the planes up against them, and
/// `vpblendd` picks lanes where a row mixes formulas.
#[inline]
#[features(avx2)]
pub(super) fn piece_sets(quad: &Quad) -> PieceSets {
    let q = load(quad);
    let [b0, b1, b2, b3] = broadcast_planes(quad);
    let occupied = _mm256_or_si256(_mm256_or_si256(b1, b2), b3);
    let odd = _mm256_xor_si256(_mm256_xor_si256(b1, b2), b3); // pawn, knight or rook
    // [black, white, occupied, odd] = [b0, b0 ^ occupied, occupied, odd]
    let white = _mm256_xor_si256(b0, occupied);
    let occupied_odd = _mm256_blend_epi32::<0b1100_0000>(occupied, odd);
    let colours = _mm256_blend_epi32::<0b0000_1100>(b0, white);
    let row0 = _mm256_blend_epi32::<0b1111_0000>(colours, occupied_odd);
    // [pawns, knights, bishops, rooks] = [b1, b2, b1, b3] & [odd, odd, b2, odd]
    let b1_b2_b1_b3 = _mm256_permute4x64_epi64::<0b11_01_10_01>(q);
    let row1 = _mm256_and_si256(b1_b2_b1_b3, _mm256_blend_epi32::<0b0011_0000>(odd, q));
    // [queens, kings] = [b1, b2] & [b3, b3]
    let row2 = _mm256_and_si256(b1_b2_b1_b3, b3);
    // SAFETY: three registers are twelve u64 lanes; any bits are valid integers.
    let s = unsafe { transmute::<[__m256i; 3], [u64; 12]>([row0, row1, row2]) };
    PieceSets {
        black: s[0],
        white: s[1],
        occupied: s[2],
        odd: s[3],
        pawns: s[4],
        knights: s[5],
        bishops: s[6],
        rooks: s[7],
        queens: s[8],
        kings: s[9],
    }
}
// ANCHOR_END: piece_sets

// ANCHOR: hex_sets
/// quad2hexBB one plane per lane: the 16 sets are the intersections of the four (b1, b0)
/// patterns, `low[c & 3]`, with the four (b3, b2) patterns, `high[c >> 2]`. Both come out of one
/// `matching` each; then row `k` of the output is `low & high[k]`, `vpermq` broadcasting lane `k`
/// of `high`: 4 broadcasts, 4 xors, 2 + 4 ands and 4 permutes for all 16 sets.
#[inline]
#[features(avx2)]
pub(super) fn hex_sets(quad: &Quad) -> HexSets {
    let [b0, b1, b2, b3] = broadcast_planes(quad);
    let low = matching([b0, b1], [0, 1, 2, 3]);
    let high = matching([b2, b3], [0, 1, 2, 3]);
    let rows = [
        _mm256_and_si256(low, _mm256_permute4x64_epi64::<0x00>(high)),
        _mm256_and_si256(low, _mm256_permute4x64_epi64::<0x55>(high)),
        _mm256_and_si256(low, _mm256_permute4x64_epi64::<0xAA>(high)),
        _mm256_and_si256(low, _mm256_permute4x64_epi64::<0xFF>(high)),
    ];
    // SAFETY: four registers are sixteen u64 lanes; any bits are valid integers.
    HexSets(unsafe { transmute::<[__m256i; 4], [u64; 16]>(rows) })
}
// ANCHOR_END: hex_sets

// ANCHOR: classical
/// The piece code of each of the twelve classical bitboards: white pawn .. king, black pawn ..
/// king.
const CLASSICAL_CODES: [u8; 12] = [2, 4, 6, 8, 10, 12, 3, 5, 7, 9, 11, 13];

/// Lane `p` all ones where `code` has bit `p`: the planes to which a set of that code contributes.
const fn planes_of(code: u8) -> [u64; 4] {
    let mut lanes = [0; 4];
    let mut p = 0;
    while p < 4 {
        if code >> p & 1 != 0 {
            lanes[p] = !0;
        }
        p += 1;
    }
    lanes
}

/// `planes_of` each classical code, as a constant table.
const CLASSICAL_PLANES: [[u64; 4]; 12] = {
    let mut table = [[0; 4]; 12];
    let mut i = 0;
    while i < 12 {
        table[i] = planes_of(CLASSICAL_CODES[i]);
        i += 1;
    }
    table
};

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
    ClassicalBoard {
        // SAFETY: three registers are twelve u64 lanes; any bits are valid integers.
        bb: unsafe { transmute::<[__m256i; 3], [u64; 12]>(rows) },
    }
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
        // SAFETY: two registers are eight u64 lanes; any bits are valid integers.
        bb: unsafe { transmute::<[__m256i; 2], [u64; 8]>([row0, row1]) },
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

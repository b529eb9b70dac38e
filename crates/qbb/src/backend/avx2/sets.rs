//! Sets from the quad: the disjoint piece sets and the 16 hex sets. Four sets per instruction:
//! each lane computes a different set from broadcast planes, with per-lane constants saying which
//! planes to take complemented, and `vpermq` / `vpblendd` moving planes between lanes.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{cast, from_u64s, load, splat};
use crate::quad::Quad;
use crate::repr::{HexSets, PieceSets};

/// Lane `j` = the squares where plane `i` of `planes` equals bit `i` of `codes[j]`, for every
/// plane given: each broadcast plane is xor-ed with all ones in the lanes whose code wants a zero
/// there, and the results are intersected.
#[inline]
#[features(avx2)]
pub(super) fn matching<const N: usize>(planes: [__m256i; N], codes: [u8; 4]) -> __m256i {
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
pub(super) fn broadcast_planes(quad: &Quad) -> [__m256i; 4] {
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
    let s: [u64; 12] = cast([row0, row1, row2]);
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
    HexSets(cast(rows))
}
// ANCHOR_END: hex_sets

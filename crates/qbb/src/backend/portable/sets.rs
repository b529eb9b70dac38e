//! From the four planes to sets of squares: the article's piece sets and the sixteen code sets of
//! `quad2hexBB`. Each code's set is the intersection of one set per plane (the plane or its
//! complement), so the sets of several codes are an outer product: the four sets of two planes,
//! crossed with the sets of the other planes by two swizzles and one lane-wise `and`.

use std::simd::prelude::*;

use super::lanes::lanes;
use crate::quad::Quad;
use crate::repr::{HexSets, PieceSets};

// ANCHOR: piece_sets
/// The disjoint sets of the article: the colour sets from two reductions over the type lanes, the
/// six type sets as one `and` of two swizzles of the planes.
#[inline]
pub(super) fn piece_sets(q: &Quad) -> PieceSets {
    let planes = lanes(q);
    let types = planes & u64x4::from_array([0, !0, !0, !0]);
    let (occupied, odd) = (types.reduce_or(), types.reduce_xor());
    let black = planes[0];
    // pawns, knights, bishops, rooks, queens, kings = odd&bb1, odd&bb2, bb1&bb2, odd&bb3, bb1&bb3, bb2&bb3
    let left = simd_swizzle!(planes, [1, 2, 2, 3, 1, 2]);
    let odd_lanes = Mask::<i64, 6>::from_array([true, true, false, true, false, false]);
    let right = odd_lanes.select(Simd::splat(odd), simd_swizzle!(planes, [0, 0, 1, 0, 3, 3]));
    let [pawns, knights, bishops, rooks, queens, kings] = (left & right).to_array();
    PieceSets {
        black,
        white: black ^ occupied,
        occupied,
        odd,
        pawns,
        knights,
        bishops,
        rooks,
        queens,
        kings,
    }
}
// ANCHOR_END: piece_sets

/// The four sets of two planes `a` and `b`: `[!a & !b, a & !b, !a & b, a & b]`, lane `i` holding the
/// squares where the two bits read `i`.
#[inline(always)]
pub(super) fn two_plane_sets(a: u64, b: u64) -> u64x4 {
    const LOW_CLEAR: u64x4 = u64x4::from_array([!0, 0, !0, 0]);
    const HIGH_CLEAR: u64x4 = u64x4::from_array([!0, !0, 0, 0]);
    (u64x4::splat(a) ^ LOW_CLEAR) & (u64x4::splat(b) ^ HIGH_CLEAR)
}

// ANCHOR: hex_sets
/// `quad2hexBB` as an outer product: the four sets of planes 0 and 1, repeated, and the four sets
/// of planes 2 and 3, each broadcast over four lanes; set `4 * hi + lo` is their intersection.
#[inline]
pub(super) fn hex_sets(q: &Quad) -> HexSets {
    let [b0, b1, b2, b3] = q.bb;
    let low = two_plane_sets(b0, b1);
    let high = two_plane_sets(b2, b3);
    let low16 = simd_swizzle!(low, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
    let high16 = simd_swizzle!(high, [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    HexSets((low16 & high16).to_array())
}
// ANCHOR_END: hex_sets

//! The other representations from the planes and back: the six type sets by the outer product of
//! [`sets`](super::sets), split by colour for the classical board and kept whole for the dense one;
//! from them, the planes by broadcasting each type set into the planes its bits name.

use std::simd::prelude::*;

use super::lanes::quad;
use super::sets::two_plane_sets;
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

/// The sets of the six piece types, whatever their colour, in lanes 0..6 (pawns .. kings), from
/// the three type planes by the same outer product; lanes 6 and 7 hold types 7 and 0, which name
/// no piece.
#[inline(always)]
fn type_sets(q: &Quad) -> u64x8 {
    let [_, b1, b2, b3] = q.bb;
    let low = two_plane_sets(b1, b2);
    let high = u64x4::from_array([!b3, b3, 0, 0]);
    // Type t = low bits t & 3, high bit t >> 2, in the order 1, 2, .., 7, 0.
    simd_swizzle!(low, [1, 2, 3, 0, 1, 2, 3, 0]) & simd_swizzle!(high, [0, 0, 0, 1, 1, 1, 1, 0])
}

/// The planes of a quad from its six type sets (pawns .. kings): every type set is broadcast into
/// the type planes its bits name, and into lane 0, which so holds every typed square.
#[inline(always)]
fn planes_from_types(types: Simd<u64, 6>) -> u64x4 {
    const fn type_planes(t: u64) -> u64x4 {
        u64x4::from_array([
            !0,
            0u64.wrapping_sub(t & 1),
            0u64.wrapping_sub(t >> 1 & 1),
            0u64.wrapping_sub(t >> 2),
        ])
    }
    const MASKS: [u64x4; 6] = [
        type_planes(1),
        type_planes(2),
        type_planes(3),
        type_planes(4),
        type_planes(5),
        type_planes(6),
    ];
    let types = types.to_array();
    MASKS
        .iter()
        .zip(types)
        .fold(u64x4::splat(0), |acc, (mask, set)| {
            acc | (u64x4::splat(set) & *mask)
        })
}

// ANCHOR: classical
/// The twelve bitboards are the six type sets split by colour: one swizzle repeats them, one
/// `and` with the colour plane (or its complement) per half.
#[inline]
pub(super) fn to_classical(q: &Quad) -> ClassicalBoard {
    let types = type_sets(q);
    let black = q.bb[0];
    let twice: Simd<u64, 12> = simd_swizzle!(types, [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]);
    let colour = simd_swizzle!(
        u64x2::from_array([!black, black]),
        [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
    );
    ClassicalBoard {
        bb: (twice & colour).to_array(),
    }
}

/// Both colours of a type fold into its type set (one `or` of the two halves); plane 0 is the
/// union of the black sets (one reduction).
#[inline]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    let sets = Simd::<u64, 12>::from_array(board.bb);
    let (white, black) = (sets.extract::<0, 6>(), sets.extract::<6, 6>());
    let planes = planes_from_types(white | black);
    let colour_lane = mask64x4::from_array([true, false, false, false]);
    quad(colour_lane.select(u64x4::splat(black.reduce_or()), planes))
}
// ANCHOR_END: classical

// ANCHOR: dense
/// The six type sets are the dense board's type sets as they are; the colour sets are their union
/// split by plane 0.
#[inline]
pub(super) fn to_dense(q: &Quad) -> DenseBoard {
    let types = type_sets(q);
    let black = q.bb[0];
    let typed = types.extract::<0, 6>().reduce_or();
    let colours = u64x8::from_array([!black, black, 0, 0, 0, 0, 0, 0]) & u64x8::splat(typed);
    DenseBoard {
        bb: simd_swizzle!(colours, types, [0, 1, 8, 9, 10, 11, 12, 13]).to_array(),
    }
}

/// The type sets broadcast into the planes of their bits; plane 0 keeps the black squares that
/// have a type.
#[inline]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    let types = u64x8::from_array(board.bb).extract::<2, 6>();
    let black = board.bb[DenseBoard::BLACK];
    quad(planes_from_types(types) & u64x4::from_array([black, !0, !0, !0]))
}
// ANCHOR_END: dense

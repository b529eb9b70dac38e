//! Kogge-Stone fills with one ray per lane. The eight directions split into the four that shift
//! toward h8 (`<<`: north, north-east, east, north-west) and their opposites, which shift toward a1
//! by the same amounts (`>>`: south, south-west, west, south-east). A vector of rays is laid out
//! direction by direction: with `N` lanes, lanes `k * N/4 .. (k + 1) * N/4` follow direction `k` of
//! its group, so each lane shifts by its own count (`vpsllvq`/`vpsrlvq` when a direction has one
//! lane, a plain shift per register when it has four).

use std::simd::prelude::*;

use super::lanes::quad;
use crate::direction::Direction;
use crate::quad::Quad;

/// The directions of the group that shifts toward h8; lane for lane, [`DOWN`] holds their
/// opposites.
const UP: [Direction; 4] = [
    Direction::North,
    Direction::NorthEast,
    Direction::East,
    Direction::NorthWest,
];
const DOWN: [Direction; 4] = [
    Direction::South,
    Direction::SouthWest,
    Direction::West,
    Direction::SouthEast,
];

/// `per_direction[k]` repeated over the lanes of direction `k`.
const fn direction_lanes<const N: usize>(per_direction: [u64; 4]) -> Simd<u64, N> {
    Simd::from_array(const_table!(|i| per_direction[i / (N / 4)]))
}

const fn steps(dirs: [Direction; 4]) -> [u64; 4] {
    const_table!(|k| dirs[k].delta().unsigned_abs() as u64)
}

const fn wrap_masks(dirs: [Direction; 4]) -> [u64; 4] {
    const_table!(|k| dirs[k].wrap_mask())
}

// ANCHOR: kogge_stone
/// A group of four directions spread over `N` lanes, shifting toward h8 or toward a1. The steps
/// and wrap masks are associated constants, so that they reach the shifts as immediates.
pub(super) struct Rays<const N: usize, const TOWARD_H8: bool>;

/// North, north-east, east, north-west.
pub(super) type Up<const N: usize> = Rays<N, true>;
/// South, south-west, west, south-east: lane for lane the opposites of [`Up`].
pub(super) type Down<const N: usize> = Rays<N, false>;

impl<const N: usize, const TOWARD_H8: bool> Rays<N, TOWARD_H8> {
    const DIRECTIONS: [Direction; 4] = if TOWARD_H8 { UP } else { DOWN };
    const STEP: Simd<u64, N> = direction_lanes(steps(Self::DIRECTIONS));
    const WRAP: Simd<u64, N> = direction_lanes(wrap_masks(Self::DIRECTIONS));

    #[inline(always)]
    fn shift(bb: Simd<u64, N>, by: Simd<u64, N>) -> Simd<u64, N> {
        if TOWARD_H8 { bb << by } else { bb >> by }
    }

    /// The occluded fill of every lane: three doubling steps, as the scalar `occluded_fill`,
    /// each lane in its own direction.
    #[inline(always)]
    fn occluded_fill(mut fill: Simd<u64, N>, empty: Simd<u64, N>) -> Simd<u64, N> {
        let step = Self::STEP;
        let mut pro = empty & Self::WRAP;
        fill |= pro & Self::shift(fill, step);
        pro &= Self::shift(pro, step);
        fill |= pro & Self::shift(fill, step * Simd::splat(2));
        pro &= Self::shift(pro, step * Simd::splat(2));
        fill | (pro & Self::shift(fill, step * Simd::splat(4)))
    }

    /// Ray attacks: the occluded fill one step further, so that it includes the blocker.
    #[inline(always)]
    pub(super) fn attacks(sliders: Simd<u64, N>, empty: Simd<u64, N>) -> Simd<u64, N> {
        Self::shift(Self::occluded_fill(sliders, empty), Self::STEP) & Self::WRAP
    }
}
// ANCHOR_END: kogge_stone

// ANCHOR: occluded_fills
/// All eight directions of all four planes in two 16-lane vectors (four registers each with AVX2,
/// two with AVX-512): the planes repeated once per direction of a group.
#[inline]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    let planes = u64x4::from_array(generators.bb);
    let repeated = simd_swizzle!(planes, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
    let empty = u64x16::splat(empty);
    let up = Up::occluded_fill(repeated, empty);
    let down = Down::occluded_fill(repeated, empty);
    [
        quad(up.extract::<0, 4>()),    // north
        quad(up.extract::<4, 4>()),    // north-east
        quad(up.extract::<8, 4>()),    // east
        quad(down.extract::<12, 4>()), // south-east
        quad(down.extract::<0, 4>()),  // south
        quad(down.extract::<4, 4>()),  // south-west
        quad(down.extract::<8, 4>()),  // west
        quad(up.extract::<12, 4>()),   // north-west
    ]
}
// ANCHOR_END: occluded_fills

//! Kogge-Stone fills with one ray per lane. The eight directions split into the four that shift
//! toward h8 (`<<`: north, north-east, east, north-west) and their opposites, which shift toward a1
//! by the same amounts (`>>`: south, south-west, west, south-east). A vector of rays is laid out
//! direction by direction: with `N` lanes, lanes `k * N/4 .. (k + 1) * N/4` follow direction `k` of
//! its group, so each lane shifts by its own count (`vpsllvq`/`vpsrlvq` when a direction has one
//! lane, a plain shift per register when it has four).

use std::simd::prelude::*;

use super::quad;
use crate::direction::Direction;
use crate::king_safety::{KingSafety, SliderPosition};
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
    let mut lanes = [0; N];
    let mut i = 0;
    while i < N {
        lanes[i] = per_direction[i / (N / 4)];
        i += 1;
    }
    Simd::from_array(lanes)
}

const fn steps(dirs: [Direction; 4]) -> [u64; 4] {
    let mut out = [0; 4];
    let mut k = 0;
    while k < 4 {
        out[k] = dirs[k].delta().unsigned_abs() as u64;
        k += 1;
    }
    out
}

const fn wrap_masks(dirs: [Direction; 4]) -> [u64; 4] {
    let mut out = [0; 4];
    let mut k = 0;
    while k < 4 {
        out[k] = dirs[k].wrap_mask();
        k += 1;
    }
    out
}

// ANCHOR: kogge_stone
/// A group of four directions spread over `N` lanes, shifting toward h8 or toward a1. The steps
/// and wrap masks are associated constants, so that they reach the shifts as immediates.
struct Rays<const N: usize, const TOWARD_H8: bool>;

/// North, north-east, east, north-west.
type Up<const N: usize> = Rays<N, true>;
/// South, south-west, west, south-east: lane for lane the opposites of [`Up`].
type Down<const N: usize> = Rays<N, false>;

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
    fn attacks(sliders: Simd<u64, N>, empty: Simd<u64, N>) -> Simd<u64, N> {
        Self::shift(Self::occluded_fill(sliders, empty), Self::STEP) & Self::WRAP
    }
}
// ANCHOR_END: kogge_stone

// ANCHOR: occluded_fills
/// All eight directions of all four planes in two 16-lane vectors (four registers each with AVX2,
/// two with AVX-512): the planes repeated once per direction of a group.
#[inline]
pub fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
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

// ANCHOR: slider_attacks
/// The AVX2 article's four directions at once, with Kogge-Stone instead of Dumb7Fill: rook-wise
/// sliders in the orthogonal lanes, bishop-wise in the diagonal ones, one vector per group.
#[inline]
pub fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64 {
    let sliders = u64x4::from_array([orth, diag, orth, diag]);
    let empty = u64x4::splat(empty);
    (Up::attacks(sliders, empty) | Down::attacks(sliders, empty)).reduce_or()
}
// ANCHOR_END: slider_attacks

// ANCHOR: knight_attacks
/// The AVX2 article's knight attacks: four jumps to the left, four to the right, lane `i` of both
/// landing on files that `MASKS[i]` allows.
#[inline]
pub fn knight_attacks(knights: u64) -> u64 {
    use crate::direction::{NOT_A, NOT_AB, NOT_GH, NOT_H};
    const LEFT: u64x4 = u64x4::from_array([17, 10, 15, 6]); // noNoEa, noEaEa, noNoWe, noWeWe
    const RIGHT: u64x4 = u64x4::from_array([15, 6, 17, 10]); // soSoEa, soEaEa, soSoWe, soWeWe
    const MASKS: u64x4 = u64x4::from_array([NOT_A, NOT_AB, NOT_H, NOT_GH]);
    let n = u64x4::splat(knights);
    (((n << LEFT) | (n >> RIGHT)) & MASKS).reduce_or()
}
// ANCHOR_END: knight_attacks

// ANCHOR: checks_and_pins
/// Both kings at once. Per direction four lanes: the white king, the black king, the enemy sliders
/// of the white king and those of the black king (rook-wise or bishop-wise as the direction). Two
/// 16-lane ray computations (toward h8 and toward a1) give every ray; a king's ray meets the
/// sliders' ray of the opposite direction, which sits in the other vector.
#[inline]
pub fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
    let [wk, bk] = p.kings;
    let [wo, bo] = p.orth;
    let [wd, bd] = p.diag;
    let [wp, bp] = p.pieces;
    #[rustfmt::skip]
    let sets = u64x16::from_array([
        wk, bk, bo, wo, // north / south
        wk, bk, bd, wd, // north-east / south-west
        wk, bk, bo, wo, // east / west
        wk, bk, bd, wd, // north-west / south-east
    ]);
    let empty = u64x16::splat(!p.occupied());
    let up = Up::attacks(sets, empty);
    let down = Down::attacks(sets, empty);
    // Per direction: [white king up, black king up, white king down, black king down] ...
    #[rustfmt::skip]
    let kings = simd_swizzle!(up, down, [
        0, 1, 16, 17, 4, 5, 20, 21, 8, 9, 24, 25, 12, 13, 28, 29,
    ]);
    // ... against the sliders' rays looking back: down for a king looking up and vice versa.
    #[rustfmt::skip]
    let sliders = simd_swizzle!(up, down, [
        18, 19, 2, 3, 22, 23, 6, 7, 26, 27, 10, 11, 30, 31, 14, 15,
    ]);
    let slider_sets = simd_swizzle!(
        sets,
        [2, 3, 2, 3, 6, 7, 6, 7, 10, 11, 10, 11, 14, 15, 14, 15]
    );
    let between = kings & sliders;
    // Lanes alternate white, black: the pieces of the lane's king and those of the other side.
    let colours = u64x2::from_array([wp, bp]);
    let own = simd_swizzle!(colours, [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
    let enemy = simd_swizzle!(colours, [1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    let checkers = by_colour(kings & slider_sets);
    let blocks = by_colour(between & empty);
    let pinned = by_colour(between & own);
    let discoverers = by_colour(between & enemy);
    [0, 1].map(|c| KingSafety {
        checkers: checkers[c],
        check_mask: blocks[c] | checkers[c],
        pinned: pinned[c],
        discoverers: discoverers[c],
    })
}

/// Folds lanes that alternate white, black into `[white, black]` by or-ing halves.
#[inline(always)]
fn by_colour(lanes: u64x16) -> u64x2 {
    let eight = lanes.extract::<0, 8>() | lanes.extract::<8, 8>();
    let four = eight.extract::<0, 4>() | eight.extract::<4, 4>();
    four.extract::<0, 2>() | four.extract::<2, 2>()
}
// ANCHOR_END: checks_and_pins

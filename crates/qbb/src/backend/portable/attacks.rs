//! Attacks: the rays of [`fills`](super::fills) for sliders and for Isenberg's checks and pins,
//! and the knight's eight jumps in two vectors of four lanes.

use std::simd::prelude::*;

use super::fills::{Down, Up};
use crate::king_safety::{KingSafety, SliderPosition};

// ANCHOR: slider_attacks
/// The AVX2 article's four directions at once, with Kogge-Stone instead of Dumb7Fill: rook-wise
/// sliders in the orthogonal lanes, bishop-wise in the diagonal ones, one vector per group.
#[inline]
pub(super) fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64 {
    let sliders = u64x4::from_array([orth, diag, orth, diag]);
    let empty = u64x4::splat(empty);
    (Up::attacks(sliders, empty) | Down::attacks(sliders, empty)).reduce_or()
}
// ANCHOR_END: slider_attacks

// ANCHOR: knight_attacks
/// The AVX2 article's knight attacks: four jumps to the left, four to the right, lane `i` of both
/// landing on files that `MASKS[i]` allows.
#[inline]
pub(super) fn knight_attacks(knights: u64) -> u64 {
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
pub(super) fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
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

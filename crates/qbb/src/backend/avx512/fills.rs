//! Occluded fills, eight directions at once: one 512-bit register holds a bitboard per compass
//! direction.
//!
//! A shift cannot move lanes by different amounts in different directions, but a rotation can:
//! `vprolvq` rotates every lane left by its own count, and a step of `d` squares (negative for
//! south and west) is a rotation by `d mod 64`. The bits that a shift would drop come back in at
//! the other end of the board instead; they land on squares that a step in that direction can
//! never reach (the first rank for a step north, the a-file for a step east), so the same mask
//! that stops a shift from wrapping around the a/h files also removes them, once it excludes
//! those ranks too. `vpternlogq` then does the Kogge-Stone step `fill |= pro & rotated` in one
//! instruction.

use crate::backend::features;
use core::arch::x86_64::*;

use super::lanes::{A, B, C, qwords, splat};
use crate::direction::Direction;
use crate::quad::Quad;

pub(super) const RANK_1: u64 = 0xFF;
pub(super) const RANK_8: u64 = 0xFF << 56;

// ANCHOR: occluded_fills
/// The left rotation that moves a bitboard `n` steps in each direction, lanes in
/// [`Direction::ALL`] order.
const fn rotations(n: i32) -> [u64; 8] {
    const_table!(|i| (n * Direction::ALL[i].delta()).rem_euclid(64) as u64)
}

pub(super) const STEP_1: [u64; 8] = rotations(1);
const STEP_2: [u64; 8] = rotations(2);
const STEP_4: [u64; 8] = rotations(4);

/// The squares a one-step move in each direction can land on: the file masks of the shift
/// version, and no first rank for the northward steps or eighth rank for the southward ones.
pub(super) const LANDING: [u64; 8] = const_table!(|i| {
    let dir = Direction::ALL[i];
    let rank_wrap = match dir {
        Direction::North | Direction::NorthEast | Direction::NorthWest => RANK_1,
        Direction::South | Direction::SouthEast | Direction::SouthWest => RANK_8,
        Direction::East | Direction::West => 0,
    };
    dir.wrap_mask() & !rank_wrap
});

/// The propagators of the three doubling steps. They depend only on the empty squares, so all
/// the fills of one position share them: `one` = empty squares a step can land on, `two` = those
/// whose predecessor is one too, `four` = those with three such predecessors.
#[derive(Copy, Clone)]
pub(super) struct Propagators {
    one: __m512i,
    two: __m512i,
    four: __m512i,
}

#[inline]
#[features(avx512)]
pub(super) fn propagators(empty: u64) -> Propagators {
    let one = _mm512_and_si512(splat(empty), qwords(&LANDING));
    let two = _mm512_and_si512(one, _mm512_rolv_epi64(one, qwords(&STEP_1)));
    let four = _mm512_and_si512(two, _mm512_rolv_epi64(two, qwords(&STEP_2)));
    Propagators { one, two, four }
}

/// Kogge-Stone occluded fill of eight generators, each in its lane's direction: three doubling
/// steps of `fill |= pro & rotate(fill)`, one `vprolvq` and one `vpternlogq` each.
#[inline]
#[features(avx512)]
pub(super) fn fill(generators: __m512i, pro: Propagators) -> __m512i {
    let step = |fill, pro, rotation| {
        _mm512_ternarylogic_epi64::<{ A | (B & C) }>(fill, pro, _mm512_rolv_epi64(fill, rotation))
    };
    let fill = step(generators, pro.one, qwords(&STEP_1));
    let fill = step(fill, pro.two, qwords(&STEP_2));
    step(fill, pro.four, qwords(&STEP_4))
}

/// Interleaves two registers' lanes pairwise (`vpermt2q`; index 8 + i is lane `i` of the second).
const ZIP_LOW: [u64; 8] = [0, 8, 1, 9, 2, 10, 3, 11];
const ZIP_HIGH: [u64; 8] = [4, 12, 5, 13, 6, 14, 7, 15];
/// Interleaves two registers' lane pairs.
const ZIP_PAIRS_LOW: [u64; 8] = [0, 1, 8, 9, 2, 3, 10, 11];
const ZIP_PAIRS_HIGH: [u64; 8] = [4, 5, 12, 13, 6, 7, 14, 15];

/// The fills of the four planes, one register per plane (lanes = directions), transposed to the
/// output's order, one quad per direction (two directions per register): a 4x8 transpose of
/// 64-bit lanes in two rounds of `vpermt2q`.
#[inline]
#[features(avx512)]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    let pro = propagators(empty);
    let [g0, g1, g2, g3] = generators.bb;
    let (f0, f1) = (fill(splat(g0), pro), fill(splat(g1), pro));
    let (f2, f3) = (fill(splat(g2), pro), fill(splat(g3), pro));
    // Planes 0, 1 (and 2, 3) zipped: lanes [d0 p0, d0 p1, d1 p0, d1 p1, ..] for d = 0..3 and 4..7.
    let zip = |x, y, index: &[u64; 8]| _mm512_permutex2var_epi64(x, qwords(index), y);
    let (p01_low, p01_high) = (zip(f0, f1, &ZIP_LOW), zip(f0, f1, &ZIP_HIGH));
    let (p23_low, p23_high) = (zip(f2, f3, &ZIP_LOW), zip(f2, f3, &ZIP_HIGH));
    let directions = [
        zip(p01_low, p23_low, &ZIP_PAIRS_LOW),
        zip(p01_low, p23_low, &ZIP_PAIRS_HIGH),
        zip(p01_high, p23_high, &ZIP_PAIRS_LOW),
        zip(p01_high, p23_high, &ZIP_PAIRS_HIGH),
    ];
    let mut out = [Quad::EMPTY; 8];
    let lanes: *mut u64 = out.as_mut_ptr().cast();
    for (k, two_directions) in directions.into_iter().enumerate() {
        // SAFETY: `[Quad; 8]` is 32 `u64`, 32-byte aligned; store `k` writes `u64`s 8k..8k+8.
        unsafe { _mm512_storeu_si512(lanes.add(8 * k).cast(), two_directions) };
    }
    out
}
// ANCHOR_END: occluded_fills

#[cfg(test)]
mod tests {
    use super::*;

    /// The rotation tables say the same as the shifts of the scalar reference, on every square,
    /// without needing an AVX-512 CPU: a rotation masked by `LANDING` is a one-step shift.
    #[test]
    fn masked_rotations_are_shifts() {
        for (i, dir) in Direction::ALL.into_iter().enumerate() {
            for s in 0..64 {
                let bb = 1u64 << s;
                let rotated = bb.rotate_left(STEP_1[i] as u32) & LANDING[i];
                assert_eq!(rotated, dir.shift(bb), "{dir:?} from square {s}");
            }
        }
    }
}

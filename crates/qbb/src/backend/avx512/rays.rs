//! Eight directions at once: one 512-bit register holds a bitboard per compass direction.
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

use super::vector::{A, B, C, or_lanes, qwords, splat};
use crate::direction::{Direction, FILE_A, FILE_H};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;

const RANK_1: u64 = 0xFF;
const RANK_8: u64 = 0xFF << 56;

// ANCHOR: occluded_fills
/// The left rotation that moves a bitboard `n` steps in each direction, lanes in
/// [`Direction::ALL`] order.
const fn rotations(n: i32) -> [u64; 8] {
    let mut out = [0; 8];
    let mut i = 0;
    while i < 8 {
        out[i] = (n * Direction::ALL[i].delta()).rem_euclid(64) as u64;
        i += 1;
    }
    out
}

const STEP_1: [u64; 8] = rotations(1);
const STEP_2: [u64; 8] = rotations(2);
const STEP_4: [u64; 8] = rotations(4);

/// The squares a one-step move in each direction can land on: the file masks of the shift
/// version, and no first rank for the northward steps or eighth rank for the southward ones.
const LANDING: [u64; 8] = {
    let mut out = [0; 8];
    let mut i = 0;
    while i < 8 {
        let dir = Direction::ALL[i];
        let rank_wrap = match dir {
            Direction::North | Direction::NorthEast | Direction::NorthWest => RANK_1,
            Direction::South | Direction::SouthEast | Direction::SouthWest => RANK_8,
            Direction::East | Direction::West => 0,
        };
        out[i] = dir.wrap_mask() & !rank_wrap;
        i += 1;
    }
    out
};

/// The propagators of the three doubling steps. They depend only on the empty squares, so all
/// the fills of one position share them: `one` = empty squares a step can land on, `two` = those
/// whose predecessor is one too, `four` = those with three such predecessors.
#[derive(Copy, Clone)]
struct Propagators {
    one: __m512i,
    two: __m512i,
    four: __m512i,
}

#[inline]
#[features(avx512)]
fn propagators(empty: u64) -> Propagators {
    let one = _mm512_and_si512(splat(empty), qwords(&LANDING));
    let two = _mm512_and_si512(one, _mm512_rolv_epi64(one, qwords(&STEP_1)));
    let four = _mm512_and_si512(two, _mm512_rolv_epi64(two, qwords(&STEP_2)));
    Propagators { one, two, four }
}

/// Kogge-Stone occluded fill of eight generators, each in its lane's direction: three doubling
/// steps of `fill |= pro & rotate(fill)`, one `vprolvq` and one `vpternlogq` each.
#[inline]
#[features(avx512)]
fn fill(generators: __m512i, pro: Propagators) -> __m512i {
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

// ANCHOR: slider_attacks
/// Directions alternate orthogonal, diagonal in compass order: the odd lanes are the diagonals.
const DIAGONAL_LANES: __mmask8 = 0b1010_1010;

/// One step beyond the fill: each lane's ray attacks, blockers included.
#[inline]
#[features(avx512)]
fn rays(generators: __m512i, pro: Propagators) -> __m512i {
    let filled = fill(generators, pro);
    _mm512_and_si512(_mm512_rolv_epi64(filled, qwords(&STEP_1)), qwords(&LANDING))
}

/// The orthogonal sliders in the even lanes, the diagonal ones in the odd lanes.
#[inline]
#[features(avx512)]
fn sliders_by_direction(orth: u64, diag: u64) -> __m512i {
    _mm512_mask_set1_epi64(splat(orth), DIAGONAL_LANES, diag as i64)
}

/// All eight rays in one fill, then the union of the lanes.
#[inline]
#[features(avx512)]
pub(super) fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64 {
    or_lanes(rays(sliders_by_direction(orth, diag), propagators(empty)))
}
// ANCHOR_END: slider_attacks

// ANCHOR: knight_attacks
/// The eight knight jumps as (files east, ranks north).
const JUMPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, 2),
    (-2, 1),
    (-2, -1),
    (-1, -2),
];

/// The left rotation of each jump.
const JUMP_ROTATIONS: [u64; 8] = {
    let mut out = [0; 8];
    let mut i = 0;
    while i < 8 {
        let (east, north) = JUMPS[i];
        out[i] = (8 * north + east).rem_euclid(64) as u64;
        i += 1;
    }
    out
};

/// The squares each jump can land on: not the files it jumps in from across the edge, not the
/// ranks a rotation wraps into.
const JUMP_LANDING: [u64; 8] = {
    let mut out = [0; 8];
    let mut i = 0;
    while i < 8 {
        let (east, north) = JUMPS[i];
        let files = match east {
            1 => FILE_A,
            2 => FILE_A | FILE_A << 1,
            -1 => FILE_H,
            _ => FILE_H | FILE_H >> 1,
        };
        let ranks = match north {
            2 => RANK_1 | RANK_1 << 8,
            1 => RANK_1,
            -1 => RANK_8,
            _ => RANK_8 | RANK_8 >> 8,
        };
        out[i] = !(files | ranks);
        i += 1;
    }
    out
};

/// All eight jumps at once: one rotation, one mask, one union of the lanes.
#[inline]
#[features(avx512)]
pub(super) fn knight_attacks(knights: u64) -> u64 {
    let jumped = _mm512_rolv_epi64(splat(knights), qwords(&JUMP_ROTATIONS));
    or_lanes(_mm512_and_si512(jumped, qwords(&JUMP_LANDING)))
}
// ANCHOR_END: knight_attacks

// ANCHOR: checks_and_pins
/// What one king sees, per direction: `(checkers, between)` where `between` is covered both by
/// the king's ray and by the enemy sliders' ray looking back. Lane `d + 4` is the direction
/// opposite to lane `d`, so the sliders' rays are swapped 256-bit halves of their fill.
#[inline]
#[features(avx512)]
fn king_lines(king: u64, sliders: __m512i, pro: Propagators) -> (__m512i, __m512i) {
    let from_king = rays(splat(king), pro);
    let sliders_look = rays(sliders, pro);
    let from_sliders = _mm512_shuffle_i64x2::<0b01_00_11_10>(sliders_look, sliders_look);
    let checkers = _mm512_and_si512(from_king, sliders);
    (checkers, _mm512_and_si512(from_king, from_sliders))
}

/// The unions of the lanes of four registers at once: halves, quarters, then pairs folded with a
/// shared shuffle at each level; the result of register `i` ends in lanes `2i` and `2i + 1`.
#[inline]
#[features(avx512)]
fn or_lanes_of_four(v: [__m512i; 4]) -> [u64; 4] {
    let halves = |x, y| {
        _mm512_or_si512(
            _mm512_shuffle_i64x2::<0b01_00_01_00>(x, y),
            _mm512_shuffle_i64x2::<0b11_10_11_10>(x, y),
        )
    };
    let (v01, v23) = (halves(v[0], v[1]), halves(v[2], v[3]));
    let quarters = _mm512_or_si512(
        _mm512_shuffle_i64x2::<0b10_00_10_00>(v01, v23),
        _mm512_shuffle_i64x2::<0b11_01_11_01>(v01, v23),
    );
    let pairs = _mm512_or_si512(quarters, _mm512_shuffle_epi32::<0b01_00_11_10>(quarters));
    let mut lanes = [0u64; 8];
    // SAFETY: `lanes` is eight `u64`: the unaligned store writes exactly them.
    unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), pairs) };
    [lanes[0], lanes[2], lanes[4], lanes[6]]
}

/// Isenberg's in-between sets for both kings: four eight-direction fills sharing one set of
/// propagators, and one reduction tree for the four unions.
#[inline]
#[features(avx512)]
pub(super) fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
    let empty = !p.occupied();
    let pro = propagators(empty);
    let black_sliders = sliders_by_direction(p.orth[1], p.diag[1]);
    let white_sliders = sliders_by_direction(p.orth[0], p.diag[0]);
    let (white_checkers, white_between) = king_lines(p.kings[0], black_sliders, pro);
    let (black_checkers, black_between) = king_lines(p.kings[1], white_sliders, pro);
    let [checkers_w, between_w, checkers_b, between_b] =
        or_lanes_of_four([white_checkers, white_between, black_checkers, black_between]);
    let safety = |checkers: u64, between: u64, ours: u64, theirs: u64| KingSafety {
        checkers,
        check_mask: (between & empty) | checkers,
        pinned: between & ours,
        discoverers: between & theirs,
    };
    [
        safety(checkers_w, between_w, p.pieces[0], p.pieces[1]),
        safety(checkers_b, between_b, p.pieces[1], p.pieces[0]),
    ]
}
// ANCHOR_END: checks_and_pins

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Backend, Scalar};

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
        for s in 0..64 {
            let bb = 1u64 << s;
            let jumps = (0..8).fold(0, |acc, i| {
                acc | bb.rotate_left(JUMP_ROTATIONS[i] as u32) & JUMP_LANDING[i]
            });
            assert_eq!(jumps, Scalar.knight_attacks(bb), "knight on square {s}");
        }
    }

    /// Lane `d + 4` is the opposite of lane `d`, which the half swap of `king_lines` relies on.
    #[test]
    fn opposite_directions_are_four_lanes_apart() {
        for (i, dir) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(dir.opposite(), Direction::ALL[(i + 4) % 8]);
            assert_eq!(dir.is_diagonal(), DIAGONAL_LANES >> i & 1 == 1);
        }
    }
}

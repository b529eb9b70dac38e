//! Attacks, eight directions at once: the rotations and propagators of `fills` give each lane's
//! rays, one `vprolvq` makes all eight knight jumps, and one reduction unites the lanes.

use crate::backend::features;
use core::arch::x86_64::*;

use super::fills::{LANDING, Propagators, RANK_1, RANK_8, STEP_1, fill, propagators};
use super::lanes::{or_lanes, qwords, splat};
use crate::direction::{FILE_A, FILE_H};
use crate::king_safety::{KingSafety, SliderPosition};

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
const JUMP_ROTATIONS: [u64; 8] = const_table!(|i| {
    let (east, north) = JUMPS[i];
    (8 * north + east).rem_euclid(64) as u64
});

/// The squares each jump can land on: not the files it jumps in from across the edge, not the
/// ranks a rotation wraps into.
const JUMP_LANDING: [u64; 8] = const_table!(|i| {
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
    !(files | ranks)
});

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
    use crate::direction::Direction;

    /// The jump tables say the same as the scalar reference, on every square, without needing an
    /// AVX-512 CPU: the eight masked rotations are the knight's attacks.
    #[test]
    fn masked_jumps_are_knight_attacks() {
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

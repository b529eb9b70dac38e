//! Kogge-Stone fills two planes per register, and Isenberg's checks and pins.
//!
//! SSE2 shifts both 64-bit lanes of a register by the same count (there is no per-lane shift
//! before AVX2), so the two lanes of a fill must want the same direction. Several generator sets
//! filled in one direction are the natural fit (the article's quad `nortOccl`). A single set is
//! not: pairing its directions takes a mirrored copy (`pshufb`) or blended shifts, which cost more
//! than the second lane saves, so slider and knight attacks come from the swar backend.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, pair, splat, swap_lanes, to_quad};
use crate::direction::Direction;
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;

// ANCHOR: occluded_fills
/// Both lanes moved by `N` squares, towards higher squares if `UP` (a constant, so the
/// immediate form of `psllq`/`psrlq`).
#[inline]
#[features(sse2)]
fn step<const UP: bool, const N: i32>(x: __m128i) -> __m128i {
    if UP {
        _mm_slli_epi64::<N>(x)
    } else {
        _mm_srli_epi64::<N>(x)
    }
}

/// Kogge-Stone over `K` registers of generators with one propagator: three doubling steps of
/// `S`, `2S` and `4S` squares, the propagator's own steps paid once for all registers. With `ray`
/// the fill goes one step further, onto the blocker.
#[inline]
#[features(sse2)]
fn kogge_stone<const UP: bool, const S: i32, const S2: i32, const S4: i32, const K: usize>(
    mut fills: [__m128i; K],
    empty: __m128i,
    wrap: __m128i,
    ray: bool,
) -> [__m128i; K] {
    let mut pro = _mm_and_si128(empty, wrap);
    for f in &mut fills {
        *f = _mm_or_si128(*f, _mm_and_si128(pro, step::<UP, S>(*f)));
    }
    pro = _mm_and_si128(pro, step::<UP, S>(pro));
    for f in &mut fills {
        *f = _mm_or_si128(*f, _mm_and_si128(pro, step::<UP, S2>(*f)));
    }
    pro = _mm_and_si128(pro, step::<UP, S2>(pro));
    for f in &mut fills {
        *f = _mm_or_si128(*f, _mm_and_si128(pro, step::<UP, S4>(*f)));
        if ray {
            *f = _mm_and_si128(step::<UP, S>(*f), wrap);
        }
    }
    fills
}

/// The fill (or with `ray` the ray attacks) of `K` registers in direction `dir`; the match folds
/// away when `dir` is a constant.
#[inline]
#[features(sse2)]
fn along<const K: usize>(
    fills: [__m128i; K],
    empty: __m128i,
    dir: Direction,
    ray: bool,
) -> [__m128i; K] {
    let wrap = splat(dir.wrap_mask());
    match dir {
        Direction::North => kogge_stone::<true, 8, 16, 32, K>(fills, empty, wrap, ray),
        Direction::NorthEast => kogge_stone::<true, 9, 18, 36, K>(fills, empty, wrap, ray),
        Direction::East => kogge_stone::<true, 1, 2, 4, K>(fills, empty, wrap, ray),
        Direction::SouthEast => kogge_stone::<false, 7, 14, 28, K>(fills, empty, wrap, ray),
        Direction::South => kogge_stone::<false, 8, 16, 32, K>(fills, empty, wrap, ray),
        Direction::SouthWest => kogge_stone::<false, 9, 18, 36, K>(fills, empty, wrap, ray),
        Direction::West => kogge_stone::<false, 1, 2, 4, K>(fills, empty, wrap, ray),
        Direction::NorthWest => kogge_stone::<true, 7, 14, 28, K>(fills, empty, wrap, ray),
    }
}

/// All eight directions, each a two-register fill of the quad.
#[inline]
#[features(sse2)]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    let (quad, empty) = (load(generators), splat(empty));
    Direction::ALL.map(|dir| to_quad(along(quad, empty, dir, false)))
}
// ANCHOR_END: occluded_fills

// ANCHOR: checks_and_pins
/// Isenberg's quad as two registers, `[white king, black king]` and `[white sliders, black
/// sliders]` of the line's kind, filled once in each direction of the line. Each king's ray meets
/// the *enemy* sliders' ray from the other side, so the slider register is read with its lanes
/// exchanged; every set of the result is then one `pand` for both kings.
#[inline]
#[features(sse2)]
pub(super) fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
    let empty = splat(!p.occupied());
    let kings = pair(p.kings[0], p.kings[1]);
    let own = pair(p.pieces[0], p.pieces[1]);
    let theirs = swap_lanes(own);
    let zero = _mm_setzero_si128();
    let (mut checkers, mut check_mask, mut pinned, mut discoverers) = (zero, zero, zero, zero);
    for dir in [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
    ] {
        let sliders = if dir.is_diagonal() { p.diag } else { p.orth };
        let enemy_sliders = pair(sliders[1], sliders[0]);
        let quad = [kings, pair(sliders[0], sliders[1])];
        let forth = along(quad, empty, dir, true);
        let back = along(quad, empty, dir.opposite(), true);
        for (king_rays, slider_rays) in [(forth[0], back[1]), (back[0], forth[1])] {
            let between = _mm_and_si128(king_rays, swap_lanes(slider_rays));
            checkers = _mm_or_si128(checkers, _mm_and_si128(king_rays, enemy_sliders));
            check_mask = _mm_or_si128(check_mask, _mm_and_si128(between, empty));
            pinned = _mm_or_si128(pinned, _mm_and_si128(between, own));
            discoverers = _mm_or_si128(discoverers, _mm_and_si128(between, theirs));
        }
    }
    check_mask = _mm_or_si128(check_mask, checkers);
    let lanes = |v: __m128i| {
        [
            _mm_cvtsi128_si64(v) as u64,
            _mm_extract_epi64::<1>(v) as u64,
        ]
    };
    let (c, m, pi, d) = (
        lanes(checkers),
        lanes(check_mask),
        lanes(pinned),
        lanes(discoverers),
    );
    [0, 1].map(|us| KingSafety {
        checkers: c[us],
        check_mask: m[us],
        pinned: pi[us],
        discoverers: d[us],
    })
}
// ANCHOR_END: checks_and_pins

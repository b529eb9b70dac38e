//! Occluded fills, Kogge-Stone two planes per register: `psllq` / `psrlq` move both 64-bit lanes
//! at once, so a quad's four generator sets fill in two registers.
//!
//! SSE2 shifts both 64-bit lanes of a register by the same count (there is no per-lane shift
//! before AVX2), so the two lanes of a fill must want the same direction. Several generator sets
//! filled in one direction are the natural fit (the article's quad `nortOccl`). A single set is
//! not: pairing its directions takes a mirrored copy (`pshufb`) or blended shifts, which cost more
//! than the second lane saves, so slider and knight attacks come from the swar backend.

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, splat, to_quad};
use crate::direction::Direction;
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
pub(super) fn along<const K: usize>(
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

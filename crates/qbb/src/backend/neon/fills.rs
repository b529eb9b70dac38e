//! Occluded fills, Kogge-Stone two planes per register: `shl` / `ushr` by an immediate move both
//! 64-bit lanes at once, so a quad's four generator sets fill in two registers, one propagator
//! shared by both.
//!
//! NEON could shift each lane by its own count (`ushl`), which would let one register hold two
//! directions of one set; the quad's four sets in one direction need no such pairing, and the
//! immediate shifts keep every step one instruction.

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::{load, splat, to_quad};
use crate::direction::Direction;
use crate::quad::Quad;

// ANCHOR: occluded_fills
/// Both lanes moved by `N` squares, towards higher squares if `UP` (a constant, so the
/// immediate forms `shl` / `ushr`).
#[inline]
#[features(neon)]
fn step<const UP: bool, const N: i32>(x: uint64x2_t) -> uint64x2_t {
    if UP {
        vshlq_n_u64::<N>(x)
    } else {
        vshrq_n_u64::<N>(x)
    }
}

/// Kogge-Stone over `K` registers of generators with one propagator: three doubling steps of
/// `S`, `2S` and `4S` squares, the propagator's own steps paid once for all registers. With `ray`
/// the fill goes one step further, onto the blocker.
#[inline]
#[features(neon)]
fn kogge_stone<const UP: bool, const S: i32, const S2: i32, const S4: i32, const K: usize>(
    mut fills: [uint64x2_t; K],
    empty: uint64x2_t,
    wrap: uint64x2_t,
    ray: bool,
) -> [uint64x2_t; K] {
    let mut pro = vandq_u64(empty, wrap);
    for f in &mut fills {
        *f = vorrq_u64(*f, vandq_u64(pro, step::<UP, S>(*f)));
    }
    pro = vandq_u64(pro, step::<UP, S>(pro));
    for f in &mut fills {
        *f = vorrq_u64(*f, vandq_u64(pro, step::<UP, S2>(*f)));
    }
    pro = vandq_u64(pro, step::<UP, S2>(pro));
    for f in &mut fills {
        *f = vorrq_u64(*f, vandq_u64(pro, step::<UP, S4>(*f)));
        if ray {
            *f = vandq_u64(step::<UP, S>(*f), wrap);
        }
    }
    fills
}

/// The fill (or with `ray` the ray attacks) of `K` registers in direction `dir`; the match folds
/// away when `dir` is a constant.
#[inline]
#[features(neon)]
pub(super) fn along<const K: usize>(
    fills: [uint64x2_t; K],
    empty: uint64x2_t,
    dir: Direction,
    ray: bool,
) -> [uint64x2_t; K] {
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
#[features(neon)]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    let (quad, empty) = (load(generators), splat(empty));
    Direction::ALL.map(|dir| to_quad(along(quad, empty, dir, false)))
}
// ANCHOR_END: occluded_fills

//! Kogge-Stone occluded fills written for the quad: the generator sets share one propagator, and
//! each direction's shifts are constants.

use crate::direction::Direction;
use crate::quad::Quad;

// ANCHOR: occluded_fills
/// `bb` moved by `STEP` squares towards higher squares (north and east positive): a constant
/// shift, so no shift count is computed at run time.
#[inline(always)]
const fn shift<const STEP: i32>(bb: u64) -> u64 {
    if STEP > 0 {
        bb.wrapping_shl(STEP as u32)
    } else {
        bb.wrapping_shr(STEP.unsigned_abs())
    }
}

/// The article's `nortOccl` for any direction: the generator sets (four for a quad) share one
/// propagator, so its own two doubling steps (`pro &= pro << 8`, `<< 16`) are paid once per
/// direction, not once per set. With `RAY`, the fill goes one step further, onto the blocker.
#[inline(always)]
fn kogge_stone<const S: i32, const S2: i32, const S4: i32, const RAY: bool, const N: usize>(
    mut fills: [u64; N],
    empty: u64,
    wrap: u64,
) -> [u64; N] {
    let mut pro = empty & wrap;
    for g in &mut fills {
        *g |= pro & shift::<S>(*g);
    }
    pro &= shift::<S>(pro);
    for g in &mut fills {
        *g |= pro & shift::<S2>(*g);
    }
    pro &= shift::<S2>(pro);
    for g in &mut fills {
        *g |= pro & shift::<S4>(*g);
        if RAY {
            *g = shift::<S>(*g) & wrap;
        }
    }
    fills
}

/// The fills (or with `RAY` the ray attacks) of `N` sets in direction `dir`, each direction
/// with its shifts as constants; the match folds away when `dir` is a constant.
#[inline(always)]
pub(super) fn along<const RAY: bool, const N: usize>(
    sets: [u64; N],
    empty: u64,
    dir: Direction,
) -> [u64; N] {
    let wrap = dir.wrap_mask();
    match dir {
        Direction::North => kogge_stone::<8, 16, 32, RAY, N>(sets, empty, wrap),
        Direction::NorthEast => kogge_stone::<9, 18, 36, RAY, N>(sets, empty, wrap),
        Direction::East => kogge_stone::<1, 2, 4, RAY, N>(sets, empty, wrap),
        Direction::SouthEast => kogge_stone::<-7, -14, -28, RAY, N>(sets, empty, wrap),
        Direction::South => kogge_stone::<-8, -16, -32, RAY, N>(sets, empty, wrap),
        Direction::SouthWest => kogge_stone::<-9, -18, -36, RAY, N>(sets, empty, wrap),
        Direction::West => kogge_stone::<-1, -2, -4, RAY, N>(sets, empty, wrap),
        Direction::NorthWest => kogge_stone::<7, 14, 28, RAY, N>(sets, empty, wrap),
    }
}

/// The eight directions written out by `Direction::map`, so that each is compiled with its own
/// constant shifts.
// Always inlined, like the trait's forwarding method: large enough that LLVM would keep it out
// of line, compiled for baseline x86-64 even when called from the avx2 region (`swar-v3`).
#[inline(always)]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    Direction::map(|dir| Quad {
        bb: along::<false, 4>(generators.bb, empty, dir),
    })
}
// ANCHOR_END: occluded_fills

//! Kogge-Stone occluded fills: one generator set in one direction, and four sets in all eight.

use crate::direction::Direction;
use crate::quad::Quad;

// ANCHOR: occluded_fills
#[inline]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    Direction::ALL.map(|dir| Quad {
        bb: generators.bb.map(|g| occluded_fill(g, empty, dir)),
    })
}
// ANCHOR_END: occluded_fills

// ANCHOR: occluded_fill
/// Kogge-Stone occluded fill of one generator set in one direction: three doubling steps, the
/// propagator shifted along so that each step covers twice the distance of the one before.
#[inline]
pub fn occluded_fill(mut fill: u64, empty: u64, dir: Direction) -> u64 {
    let mut pro = empty & dir.wrap_mask();
    let step = dir.delta();
    let shift = |bb: u64, n: i32| if n > 0 { bb << n } else { bb >> -n };
    fill |= pro & shift(fill, step);
    pro &= shift(pro, step);
    fill |= pro & shift(fill, 2 * step);
    pro &= shift(pro, 2 * step);
    fill |= pro & shift(fill, 4 * step);
    fill
}
// ANCHOR_END: occluded_fill

//! Occluded fills of the quad, one plane per lane: the article's `QBB` Kogge-Stone with the four
//! generator sets in one register, shifted by the same amount in every lane (`vpsllq` / `vpsrlq`).

use crate::backend::features;
use std::arch::x86_64::*;

use super::lanes::{load, splat, to_quad};
use crate::direction::Direction;
use crate::quad::Quad;

// ANCHOR: occluded_fills
/// Kogge-Stone with the quad as the article's `QBB`: four generator sets, one per lane, filled in
/// one direction by shifts that are the same in every lane, so the propagator is simply broadcast.
/// (Filling the four directions of one plane per register instead would share the propagators
/// across planes but need 4x4 transposes to return one quad per direction.)
#[inline]
#[features(avx2)]
fn occluded_fill(generators: __m256i, empty: u64, dir: Direction) -> __m256i {
    let step = dir.delta();
    let shift = |bb: __m256i, n: i32| {
        let count = _mm_cvtsi32_si128(n.abs());
        if n > 0 {
            _mm256_sll_epi64(bb, count)
        } else {
            _mm256_srl_epi64(bb, count)
        }
    };
    let mut pro = splat(empty & dir.wrap_mask());
    let mut fill = generators;
    fill = _mm256_or_si256(fill, _mm256_and_si256(pro, shift(fill, step)));
    pro = _mm256_and_si256(pro, shift(pro, step));
    fill = _mm256_or_si256(fill, _mm256_and_si256(pro, shift(fill, 2 * step)));
    pro = _mm256_and_si256(pro, shift(pro, 2 * step));
    _mm256_or_si256(fill, _mm256_and_si256(pro, shift(fill, 4 * step)))
}

#[inline]
#[features(avx2)]
pub(super) fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8] {
    let g = load(generators);
    // `Direction::map` writes the eight calls out, so that each direction's shifts are constants
    // (immediate `vpsllq` / `vpsrlq`) instead of a loop over a table of directions.
    Direction::map(|dir| to_quad(occluded_fill(g, empty, dir)))
}
// ANCHOR_END: occluded_fills

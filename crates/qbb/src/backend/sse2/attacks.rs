//! Attacks: Isenberg's checks and pins with both kings in the two lanes of a register, filled by
//! the Kogge-Stone of `fills`; slider and knight attacks of one set come from the swar backend,
//! since a single bitboard does not fill two lanes (see mod.rs).

use crate::backend::features;
use std::arch::x86_64::*;

use super::fills::along;
use super::lanes::{pair, splat, swap_lanes};
use crate::direction::Direction;
use crate::king_safety::{KingSafety, SliderPosition};

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

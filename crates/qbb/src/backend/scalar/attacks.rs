//! Attacks: slider rays from the occluded fill, knight jumps, and Isenberg's checks and pins.

use super::fills::occluded_fill;
use crate::direction::{Direction, NOT_A, NOT_AB, NOT_GH, NOT_H};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::piece::Color;

// ANCHOR: slider_attacks
#[inline]
pub(super) fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64 {
    let orth_attacks = Direction::ORTHOGONAL
        .iter()
        .fold(0, |acc, &d| acc | ray_attacks(orth, empty, d));
    let diag_attacks = Direction::DIAGONAL
        .iter()
        .fold(0, |acc, &d| acc | ray_attacks(diag, empty, d));
    orth_attacks | diag_attacks
}
// ANCHOR_END: slider_attacks

// ANCHOR: knight_attacks
#[inline]
pub(super) fn knight_attacks(knights: u64) -> u64 {
    let n = knights;
    ((n << 17) & NOT_A)   // noNoEa
        | ((n << 10) & NOT_AB)  // noEaEa
        | ((n >> 6) & NOT_AB)   // soEaEa
        | ((n >> 15) & NOT_A)   // soSoEa
        | ((n << 15) & NOT_H)   // noNoWe
        | ((n << 6) & NOT_GH)   // noWeWe
        | ((n >> 10) & NOT_GH)  // soWeWe
        | ((n >> 17) & NOT_H) // soSoWe
}
// ANCHOR_END: knight_attacks

// ANCHOR: checks_and_pins
// Always inlined, like the trait's forwarding method: large enough that LLVM would keep it out
// of line, compiled for baseline x86-64 even when called from the avx2 region (`scalar-v3`).
#[inline(always)]
pub(super) fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
    let empty = !p.occupied();
    [Color::White, Color::Black].map(|us| {
        let (c, e) = (us.index(), us.other().index());
        let mut out = KingSafety::default();
        for dir in Direction::ALL {
            let sliders = if dir.is_diagonal() {
                p.diag[e]
            } else {
                p.orth[e]
            };
            // The king looks along `dir`; the sliders look back along the opposite ray.
            let from_king = ray_attacks(p.kings[c], empty, dir);
            let from_sliders = ray_attacks(sliders, empty, dir.opposite());
            let between = from_king & from_sliders;
            out.checkers |= from_king & sliders;
            out.check_mask |= between & empty;
            out.pinned |= between & p.pieces[c];
            out.discoverers |= between & p.pieces[e];
        }
        out.check_mask |= out.checkers;
        out
    })
}
// ANCHOR_END: checks_and_pins

// ANCHOR: ray_attacks
/// Ray attacks: the occluded fill shifted one step further (it then includes the blocker).
#[inline]
pub fn ray_attacks(sliders: u64, empty: u64, dir: Direction) -> u64 {
    dir.shift(occluded_fill(sliders, empty, dir))
}
// ANCHOR_END: ray_attacks

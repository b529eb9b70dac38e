//! Attacks: east rays by subtraction and the others by the fills of [`fills`](super::fills), knight
//! attacks in two stages, and Isenberg's checks and pins as quad fills.

use super::fills::along;
use crate::direction::{Direction, NOT_A};
use crate::king_safety::{KingSafety, SliderPosition};

// ANCHOR: slider_attacks
/// East rays of all `sliders` at once by subtraction, rank by rank: in `occ - 2 * sliders` the
/// borrow of each slider runs up to the first occupied square east of it, flipping every bit on
/// the way, and `occ ^ ...` keeps exactly those flipped bits. The subtraction is the Nibble
/// article's SWAR sub with 8-bit lanes (`H` = the top bit of every byte), so no borrow leaves its
/// rank. Sliders count as occupied: a ray stops at the next slider, which continues it.
#[inline(always)]
fn east_attacks(sliders: u64, empty: u64) -> u64 {
    const H: u64 = 0x8080_8080_8080_8080;
    let occ = !empty | sliders;
    let twice = (sliders << 1) & NOT_A; // a slider on the h-file has no east ray
    let diff = ((occ | H).wrapping_sub(twice & !H)) ^ ((occ ^ !twice) & H);
    occ ^ diff
}

/// Seven Kogge-Stone rays and one subtraction. Only east gains from subtracting: west would need
/// the bits of every rank reversed first, and north-south lines are not contiguous bits.
#[inline]
pub(super) fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64 {
    let ks = |set: u64, dir: Direction| along::<true, 1>([set], empty, dir)[0];
    east_attacks(orth, empty)
        | ks(orth, Direction::North)
        | ks(orth, Direction::South)
        | ks(orth, Direction::West)
        | ks(diag, Direction::NorthEast)
        | ks(diag, Direction::SouthEast)
        | ks(diag, Direction::SouthWest)
        | ks(diag, Direction::NorthWest)
}
// ANCHOR_END: slider_attacks

// ANCHOR: knight_attacks
/// Two stages: first every knight's neighbours one and two files away on its own rank (four
/// masked shifts), then those rows moved two and one ranks up and down (four plain shifts, which
/// cannot wrap): 17 operations where the eight jumps one by one take 23.
#[inline]
pub(super) fn knight_attacks(knights: u64) -> u64 {
    let one = ((knights >> 1) & 0x7F7F_7F7F_7F7F_7F7F) | ((knights << 1) & 0xFEFE_FEFE_FEFE_FEFE);
    let two = ((knights >> 2) & 0x3F3F_3F3F_3F3F_3F3F) | ((knights << 2) & 0xFCFC_FCFC_FCFC_FCFC);
    (one << 16) | (one >> 16) | (two << 8) | (two >> 8)
}
// ANCHOR_END: knight_attacks

// ANCHOR: checks_and_pins
/// Isenberg's disjoint coding as a quad: both kings and the sliders of both colours that move
/// along the line are filled together, once in each direction of the line (8 quad fills in all).
/// The king's ray one way met by the enemy sliders' ray the other way is the in-between set.
// Always inlined, like the trait's forwarding method: large enough that LLVM would keep it out
// of line, compiled for baseline x86-64 even when called from the avx2 region (`swar-v3`).
#[inline(always)]
pub(super) fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
    let empty = !p.occupied();
    let mut out = [KingSafety::default(); 2];
    // written out, not looped: each line then has its shifts as constants
    line(&mut out, p, empty, Direction::North);
    line(&mut out, p, empty, Direction::NorthEast);
    line(&mut out, p, empty, Direction::East);
    line(&mut out, p, empty, Direction::SouthEast);
    for safety in &mut out {
        safety.check_mask |= safety.checkers;
    }
    out
}

/// One line: the quad filled along `dir` and back, each king's ray met by the enemy sliders' ray.
#[inline(always)]
fn line(out: &mut [KingSafety; 2], p: &SliderPosition, empty: u64, dir: Direction) {
    let sliders = if dir.is_diagonal() { p.diag } else { p.orth };
    let quad = [p.kings[0], p.kings[1], sliders[0], sliders[1]];
    let forth = along::<true, 4>(quad, empty, dir);
    let back = along::<true, 4>(quad, empty, dir.opposite());
    for (king_rays, slider_rays) in [(forth, back), (back, forth)] {
        for (us, safety) in out.iter_mut().enumerate() {
            let them = 1 - us;
            let between = king_rays[us] & slider_rays[2 + them];
            safety.checkers |= king_rays[us] & sliders[them];
            safety.check_mask |= between & empty;
            safety.pinned |= between & p.pieces[us];
            safety.discoverers |= between & p.pieces[them];
        }
    }
}
// ANCHOR_END: checks_and_pins

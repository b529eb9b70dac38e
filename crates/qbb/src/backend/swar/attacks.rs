//! Attacks: Kogge-Stone fills written for the quad, east rays by subtraction, knight attacks in two
//! stages, and Isenberg's checks and pins as quad fills.

use crate::direction::{Direction, NOT_A};
use crate::king_safety::{KingSafety, SliderPosition};

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
fn along<const RAY: bool, const N: usize>(sets: [u64; N], empty: u64, dir: Direction) -> [u64; N] {
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

/// The eight directions written out, so that each is compiled with its own constant shifts.
#[inline]
pub fn occluded_fills(generators: &[u64; 4], empty: u64) -> [[u64; 4]; 8] {
    let fill = |dir| along::<false, 4>(*generators, empty, dir);
    [
        fill(Direction::North),
        fill(Direction::NorthEast),
        fill(Direction::East),
        fill(Direction::SouthEast),
        fill(Direction::South),
        fill(Direction::SouthWest),
        fill(Direction::West),
        fill(Direction::NorthWest),
    ]
}
// ANCHOR_END: occluded_fills

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
pub fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64 {
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
pub fn knight_attacks(knights: u64) -> u64 {
    let one = ((knights >> 1) & 0x7F7F_7F7F_7F7F_7F7F) | ((knights << 1) & 0xFEFE_FEFE_FEFE_FEFE);
    let two = ((knights >> 2) & 0x3F3F_3F3F_3F3F_3F3F) | ((knights << 2) & 0xFCFC_FCFC_FCFC_FCFC);
    (one << 16) | (one >> 16) | (two << 8) | (two >> 8)
}
// ANCHOR_END: knight_attacks

// ANCHOR: checks_and_pins
/// Isenberg's disjoint coding as a quad: both kings and the sliders of both colours that move
/// along the line are filled together, once in each direction of the line (8 quad fills in all).
/// The king's ray one way met by the enemy sliders' ray the other way is the in-between set.
#[inline]
pub fn checks_and_pins(p: &SliderPosition) -> [KingSafety; 2] {
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

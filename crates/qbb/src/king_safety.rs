//! Checks and pins by Gerd Isenberg's disjoint coding (catalogue row 12).
//!
//! For each king, the squares "in between" it and the enemy sliders come from two opposite ray fills
//! intersected: `leftFill(king) & rightFill(slider)`. Where nothing stands between them the slider
//! gives check and the in-between squares are where the check can be blocked; where exactly one piece
//! stands between them, that piece is pinned (if it is the king's) or a discovered checker (if it is
//! the slider's).

use crate::repr::PieceSets;

/// The pieces the routine looks at, by side: each array holds side 0's set, then side 1's.
///
/// The routine treats the two sides alike (no set moves in one direction), so what a side is, is up
/// to the caller:
/// - in the catalogue's absolute orientation (the conformance kit, the benchmarks) the side is the
///   colour: index 0 = white, 1 = black, as [`Color::index`](crate::Color::index) numbers them;
/// - in a relative orientation, as the engine keeps its board (the side to move always plays up
///   the board), index 0 = the side to move ("us"), 1 = the opponent ("them").
///
/// `orth` are the sliders that move like rooks (rooks and queens), `diag` those that move like bishops
/// (bishops and queens), `pieces` every piece of that side. The occupancy is the union of all sets,
/// so the routine is defined for any input, not only for chess positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct SliderPosition {
    pub kings: [u64; 2],
    pub orth: [u64; 2],
    pub diag: [u64; 2],
    pub pieces: [u64; 2],
}

impl SliderPosition {
    /// A position's sliders in the catalogue's absolute orientation: side 0 = white, 1 = black.
    pub fn by_colour(sets: &PieceSets) -> SliderPosition {
        let by_colour = |set: u64| [set & sets.white, set & sets.black];
        SliderPosition {
            kings: by_colour(sets.kings),
            orth: by_colour(sets.rooks | sets.queens),
            diag: by_colour(sets.bishops | sets.queens),
            pieces: [sets.white, sets.black],
        }
    }

    /// Everything that blocks a ray.
    #[inline(always)]
    pub const fn occupied(&self) -> u64 {
        self.kings[0]
            | self.kings[1]
            | self.orth[0]
            | self.orth[1]
            | self.diag[0]
            | self.diag[1]
            | self.pieces[0]
            | self.pieces[1]
    }
}

/// What threatens one king (of side `c`) along the lines, with `e` the other side.
///
/// `checks_and_pins` answers one per side, in the order of [`SliderPosition`]'s arrays: answer 0
/// is about the king of side 0 (white in the absolute orientation, the side to move in the
/// engine's relative one), answer 1 about the king of side 1.
///
/// With `kray(d)` the ray attacks of the king in direction `d` and `sray(d)` the ray attacks of the
/// matching enemy sliders in the opposite direction (both stop at the first blocker, which they
/// include):
/// - `checkers`: enemy sliders that `kray` reaches;
/// - `check_mask`: `checkers` plus the empty squares that both `kray(d)` and `sray(d)` cover (the
///   squares on which a check can be blocked);
/// - `pinned`: pieces of side `c` covered by both `kray(d)` and `sray(d)`;
/// - `discoverers`: pieces of side `e` covered by both (moving one gives a discovered check).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct KingSafety {
    pub checkers: u64,
    pub check_mask: u64,
    pub pinned: u64,
    pub discoverers: u64,
}

//! Where the legal move generator takes its slider attacks, its check mask and its pins from.
//!
//! By default ([`Attacks::Tables`]) from the engine's own per-square tables (`attacks.rs`): PEXT
//! lookups (on the backends whose token proves BMI2) or the obstruction difference for one slider
//! at a time, and Isenberg's in-between sets for the squares between the king and a checker or a
//! pinner. With [`Attacks::Backend`] the same
//! answers come from the backend's set-wise routines: `slider_attacks` (catalogue row 10) run on a
//! single slider, and `checks_and_pins` (row 12) for the checkers, the squares that block a
//! check and the pinned pieces. Both give the same legal moves, so perft can time one against the
//! other inside the engine.

use qbb::{Backend, SliderPosition, Square, Squares};

use crate::board::attacks::Tables;

/// The choice of source for the legal move generator (`qbb perft --attacks`, UCI option
/// `Attacks`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Attacks {
    /// The engine's own tables.
    #[default]
    Tables,
    /// The backend's `slider_attacks` and `checks_and_pins`.
    Backend,
}

impl Attacks {
    pub const ALL: [Attacks; 2] = [Attacks::Tables, Attacks::Backend];

    /// The name used on the command line and in UCI.
    pub const fn name(self) -> &'static str {
        match self {
            Attacks::Tables => "tables",
            Attacks::Backend => "backend",
        }
    }
}

/// An attack source name that is neither `tables` nor `backend`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown attack source `{0}`: expected `tables` or `backend`")]
pub struct UnknownAttacks(pub String);

qbb::display_and_parse_by_name!(Attacks, name, UnknownAttacks = UnknownAttacks);

/// Our king and the sliders around it, as `checks_and_pins` reads them: in `sliders` index 0 is
/// the side to move ("us"), 1 the opponent.
#[derive(Copy, Clone)]
pub(crate) struct KingLines {
    pub king: Square,
    pub sliders: SliderPosition,
}

/// What the enemy sliders do to our king.
#[derive(Copy, Clone)]
pub(crate) struct SliderThreats {
    /// The enemy sliders that give check.
    pub checkers: u64,
    /// When one slider gives check: the checker and the squares between it and the king (where
    /// the check is captured or blocked). Empty when no slider checks.
    pub block: u64,
    /// Our pieces that stand alone between the king and an enemy slider on its line.
    pub pinned: u64,
    /// What the threats were found from, for following a pin.
    pub lines: KingLines,
}

/// One source of attacks for the generator.
pub(crate) trait AttackSource: Copy {
    /// The squares a rook on `sq` attacks with `occupied` blocking (blockers included).
    fn rook<B: Backend>(self, b: B, t: &Tables, sq: Square, occupied: u64) -> u64;
    /// The squares a bishop on `sq` attacks with `occupied` blocking (blockers included).
    fn bishop<B: Backend>(self, b: B, t: &Tables, sq: Square, occupied: u64) -> u64;
    /// Every square the sliders of `orth` (rook-like) and `diag` (bishop-like) attack with
    /// `occupied` blocking.
    fn sliders<B: Backend>(self, b: B, t: &Tables, orth: u64, diag: u64, occupied: u64) -> u64;
    /// The checks and pins the enemy sliders of `lines` give our king.
    fn threats<B: Backend>(self, b: B, t: &Tables, lines: KingLines) -> SliderThreats;
    /// The squares the pinned piece on `from` may move to without leaving the king exposed (a
    /// superset is allowed: the piece's own attacks restrict it further). Only asked for pieces
    /// of `threats.pinned`.
    fn pin_line<B: Backend>(self, b: B, t: &Tables, threats: &SliderThreats, from: Square) -> u64;
}

/// The engine's tables, one slider and one pair of squares at a time.
#[derive(Copy, Clone)]
pub(crate) struct TableAttacks;

impl AttackSource for TableAttacks {
    #[inline(always)]
    fn sliders<B: Backend>(self, b: B, t: &Tables, orth: u64, diag: u64, occupied: u64) -> u64 {
        let mut attacked = 0;
        for sq in Squares(orth) {
            attacked |= t.rook(b, sq, occupied);
        }
        for sq in Squares(diag) {
            attacked |= t.bishop(b, sq, occupied);
        }
        attacked
    }

    #[inline(always)]
    fn rook<B: Backend>(self, b: B, t: &Tables, sq: Square, occupied: u64) -> u64 {
        t.rook(b, sq, occupied)
    }

    #[inline(always)]
    fn bishop<B: Backend>(self, b: B, t: &Tables, sq: Square, occupied: u64) -> u64 {
        t.bishop(b, sq, occupied)
    }

    #[inline(always)]
    fn threats<B: Backend>(self, _b: B, t: &Tables, lines: KingLines) -> SliderThreats {
        let KingLines { king, sliders } = lines;
        let occupied = sliders.occupied();
        // The enemy sliders on an empty-board line of their kind through the king (usually none)
        // decide both: with nothing in between a sniper gives check, with exactly one piece in
        // between that piece, if ours, is pinned. No slider attack is looked up.
        let snipers =
            (t.rook_rays[king] & sliders.orth[1]) | (t.bishop_rays[king] & sliders.diag[1]);
        let (mut checkers, mut pinned) = (0, 0);
        for sniper in Squares(snipers) {
            let between = t.between[king][sniper] & occupied;
            if between == 0 {
                checkers |= sniper.bit();
            } else if between & between.wrapping_sub(1) == 0 {
                pinned |= between & sliders.pieces[0];
            }
        }
        let block = if checkers != 0 {
            t.between[king][Square::from_index_masked(checkers.trailing_zeros())] | checkers
        } else {
            0
        };
        SliderThreats {
            checkers,
            block,
            pinned,
            lines,
        }
    }

    #[inline(always)]
    fn pin_line<B: Backend>(self, _b: B, t: &Tables, threats: &SliderThreats, from: Square) -> u64 {
        // The whole line through the king and the piece; in check it meets the check's squares
        // only on the king, so the piece gets no move.
        t.line[threats.lines.king][from]
    }
}

/// The backend's set-wise routines.
#[derive(Copy, Clone)]
pub(crate) struct BackendAttacks;

impl AttackSource for BackendAttacks {
    #[inline(always)]
    fn sliders<B: Backend>(self, b: B, _t: &Tables, orth: u64, diag: u64, occupied: u64) -> u64 {
        b.slider_attacks(orth, diag, !occupied)
    }

    #[inline(always)]
    fn rook<B: Backend>(self, b: B, _t: &Tables, sq: Square, occupied: u64) -> u64 {
        b.slider_attacks(sq.bit(), 0, !occupied)
    }

    #[inline(always)]
    fn bishop<B: Backend>(self, b: B, _t: &Tables, sq: Square, occupied: u64) -> u64 {
        b.slider_attacks(0, sq.bit(), !occupied)
    }

    #[inline(always)]
    fn threats<B: Backend>(self, b: B, _t: &Tables, lines: KingLines) -> SliderThreats {
        // Index 0 of the answer is about the king of index 0 of the input: ours.
        let ours = b.checks_and_pins(&lines.sliders)[0];
        SliderThreats {
            checkers: ours.checkers,
            block: ours.check_mask,
            pinned: ours.pinned,
            lines,
        }
    }

    #[inline(always)]
    fn pin_line<B: Backend>(self, b: B, _t: &Tables, threats: &SliderThreats, from: Square) -> u64 {
        // With the pinned piece gone its pinner gives check: the squares that would block that
        // check, and the pinner itself, are where the piece may go. A check already on the board
        // runs along another line through the king, and is taken out again: a pinned piece
        // cannot answer it.
        let bit = from.bit();
        let mut without = threats.lines.sliders;
        without.pieces[0] &= !bit;
        without.orth[0] &= !bit;
        without.diag[0] &= !bit;
        b.checks_and_pins(&without)[0].check_mask & !threats.block
    }
}

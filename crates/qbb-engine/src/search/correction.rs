//! Correction history: what the searches of a game learned about the static evaluation's
//! errors, by pawn structure.
//!
//! The evaluation of a position is often wrong the same way in every position of one pawn
//! structure (a blocked centre, a passed pawn the network under-rates). After a node is
//! searched, the gap between its score and its static evaluation is blended into an entry for
//! its pawns, and every later static evaluation of those pawns is moved by the entry. Pruning
//! and the improving flag read the corrected evaluation; the scores the search returns still
//! come from searches.
//!
//! The board is kept relative to the side to move, so one pawn structure seen by white and its
//! mirror seen by black are the same entry.

use crate::board::Position;
use crate::eval::score::{MATE_BOUND, Score, is_mate};
use qbb::PieceType;

/// Entries in the table (a power of two): 32 KiB.
const ENTRIES: usize = 16_384;
/// An entry holds centipawns times this, so that small blends are not lost to rounding.
const GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const LIMIT: i32 = 64;
/// A node's weight in the blend, out of `BLEND`, grows with its depth up to `MAX_WEIGHT`.
const BLEND: i32 = 256;
const MAX_WEIGHT: i32 = 16;

/// The corrections by pawn structure, for one search thread, kept through a game.
#[derive(Debug)]
pub struct CorrectionHistory {
    entries: Box<[i32; ENTRIES]>,
}

impl Default for CorrectionHistory {
    fn default() -> CorrectionHistory {
        CorrectionHistory {
            entries: Box::new([0; ENTRIES]),
        }
    }
}

impl CorrectionHistory {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(0);
    }

    /// `raw`, the static evaluation of `pos`, moved by what its pawn structure has shown.
    #[inline(always)]
    pub fn correct(&self, pos: &Position, raw: Score) -> Score {
        (raw + self.entries[slot(pos)] / GRAIN).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// Learns from a node `depth` deep searched to `score`, whose static evaluation was `raw`
    /// (uncorrected): a score at least `beta` is a lower bound, one that found no best move an
    /// upper bound. Only a bound on the right side of `raw` says which way it erred, and a node
    /// decided by a capture or a mate says more about tactics than about the evaluation.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub fn learn(
        &mut self,
        pos: &Position,
        depth: i32,
        raw: Score,
        score: Score,
        beta: Score,
        found_best: bool,
        tactical_best: bool,
    ) {
        let lower_bound = score >= beta;
        let upper_bound = !lower_bound && !found_best;
        if tactical_best
            || is_mate(score)
            || (lower_bound && score <= raw)
            || (upper_bound && score >= raw)
        {
            return;
        }
        let target = (score - raw).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(MAX_WEIGHT);
        let entry = &mut self.entries[slot(pos)];
        *entry = (*entry * (BLEND - weight) + target * weight) / BLEND;
    }
}

/// The table slot of `pos`'s pawns: each side's pawn squares multiplied by an odd constant (the
/// high bits of a product depend on every bit below them) and the top bits kept.
#[inline(always)]
fn slot(pos: &Position) -> usize {
    let pawns = pos.of_type(PieceType::Pawn);
    let ours = (pawns & pos.us()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let theirs = (pawns & pos.them()).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((ours ^ theirs) >> (64 - ENTRIES.trailing_zeros())) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn a_lower_bound_above_the_evaluation_raises_the_pawn_structures_evaluations() {
        let mut history = CorrectionHistory::default();
        let p = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        for _ in 0..200 {
            history.learn(&p, 10, 0, 40, 30, true, false);
        }
        let corrected = history.correct(&p, 0);
        assert!((35..=40).contains(&corrected), "{corrected}");
        // Another position of the same pawns shares the entry; other pawns do not.
        let same_pawns = pos("3rk3/pp6/8/8/8/8/PP6/3RK3 w - - 0 1");
        assert_eq!(history.correct(&same_pawns, 0), corrected);
        let other_pawns = pos("4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1");
        assert_eq!(history.correct(&other_pawns, 0), 0);
    }

    #[test]
    fn the_mirrored_structure_with_the_other_side_to_move_shares_the_entry() {
        let mut history = CorrectionHistory::default();
        let white = pos("4k3/p7/8/8/8/8/PPP5/4K3 w - - 0 1");
        let black = pos("4k3/ppp5/8/8/8/8/P7/4K3 b - - 0 1");
        history.learn(&white, 10, 0, -50, 100, false, false);
        assert!(history.correct(&black, 0) < 0);
        assert_eq!(history.correct(&black, 0), history.correct(&white, 0));
    }

    #[test]
    fn bounds_on_the_wrong_side_captures_and_mates_teach_nothing() {
        let mut history = CorrectionHistory::default();
        let p = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        // A lower bound below the evaluation, an upper bound above it.
        history.learn(&p, 10, 50, 40, 30, true, false);
        history.learn(&p, 10, 50, 60, 100, false, false);
        // A capture's line, a mate.
        history.learn(&p, 10, 0, 300, 200, true, true);
        history.learn(&p, 10, 0, crate::eval::score::mate_in(3), 200, true, false);
        assert_eq!(history.correct(&p, 7), 7);
    }

    #[test]
    fn the_correction_stays_within_its_limit() {
        let mut history = CorrectionHistory::default();
        let p = pos("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        for _ in 0..1000 {
            history.learn(&p, 30, 0, 2_000, 100, true, false);
        }
        let corrected = history.correct(&p, 0);
        assert!((LIMIT - 1..=LIMIT).contains(&corrected), "{corrected}");
    }
}

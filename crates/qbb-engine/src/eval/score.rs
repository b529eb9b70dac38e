//! Scores in centipawns from the side to move's point of view, and mate scores.
//!
//! A mate is scored `MATE - plies` (mating) or `-MATE + plies` (being mated), counting plies from
//! the root, so that a shorter mate scores higher. The transposition table stores mate scores
//! counted from the stored node instead, because the same position can be reached at different
//! distances from the root.

use std::fmt;

/// A search score: centipawns, or a mate score.
pub type Score = i32;

/// The deepest ply the search ever reaches (also the size of its per-ply tables).
pub const MAX_PLY: usize = 128;

/// The score of a mate at the root itself; a mate `n` plies away scores `MATE - n`.
pub const MATE: Score = 31_000;
/// Any score beyond this (in absolute value) is a mate score.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// Above every score: the initial window.
pub const INFINITY: Score = MATE + 1;
pub const DRAW: Score = 0;

/// The score of giving mate `plies` plies from the root.
#[inline]
pub const fn mate_in(plies: usize) -> Score {
    MATE - plies as Score
}

/// The score of being mated `plies` plies from the root.
#[inline]
pub const fn mated_in(plies: usize) -> Score {
    -MATE + plies as Score
}

#[inline]
pub const fn is_mate(score: Score) -> bool {
    score.abs() > MATE_BOUND
}

/// A score found `ply` plies from the root, as the table stores it (mates counted from the node).
#[inline]
pub const fn to_table(score: Score, ply: usize) -> Score {
    if score > MATE_BOUND {
        score + ply as Score
    } else if score < -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`to_table`] for a node `ply` plies from the root.
#[inline]
pub const fn from_table(score: Score, ply: usize) -> Score {
    if score > MATE_BOUND {
        score - ply as Score
    } else if score < -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// A score as UCI writes it: `cp 35`, `mate 3` (mating in three moves), `mate -2`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct UciScore(pub Score);

impl fmt::Display for UciScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        if s > MATE_BOUND {
            write!(f, "mate {}", (MATE - s + 1) / 2)
        } else if s < -MATE_BOUND {
            write!(f, "mate {}", -((MATE + s) / 2))
        } else {
            write!(f, "cp {s}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_are_written_in_moves() {
        assert_eq!(UciScore(mate_in(1)).to_string(), "mate 1");
        assert_eq!(UciScore(mate_in(3)).to_string(), "mate 2");
        assert_eq!(UciScore(mated_in(0)).to_string(), "mate 0");
        assert_eq!(UciScore(mated_in(2)).to_string(), "mate -1");
        assert_eq!(UciScore(mated_in(4)).to_string(), "mate -2");
        assert_eq!(UciScore(-35).to_string(), "cp -35");
    }

    #[test]
    fn table_round_trip() {
        for score in [0, 250, -900, mate_in(7), mated_in(12)] {
            for ply in [0, 1, 9, 40] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
        assert_eq!(to_table(mate_in(9), 4), mate_in(5));
        assert!(is_mate(mated_in(MAX_PLY - 1)) && !is_mate(3_000));
    }
}

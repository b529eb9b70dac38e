//! What a search may spend: the limits of a UCI `go` command turned into a time budget.
//!
//! Two deadlines come out of the clock: a *soft* one, after which no new iteration of iterative
//! deepening starts (the next one would most likely not finish), and a *hard* one, at which the
//! search stops wherever it is. Both keep the Move Overhead (the time the GUI and the pipes lose
//! per move) out of the budget, so the engine never flags.

use std::time::Duration;

use qbb::Color;

/// The limits of one search, as the `go` command gives them (times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    /// Remaining clock time, indexed by colour (`wtime`, `btime`).
    pub time: [Option<u64>; 2],
    /// Increment per move, indexed by colour (`winc`, `binc`).
    pub increment: [u64; 2],
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `go ponder`: search the position the opponent is expected to reach, with no deadline
    /// until `ponderhit` says it was reached; from then on the clock limits apply, counted from
    /// that moment. No answer comes before `ponderhit` or `stop`.
    pub ponder: bool,
}

/// The deadlines of one search, measured from its start.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Start no new iteration after this.
    pub soft: Option<Duration>,
    /// Stop searching at this.
    pub hard: Option<Duration>,
}

/// Moves assumed still to play when the GUI does not say (sudden death).
const DEFAULT_MOVES_TO_GO: u64 = 30;

impl TimeBudget {
    /// No deadline at all (`go infinite`, `go depth N`, `go nodes N`).
    pub const UNLIMITED: TimeBudget = TimeBudget {
        soft: None,
        hard: None,
    };

    /// The budget for `side` under `limits`, keeping `overhead` in reserve.
    pub fn new(limits: &Limits, side: Color, overhead: Duration) -> TimeBudget {
        if limits.infinite {
            return TimeBudget::UNLIMITED;
        }
        let overhead = overhead.as_millis() as u64;
        if let Some(movetime) = limits.movetime {
            // A fixed time per move: use all of it, less the overhead.
            let hard = Duration::from_millis(movetime.saturating_sub(overhead).max(1));
            return TimeBudget {
                soft: Some(hard),
                hard: Some(hard),
            };
        }
        let Some(clock) = limits.time[side.index()] else {
            return TimeBudget::UNLIMITED;
        };
        let increment = limits.increment[side.index()];
        let remaining = clock.saturating_sub(overhead).max(1);
        let moves_to_go = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m.clamp(1, 50)));
        // The fair share of the clock for this move, plus most of the increment.
        let share = (remaining / moves_to_go).saturating_add(part_of(increment, 3, 4));
        // Never more than most of what is left: the next moves need time too (all but a sliver
        // when this is the last move before the time control).
        let ceiling = if moves_to_go == 1 {
            part_of(remaining, 9, 10)
        } else {
            part_of(remaining, 3, 4)
        };
        let hard = share.saturating_mul(3).min(ceiling).max(1);
        // No iteration starts once the share is spent; the one running may go on to the hard
        // deadline.
        let soft = share.min(hard).max(1);
        TimeBudget {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

/// `numerator / denominator` of `millis` (a proper fraction), exact for any clock a GUI can send:
/// the product is taken in 128 bits.
fn part_of(millis: u64, numerator: u64, denominator: u64) -> u64 {
    debug_assert!(numerator <= denominator);
    (u128::from(millis) * u128::from(numerator) / u128::from(denominator)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    const OVERHEAD: Duration = Duration::from_millis(10);

    fn ms(v: u64) -> Option<Duration> {
        Some(Duration::from_millis(v))
    }

    #[test]
    fn movetime_uses_the_whole_time_less_the_overhead() {
        let limits = Limits {
            movetime: Some(200),
            ..Limits::default()
        };
        let budget = TimeBudget::new(&limits, Color::White, OVERHEAD);
        assert_eq!(budget.hard, ms(190));
        assert_eq!(budget.soft, ms(190));
        let tiny = Limits {
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(TimeBudget::new(&tiny, Color::Black, OVERHEAD).hard, ms(1));
    }

    #[test]
    fn the_clock_of_the_side_to_move_counts() {
        let limits = Limits {
            time: [Some(60_000), Some(1_000)],
            increment: [1_000, 0],
            ..Limits::default()
        };
        let white = TimeBudget::new(&limits, Color::White, OVERHEAD);
        let black = TimeBudget::new(&limits, Color::Black, OVERHEAD);
        // White: 59_990 / 30 + 750 = 2_749 ms share.
        assert_eq!(white.hard, ms(2_749 * 3));
        assert_eq!(white.soft, ms(2_749));
        // Black has 990 ms: share 33, never more than three quarters of the clock.
        assert_eq!(black.hard, ms(99));
        assert!(black.hard.unwrap() < Duration::from_millis(990 * 3 / 4));
    }

    #[test]
    fn the_last_move_before_the_time_control_may_use_most_of_the_clock() {
        let limits = Limits {
            time: [Some(10_000), None],
            movestogo: Some(1),
            ..Limits::default()
        };
        let budget = TimeBudget::new(&limits, Color::White, OVERHEAD);
        assert_eq!(budget.hard, ms(9_990 * 9 / 10));
        assert!(budget.soft <= budget.hard);
    }

    #[test]
    fn a_clock_below_the_overhead_still_leaves_a_millisecond() {
        let limits = Limits {
            time: [Some(3), Some(3)],
            ..Limits::default()
        };
        let budget = TimeBudget::new(&limits, Color::White, OVERHEAD);
        assert_eq!(budget.hard, ms(1));
        assert_eq!(budget.soft, ms(1));
    }

    #[test]
    fn a_clock_of_any_size_gives_a_budget_within_it() {
        // The largest value `go` reads (an i64): three times it, on the way to three quarters
        // of it, is past u64.
        let huge = i64::MAX as u64;
        for movestogo in [None, Some(1), Some(40)] {
            let limits = Limits {
                time: [Some(huge), Some(huge)],
                increment: [huge, huge],
                movestogo,
                ..Limits::default()
            };
            let budget = TimeBudget::new(&limits, Color::White, OVERHEAD);
            let hard = budget.hard.unwrap();
            assert!(
                hard < Duration::from_millis(huge),
                "{movestogo:?}: {hard:?}"
            );
            assert!(budget.soft.unwrap() <= hard, "{movestogo:?}");
        }
    }

    #[test]
    fn no_clock_means_no_deadline() {
        let depth = Limits {
            depth: Some(8),
            ..Limits::default()
        };
        assert_eq!(
            TimeBudget::new(&depth, Color::White, OVERHEAD),
            TimeBudget::UNLIMITED
        );
        let infinite = Limits {
            infinite: true,
            movetime: Some(100),
            ..Limits::default()
        };
        assert_eq!(
            TimeBudget::new(&infinite, Color::White, OVERHEAD),
            TimeBudget::UNLIMITED
        );
    }
}

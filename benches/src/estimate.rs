//! Estimates from paired samples: a speed-up is the median of the ratios taken within each turn,
//! with a distribution-free interval around it.
//!
//! The timings of one turn were taken back to back, so whatever slowed the machine during that
//! turn (a neighbour on the host, a change of clock) slowed both sides of its ratio alike. The
//! median of the turns' ratios keeps that pairing; the ratio of two medians taken over the whole
//! run would not.

/// The confidence of every interval the lab reports.
pub const CONFIDENCE: &str = "95 %";

/// The median of `values` (NaN when there are none); sorts them.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The ratio `reference[i] / subject[i]` of each turn (a speed-up of `subject` over
/// `reference` when both are times), for the turns both have.
pub fn turn_ratios(reference: &[f64], subject: &[f64]) -> Vec<f64> {
    reference
        .iter()
        .zip(subject)
        .map(|(r, s)| r / s)
        .filter(|r| r.is_finite())
        .collect()
}

/// The median of the turns' ratios and its 95 % interval: the order statistics of ranks
/// `n/2 ± 0.98 √n`, which cover the true median with at least 95 % probability whatever the
/// ratios' distribution (the sign test's interval). `None` below 6 turns, where no such pair of
/// ranks exists.
pub fn paired(reference: &[f64], subject: &[f64]) -> Option<Estimate> {
    let mut ratios = turn_ratios(reference, subject);
    let n = ratios.len();
    if n < MIN_TURNS_FOR_INTERVAL {
        return None;
    }
    let median = median(&mut ratios);
    let k = lower_rank(n);
    Some(Estimate {
        median,
        interval: Interval {
            low: ratios[k],
            high: ratios[n - 1 - k],
        },
    })
}

/// The fewest turns with a 95 % interval: 6 (ranks 1 and 6 of 6 cover the median with
/// probability 1 - 2/64).
pub const MIN_TURNS_FOR_INTERVAL: usize = 6;

/// The zero-based rank of the interval's lower end among `n` sorted values.
fn lower_rank(n: usize) -> usize {
    let half_width = 0.98 * (n as f64).sqrt();
    ((n as f64 / 2.0 - half_width).floor().max(0.0) as usize).min((n - 1) / 2)
}

/// A paired estimate: the median ratio and its interval.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Estimate {
    pub median: f64,
    pub interval: Interval,
}

impl Estimate {
    /// The interval's larger distance from the median, relative to it: 0.02 for ±2 %.
    pub fn half_width(&self) -> f64 {
        (self.interval.high / self.median - 1.0).max(1.0 - self.interval.low / self.median)
    }

    /// How the ratio stands against 1: above it, below it, or a tie ([`Interval::verdict`]).
    pub fn verdict(&self) -> Verdict {
        self.interval.verdict()
    }
}

/// How near 1 a speed-up's interval may reach and still be a tie: 1 %. One run's interval says
/// how well that run pinned its ratio, not how far the next run will put it: two runs of the same
/// binary move a ratio by about a percent (the agreement `qbb compare --repeat 2` prints), so a
/// difference under 1 % is called neither a win nor a loss, however narrow its interval. It is
/// criterion's noise threshold, at criterion's default.
pub const TIE_MARGIN: f64 = 0.01;

/// Where a ratio's interval lies against 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The whole interval above 1, by more than the margin.
    Above,
    /// The interval reaches within the margin of 1: a tie.
    Tie,
    /// The whole interval below 1, by more than the margin.
    Below,
}

/// A closed interval `[low, high]`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// The lab's verdict: a tie unless the whole interval lies beyond [`TIE_MARGIN`] of 1.
    pub fn verdict(&self) -> Verdict {
        self.verdict_within(TIE_MARGIN)
    }

    /// Above when the whole interval lies above `1 + margin`, below when it lies below
    /// `1 / (1 + margin)` (the same distance on a log axis), a tie otherwise.
    pub fn verdict_within(&self, margin: f64) -> Verdict {
        if self.low > 1.0 + margin {
            Verdict::Above
        } else if self.high * (1.0 + margin) < 1.0 {
            Verdict::Below
        } else {
            Verdict::Tie
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_odd_and_an_even_count() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 10.0, 2.0]), 3.0);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn a_paired_ratio_is_the_median_of_the_turns_ratios_not_the_ratio_of_medians() {
        // The machine slows down tenfold after three turns; within each turn the subject is
        // twice as fast as the reference.
        let reference = [10.0, 10.0, 10.0, 100.0, 100.0, 100.0, 100.0];
        let subject = [5.0, 5.0, 5.0, 50.0, 50.0, 50.0, 50.0];
        let e = paired(&reference, &subject).unwrap();
        assert_eq!(e.median, 2.0);
        assert_eq!((e.interval.low, e.interval.high), (2.0, 2.0));
        assert_eq!(e.verdict(), Verdict::Above);
        assert_eq!(e.half_width(), 0.0);
    }

    #[test]
    fn the_interval_takes_the_sign_tests_ranks() {
        // n = 30: k = floor(15 - 0.98 * 5.48) = 9, so ranks 9 and 20 (zero-based).
        assert_eq!(lower_rank(30), 9);
        assert_eq!(lower_rank(6), 0);
        assert_eq!(lower_rank(100), 40);
        let reference: Vec<f64> = (1..=30).map(f64::from).collect();
        let subject = vec![1.0; 30];
        let e = paired(&reference, &subject).unwrap();
        assert_eq!(
            (e.interval.low, e.median, e.interval.high),
            (10.0, 15.5, 21.0)
        );
        assert!(paired(&[1.0; 5], &[1.0; 5]).is_none());
    }

    #[test]
    fn an_interval_that_reaches_within_the_margin_of_one_is_a_tie() {
        let verdict = |low, high| Interval { low, high }.verdict();
        assert_eq!(verdict(0.98, 1.03), Verdict::Tie);
        assert_eq!(verdict(1.0, 1.0), Verdict::Tie);
        // Narrow, and clear of 1, but not by the margin.
        assert_eq!(verdict(1.001, 1.017), Verdict::Tie);
        assert_eq!(verdict(0.985, 0.995), Verdict::Tie);
        assert_eq!(verdict(1.011, 1.03), Verdict::Above);
        assert_eq!(verdict(0.90, 0.989), Verdict::Below);
        // The margin is the same distance either side on a log axis: 1.01 and 1 / 1.01.
        let below = |high| Interval { low: 0.9, high }.verdict_within(0.01);
        assert_eq!(below(0.9901), Verdict::Tie);
        assert_eq!(below(0.9900), Verdict::Below);
        // Without a margin, an interval clear of 1 decides.
        assert_eq!(
            Interval {
                low: 1.001,
                high: 1.017
            }
            .verdict_within(0.0),
            Verdict::Above
        );
    }
}

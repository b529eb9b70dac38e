//! The timer of `qbb compare`: the same kernels as `cargo bench`, timed in paired turns.
//!
//! For one benchmark, every implementation is warmed up and calibrated (how many passes over the
//! corpus fill one sample). Then the samples are taken in turns: in each turn every
//! implementation is timed once in each of the [`PLACEMENTS`] copies of its loop, in a shuffled
//! order. A disturbance of the shared machine (a compiler starting next door, the host lending
//! the core elsewhere) then hits one turn's samples alike, and the speed-ups, taken as ratios
//! within each turn ([`crate::estimate`]), keep their pairing. Turns go on until every
//! implementation's speed-up over the baseline is known to within the plan's precision, or the
//! benchmark's time budget is spent.

use std::time::{Duration, Instant};

use qbb::BackendError;

use crate::bench::Bench;
use crate::corpus::Corpus;
use crate::estimate::{self, MIN_TURNS_FOR_INTERVAL};
use crate::implementation::{Implementation, PLACEMENTS};

/// How long to measure each benchmark.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Plan {
    /// Running time of each implementation before the turns, which also calibrates the sample
    /// size.
    pub warm_up: Duration,
    /// The target length of one sample (one copy of one implementation's loop, once).
    pub sample_time: Duration,
    /// Turns taken whatever the precision.
    pub min_turns: usize,
    /// The benchmark's budget: no turn starts after it is spent.
    pub budget: Duration,
    /// The precision sought: turns stop once every speed-up's interval lies within this
    /// fraction of its median (0.02 for ±2 %).
    pub precision: f64,
}

impl Plan {
    /// At most about eight seconds per benchmark: under five minutes for the whole list.
    pub const NORMAL: Plan = Plan {
        warm_up: Duration::from_millis(40),
        sample_time: Duration::from_millis(4),
        min_turns: 15,
        budget: Duration::from_millis(8_000),
        precision: 0.02,
    };

    /// At most about two seconds per benchmark: under a minute for the whole list.
    pub const QUICK: Plan = Plan {
        warm_up: Duration::from_millis(20),
        sample_time: Duration::from_millis(2),
        min_turns: 9,
        budget: Duration::from_millis(1_500),
        precision: 0.02,
    };

    /// The longest one benchmark may take on `implementations` implementations, roughly.
    pub fn estimate(&self, implementations: usize) -> Duration {
        let turn = self.sample_time * (PLACEMENTS * implementations) as u32;
        self.warm_up * implementations as u32 + self.budget.max(turn * self.min_turns as u32)
    }
}

/// The samples of one benchmark on one implementation.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub bench: Bench,
    pub implementation: Implementation,
    /// Calls per sample.
    pub calls_per_sample: u64,
    /// Nanoseconds per call of each turn's sample of each placement, in turn order.
    pub turns: Vec<[f64; PLACEMENTS]>,
}

impl Measurement {
    /// Each turn's time: the median over the placements, nanoseconds per call.
    pub fn turn_times(&self) -> Vec<f64> {
        self.turns
            .iter()
            .map(|placed| estimate::median(&mut placed.clone()))
            .collect()
    }

    /// The median over the turns of each placement's time.
    pub fn placement_times(&self) -> [f64; PLACEMENTS] {
        std::array::from_fn(|p| {
            let mut times: Vec<f64> = self.turns.iter().map(|t| t[p]).collect();
            estimate::median(&mut times)
        })
    }

    /// The median over the turns of the turns' times.
    pub fn median(&self) -> f64 {
        estimate::median(&mut self.turn_times())
    }
}

/// Measures `bench` on each of `implementations` (each must be available) following `plan`.
pub fn measure(
    bench: Bench,
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
) -> Result<Vec<Measurement>, BackendError> {
    let started = Instant::now();
    let calls_per_round = corpus.len().max(1) as u64;
    let mut rounds = Vec::with_capacity(implementations.len());
    for &on in implementations {
        rounds.push(calibrate(bench, on, corpus, plan)?);
        for placement in 1..PLACEMENTS {
            time(bench, on, corpus, 1, placement)?;
        }
    }
    let mut measurements: Vec<Measurement> = implementations
        .iter()
        .zip(&rounds)
        .map(|(&implementation, &rounds)| Measurement {
            bench,
            implementation,
            calls_per_sample: rounds * calls_per_round,
            turns: Vec::new(),
        })
        .collect();
    let mut order: Vec<(usize, usize)> = (0..implementations.len())
        .flat_map(|i| (0..PLACEMENTS).map(move |p| (i, p)))
        .collect();
    let mut shuffle = Shuffle::new(bench);
    loop {
        shuffle.apply(&mut order);
        let mut turn = vec![[f64::NAN; PLACEMENTS]; implementations.len()];
        for &(i, placement) in &order {
            let elapsed = time(bench, implementations[i], corpus, rounds[i], placement)?;
            turn[i][placement] =
                elapsed.as_secs_f64() * 1e9 / measurements[i].calls_per_sample as f64;
        }
        for (m, t) in measurements.iter_mut().zip(turn) {
            m.turns.push(t);
        }
        let turns = measurements[0].turns.len();
        if turns >= plan.min_turns.max(MIN_TURNS_FOR_INTERVAL)
            && (started.elapsed() >= plan.budget || precise_enough(&measurements, plan.precision))
        {
            return Ok(measurements);
        }
    }
}

/// Whether every implementation's speed-up over the fastest scalar-class one (the baseline)
/// has an interval within `precision` of its median.
fn precise_enough(measurements: &[Measurement], precision: f64) -> bool {
    let Some(baseline) = measurements
        .iter()
        .filter(|m| m.implementation.is_baseline_candidate())
        .min_by(|a, b| a.median().total_cmp(&b.median()))
    else {
        return true;
    };
    let reference = baseline.turn_times();
    measurements.iter().all(|m| {
        estimate::paired(&reference, &m.turn_times()).is_some_and(|e| e.half_width() <= precision)
    })
}

/// Runs the benchmark for the warm-up time, doubling the passes each time, and returns the passes
/// that fill one sample.
fn calibrate(
    bench: Bench,
    on: Implementation,
    corpus: &Corpus,
    plan: &Plan,
) -> Result<u64, BackendError> {
    let start = Instant::now();
    let mut rounds = 1u64;
    let mut per_round = time(bench, on, corpus, rounds, 0)?;
    while start.elapsed() < plan.warm_up {
        rounds = rounds.saturating_mul(2);
        per_round = time(bench, on, corpus, rounds, 0)? / rounds.min(u64::from(u32::MAX)) as u32;
    }
    let per_round = per_round.as_secs_f64().max(1e-9);
    Ok(((plan.sample_time.as_secs_f64() / per_round).ceil() as u64).max(1))
}

fn time(
    bench: Bench,
    on: Implementation,
    corpus: &Corpus,
    rounds: u64,
    placement: usize,
) -> Result<Duration, BackendError> {
    let start = Instant::now();
    bench.run_placed(on, corpus, rounds, placement)?;
    Ok(start.elapsed())
}

/// The order of each turn's samples: a Fisher-Yates shuffle driven by a small xorshift generator,
/// seeded by the benchmark so that a run can be repeated sample for sample.
struct Shuffle(u64);

impl Shuffle {
    fn new(bench: Bench) -> Shuffle {
        let seed = bench.id().bytes().fold(0x9e37_79b9_7f4a_7c15u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        Shuffle(seed | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn apply<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::ALL;
    use crate::corpus::standard_positions;
    use qbb::BackendKind;

    fn tiny_plan(min_turns: usize) -> Plan {
        Plan {
            warm_up: Duration::from_millis(2),
            sample_time: Duration::from_micros(200),
            min_turns,
            budget: Duration::ZERO,
            precision: 0.02,
        }
    }

    #[test]
    fn every_turn_times_every_placement_of_every_implementation() {
        let corpus = Corpus::from_positions(&standard_positions()[..128]);
        let on = [BackendKind::Scalar, BackendKind::Swar].map(Implementation::native);
        // A spent budget stops after the minimum of turns.
        let m = measure(ALL[3], &on, &corpus, &tiny_plan(7)).unwrap();
        assert_eq!(m.len(), 2);
        for (m, on) in m.iter().zip(on) {
            assert_eq!(m.implementation, on);
            assert_eq!(m.turns.len(), 7);
            assert!(
                m.turns
                    .iter()
                    .flatten()
                    .all(|&ns| ns > 0.0 && ns.is_finite())
            );
            assert_eq!(m.calls_per_sample % 128, 0);
            assert_eq!(m.turn_times().len(), 7);
        }
    }

    #[test]
    fn a_turns_time_is_the_median_over_its_placements() {
        let m = Measurement {
            bench: ALL[0],
            implementation: Implementation::native(BackendKind::Scalar),
            calls_per_sample: 1,
            turns: vec![
                [1.0, 2.0, 4.0, 10.0],
                [3.0, 3.0, 3.0, 9.0],
                [5.0, 1.0, 1.0, 1.0],
            ],
        };
        assert_eq!(m.turn_times(), [3.0, 3.0, 1.0]);
        assert_eq!(m.placement_times(), [3.0, 2.0, 3.0, 9.0]);
        assert_eq!(m.median(), 3.0);
    }

    #[test]
    fn turns_stop_when_every_interval_is_narrow() {
        let m = |name: &str, per_turn: &[f64]| Measurement {
            bench: ALL[0],
            implementation: Implementation::from_name(name).unwrap(),
            calls_per_sample: 1,
            turns: per_turn.iter().map(|&t| [t; PLACEMENTS]).collect(),
        };
        let steady = [10.0, 11.0, 12.0, 10.5, 11.5, 10.2, 11.8, 10.9];
        let half: Vec<f64> = steady.iter().map(|t| t / 2.0).collect();
        let noisy: Vec<f64> = steady
            .iter()
            .zip([1.0, 1.3, 0.8, 1.2, 0.9, 1.25, 0.7, 1.1])
            .map(|(t, f)| t / 2.0 * f)
            .collect();
        assert!(precise_enough(
            &[m("scalar", &steady), m("avx2", &half)],
            0.02
        ));
        assert!(!precise_enough(
            &[m("scalar", &steady), m("avx2", &noisy)],
            0.02
        ));
    }

    #[test]
    fn the_shuffle_is_a_permutation_and_repeats_for_a_benchmark() {
        let mut a: Vec<usize> = (0..32).collect();
        let mut b = a.clone();
        Shuffle::new(ALL[1]).apply(&mut a);
        Shuffle::new(ALL[1]).apply(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..32).collect::<Vec<_>>());
        a.sort();
        assert_eq!(a, (0..32).collect::<Vec<_>>());
    }
}

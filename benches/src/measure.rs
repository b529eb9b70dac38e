//! The quick timer of `qbb compare`: the same kernels as `cargo bench`, timed with a short plan.
//!
//! For one benchmark, every backend is warmed up and calibrated (how many passes over the corpus
//! fill one sample), then the samples are taken in turns, one per backend per turn. A disturbance
//! of the shared machine (a compiler starting next door) then hits every backend alike instead of
//! the one that happened to be running, which keeps the ratios between backends honest.

use std::time::{Duration, Instant};

use qbb::BackendError;

use crate::bench::Bench;
use crate::corpus::Corpus;
use crate::implementation::Implementation;

/// How long to measure each benchmark on each backend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Running time before the samples, which also calibrates the sample size.
    pub warm_up: Duration,
    /// Samples per backend; the median is reported.
    pub samples: usize,
    /// The target length of one sample.
    pub sample_time: Duration,
}

impl Plan {
    /// About 1.2 s per benchmark and implementation: three to four minutes for the whole list.
    pub const NORMAL: Plan = Plan {
        warm_up: Duration::from_millis(150),
        samples: 21,
        sample_time: Duration::from_millis(50),
    };

    /// About 0.25 s per benchmark and implementation: about a minute for the whole list.
    pub const QUICK: Plan = Plan {
        warm_up: Duration::from_millis(40),
        samples: 9,
        sample_time: Duration::from_millis(20),
    };

    /// The time one benchmark takes on `implementations` implementations, roughly.
    pub fn estimate(&self, implementations: usize) -> Duration {
        (self.warm_up + self.sample_time * self.samples as u32) * implementations as u32
    }
}

/// The samples of one benchmark on one implementation.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    pub bench: Bench,
    pub implementation: Implementation,
    /// Calls per sample.
    pub calls_per_sample: u64,
    /// Nanoseconds per call of each sample, sorted.
    pub ns_per_call: Vec<f64>,
}

impl Measurement {
    pub fn median(&self) -> f64 {
        let s = &self.ns_per_call;
        let mid = s.len() / 2;
        if s.len() % 2 == 1 {
            s[mid]
        } else {
            (s[mid - 1] + s[mid]) / 2.0
        }
    }

    pub fn min(&self) -> f64 {
        self.ns_per_call[0]
    }

    pub fn max(&self) -> f64 {
        self.ns_per_call[self.ns_per_call.len() - 1]
    }
}

/// Measures `bench` on each of `implementations` (each must be available) following `plan`.
pub fn measure(
    bench: Bench,
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
) -> Result<Vec<Measurement>, BackendError> {
    let calls_per_round = corpus.len().max(1) as u64;
    let mut rounds = Vec::with_capacity(implementations.len());
    for &on in implementations {
        rounds.push(calibrate(bench, on, corpus, plan)?);
    }
    let mut samples = vec![Vec::with_capacity(plan.samples); implementations.len()];
    for _ in 0..plan.samples.max(1) {
        for (i, &on) in implementations.iter().enumerate() {
            let elapsed = time(bench, on, corpus, rounds[i])?;
            samples[i].push(elapsed.as_secs_f64() * 1e9 / (rounds[i] * calls_per_round) as f64);
        }
    }
    Ok(implementations
        .iter()
        .zip(rounds)
        .zip(samples)
        .map(|((&implementation, rounds), mut ns_per_call)| {
            ns_per_call.sort_by(f64::total_cmp);
            Measurement {
                bench,
                implementation,
                calls_per_sample: rounds * calls_per_round,
                ns_per_call,
            }
        })
        .collect())
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
    let mut per_round = time(bench, on, corpus, rounds)?;
    while start.elapsed() < plan.warm_up {
        rounds = rounds.saturating_mul(2);
        per_round = time(bench, on, corpus, rounds)? / rounds.min(u64::from(u32::MAX)) as u32;
    }
    let per_round = per_round.as_secs_f64().max(1e-9);
    Ok(((plan.sample_time.as_secs_f64() / per_round).ceil() as u64).max(1))
}

fn time(
    bench: Bench,
    on: Implementation,
    corpus: &Corpus,
    rounds: u64,
) -> Result<Duration, BackendError> {
    let start = Instant::now();
    bench.run(on, corpus, rounds)?;
    Ok(start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::ALL;
    use crate::corpus::standard_positions;
    use qbb::BackendKind;

    #[test]
    fn a_measurement_has_its_samples_sorted_and_positive() {
        let corpus = Corpus::from_positions(&standard_positions()[..128]);
        let plan = Plan {
            warm_up: Duration::from_millis(2),
            samples: 5,
            sample_time: Duration::from_millis(1),
        };
        let on = [BackendKind::Scalar, BackendKind::Swar].map(Implementation::native);
        let m = measure(ALL[3], &on, &corpus, &plan).unwrap();
        assert_eq!(m.len(), 2);
        for (m, on) in m.iter().zip(on) {
            assert_eq!(m.implementation, on);
            assert_eq!(m.ns_per_call.len(), 5);
            assert!(m.ns_per_call.is_sorted());
            assert!(m.min() > 0.0 && m.min() <= m.median() && m.median() <= m.max());
            assert_eq!(m.calls_per_sample % 128, 0);
        }
    }

    #[test]
    fn the_median_of_an_even_count_is_the_middle_mean() {
        let m = Measurement {
            bench: ALL[0],
            implementation: Implementation::native(qbb::BackendKind::Scalar),
            calls_per_sample: 1,
            ns_per_call: vec![1.0, 2.0, 4.0, 10.0],
        };
        assert_eq!(m.median(), 3.0);
        assert_eq!((m.min(), m.max()), (1.0, 10.0));
    }
}

//! The timer of `qbb compare`: the same kernels as `cargo bench`, timed in paired turns.
//!
//! For one benchmark, every implementation is warmed up and calibrated (how many passes over the
//! corpus fill one sample). Then the samples are taken in turns: in each turn every
//! implementation is timed once in each of the [`PLACEMENTS`] copies of its loop, in a shuffled
//! order. A disturbance of the shared machine (a compiler starting next door, the host lending
//! the core elsewhere) then hits one turn's samples alike, and the speed-ups, taken as ratios
//! within each turn ([`crate::estimate`]), keep their pairing.
//!
//! Pairing cancels a slowdown that hits every implementation alike, not one that hits some harder
//! than others. A neighbour sharing the physical core (such as another guest on the sibling
//! hardware thread) is of that kind: it takes issue slots, so code that runs many instructions
//! per cycle loses far more than code that issues few, and the ratio between them moves with the
//! neighbour's load. So a probe of the core's issue width is timed before every sample
//! ([`crate::neighbour`]), and each benchmark's estimates are made from its turns in the run's
//! usual state ([`usual_turns`]): those whose probe lies near the figure most of the run's turns
//! share, whichever benchmark they timed. Turns go on until every implementation's speed-up over
//! the baseline, over those turns, is known to within the plan's precision, or the benchmark's
//! time budget is spent. `qbb compare` times all its benchmarks together
//! ([`measure_interleaved`]): a turn of each in every round, so that each benchmark's turns are
//! spread over the whole run, and the run's usual state is the same for all of them.

use std::time::{Duration, Instant};

use qbb::BackendError;

use crate::bench::Bench;
use crate::corpus::Corpus;
use crate::estimate::{self, MIN_TURNS_FOR_INTERVAL};
use crate::implementation::{Implementation, PLACEMENTS};
use crate::neighbour;

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
    /// The benchmark's budget, counted in its own turns: no turn starts after it is spent.
    pub budget: Duration,
    /// The precision sought: turns stop once every speed-up's interval lies within this
    /// fraction of its median (0.02 for ±2 %).
    pub precision: f64,
}

impl Plan {
    /// At most about eight seconds per benchmark: under five minutes for the whole list. The
    /// turns taken whatever the precision spread each benchmark over at least thirty rounds of
    /// the whole list (about a minute and a half).
    pub const NORMAL: Plan = Plan {
        warm_up: Duration::from_millis(40),
        sample_time: Duration::from_millis(4),
        min_turns: 30,
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
    /// The neighbour probe of each turn ([`crate::neighbour`]): independent additions per
    /// nanosecond, the median of the probes timed just before each of the turn's samples; empty
    /// where there is no probe.
    pub probes: Vec<f64>,
}

impl Measurement {
    /// Each turn's time: the median over the placements, nanoseconds per call.
    pub fn turn_times(&self) -> Vec<f64> {
        self.turns
            .iter()
            .map(|placed| estimate::median(&mut placed.clone()))
            .collect()
    }

    /// The times of the turns numbered in `turns`.
    pub fn times_in(&self, turns: &[usize]) -> Vec<f64> {
        let all = self.turn_times();
        turns.iter().filter_map(|&t| all.get(t).copied()).collect()
    }

    /// The median over the turns numbered in `turns` of each placement's time.
    pub fn placement_times(&self, turns: &[usize]) -> [f64; PLACEMENTS] {
        std::array::from_fn(|p| {
            let mut times: Vec<f64> = turns
                .iter()
                .filter_map(|&t| self.turns.get(t).map(|placed| placed[p]))
                .collect();
            estimate::median(&mut times)
        })
    }

    /// The median of the times of the turns numbered in `turns`.
    pub fn median_in(&self, turns: &[usize]) -> f64 {
        estimate::median(&mut self.times_in(turns))
    }
}

/// The core's usual state over every turn of every one of `benchmarks` (each benchmark's
/// measurements, all of them timed in the same turns): the figure most turns' probes lie near
/// ([`neighbour::usual_figure`]). `None` where there are no probes.
pub fn usual_state<'a>(benchmarks: impl IntoIterator<Item = &'a [Measurement]>) -> Option<f64> {
    let probes: Vec<f64> = benchmarks.into_iter().flat_map(turn_probes).collect();
    neighbour::usual_figure(&probes)
}

/// Each turn's probe of one benchmark: the median over its implementations.
fn turn_probes(measurements: &[Measurement]) -> Vec<f64> {
    let probes: Vec<&[f64]> = measurements.iter().map(|m| &m.probes[..]).collect();
    neighbour::turn_probes(&probes)
}

/// The turns of one benchmark's `measurements` (all of them timed in the same turns) that its
/// estimates come from, in turn order: those whose probe lies near `usual`, the run's usual
/// state ([`usual_state`]). Every turn where there is no probe, or where fewer turns than an
/// interval needs are in that state.
///
/// Every turn in the state, not only the quietest of them: once the state is fixed, the median
/// over its turns already leaves the odd slow turn out, and the figures do not hang on a second
/// choice made from what the neighbour did.
pub fn usual_turns(measurements: &[Measurement], usual: Option<f64>) -> Vec<usize> {
    let turns = measurements
        .iter()
        .map(|m| m.turns.len())
        .min()
        .unwrap_or(0);
    usual
        .map(|figure| neighbour::turns_near(&turn_probes(measurements), figure))
        .filter(|near| near.len() >= MIN_TURNS_FOR_INTERVAL)
        .unwrap_or_else(|| (0..turns).collect())
}

/// Measures `bench` on each of `implementations` (each must be available) following `plan`.
pub fn measure(
    bench: Bench,
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
) -> Result<Vec<Measurement>, BackendError> {
    let mut timing = Timing::start(bench, implementations, corpus, plan)?;
    while !timing.is_done(usual_state([&timing.measurements[..]])) {
        timing.take_turn()?;
    }
    Ok(timing.measurements)
}

/// Measures every one of `benches` as [`measure`] does, but together: each round takes one turn
/// of every benchmark that is not done, in a shuffled order, so that each benchmark's turns are
/// spread over the whole run rather than gathered in a few seconds of it. A neighbour that comes
/// and goes over minutes then meets every benchmark alike, and the usual state is the whole
/// run's. `finished` is told of each benchmark as it is done, with the run's usual state so far;
/// the measurements come back in the order of `benches`.
pub fn measure_interleaved(
    benches: &[Bench],
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
    mut finished: impl FnMut(Bench, &[Measurement], Option<f64>),
) -> Result<Vec<Vec<Measurement>>, BackendError> {
    let mut timings = benches
        .iter()
        .map(|&bench| Timing::start(bench, implementations, corpus, plan))
        .collect::<Result<Vec<_>, _>>()?;
    let mut waiting: Vec<usize> = (0..timings.len()).collect();
    let mut shuffle = Shuffle::new("every benchmark");
    while !waiting.is_empty() {
        shuffle.apply(&mut waiting);
        for &b in &waiting {
            timings[b].take_turn()?;
        }
        let usual = usual_state(timings.iter().map(|t| &t.measurements[..]));
        waiting.retain(|&b| {
            let done = timings[b].is_done(usual);
            if done {
                finished(timings[b].bench, &timings[b].measurements, usual);
            }
            !done
        });
    }
    Ok(timings.into_iter().map(|t| t.measurements).collect())
}

/// One benchmark being timed: its implementations calibrated, its turns so far.
struct Timing<'a> {
    bench: Bench,
    implementations: &'a [Implementation],
    corpus: &'a Corpus,
    plan: &'a Plan,
    /// Passes over the corpus in one sample, per implementation.
    rounds: Vec<u64>,
    measurements: Vec<Measurement>,
    /// The samples of a turn: (implementation, placement), shuffled anew for each turn.
    order: Vec<(usize, usize)>,
    shuffle: Shuffle,
    /// Time spent in the benchmark's turns, against its budget.
    spent: Duration,
}

impl<'a> Timing<'a> {
    /// Warms up and calibrates every implementation, and runs each other placement once.
    fn start(
        bench: Bench,
        implementations: &'a [Implementation],
        corpus: &'a Corpus,
        plan: &'a Plan,
    ) -> Result<Timing<'a>, BackendError> {
        let calls_per_round = corpus.len().max(1) as u64;
        let mut rounds = Vec::with_capacity(implementations.len());
        for &on in implementations {
            rounds.push(calibrate(bench, on, corpus, plan)?);
            for placement in 1..PLACEMENTS {
                time(bench, on, corpus, 1, placement)?;
            }
        }
        let measurements = implementations
            .iter()
            .zip(&rounds)
            .map(|(&implementation, &rounds)| Measurement {
                bench,
                implementation,
                calls_per_sample: rounds * calls_per_round,
                turns: Vec::new(),
                probes: Vec::new(),
            })
            .collect();
        let order = (0..implementations.len())
            .flat_map(|i| (0..PLACEMENTS).map(move |p| (i, p)))
            .collect();
        Ok(Timing {
            bench,
            implementations,
            corpus,
            plan,
            rounds,
            measurements,
            order,
            shuffle: Shuffle::new(&bench.id()),
            spent: Duration::ZERO,
        })
    }

    /// Times every implementation once in each placement, in a shuffled order.
    fn take_turn(&mut self) -> Result<(), BackendError> {
        let started = Instant::now();
        self.shuffle.apply(&mut self.order);
        let mut turn = vec![[f64::NAN; PLACEMENTS]; self.implementations.len()];
        let mut probes = vec![Vec::with_capacity(PLACEMENTS); self.implementations.len()];
        for &(i, placement) in &self.order {
            let on = self.implementations[i];
            probes[i].extend(neighbour::adds_per_ns());
            let elapsed = time(self.bench, on, self.corpus, self.rounds[i], placement)?;
            turn[i][placement] =
                elapsed.as_secs_f64() * 1e9 / self.measurements[i].calls_per_sample as f64;
        }
        for ((m, t), mut probes) in self.measurements.iter_mut().zip(turn).zip(probes) {
            m.turns.push(t);
            if !probes.is_empty() {
                m.probes.push(estimate::median(&mut probes));
            }
        }
        self.spent += started.elapsed();
        Ok(())
    }

    /// The plan's turns are taken, and either the budget is spent or the turns in the `usual`
    /// state are precise enough.
    fn is_done(&self, usual: Option<f64>) -> bool {
        let turns = self.measurements.first().map_or(0, |m| m.turns.len());
        turns >= self.plan.min_turns.max(MIN_TURNS_FOR_INTERVAL)
            && (self.spent >= self.plan.budget
                || precise_enough(&self.measurements, usual, self.plan.precision))
    }
}

/// Whether every implementation's speed-up over the fastest scalar-class one (the baseline),
/// over its turns in the `usual` state, has an interval within `precision` of its median.
fn precise_enough(measurements: &[Measurement], usual: Option<f64>, precision: f64) -> bool {
    let usual = usual_turns(measurements, usual);
    let Some(baseline) = measurements
        .iter()
        .filter(|m| m.implementation.is_baseline_candidate())
        .min_by(|a, b| a.median_in(&usual).total_cmp(&b.median_in(&usual)))
    else {
        return true;
    };
    let reference = baseline.times_in(&usual);
    measurements.iter().all(|m| {
        estimate::paired(&reference, &m.times_in(&usual))
            .is_some_and(|e| e.half_width() <= precision)
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

/// The order of each turn's samples (and of each round's benchmarks): a Fisher-Yates shuffle
/// driven by a small xorshift generator, seeded by a name (the benchmark's) so that a run can be
/// repeated sample for sample.
struct Shuffle(u64);

impl Shuffle {
    fn new(name: &str) -> Shuffle {
        let seed = name.bytes().fold(0x9e37_79b9_7f4a_7c15u64, |h, b| {
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
    fn benchmarks_timed_together_each_get_their_turns_and_come_back_in_order() {
        let corpus = Corpus::from_positions(&standard_positions()[..64]);
        let on = [BackendKind::Scalar, BackendKind::Swar].map(Implementation::native);
        let benches = [ALL[5], ALL[0], ALL[3]];
        let mut finished = Vec::new();
        let measured = measure_interleaved(&benches, &on, &corpus, &tiny_plan(6), |bench, m, _| {
            finished.push((bench, m.len(), m[0].turns.len()));
        })
        .unwrap();
        assert_eq!(measured.len(), 3);
        for (m, bench) in measured.iter().zip(benches) {
            assert!(m.iter().all(|m| m.bench == bench && m.turns.len() == 6));
        }
        // A spent budget: every benchmark is done after the same round, in that round's order.
        finished.sort_by_key(|&(bench, ..)| bench.id());
        let mut want: Vec<_> = benches.iter().map(|&b| (b, 2, 6)).collect();
        want.sort_by_key(|&(bench, ..)| bench.id());
        assert_eq!(finished, want);
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
            probes: Vec::new(),
        };
        assert_eq!(m.turn_times(), [3.0, 3.0, 1.0]);
        assert_eq!(m.placement_times(&[0, 1, 2]), [3.0, 2.0, 3.0, 9.0]);
        assert_eq!(m.placement_times(&[0, 2]), [3.0, 1.5, 2.5, 5.5]);
        assert_eq!(m.median_in(&[0, 1, 2]), 3.0);
        assert_eq!(m.times_in(&[2, 0]), [1.0, 3.0]);
    }

    fn steady_turns(name: &str, per_turn: &[f64]) -> Measurement {
        Measurement {
            bench: ALL[0],
            implementation: Implementation::from_name(name).unwrap(),
            calls_per_sample: 1,
            turns: per_turn.iter().map(|&t| [t; PLACEMENTS]).collect(),
            probes: Vec::new(),
        }
    }

    /// A benchmark of `turns` turns on swar-v3, avx512 and scalar, in which a neighbour shares
    /// the core except in the turns `alone` picks: there the probe runs faster and so does every
    /// implementation, the wide one by less.
    fn probed(turns: usize, alone: impl Fn(usize) -> bool) -> Vec<Measurement> {
        let probe = |t: usize| {
            if alone(t) {
                10.8
            } else {
                6.6 + (t % 3) as f64 * 0.1
            }
        };
        let timed = |name, shared: f64, unshared: f64| {
            let times: Vec<f64> = (0..turns)
                .map(|t| {
                    if alone(t) {
                        unshared
                    } else {
                        shared + t as f64 * 0.001
                    }
                })
                .collect();
            Measurement {
                probes: (0..turns).map(probe).collect(),
                ..steady_turns(name, &times)
            }
        };
        vec![
            timed("swar-v3", 4.0, 3.3),
            timed("avx512", 2.4, 2.25),
            timed("scalar", 13.5, 8.5),
        ]
    }

    #[test]
    fn the_estimates_come_from_the_runs_usual_state() {
        // One benchmark ran shared in 16 turns of 20, the other alone in 14 of 20: the run was
        // mostly shared, and both benchmarks' estimates come from their shared turns.
        let mostly_shared = probed(20, |t| t % 5 == 3);
        let mostly_alone = probed(20, |t| t % 10 >= 3);
        let usual = usual_state([&mostly_shared[..], &mostly_alone[..]]).unwrap();
        assert!((6.0..7.0).contains(&usual), "{usual}");
        let shared = usual_turns(&mostly_shared, Some(usual));
        assert_eq!(shared.len(), 16);
        assert!(shared.iter().all(|&t| t % 5 != 3), "{shared:?}");
        assert_eq!(
            usual_turns(&mostly_alone, Some(usual)),
            [0, 1, 2, 10, 11, 12]
        );
        let m = &mostly_shared;
        let ratio = estimate::paired(&m[0].times_in(&shared), &m[1].times_in(&shared)).unwrap();
        assert!((ratio.median / (4.0 / 2.4) - 1.0).abs() < 0.01, "{ratio:?}");
        // Its own usual state would have been the other one.
        let own = usual_state([&mostly_alone[..]]).unwrap();
        assert_eq!(usual_turns(&mostly_alone, Some(own)).len(), 14);
    }

    #[test]
    fn without_the_runs_state_every_turn_counts() {
        // Fewer turns in the state than an interval needs, no probes, or no state.
        let rarely_shared = probed(12, |t| t >= 5);
        assert_eq!(rarely_shared[0].turns.len(), 12);
        assert_eq!(
            usual_turns(&rarely_shared, Some(6.6)),
            (0..12).collect::<Vec<_>>()
        );
        let unprobed: Vec<Measurement> = probed(8, |_| false)
            .into_iter()
            .map(|m| Measurement {
                probes: Vec::new(),
                ..m
            })
            .collect();
        assert_eq!(usual_state([&unprobed[..]]), None);
        assert_eq!(usual_turns(&unprobed, None), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn turns_stop_when_every_interval_is_narrow() {
        let m = steady_turns;
        let steady = [10.0, 11.0, 12.0, 10.5, 11.5, 10.2, 11.8, 10.9];
        let half: Vec<f64> = steady.iter().map(|t| t / 2.0).collect();
        let noisy: Vec<f64> = steady
            .iter()
            .zip([1.0, 1.3, 0.8, 1.2, 0.9, 1.25, 0.7, 1.1])
            .map(|(t, f)| t / 2.0 * f)
            .collect();
        assert!(precise_enough(
            &[m("scalar", &steady), m("avx2", &half)],
            None,
            0.02
        ));
        assert!(!precise_enough(
            &[m("scalar", &steady), m("avx2", &noisy)],
            None,
            0.02
        ));
    }

    #[test]
    fn the_shuffle_is_a_permutation_and_repeats_for_a_benchmark() {
        let mut a: Vec<usize> = (0..32).collect();
        let mut b = a.clone();
        Shuffle::new(&ALL[1].id()).apply(&mut a);
        Shuffle::new(&ALL[1].id()).apply(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..32).collect::<Vec<_>>());
        a.sort();
        assert_eq!(a, (0..32).collect::<Vec<_>>());
    }
}

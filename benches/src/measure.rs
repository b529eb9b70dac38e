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
//! ([`crate::neighbour`]), and the estimates are made from the benchmark's quiet turns
//! ([`quiet_turns`]): of the turns in the core's usual state by the probe, the third in which the
//! implementations ran fastest against their own typical times. Turns go on until every
//! implementation's speed-up over the baseline, over those turns, is known to within the plan's
//! precision, or the benchmark's time budget is spent. `qbb compare` times all its benchmarks
//! together ([`measure_interleaved`]): a turn of each in every round, so that each benchmark's
//! turns are spread over the whole run.

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

/// The share of a benchmark's turns that its estimates come from.
pub const QUIET_SHARE: f64 = 1.0 / 3.0;

/// The turns of one benchmark's `measurements` (all of them timed in the same turns) that its
/// estimates come from, in turn order. First the turns in the core's usual state, by the
/// neighbour probe ([`neighbour::usual_turns`]; every turn where there is no probe); of those,
/// the [`QUIET_SHARE`] with the lowest load, and never fewer than an interval needs. A turn's
/// load is the median over the implementations of its time over that implementation's median
/// time; the median keeps one implementation's hiccup from choosing for the others.
pub fn quiet_turns(measurements: &[Measurement]) -> Vec<usize> {
    let turns = measurements
        .iter()
        .map(|m| m.turns.len())
        .min()
        .unwrap_or(0);
    let probes: Vec<&[f64]> = measurements.iter().map(|m| &m.probes[..]).collect();
    let candidates = neighbour::usual_turns(&neighbour::turn_probes(&probes))
        .unwrap_or_else(|| (0..turns).collect());
    let times: Vec<Vec<f64>> = measurements.iter().map(|m| m.turn_times()).collect();
    let typical: Vec<f64> = times
        .iter()
        .map(|t| estimate::median(&mut candidates.iter().map(|&c| t[c]).collect::<Vec<_>>()))
        .collect();
    let load = |turn: usize| {
        let mut relative: Vec<f64> = times
            .iter()
            .zip(&typical)
            .map(|(t, typical)| t[turn] / typical)
            .collect();
        estimate::median(&mut relative)
    };
    let mut by_load: Vec<(f64, usize)> = candidates.iter().map(|&t| (load(t), t)).collect();
    by_load.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let keep = ((by_load.len() as f64 * QUIET_SHARE).ceil() as usize)
        .max(MIN_TURNS_FOR_INTERVAL)
        .min(by_load.len());
    let mut quiet: Vec<usize> = by_load[..keep].iter().map(|&(_, t)| t).collect();
    quiet.sort_unstable();
    quiet
}

/// Measures `bench` on each of `implementations` (each must be available) following `plan`.
pub fn measure(
    bench: Bench,
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
) -> Result<Vec<Measurement>, BackendError> {
    let mut timing = Timing::start(bench, implementations, corpus, plan)?;
    while !timing.is_done() {
        timing.take_turn()?;
    }
    Ok(timing.measurements)
}

/// Measures every one of `benches` as [`measure`] does, but together: each round takes one turn
/// of every benchmark that is not done, in a shuffled order, so that each benchmark's turns are
/// spread over the whole run rather than gathered in a few seconds of it. A neighbour that comes
/// and goes over minutes then meets every benchmark alike, and the quiet turns of each are drawn
/// from the whole run. `finished` is told of each benchmark as it is done; the measurements
/// come back in the order of `benches`.
pub fn measure_interleaved(
    benches: &[Bench],
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
    mut finished: impl FnMut(Bench, &[Measurement]),
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
        waiting.retain(|&b| {
            let done = timings[b].is_done();
            if done {
                finished(timings[b].bench, &timings[b].measurements);
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

    /// The plan's turns are taken, and either the budget is spent or the quiet turns are
    /// precise enough.
    fn is_done(&self) -> bool {
        let turns = self.measurements.first().map_or(0, |m| m.turns.len());
        turns >= self.plan.min_turns.max(MIN_TURNS_FOR_INTERVAL)
            && (self.spent >= self.plan.budget
                || precise_enough(&self.measurements, self.plan.precision))
    }
}

/// Whether every implementation's speed-up over the fastest scalar-class one (the baseline),
/// over the quiet turns, has an interval within `precision` of its median.
fn precise_enough(measurements: &[Measurement], precision: f64) -> bool {
    let quiet = quiet_turns(measurements);
    let Some(baseline) = measurements
        .iter()
        .filter(|m| m.implementation.is_baseline_candidate())
        .min_by(|a, b| a.median_in(&quiet).total_cmp(&b.median_in(&quiet)))
    else {
        return true;
    };
    let reference = baseline.times_in(&quiet);
    measurements.iter().all(|m| {
        estimate::paired(&reference, &m.times_in(&quiet))
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
        let measured = measure_interleaved(&benches, &on, &corpus, &tiny_plan(6), |bench, m| {
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

    #[test]
    fn the_quiet_turns_are_the_third_where_the_implementations_ran_closest_to_typical() {
        // Turns 1, 4, 7, ... are loaded: the wide implementation slows by half, the
        // latency-bound one by a twentieth, so their ratio moves with the load.
        let loaded = |t: usize| t % 3 == 1;
        let wide: Vec<f64> = (0..18).map(|t| if loaded(t) { 3.0 } else { 2.0 }).collect();
        let narrow: Vec<f64> = (0..18)
            .map(|t| if loaded(t) { 5.25 } else { 5.0 })
            .collect();
        let scalar: Vec<f64> = (0..18)
            .map(|t| {
                if loaded(t) {
                    4.5
                } else {
                    3.0 + t as f64 * 0.01
                }
            })
            .collect();
        let m = [
            steady_turns("swar-v3", &narrow),
            steady_turns("avx2", &wide),
            steady_turns("scalar", &scalar),
        ];
        let quiet = quiet_turns(&m);
        assert_eq!(quiet.len(), 6);
        assert!(quiet.iter().all(|&t| !loaded(t)), "{quiet:?}");
        assert!(quiet.windows(2).all(|w| w[0] < w[1]));
        let ratio = estimate::paired(&m[0].times_in(&quiet), &m[1].times_in(&quiet)).unwrap();
        assert_eq!(ratio.median, 2.5);
        // Fewer turns than an interval needs: all of them.
        let short = [steady_turns("scalar", &[1.0, 2.0, 3.0])];
        assert_eq!(quiet_turns(&short), [0, 1, 2]);
    }

    #[test]
    fn the_quiet_turns_are_of_the_cores_usual_state() {
        // A neighbour shares the core in every turn but 3, 8, 13 and 18: there the probe runs
        // faster and so does every implementation, the wide one by less. Chosen by time alone,
        // the quiet turns would be those four and two shared ones, a mixture of the two states.
        let unshared = |t: usize| t % 5 == 3;
        let probe = |t: usize| {
            if unshared(t) {
                10.8
            } else {
                6.6 + (t % 3) as f64 * 0.1
            }
        };
        let with_probes = |name, shared: f64, alone: f64| {
            let times: Vec<f64> = (0..20)
                .map(|t| {
                    if unshared(t) {
                        alone
                    } else {
                        shared + t as f64 * 0.001
                    }
                })
                .collect();
            Measurement {
                probes: (0..20).map(probe).collect(),
                ..steady_turns(name, &times)
            }
        };
        let m = [
            with_probes("swar-v3", 4.0, 3.3),
            with_probes("avx512", 2.4, 2.25),
            with_probes("scalar", 13.5, 8.5),
        ];
        let quiet = quiet_turns(&m);
        assert_eq!(quiet.len(), 6);
        assert!(quiet.iter().all(|&t| !unshared(t)), "{quiet:?}");
        // Without probes, the fastest turns are the unshared ones.
        let no_probes: Vec<Measurement> = m
            .iter()
            .map(|m| Measurement {
                probes: Vec::new(),
                ..m.clone()
            })
            .collect();
        assert!(
            quiet_turns(&no_probes)
                .iter()
                .filter(|&&t| unshared(t))
                .count()
                == 4
        );
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
        Shuffle::new(&ALL[1].id()).apply(&mut a);
        Shuffle::new(&ALL[1].id()).apply(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..32).collect::<Vec<_>>());
        a.sort();
        assert_eq!(a, (0..32).collect::<Vec<_>>());
    }
}

//! The timings as `results.json` holds them: a [`Report`] of one [`Row`] per benchmark and
//! implementation, with nanoseconds and cycles per call, the speed-up over the benchmark's
//! baseline (the fastest scalar-class code) and, beside it, over the scalar reference.
//!
//! A row timed by `qbb compare` keeps its time in each turn (the median over the placements of
//! its loop) and in each placement. Its speed-up over the baseline is then the median of the
//! turns' ratios, with an interval ([`qbb_benches::estimate`]), and it ties with the row's
//! fastest cell when the interval of their ratio reaches within the margin of 1
//! ([`estimate::TIE_MARGIN`]). A row read back from criterion has no turns: its speed-up is the
//! ratio of the medians, and the run's noise floor decides ties.

use std::collections::BTreeMap;

use qbb::BackendKind;
use qbb_benches::estimate::{self, Estimate, TIE_MARGIN, Verdict};
use qbb_benches::{Bench, Implementation, Measurement};
use serde::{Deserialize, Serialize};

use crate::instructions::counts::Instructions;
use crate::report::machine::Machine;
use crate::report::table::three_digits;
use crate::report::width::{self, CountOfAnotherCopy};
use crate::report::{
    Against, Figure, NoisePair, Ratio, Report, Subject, round4, subject_and_ratio_fields,
};

/// The whole file.
pub type Results = Report<Row>;

/// What one figure is.
const UNIT: &str = "ns per call (median over the turns in the run's usual state)";

/// One benchmark timed on one implementation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    #[serde(flatten)]
    pub subject: Subject,
    /// The median over the samples (over the turns in the run's usual state, for `qbb
    /// compare`), nanoseconds per call.
    pub ns_per_op: f64,
    /// The fastest and slowest sample (turn the figures come from), nanoseconds per call.
    pub ns_min: f64,
    pub ns_max: f64,
    /// Samples: the turns the figures come from, for `qbb compare`.
    pub samples: usize,
    /// Nanoseconds per call in each turn: the median over the placements of the loop.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_ns: Vec<f64>,
    /// The turns the figures come from (indices into `turn_ns`): the benchmark's turns in the
    /// run's usual state (`qbb_benches::measure::usual_turns`), the same for each of its rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usual_turns: Vec<usize>,
    /// In files written before the usual state was the run's, the turns the figures came from:
    /// the third of the benchmark's turns with the lowest load (of those in its own usual state,
    /// where it had probes). Files older still name neither, and every turn counts. Read, never
    /// written.
    #[serde(default, skip_serializing)]
    pub quiet_turns: Vec<usize>,
    /// The neighbour probe of each turn: independent additions per nanosecond, timed just
    /// before the row's samples ([`qbb_benches::neighbour`]); a turn in which another thread
    /// shared the core probes slower. Empty where there is no probe, and in files written before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turn_probe: Vec<f64>,
    /// Nanoseconds per call of each placement of the loop: the median over the turns the figures
    /// come from.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub placement_ns: Vec<f64>,
    /// Calls timed in one sample.
    pub calls_per_sample: u64,
    /// `ns_per_op` times the core clock measured during the run (`machine.clock_ghz`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cycles_per_op: Option<f64>,
    /// The copy of the code timed, for a backend that picks its width at run time (portable):
    /// `avx512`, `avx2` or `baseline`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<String>,
    /// Instructions per call, from the callgrind counts (`instructions.json`) beside the file,
    /// when they counted the copy of the code that was timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions_per_op: Option<f64>,
    /// Instructions per cycle: `instructions_per_op / cycles_per_op`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ipc: Option<f64>,
    /// The count when it is of another copy than the one timed (valgrind ran the portable
    /// backend at a narrower width): reported, but no instructions per cycle are made of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counted_another_copy: Option<CountOfAnotherCopy>,
    /// The benchmark's baseline: the fastest of the scalar-class implementations measured.
    #[serde(default)]
    pub baseline: Option<String>,
    /// The headline speed-up: the median of the turns' ratios of the baseline's time to this
    /// row's, where the row has turns; else the baseline's `ns_per_op` over this row's.
    #[serde(default)]
    pub speedup_vs_baseline: Option<f64>,
    /// The 95 % interval of `speedup_vs_baseline`, `[low, high]`, where the row has turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speedup_interval: Option<[f64; 2]>,
    /// Whether the row is the benchmark's fastest or ties with it (the interval of their paired
    /// ratio reaches within the tie margin of 1), where the rows have turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tied_with_fastest: Option<bool>,
    /// The scalar reference's `ns_per_op` divided by this row's, when scalar was measured.
    pub speedup_vs_scalar: Option<f64>,
}

impl Row {
    /// A row from the samples (ns per call), with cycles when the clock is known.
    pub fn new(
        bench: Bench,
        on: impl Into<Implementation>,
        samples: &[f64],
        calls_per_sample: u64,
        clock_ghz: Option<f64>,
    ) -> Row {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let ns_per_op = round4(median(&sorted));
        Row {
            subject: Subject::new(bench, on),
            ns_per_op,
            ns_min: round4(sorted.first().copied().unwrap_or(f64::NAN)),
            ns_max: round4(sorted.last().copied().unwrap_or(f64::NAN)),
            samples: sorted.len(),
            turn_ns: Vec::new(),
            usual_turns: Vec::new(),
            quiet_turns: Vec::new(),
            turn_probe: Vec::new(),
            placement_ns: Vec::new(),
            calls_per_sample,
            cycles_per_op: clock_ghz.map(|ghz| round4(ns_per_op * ghz)),
            width: None,
            instructions_per_op: None,
            ipc: None,
            counted_another_copy: None,
            baseline: None,
            speedup_vs_baseline: None,
            speedup_interval: None,
            tied_with_fastest: None,
            speedup_vs_scalar: None,
        }
    }

    /// The row of a measurement by `qbb compare` whose figures come from the turns numbered in
    /// `usual` (its benchmark's [`qbb_benches::measure::usual_turns`]); every turn's time and
    /// each placement's are kept.
    pub fn measured(m: &Measurement, usual: &[usize], clock_ghz: Option<f64>) -> Row {
        let usual_times: Vec<f64> = m.times_in(usual).into_iter().map(round4).collect();
        let mut row = Row::new(
            m.bench,
            m.implementation,
            &usual_times,
            m.calls_per_sample,
            clock_ghz,
        );
        row.turn_ns = m.turn_times().into_iter().map(round4).collect();
        row.usual_turns = usual.to_vec();
        row.turn_probe = m.probes.iter().copied().map(round4).collect();
        row.placement_ns = m.placement_times(usual).into_iter().map(round4).collect();
        row
    }

    /// The turns the figures come from, if the file names them: the usual turns, or in an older
    /// file the quiet ones.
    pub fn chosen_turns(&self) -> Option<&[usize]> {
        [&self.usual_turns, &self.quiet_turns]
            .into_iter()
            .find(|turns| !turns.is_empty())
            .map(|turns| &turns[..])
    }

    /// The times of the turns the figures come from ([`Row::chosen_turns`]), or of every turn in
    /// a file that names none.
    fn estimated_turns(&self) -> Vec<f64> {
        let Some(chosen) = self.chosen_turns() else {
            return self.turn_ns.clone();
        };
        let turn = |&t: &usize| self.turn_ns.get(t).copied();
        chosen.iter().filter_map(turn).collect()
    }

    /// This row's speed-up over `reference`, paired turn by turn over the turns the figures
    /// come from; `None` unless both have turns.
    pub fn paired_over(&self, reference: &Row) -> Option<Estimate> {
        estimate::paired(&reference.estimated_turns(), &self.estimated_turns())
    }
}

impl Figure for Row {
    const RATIO: Ratio = Ratio::ReferenceOverRow;
    const AGAINST: Against = Against::Baseline;

    subject_and_ratio_fields!(speedup_vs_baseline);

    fn set_against(&mut self, implementation: Option<&str>) {
        self.baseline = implementation.map(str::to_string);
    }

    fn against(&self) -> Option<&str> {
        self.baseline.as_deref()
    }

    fn value(&self) -> f64 {
        self.ns_per_op
    }

    fn tied_with_best(&self) -> Option<bool> {
        self.tied_with_fastest
    }

    fn ratio_interval(&self) -> Option<[f64; 2]> {
        self.speedup_interval
    }

    fn value_text(&self) -> String {
        match self.cycles_per_op {
            Some(cycles) => format!(
                "{} ns {} cyc",
                three_digits(self.ns_per_op),
                three_digits(cycles)
            ),
            None => format!("{} ns", three_digits(self.ns_per_op)),
        }
    }
}

impl Row {
    /// Takes `count` (instructions per call, and the copy counted) as this row's when it is of
    /// the copy timed, else as a count of another copy; returns whether it was this row's.
    fn pair_with(&mut self, count: Option<(f64, Option<String>)>) -> bool {
        let (ours, other) = width::pair(count, self.width.as_ref());
        self.instructions_per_op = ours;
        self.ipc = ours
            .zip(self.cycles_per_op)
            .map(|(instructions, cycles)| round4(instructions / cycles));
        self.counted_another_copy = other;
        ours.is_some()
    }
}

fn median(sorted: &[f64]) -> f64 {
    estimate::median(&mut sorted.to_vec())
}

impl Results {
    /// The timings of `rows`, sorted, with the speed-ups over the baseline and over scalar, and
    /// the run's noise floor.
    pub fn timings(machine: Machine, source: String, corpus: String, rows: Vec<Row>) -> Results {
        let mut results = Report::new(machine, source, UNIT.to_string(), corpus, rows);
        results.add_speedups_vs_scalar();
        results.add_paired_estimates();
        results.add_noise_floor();
        results
    }

    /// Where the rows have turns: each row's speed-up over its baseline as the median of the
    /// turns' ratios, with its interval, and whether it ties with the benchmark's fastest row
    /// (by the interval and [`TIE_MARGIN`], which the report then records).
    pub fn add_paired_estimates(&mut self) {
        let benchmarks: Vec<String> = self
            .by_benchmark()
            .into_iter()
            .map(|(id, _)| id.to_string())
            .collect();
        for id in benchmarks {
            let rows: Vec<&Row> = self
                .results
                .iter()
                .filter(|r| r.subject.benchmark == id)
                .collect();
            let baseline = rows
                .iter()
                .find(|r| r.baseline.as_deref() == Some(r.subject.backend.as_str()));
            let fastest = crate::report::best(&rows);
            let estimates: Vec<(Option<Estimate>, Option<bool>)> = rows
                .iter()
                .map(|row| {
                    let speedup = baseline.and_then(|b| row.paired_over(b));
                    let tie = fastest.and_then(|f| {
                        let e = f.paired_over(row)?;
                        Some(std::ptr::eq(f, *row) || e.verdict() == Verdict::Tie)
                    });
                    (speedup, tie)
                })
                .collect();
            let rows = self
                .results
                .iter_mut()
                .filter(|r| r.subject.benchmark == id);
            for (row, (speedup, tie)) in rows.zip(estimates) {
                if let Some(e) = speedup {
                    row.speedup_vs_baseline = Some(round4(e.median));
                    row.speedup_interval = Some([round4(e.interval.low), round4(e.interval.high)]);
                }
                row.tied_with_fastest = tie;
            }
        }
        if self.results.iter().any(|r| r.speedup_interval.is_some()) {
            self.tie_margin = Some(TIE_MARGIN);
        }
    }

    /// Finds the run's pairs of timings of identical code ([`identical_code_pairs`]), and with
    /// them its noise floor: the widest pair's gap.
    pub fn add_noise_floor(&mut self) {
        self.noise_pairs = identical_code_pairs(&self.results);
        self.noise = self.noise_pairs.first().map(|pair| pair.gap);
    }

    /// Records the copy each row of a backend that picks its width timed, where the row does
    /// not say.
    pub fn record_widths(&mut self) {
        let widths: Vec<Option<String>> = self.results.iter().map(|r| self.width_of(r)).collect();
        for (row, width) in self.results.iter_mut().zip(widths) {
            row.width = width;
        }
    }

    /// The copy `row` timed, for a backend that picks its width: as recorded, else (a file
    /// written before the width was) the widest the report's machine has, as the backend picks
    /// it.
    pub fn width_of(&self, row: &Row) -> Option<String> {
        width::copy_of(&row.subject.backend, row.width.as_ref(), || {
            width::widest(&self.machine.features)
        })
    }

    /// Fills in each row's instructions per call from the counts of the same benchmark and
    /// implementation, and with the cycles its instructions per cycle; a count of another copy
    /// of the code than the timed one goes to `counted_another_copy` instead. Returns how many
    /// rows found a count of the code they timed.
    pub fn add_instruction_counts(&mut self, counts: &Instructions) -> usize {
        self.record_widths();
        let mut found = 0;
        for row in &mut self.results {
            let subject = &row.subject;
            let count = counts.results.iter().find(|c| {
                c.subject.benchmark == subject.benchmark && c.subject.backend == subject.backend
            });
            let count = count.map(|c| (c.instructions_per_call, counts.width_of(c)));
            found += usize::from(row.pair_with(count));
        }
        found
    }

    /// Fills in each row's speed-up over the scalar reference of its benchmark.
    pub fn add_speedups_vs_scalar(&mut self) {
        let scalar: BTreeMap<String, f64> = self
            .results
            .iter()
            .filter(|r| r.subject.is_reference())
            .map(|r| (r.subject.benchmark.clone(), r.ns_per_op))
            .collect();
        for row in &mut self.results {
            row.speedup_vs_scalar = scalar
                .get(&row.subject.benchmark)
                .map(|&scalar| round4(scalar / row.ns_per_op));
        }
    }
}

/// The pairs of timings of the same machine code in this run, widest first: a backend that
/// inherits a routine from another, where neither region adds target features (swar or portable
/// running scalar's code), compiles the same source the same way. Each pair's gap is the relative
/// difference of its two timings (their paired ratio, where the rows have turns).
fn identical_code_pairs(rows: &[Row]) -> Vec<NoisePair> {
    let other_row = |benchmark: &str, backend: BackendKind| {
        rows.iter()
            .find(|r| r.subject.benchmark == benchmark && r.subject.backend == backend.name())
    };
    let mut pairs: Vec<NoisePair> = rows
        .iter()
        .filter_map(|row| {
            let on = row.subject.implementation()?;
            let from = row.subject.inherited_from()?;
            let plain = |kind: BackendKind| kind.required_features().is_empty();
            if on.is_raised() || !plain(on.code) || !plain(from) {
                return None;
            }
            let other = other_row(&row.subject.benchmark, from)?;
            let ratio = match row.paired_over(other) {
                Some(e) => e.median,
                None => other.ns_per_op / row.ns_per_op,
            };
            Some(NoisePair {
                benchmark: row.subject.benchmark.clone(),
                on: row.subject.backend.clone(),
                from: from.name().to_string(),
                gap: round4(ratio.ln().abs().exp() - 1.0),
            })
        })
        .collect();
    pairs.sort_by(|a, b| b.gap.total_cmp(&a.gap));
    pairs
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::best;
    use crate::testing::{made_up_report, release_machine, swar_inherits};

    /// A row of three samples around `ns`; swar is marked as inheriting, whatever the backends
    /// say today.
    fn row(bench: &str, backend: &str, ns: f64) -> Row {
        let bench: Bench = bench.parse().unwrap();
        let on = Implementation::from_name(backend).unwrap();
        let mut row = Row::new(bench, on, &[ns * 1.1, ns, ns * 0.9], 1024, None);
        swar_inherits(&mut row.subject);
        row
    }

    /// A small result set, without a noise floor.
    pub fn sample() -> Results {
        let mut results = made_up_report(
            UNIT,
            vec![
                row("hex-sets", "avx2", 2.0),
                row("flip", "scalar", 3.0),
                row("hex-sets", "scalar", 10.0),
                row("flip", "avx2", 6.0),
                row("piece-at-latency", "scalar", 1.0),
                row("piece-at", "scalar", 1.0),
                row("hex-sets", "swar", 5.0),
            ],
        );
        results.add_speedups_vs_scalar();
        results
    }

    #[test]
    fn the_noise_floor_is_the_widest_gap_between_timings_of_identical_code() {
        // swar inherits from scalar here; avx2 adds target features, so its flip is no pair.
        let rows = vec![
            row("flip", "scalar", 2.0),
            row("flip", "swar", 2.5),
            row("flip", "avx2", 1.0),
            row("piece-sets", "swar", 3.0),
            row("piece-sets", "scalar", 3.3),
            row("hex-sets", "swar", 1.0),
        ];
        let results = Results::timings(release_machine(), "qbb test".into(), "c".into(), rows);
        let pairs: Vec<(&str, &str, &str, f64)> = results
            .noise_pairs
            .iter()
            .map(|p| (p.benchmark.as_str(), p.on.as_str(), p.from.as_str(), p.gap))
            .collect();
        assert_eq!(
            pairs,
            [
                ("flip", "swar", "scalar", 0.25),
                ("piece-sets", "swar", "scalar", 0.1)
            ]
        );
        assert_eq!(results.noise, Some(0.25));
    }

    /// A row timed in turns: `per_turn` nanoseconds per call in each turn.
    fn turned(bench: &str, backend: &str, per_turn: &[f64]) -> Row {
        let mut row = row(bench, backend, 1.0);
        let m = Measurement {
            bench: bench.parse().unwrap(),
            implementation: Implementation::from_name(backend).unwrap(),
            calls_per_sample: 64,
            turns: per_turn
                .iter()
                .map(|&t| [t; qbb_benches::PLACEMENTS])
                .collect(),
            probes: Vec::new(),
        };
        let every_turn: Vec<usize> = (0..per_turn.len()).collect();
        let measured = Row::measured(&m, &every_turn, None);
        row.ns_per_op = measured.ns_per_op;
        row.turn_ns = measured.turn_ns;
        row.usual_turns = measured.usual_turns;
        row.placement_ns = measured.placement_ns;
        row
    }

    #[test]
    fn a_rows_figures_come_from_the_turns_it_names() {
        // Turns 1 and 4 are of another state: avx2 slows by half there, swar-v3 hardly at all.
        let narrow = [5.0, 5.2, 5.0, 5.0, 5.2, 5.0, 5.0, 5.0];
        let wide = [2.0, 3.0, 2.0, 2.0, 3.0, 2.0, 2.0, 2.0];
        let usual = [0, 2, 3, 5, 6, 7];
        let mut rows = vec![
            turned("flip", "swar-v3", &narrow),
            turned("flip", "avx2", &wide),
        ];
        for row in &mut rows {
            row.usual_turns = usual.to_vec();
        }
        assert_eq!(rows[1].paired_over(&rows[0]).unwrap().median, 2.5);
        // A file written before names them its quiet turns.
        for row in &mut rows {
            row.quiet_turns = std::mem::take(&mut row.usual_turns);
        }
        assert_eq!(rows[1].chosen_turns(), Some(&usual[..]));
        assert_eq!(rows[1].paired_over(&rows[0]).unwrap().median, 2.5);
        for row in &mut rows {
            row.quiet_turns.clear();
        }
        assert_eq!(rows[1].chosen_turns(), None);
        let every_turn = rows[1].paired_over(&rows[0]).unwrap();
        assert_eq!(every_turn.interval.low, 5.2 / 3.0);
    }
    #[test]
    fn paired_rows_take_the_median_of_the_turns_ratios_and_tie_by_interval() {
        // The machine slows down in the last four turns; swar-v3 is the baseline, avx2 twice as
        // fast in every turn, sse2 as fast as avx2 but for a wobble that straddles it.
        let slow = [4.0, 4.0, 4.0, 8.0, 8.0, 8.0, 8.0];
        let half: Vec<f64> = slow.iter().map(|t| t / 2.0).collect();
        let wobble: Vec<f64> = half
            .iter()
            .zip([0.9, 1.1, 1.0, 1.1, 0.9, 1.05, 0.95])
            .map(|(t, f)| t * f)
            .collect();
        let rows = vec![
            turned("flip", "swar-v3", &slow),
            turned("flip", "avx2", &half),
            turned("flip", "sse2", &wobble),
            turned("flip", "scalar", &slow.map(|t| t * 3.0)),
        ];
        let r = Results::timings(release_machine(), "qbb test".into(), "c".into(), rows);
        let get = |backend: &str| {
            r.results
                .iter()
                .find(|x| x.subject.backend == backend)
                .unwrap()
        };
        assert_eq!(get("avx2").baseline.as_deref(), Some("swar-v3"));
        assert_eq!(get("avx2").speedup_vs_baseline, Some(2.0));
        assert_eq!(get("avx2").speedup_interval, Some([2.0, 2.0]));
        assert_eq!(get("scalar").speedup_interval, Some([0.3333, 0.3333]));
        assert_eq!(get("avx2").tied_with_fastest, Some(true));
        assert_eq!(get("sse2").tied_with_fastest, Some(true));
        assert_eq!(get("swar-v3").tied_with_fastest, Some(false));
        assert_eq!(get("avx2").placement_ns, [4.0; qbb_benches::PLACEMENTS]);
        let md = r.table().markdown();
        assert!(
            md.contains("| **3.60 ns 2.0×** | **4.00 ns 2.0×** |"),
            "{md}"
        );
    }

    /// One value of every row, in the rows' order.
    fn column<'a, T>(results: &'a Results, value: impl Fn(&'a Row) -> T) -> Vec<T> {
        results.results.iter().map(value).collect()
    }

    #[test]
    fn rows_are_ordered_and_speedups_are_over_the_baseline_and_scalar() {
        let r = sample();
        assert_eq!(
            column(&r, |r| (
                r.subject.benchmark.as_str(),
                r.subject.backend.as_str()
            )),
            [
                ("piece-at", "scalar"),
                ("hex-sets", "scalar"),
                ("hex-sets", "swar"),
                ("hex-sets", "avx2"),
                ("flip", "scalar"),
                ("flip", "avx2"),
                ("piece-at-latency", "scalar"),
            ]
        );
        assert_eq!(
            column(&r, |r| r.speedup_vs_scalar.unwrap()),
            [1.0, 1.0, 2.0, 5.0, 1.0, 0.5, 1.0]
        );
        assert_eq!(
            column(&r, |r| r.baseline.as_deref().unwrap()),
            [
                "scalar", "swar", "swar", "swar", "scalar", "scalar", "scalar"
            ]
        );
        assert_eq!(
            column(&r, |r| r.speedup_vs_baseline.unwrap()),
            [1.0, 0.5, 1.0, 2.5, 1.0, 0.5, 1.0]
        );
        let groups = r.by_benchmark();
        assert_eq!(groups.len(), 4);
        assert_eq!(best(&groups[1].1).unwrap().subject.backend, "avx2");
        assert_eq!(best(&groups[2].1).unwrap().subject.backend, "scalar");
        assert_eq!(r.backends(), ["scalar", "swar", "avx2"]);
    }

    /// The features of a CPU with the avx2 and avx512 backends' sets, or the avx2 set only.
    pub fn features(avx512: bool) -> Vec<String> {
        use qbb::backend::{AVX2_FEATURES, AVX512_FEATURES};
        let wide: &[&str] = if avx512 { AVX512_FEATURES } else { &[] };
        AVX2_FEATURES
            .iter()
            .chain(wide)
            .map(|f| f.to_string())
            .collect()
    }

    /// piece-at on avx2 and portable, timed at 2 ns and 2 GHz, on a CPU with or without
    /// AVX-512, with the counts of `instructions.json` made on the same CPU before the counts
    /// recorded their width.
    pub fn timed_and_counted(avx512: bool) -> Results {
        let timed = |backend: &str| {
            let on = Implementation::from_name(backend).unwrap();
            Row::new("piece-at".parse().unwrap(), on, &[2.0], 1024, Some(2.0))
        };
        let mut results = made_up_report(UNIT, vec![timed("avx2"), timed("portable")]);
        results.machine.features = features(avx512);
        let mut counts = crate::instructions::counts::tests::sample();
        counts.machine.features = features(avx512);
        results.add_instruction_counts(&counts);
        results
    }

    #[test]
    fn a_count_of_another_copy_than_the_timed_one_gives_no_ipc() {
        let results = timed_and_counted(true);
        let [avx2, portable] = &results.results[..] else {
            panic!("two rows")
        };
        assert_eq!(
            (avx2.instructions_per_op, avx2.ipc),
            (Some(17.0), Some(4.25))
        );
        assert_eq!(avx2.counted_another_copy, None);
        // Timed in its AVX-512 copy, counted under valgrind in its AVX2 copy.
        assert_eq!(portable.width.as_deref(), Some("avx512"));
        assert_eq!((portable.instructions_per_op, portable.ipc), (None, None));
        assert_eq!(
            portable.counted_another_copy,
            Some(CountOfAnotherCopy {
                width: "avx2".to_string(),
                instructions_per_op: 18.0
            })
        );
        let text = results.to_json().unwrap();
        assert!(text.contains("\"counted_another_copy\": {"), "{text}");
    }

    #[test]
    fn without_avx512_the_count_is_of_the_timed_copy() {
        let results = timed_and_counted(false);
        let portable = &results.results[1];
        assert_eq!(portable.width.as_deref(), Some("avx2"));
        assert_eq!(
            (portable.instructions_per_op, portable.ipc),
            (Some(18.0), Some(4.5))
        );
        assert_eq!(portable.counted_another_copy, None);
    }

    #[test]
    fn a_row_keeps_median_and_extremes() {
        let row = Row::new(
            "flip".parse().unwrap(),
            BackendKind::Scalar,
            &[4.0, 1.0, 2.0],
            8,
            Some(3.0),
        );
        assert_eq!(row.cycles_per_op, Some(6.0));
        assert_eq!((row.ns_min, row.ns_per_op, row.ns_max), (1.0, 2.0, 4.0));
        assert_eq!(row.subject.support, "native");
        assert!(!row.subject.is_latency());
    }

    #[test]
    fn results_round_trip_through_json() {
        let r = sample();
        let text = r.to_json().unwrap();
        assert!(text.contains("\"ns_per_op\""));
        // The subject's fields open each row, as they did before the subject was shared.
        assert!(
            text.contains("\"support\": \"native\",\n      \"ns_per_op\""),
            "{text}"
        );
        let back: Results = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn the_markdown_marks_the_fastest_backend_of_each_row() {
        let md = sample().table().markdown();
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| benchmark | scalar | swar | avx2 (x86-64-v3) |");
        assert_eq!(lines[1], "| --- | ---: | ---: | ---: |");
        // The baseline is the fastest scalar-class cell (°): scalar alone, or swar over scalar.
        assert_eq!(lines[2], "| piece-at | 1.00 ns° | - | - |");
        assert_eq!(
            lines[3],
            "| hex-sets | 10.0 ns 0.50× | 5.00 ns°† | **2.00 ns 2.5×** |"
        );
        assert_eq!(lines[4], "| flip | **3.00 ns°** | - | 6.00 ns 0.50× |");
    }
}

//! What the lab's two reports share. `qbb compare` and `qbb report` (nanoseconds per call) and
//! `qbb instructions` (instructions per call) each give one figure per benchmark and backend,
//! with its ratio to scalar's, as a terminal table, a markdown table and a ratio chart.
//!
//! A pipeline defines its row: a [`Subject`] (which benchmark ran on which backend) and its own
//! figures, behind the [`Figure`] trait. Everything else is done here, once: a [`Report`] of
//! those rows is sorted and grouped, and it fills in the ratios. [`table`] lays it out and
//! [`chart`] draws it, and [`files`] reads and writes it. How a pipeline measures, its JSON
//! fields and its captions stay with the pipeline.

mod arm;
pub mod chart;
mod emulation;
pub mod files;
pub mod machine;
mod row;
pub mod table;
pub mod width;

use std::collections::BTreeMap;

use qbb::BackendKind;
use qbb_benches::Implementation;
use serde::{Deserialize, Serialize};

use chart::TieBand;
use machine::Machine;
pub(crate) use row::subject_and_ratio_fields;
pub use row::{Against, Figure, Ratio, Subject, round4};

/// A relative gap as the pages write it: 0.01 is `1 %`.
pub fn percent(gap: f64) -> String {
    format!("{} %", gap * 100.0)
}

/// The backend every ratio is taken against: it runs everywhere and is the plainest code.
pub const REFERENCE: BackendKind = BackendKind::Scalar;

/// A whole report, as its JSON file holds it: the machine, where the figures come from, and one
/// row per benchmark and backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report<R> {
    pub machine: Machine,
    /// Where the figures come from: the command that measured, or the bench that counted and
    /// the command that read the counts back.
    pub source: String,
    /// What one figure is.
    pub unit: String,
    /// The inputs.
    pub corpus: String,
    /// The relative spread between timings of identical code in this run: ratios closer to 1
    /// than this are ties. Timings only (instruction counts do not vary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub noise: Option<f64>,
    /// Every pair of timings of identical code in this run, widest first: the first sets `noise`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub noise_pairs: Vec<NoisePair>,
    /// Where the rows have intervals: how near 1 an interval may reach and still be a tie
    /// ([`qbb_benches::estimate::TIE_MARGIN`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie_margin: Option<f64>,
    /// How far the ratios moved when the same command ran again (`qbb compare --repeat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement: Option<Agreement>,
    pub results: Vec<R>,
}

/// How well repeated runs of one command agree: every ratio of the first run against a fixed
/// reference implementation, beside the same ratio in each later run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Runs of the whole job, the first included.
    pub runs: usize,
    /// The processes they ran in: 1 for `qbb compare --repeat`, whose runs share one process's
    /// memory layout, or one per run for `qbb report --agree-with`, each file from a process of
    /// its own; not recorded in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<usize>,
    /// The implementation every ratio is taken against (the same in every run and row).
    pub reference: String,
    /// Ratios compared.
    pub ratios: usize,
    /// The relative difference between a ratio in the first run and in a later one: the
    /// median, the 90th percentile and the largest over all ratios.
    pub median: f64,
    pub p90: f64,
    pub max: f64,
    /// The widest differences, widest first.
    pub widest: Vec<RatioDifference>,
    /// How near 1 an interval reached and was still a tie, in the verdicts below; 0 (an
    /// interval that includes 1) in files written before the lab had a margin.
    #[serde(default)]
    pub tie_margin: f64,
    /// Rows whose speed-up over the baseline was above 1 in one run and below it in another
    /// (each by its interval, beyond the margin): a verdict that changed.
    pub verdict_changes: Vec<String>,
    /// Rows whose verdict moved between a tie and a win or loss.
    pub tie_changes: usize,
    /// The rows that changed sides with no margin (by their intervals alone), where recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict_changes_without_margin: Option<Vec<String>>,
    /// Each run's usual core state, the first run's first: the neighbour probe's figure in
    /// independent additions per ns. Empty where a run has no probes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub usual_states: Vec<f64>,
}

/// One ratio in two runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatioDifference {
    pub benchmark: String,
    pub backend: String,
    pub first: f64,
    pub other: f64,
}

/// Two timings of the same machine code: on backend `on`, which runs `from`'s routine, and on
/// `from`, for `benchmark`; `gap` is their relative difference.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NoisePair {
    pub benchmark: String,
    pub on: String,
    pub from: String,
    pub gap: f64,
}

impl<R: Figure> Report<R> {
    /// Sorts the rows (benchmark order, then backend order) and fills in each row's ratio to
    /// the figure it is taken against ([`Figure::AGAINST`]) of the same benchmark, when that was
    /// measured.
    pub fn new(
        machine: Machine,
        source: String,
        unit: String,
        corpus: String,
        mut results: Vec<R>,
    ) -> Self {
        results.sort_by_key(|r| order_key(&r.subject().benchmark, &r.subject().backend));
        let against = against_rows(&results);
        for row in &mut results {
            let against = against.get(&row.subject().benchmark);
            let ratio = against.map(|(_, value)| round4(R::RATIO.of(row.value(), *value)));
            row.set_ratio(ratio);
            row.set_against(against.map(|(name, _)| name.as_str()));
        }
        Report {
            machine,
            source,
            unit,
            corpus,
            noise: None,
            noise_pairs: Vec::new(),
            tie_margin: None,
            agreement: None,
            results,
        }
    }

    /// Which ratios around 1× are ties: the margin where the rows have intervals, else the
    /// run's noise floor.
    pub fn tie_band(&self) -> Option<TieBand> {
        self.tie_margin
            .map(TieBand::Margin)
            .or(self.noise.map(TieBand::NoiseFloor))
    }

    /// The benchmarks in order, each with its rows in backend order.
    pub fn by_benchmark(&self) -> Vec<(&str, Vec<&R>)> {
        let mut groups: Vec<(&str, Vec<&R>)> = Vec::new();
        for row in &self.results {
            let id = row.subject().benchmark.as_str();
            match groups.last_mut() {
                Some((last, group)) if *last == id => group.push(row),
                _ => groups.push((id, vec![row])),
            }
        }
        groups
    }

    /// The backends that appear, in backend order.
    pub fn backends(&self) -> Vec<String> {
        backends_in_order(self.results.iter().map(|r| r.subject().backend.as_str()))
    }

    /// More than one backend appears: a chart that sets them side by side has something to show.
    pub fn has_several_backends(&self) -> bool {
        self.backends().len() > 1
    }
}

/// For each benchmark, the implementation the ratios are taken against and its figure.
fn against_rows<R: Figure>(results: &[R]) -> BTreeMap<String, (String, f64)> {
    let mut against: BTreeMap<String, (String, f64)> = BTreeMap::new();
    for row in results.iter().filter(|r| r.value().is_finite()) {
        let subject = row.subject();
        let eligible = match R::AGAINST {
            Against::Reference => subject.is_reference(),
            Against::Baseline => subject.is_baseline_candidate(),
        };
        let better = |(_, value): &(String, f64)| row.value() < *value;
        if eligible && against.get(&subject.benchmark).is_none_or(better) {
            let entry = (subject.backend.clone(), row.value());
            against.insert(subject.benchmark.clone(), entry);
        }
    }
    against
}

/// The best row of a benchmark: the lowest finite figure, the first of equals.
pub fn best<'a, R: Figure>(rows: &[&'a R]) -> Option<&'a R> {
    rows.iter()
        .copied()
        .filter(|r| r.value().is_finite())
        .min_by(|a, b| a.value().total_cmp(&b.value()))
}

/// Where a row goes: the order of the benchmark list (latency last), then the implementations
/// (the baseline candidates, then the backend tiers).
fn order_key(benchmark: &str, backend: &str) -> (Option<usize>, Option<Implementation>) {
    let bench = qbb_benches::ALL.iter().position(|b| b.id() == benchmark);
    (bench, Implementation::from_name(backend))
}

/// The distinct implementations named, in table order.
pub fn backends_in_order<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut all: Vec<Implementation> = names.filter_map(Implementation::from_name).collect();
    all.sort();
    all.dedup();
    all.iter().map(|i| i.name()).collect()
}

/// The description of the benchmarks' corpus, for the files.
pub fn corpus_description(positions: usize) -> String {
    format!(
        "{positions} positions: the standard and tricky perft suites, a fixed-seed draw from the \
         random suite, and positions of random legal games played by the engine (fixed seed); \
         one call per position"
    )
}

#[cfg(test)]
pub(crate) mod tests;

//! The results of a comparison as written to `results.json`: the machine, where the numbers come
//! from, and one row per benchmark and backend.

use std::collections::BTreeMap;

use qbb::{BackendKind, Routine};
use qbb_benches::{Bench, Measure};
use serde::{Deserialize, Serialize};

use super::machine::Machine;

/// The whole file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub machine: Machine,
    /// The command that measured (or, for `qbb report`, the criterion run read back).
    pub source: String,
    /// What one operation is.
    pub unit: String,
    /// The inputs.
    pub corpus: String,
    pub results: Vec<Row>,
}

/// One benchmark on one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The routine id of the catalogue (`hex-sets`).
    pub routine: String,
    /// `throughput` (independent calls) or `latency` (each call waits for the previous one).
    pub measure: String,
    /// The benchmark id: the routine id, `-latency` appended for latency.
    pub benchmark: String,
    /// The routine's row in the catalogue (DESIGN.md section 3).
    pub catalogue_row: u8,
    pub title: String,
    pub backend: String,
    /// `native`, or `inherited: from <backend> (<why>)`: whose code ran.
    pub support: String,
    /// The median over the samples, nanoseconds per call.
    pub ns_per_op: f64,
    /// The fastest and slowest sample, nanoseconds per call.
    pub ns_min: f64,
    pub ns_max: f64,
    pub samples: usize,
    /// Calls timed in one sample.
    pub calls_per_sample: u64,
    /// Scalar's `ns_per_op` divided by this backend's, when scalar was measured.
    pub speedup_vs_scalar: Option<f64>,
}

impl Row {
    pub fn new(bench: Bench, backend: BackendKind, samples: &[f64], calls_per_sample: u64) -> Row {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let routine = bench.routine();
        Row {
            routine: routine.id().to_string(),
            measure: bench.measure().name().to_string(),
            benchmark: bench.id(),
            catalogue_row: routine.row(),
            title: bench.title(),
            backend: backend.name().to_string(),
            support: support(backend, routine),
            ns_per_op: round4(median(&sorted)),
            ns_min: round4(sorted.first().copied().unwrap_or(f64::NAN)),
            ns_max: round4(sorted.last().copied().unwrap_or(f64::NAN)),
            samples: sorted.len(),
            calls_per_sample,
            speedup_vs_scalar: None,
        }
    }

    pub fn is_inherited(&self) -> bool {
        self.support.starts_with("inherited")
    }

    pub fn is_latency(&self) -> bool {
        self.measure == Measure::Latency.name()
    }
}

/// `native`, or `inherited: from <backend> (<why>)`, as this build of the lab knows it.
pub fn support(backend: BackendKind, routine: Routine) -> String {
    backend.support(routine).map_or_else(
        || "not built into this binary".to_string(),
        |s| s.to_string(),
    )
}

/// Four decimals: a tenth of a picosecond is far below the noise, and such short decimals read
/// back from JSON to exactly the same number.
fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

impl Results {
    /// Sorts the rows (benchmark order, then backend order) and fills in the speed-ups.
    pub fn new(machine: Machine, source: String, corpus: String, mut results: Vec<Row>) -> Results {
        results.sort_by_key(|r| order_key(&r.benchmark, &r.backend));
        let scalar: BTreeMap<String, f64> = results
            .iter()
            .filter(|r| r.backend == BackendKind::Scalar.name())
            .map(|r| (r.benchmark.clone(), r.ns_per_op))
            .collect();
        for row in &mut results {
            row.speedup_vs_scalar = scalar
                .get(&row.benchmark)
                .map(|s| round4(s / row.ns_per_op));
        }
        Results {
            machine,
            source,
            unit: "ns per call (median of the samples)".to_string(),
            corpus,
            results,
        }
    }

    /// The benchmarks in order, each with its rows in backend order.
    pub fn by_benchmark(&self) -> Vec<(&str, Vec<&Row>)> {
        by_benchmark(&self.results, |r| &r.benchmark)
    }

    /// The backends that appear, in backend order.
    pub fn backends(&self) -> Vec<String> {
        backends_in_order(self.results.iter().map(|r| r.backend.as_str()))
    }
}

/// Where a benchmark's row goes: the order of the benchmark list (latency last), then the backend
/// tiers.
pub fn order_key(benchmark: &str, backend: &str) -> (Option<usize>, Option<BackendKind>) {
    let bench = qbb_benches::ALL.iter().position(|b| b.id() == benchmark);
    (bench, backend.parse().ok())
}

/// Rows sorted by [`order_key`], grouped by benchmark.
pub fn by_benchmark<T>(rows: &[T], benchmark: impl Fn(&T) -> &str) -> Vec<(&str, Vec<&T>)> {
    let mut groups: Vec<(&str, Vec<&T>)> = Vec::new();
    for row in rows {
        let id = benchmark(row);
        match groups.last_mut() {
            Some((last, group)) if *last == id => group.push(row),
            _ => groups.push((id, vec![row])),
        }
    }
    groups
}

/// The distinct backends named, in backend order.
pub fn backends_in_order<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut kinds: Vec<BackendKind> = names.filter_map(|n| n.parse().ok()).collect();
    kinds.sort();
    kinds.dedup();
    kinds.iter().map(|k| k.name().to_string()).collect()
}

/// The fastest row of a benchmark (lowest `ns_per_op`).
pub fn fastest<'a>(rows: &[&'a Row]) -> Option<&'a Row> {
    rows.iter()
        .copied()
        .filter(|r| r.ns_per_op.is_finite())
        .min_by(|a, b| a.ns_per_op.total_cmp(&b.ns_per_op))
}

/// The description of the corpus, for the files.
pub fn corpus_description(positions: usize) -> String {
    format!(
        "{positions} positions: the standard and tricky perft suites, a fixed-seed draw from the \
         random suite, and positions of random legal games played by the engine (fixed seed); \
         one call per position"
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub fn row(bench: &str, backend: &str, ns: f64) -> Row {
        let bench: Bench = bench.parse().unwrap();
        let kind: BackendKind = backend.parse().unwrap();
        Row::new(bench, kind, &[ns * 1.1, ns, ns * 0.9], 1024)
    }

    /// A small result set; swar is marked as inheriting, whatever the backends say today.
    pub fn sample() -> Results {
        let mut results = Results::new(
            Machine::current(),
            "qbb test".to_string(),
            corpus_description(1024),
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
        for r in &mut results.results {
            r.support = if r.backend == "swar" {
                "inherited: from scalar (test)".to_string()
            } else {
                "native".to_string()
            };
        }
        results
    }

    #[test]
    fn rows_are_ordered_and_speedups_are_over_scalar() {
        let r = sample();
        let order: Vec<(&str, &str)> = r
            .results
            .iter()
            .map(|r| (r.benchmark.as_str(), r.backend.as_str()))
            .collect();
        assert_eq!(
            order,
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
        let speedups: Vec<f64> = r
            .results
            .iter()
            .map(|r| r.speedup_vs_scalar.unwrap())
            .collect();
        assert_eq!(speedups, [1.0, 1.0, 2.0, 5.0, 1.0, 0.5, 1.0]);
        let groups = r.by_benchmark();
        assert_eq!(groups.len(), 4);
        assert_eq!(fastest(&groups[1].1).unwrap().backend, "avx2");
        assert_eq!(fastest(&groups[2].1).unwrap().backend, "scalar");
        assert_eq!(r.backends(), ["scalar", "swar", "avx2"]);
    }

    #[test]
    fn a_row_keeps_median_and_extremes() {
        let row = Row::new(
            "flip".parse().unwrap(),
            BackendKind::Scalar,
            &[4.0, 1.0, 2.0],
            8,
        );
        assert_eq!((row.ns_min, row.ns_per_op, row.ns_max), (1.0, 2.0, 4.0));
        assert_eq!(row.support, "native");
        assert!(!row.is_latency());
    }

    #[test]
    fn results_round_trip_through_json() {
        let r = sample();
        let text = serde_json::to_string_pretty(&r).unwrap();
        assert!(text.contains("\"ns_per_op\""));
        let back: Results = serde_json::from_str(&text).unwrap();
        assert_eq!(back, r);
    }
}

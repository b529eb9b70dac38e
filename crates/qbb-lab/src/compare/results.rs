//! The timings as `results.json` holds them: a [`Report`] of one [`Row`] per benchmark and
//! backend, with nanoseconds per call and the speed-up over scalar.

use qbb::BackendKind;
use qbb_benches::Bench;
use serde::{Deserialize, Serialize};

use crate::report::machine::Machine;
use crate::report::table::three_digits;
use crate::report::{Figure, Ratio, Report, Subject, round4, subject_and_ratio_fields};

/// The whole file.
pub type Results = Report<Row>;

/// What one figure is.
const UNIT: &str = "ns per call (median of the samples)";

/// One benchmark timed on one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    #[serde(flatten)]
    pub subject: Subject,
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
        Row {
            subject: Subject::new(bench, backend),
            ns_per_op: round4(median(&sorted)),
            ns_min: round4(sorted.first().copied().unwrap_or(f64::NAN)),
            ns_max: round4(sorted.last().copied().unwrap_or(f64::NAN)),
            samples: sorted.len(),
            calls_per_sample,
            speedup_vs_scalar: None,
        }
    }
}

impl Figure for Row {
    const RATIO: Ratio = Ratio::ReferenceOverRow;

    subject_and_ratio_fields!(speedup_vs_scalar);

    fn value(&self) -> f64 {
        self.ns_per_op
    }

    fn value_text(&self) -> String {
        format!("{} ns", three_digits(self.ns_per_op))
    }
}

fn median(sorted: &[f64]) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

impl Results {
    /// The timings of `rows`, sorted, with the speed-ups over scalar.
    pub fn timings(machine: Machine, source: String, corpus: String, rows: Vec<Row>) -> Results {
        Report::new(machine, source, UNIT.to_string(), corpus, rows)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::report::best;
    use crate::testing::{made_up_report, swar_inherits};

    /// A row of three samples around `ns`; swar is marked as inheriting, whatever the backends
    /// say today.
    fn row(bench: &str, backend: &str, ns: f64) -> Row {
        let bench: Bench = bench.parse().unwrap();
        let kind: BackendKind = backend.parse().unwrap();
        let mut row = Row::new(bench, kind, &[ns * 1.1, ns, ns * 0.9], 1024);
        swar_inherits(&mut row.subject);
        row
    }

    /// A small result set.
    pub fn sample() -> Results {
        made_up_report(
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
        )
    }

    #[test]
    fn rows_are_ordered_and_speedups_are_over_scalar() {
        let r = sample();
        let order: Vec<(&str, &str)> = r
            .results
            .iter()
            .map(|r| (r.subject.benchmark.as_str(), r.subject.backend.as_str()))
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
        assert_eq!(best(&groups[1].1).unwrap().subject.backend, "avx2");
        assert_eq!(best(&groups[2].1).unwrap().subject.backend, "scalar");
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
        assert_eq!(lines[0], "| benchmark | scalar | swar | avx2 |");
        assert_eq!(lines[1], "| --- | ---: | ---: | ---: |");
        assert_eq!(lines[2], "| piece-at | 1.00 ns | - | - |");
        assert_eq!(
            lines[3],
            "| hex-sets | 10.0 ns | 5.00 ns 2.0×† | **2.00 ns 5.0×** |"
        );
        assert_eq!(lines[4], "| flip | **3.00 ns** | - | 6.00 ns 0.50× |");
    }
}

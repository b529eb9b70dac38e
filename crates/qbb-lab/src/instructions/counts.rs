//! The instruction counts as `instructions.json` holds them: a [`Report`] of one [`Count`] per
//! benchmark and backend, with instructions per call and the ratio to scalar's count.

use qbb_benches::Bench;
use serde::{Deserialize, Serialize};

use super::gungraun::Run;
use crate::report::machine::Machine;
use crate::report::table::three_digits;
use crate::report::width;
use crate::report::{
    Against, Figure, Ratio, Report, Subject, backends_in_order, subject_and_ratio_fields,
};

/// The whole file.
pub type Instructions = Report<Count>;

/// One benchmark counted on one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Count {
    #[serde(flatten)]
    pub subject: Subject,
    /// The compiler that built the benchmark executable.
    pub rustc: String,
    /// When gungraun started the run, UTC (RFC 3339).
    pub started_at: String,
    /// Callgrind's count of instructions executed (`Ir`) by one pass over the corpus.
    pub instructions_per_pass: u64,
    /// Calls in one pass: the positions of the corpus.
    pub calls_per_pass: u64,
    /// `instructions_per_pass / calls_per_pass`.
    pub instructions_per_call: f64,
    /// This backend's count divided by scalar's (below 1: fewer instructions than scalar), when
    /// scalar was counted.
    pub vs_scalar: Option<f64>,
    /// The copy of the code counted, for a backend that picks its width at run time (portable):
    /// `avx2` or `baseline`, as valgrind leaves the CPU (see [`Instructions::width_of`] for files
    /// that lack it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<String>,
}

impl Count {
    /// A run as a row; `rustc` names the compiler of its executable.
    pub fn new(run: &Run, rustc: String, calls_per_pass: u64) -> Count {
        Count {
            subject: Subject::new(run.bench, run.implementation),
            rustc,
            started_at: run.started_at.clone(),
            instructions_per_pass: run.instructions,
            calls_per_pass,
            instructions_per_call: round2(run.instructions as f64 / calls_per_pass as f64),
            vs_scalar: None,
            width: None,
        }
    }
}

impl Figure for Count {
    const RATIO: Ratio = Ratio::RowOverReference;
    // A count is a property of the code, not a speed: it is compared with the reference's.
    const AGAINST: Against = Against::Reference;

    subject_and_ratio_fields!(vs_scalar);

    fn value(&self) -> f64 {
        self.instructions_per_pass as f64
    }

    fn value_text(&self) -> String {
        three_digits(self.instructions_per_call)
    }
}

/// Two decimals: the counts are exact, a hundredth of an instruction per call is their resolution
/// over a thousand calls.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Instructions {
    /// The counts of `rows`, sorted, with the ratios to scalar.
    pub fn counted(machine: Machine, source: String, corpus: String, rows: Vec<Count>) -> Self {
        let unit = format!(
            "instructions executed per call: callgrind's Ir for one pass of the benchmark's loop \
             over the corpus, divided by its {} calls (the routine, its share of the loop and of \
             the one dispatch onto the backend)",
            qbb_benches::corpus::POSITIONS
        );
        Report::new(machine, source, unit, corpus, rows)
    }

    /// Records the copy each count of a backend that picks its width ran: the one valgrind left
    /// the bench on this machine.
    pub fn record_widths(&mut self) {
        let counted = width::under_valgrind(&self.machine.features);
        for count in &mut self.results {
            if width::picks_its_width(&count.subject.backend) {
                count.width = Some(counted.to_string());
            }
        }
    }

    /// The copy `count` is of, for a backend that picks its width: as recorded, else (a file
    /// written before the width was) what valgrind left the report's machine, which is the same
    /// rule applied to the same features.
    pub fn width_of(&self, count: &Count) -> Option<String> {
        width::copy_of(&count.subject.backend, count.width.as_ref(), || {
            width::under_valgrind(&self.machine.features)
        })
    }

    /// The compilers of the counts, each with the backends it built: `rustc 1.95.0 (…)` for
    /// `scalar, swar`.
    pub fn compilers(&self) -> Vec<(String, Vec<String>)> {
        let mut compilers: Vec<(String, Vec<String>)> = Vec::new();
        for count in &self.results {
            let backend = &count.subject.backend;
            match compilers
                .iter_mut()
                .find(|(rustc, _)| *rustc == count.rustc)
            {
                Some((_, backends)) if !backends.contains(backend) => {
                    backends.push(backend.clone());
                }
                Some(_) => {}
                None => compilers.push((count.rustc.clone(), vec![backend.clone()])),
            }
        }
        for (_, backends) in &mut compilers {
            *backends = backends_in_order(backends.iter().map(String::as_str));
        }
        compilers
    }
}

/// The benchmarks the counts do not cover, for a warning that some are missing.
pub fn missing_benchmarks(counts: &Instructions) -> Vec<Bench> {
    qbb_benches::ALL
        .iter()
        .copied()
        .filter(|b| !counts.results.iter().any(|c| c.subject.benchmark == b.id()))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::testing::{release_machine, swar_inherits};

    /// A count of a made-up run; swar is marked as inheriting, whatever the backends say today.
    fn count(bench: &str, backend: &str, instructions: u64, rustc: &str) -> Count {
        let run = Run {
            bench: bench.parse().unwrap(),
            implementation: qbb_benches::Implementation::from_name(backend).unwrap(),
            instructions,
            started_at: "2026-11-21T03:08:39Z".to_string(),
            executable: PathBuf::from("/nonexistent"),
        };
        let mut count = Count::new(&run, rustc.to_string(), 1024);
        swar_inherits(&mut count.subject);
        count
    }

    /// Benchmark, backend, instructions per call and ratio to scalar of each row.
    pub fn per_call(counts: &Instructions) -> Vec<(&str, &str, f64, Option<f64>)> {
        counts
            .results
            .iter()
            .map(|c| {
                let subject = &c.subject;
                (
                    subject.benchmark.as_str(),
                    subject.backend.as_str(),
                    c.instructions_per_call,
                    c.vs_scalar,
                )
            })
            .collect()
    }

    /// A small set of counts, two compilers.
    pub fn sample() -> Instructions {
        let stable = "rustc 1.95.0 (59807616e 2026-04-14)";
        Instructions::counted(
            release_machine(),
            "gungraun (test)".to_string(),
            "1024 positions".to_string(),
            vec![
                count("flip", "avx2", 16_630, stable),
                count("piece-at", "swar", 25_000, stable),
                count("piece-at", "scalar", 27_136, stable),
                count("flip", "scalar", 20_480, stable),
                count("piece-at", "avx2", 17_408, stable),
                count("piece-at", "portable", 18_432, "rustc 1.97.0-nightly"),
            ],
        )
    }

    #[test]
    fn counts_are_per_call_ordered_and_relative_to_scalar() {
        let counts = sample();
        assert_eq!(
            per_call(&counts),
            [
                ("piece-at", "scalar", 26.5, Some(1.0)),
                ("piece-at", "swar", 24.41, Some(0.9213)),
                ("piece-at", "avx2", 17.0, Some(0.6415)),
                ("piece-at", "portable", 18.0, Some(0.6792)),
                ("flip", "scalar", 20.0, Some(1.0)),
                ("flip", "avx2", 16.24, Some(0.812)),
            ]
        );
        assert_eq!(counts.backends(), ["scalar", "swar", "avx2", "portable"]);
        let compilers = counts.compilers();
        assert_eq!(compilers.len(), 2);
        assert_eq!(compilers[0].1, ["scalar", "swar", "avx2"]);
        assert_eq!(
            compilers[1],
            (
                "rustc 1.97.0-nightly".to_string(),
                vec!["portable".to_string()]
            )
        );
    }

    #[test]
    fn cells_mark_the_fewest_instructions_and_inherited_code() {
        let table = sample().table();
        let (header, rows) = (table.header, table.rows);
        assert_eq!(
            header,
            [
                "benchmark",
                "scalar",
                "swar",
                "avx2 (x86-64-v3)",
                "portable"
            ]
        );
        let texts: Vec<Vec<(&str, bool)>> = rows
            .iter()
            .map(|r| r.iter().map(|c| (c.text.as_str(), c.best)).collect())
            .collect();
        assert_eq!(
            texts[0],
            [
                ("piece-at", false),
                ("26.5", false),
                ("24.4 0.92×†", false),
                ("17.0 0.64×", true),
                ("18.0 0.68×", false),
            ]
        );
        assert_eq!(texts[1][2], ("-", false));
    }

    #[test]
    fn missing_benchmarks_are_listed() {
        let missing = missing_benchmarks(&sample());
        assert_eq!(missing.len(), qbb_benches::ALL.len() - 2);
        assert!(!missing.iter().any(|b| b.id() == "flip"));
    }

    #[test]
    fn counts_round_trip_through_json() {
        let counts = sample();
        let text = counts.to_json().unwrap();
        assert!(text.contains("\"instructions_per_pass\": 27136"));
        let back: Instructions = serde_json::from_str(&text).unwrap();
        assert_eq!(back, counts);
    }
}

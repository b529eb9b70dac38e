//! The instruction counts as written to `instructions.json`: the machine, where the counts come
//! from, and one row per benchmark and backend, with the count relative to scalar's.

use std::collections::BTreeMap;

use qbb::BackendKind;
use qbb_benches::Bench;
use serde::{Deserialize, Serialize};

use super::gungraun::Run;
use crate::compare::machine::Machine;
use crate::compare::results::{backends_in_order, by_benchmark, order_key, support};
use crate::compare::table::{Cell, INHERITED, format_fraction, three_digits};

/// The whole file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Instructions {
    pub machine: Machine,
    /// The bench that counted and the command that read the counts back.
    pub source: String,
    /// What one count is.
    pub unit: String,
    /// The inputs.
    pub corpus: String,
    pub results: Vec<Count>,
}

/// One benchmark counted on one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Count {
    /// The routine id of the catalogue (`hex-sets`).
    pub routine: String,
    /// `throughput` (independent calls) or `latency` (each call on the previous result).
    pub measure: String,
    /// The benchmark id: the routine id, `-latency` appended for latency.
    pub benchmark: String,
    /// The routine's row in the catalogue (DESIGN.md section 3).
    pub catalogue_row: u8,
    pub title: String,
    pub backend: String,
    /// `native`, or `inherited: from <backend> (<why>)`: whose code ran.
    pub support: String,
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
}

impl Count {
    /// A run as a row; `rustc` names the compiler of its executable.
    pub fn new(run: &Run, rustc: String, calls_per_pass: u64) -> Count {
        let Run {
            bench,
            backend,
            instructions,
            ..
        } = run;
        let routine = bench.routine();
        Count {
            routine: routine.id().to_string(),
            measure: bench.measure().name().to_string(),
            benchmark: bench.id(),
            catalogue_row: routine.row(),
            title: bench.title(),
            backend: backend.name().to_string(),
            support: support(*backend, routine),
            rustc,
            started_at: run.started_at.clone(),
            instructions_per_pass: *instructions,
            calls_per_pass,
            instructions_per_call: round2(*instructions as f64 / calls_per_pass as f64),
            vs_scalar: None,
        }
    }

    pub fn is_inherited(&self) -> bool {
        self.support.starts_with("inherited")
    }
}

/// Two decimals: the counts are exact, a hundredth of an instruction per call is their resolution
/// over a thousand calls.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

impl Instructions {
    /// Sorts the rows (benchmark order, then backend order) and fills in the ratios to scalar.
    pub fn new(machine: Machine, source: String, corpus: String, mut results: Vec<Count>) -> Self {
        results.sort_by_key(|c| order_key(&c.benchmark, &c.backend));
        let scalar: BTreeMap<String, u64> = results
            .iter()
            .filter(|c| c.backend == BackendKind::Scalar.name())
            .map(|c| (c.benchmark.clone(), c.instructions_per_pass))
            .collect();
        for count in &mut results {
            count.vs_scalar = scalar
                .get(&count.benchmark)
                .map(|&s| (count.instructions_per_pass as f64 / s as f64 * 1e4).round() / 1e4);
        }
        Instructions {
            machine,
            source,
            unit: format!(
                "instructions executed per call: callgrind's Ir for one pass of the benchmark's \
                 loop over the corpus, divided by its {} calls (the routine, its share of the \
                 loop and of the one dispatch onto the backend)",
                qbb_benches::corpus::POSITIONS
            ),
            corpus,
            results,
        }
    }

    /// The benchmarks in order, each with its rows in backend order.
    pub fn by_benchmark(&self) -> Vec<(&str, Vec<&Count>)> {
        by_benchmark(&self.results, |c| &c.benchmark)
    }

    /// The backends that appear, in backend order.
    pub fn backends(&self) -> Vec<String> {
        backends_in_order(self.results.iter().map(|c| c.backend.as_str()))
    }

    /// The compilers of the counts, each with the backends it built: `rustc 1.95.0 (…)` for
    /// `scalar, swar`.
    pub fn compilers(&self) -> Vec<(String, Vec<String>)> {
        let mut compilers: Vec<(String, Vec<String>)> = Vec::new();
        for count in &self.results {
            match compilers
                .iter_mut()
                .find(|(rustc, _)| *rustc == count.rustc)
            {
                Some((_, backends)) if !backends.contains(&count.backend) => {
                    backends.push(count.backend.clone());
                }
                Some(_) => {}
                None => compilers.push((count.rustc.clone(), vec![count.backend.clone()])),
            }
        }
        for (_, backends) in &mut compilers {
            *backends = backends_in_order(backends.iter().map(String::as_str));
        }
        compilers
    }

    /// The header and cells of the table: instructions per call, the ratio to scalar, the fewest
    /// of each row marked.
    pub fn cells(&self) -> (Vec<String>, Vec<Vec<Cell>>) {
        let backends = self.backends();
        let mut header = vec!["benchmark".to_string()];
        header.extend(backends.iter().cloned());
        let rows = self
            .by_benchmark()
            .into_iter()
            .map(|(id, counts)| {
                let fewest = counts
                    .iter()
                    .min_by_key(|c| c.instructions_per_pass)
                    .map(|c| c.backend.as_str());
                let mut line = vec![Cell::plain(id)];
                line.extend(backends.iter().map(|backend| {
                    match counts.iter().find(|c| &c.backend == backend) {
                        Some(count) => Cell {
                            text: cell_text(count),
                            best: fewest == Some(backend.as_str()) && counts.len() > 1,
                        },
                        None => Cell::plain("-"),
                    }
                }));
                line
            })
            .collect();
        (header, rows)
    }
}

/// `16.8 0.64×`: instructions per call and the ratio to scalar (left out for scalar), a dagger for
/// inherited code.
fn cell_text(count: &Count) -> String {
    let mut text = three_digits(count.instructions_per_call);
    if let Some(r) = count.vs_scalar.filter(|_| count.backend != "scalar") {
        text.push_str(&format!(" {}×", format_fraction(r)));
    }
    if count.is_inherited() {
        text.push_str(INHERITED);
    }
    text
}

/// The benchmarks the counts cover, for a check that none is missing.
pub fn missing_benchmarks(counts: &Instructions) -> Vec<Bench> {
    qbb_benches::ALL
        .iter()
        .copied()
        .filter(|b| !counts.results.iter().any(|c| c.benchmark == b.id()))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use std::path::PathBuf;

    use super::*;

    fn run(bench: &str, backend: &str, instructions: u64) -> Run {
        Run {
            bench: bench.parse().unwrap(),
            backend: backend.parse().unwrap(),
            instructions,
            started_at: "2026-11-21T03:08:39Z".to_string(),
            executable: PathBuf::from("/nonexistent"),
        }
    }

    /// A small set of counts, two compilers; swar marked as inheriting whatever the backends say.
    pub fn sample() -> Instructions {
        let stable = "rustc 1.95.0 (59807616e 2026-04-14)";
        let rows = [
            ("flip", "avx2", 16_630, stable),
            ("piece-at", "swar", 25_000, stable),
            ("piece-at", "scalar", 27_136, stable),
            ("flip", "scalar", 20_480, stable),
            ("piece-at", "avx2", 17_408, stable),
            ("piece-at", "portable", 18_432, "rustc 1.97.0-nightly"),
        ];
        let mut counts = Instructions::new(
            Machine::current(),
            "gungraun (test)".to_string(),
            "1024 positions".to_string(),
            rows.iter()
                .map(|&(b, k, n, rustc)| Count::new(&run(b, k, n), rustc.to_string(), 1024))
                .collect(),
        );
        for c in &mut counts.results {
            c.support = if c.backend == "swar" {
                "inherited: from scalar (test)".to_string()
            } else {
                "native".to_string()
            };
        }
        counts
    }

    #[test]
    fn counts_are_per_call_ordered_and_relative_to_scalar() {
        let counts = sample();
        let order: Vec<(&str, &str, f64, Option<f64>)> = counts
            .results
            .iter()
            .map(|c| {
                (
                    c.benchmark.as_str(),
                    c.backend.as_str(),
                    c.instructions_per_call,
                    c.vs_scalar,
                )
            })
            .collect();
        assert_eq!(
            order,
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
        let (header, rows) = sample().cells();
        assert_eq!(header, ["benchmark", "scalar", "swar", "avx2", "portable"]);
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
        let text = serde_json::to_string_pretty(&counts).unwrap();
        assert!(text.contains("\"instructions_per_pass\": 27136"));
        let back: Instructions = serde_json::from_str(&text).unwrap();
        assert_eq!(back, counts);
    }
}

//! The timings of `qbb compare` (`results.json`) beside the model: which CPU they were measured
//! on, at what clock, and each throughput row in cycles. Both files are read through the
//! reports' own types (a report older than the clock reads with `clock_ghz` and `cycles_per_op`
//! absent).

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use super::cpus;
use super::mca::Summary;
use crate::compare::Results;
use crate::instructions::counts::Instructions;
use crate::report::width::{self, CountOfAnotherCopy};

/// Predicted and measured differ when one is more than this many times the other.
pub const DIFFERS: f64 = 1.5;

/// What the model needs of a `results.json`.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The machine's id and CPU as the report names them.
    pub machine_id: String,
    pub cpu: String,
    /// The llvm-mca CPU of that machine.
    pub llvm_cpu: &'static str,
    /// The compiler that built the timed code.
    pub rustc: String,
    /// The core clock measured with the timings, GHz.
    pub clock_ghz: Option<f64>,
    pub rows: Vec<Timing>,
}

/// The code a figure is of: a routine on a backend, and for a backend that picks its width
/// (portable) the copy that ran.
#[derive(Debug, Clone, PartialEq)]
pub struct Code {
    pub routine: String,
    pub backend: String,
    pub width: Option<String>,
}

/// One throughput benchmark on one backend.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    pub code: Code,
    pub ns_per_op: f64,
    /// Cycles per call when the report has them itself.
    pub cycles_per_op: Option<f64>,
}

impl Measured {
    pub fn read(path: &Path) -> Result<Measured> {
        let report = Results::read_json(path, "a results.json of `qbb compare`")?;
        Ok(Measured::of(&report))
    }

    /// The throughput rows of a timing report (the latency benchmarks chain calls; the model
    /// repeats independent ones), with its machine's llvm-mca CPU.
    fn of(report: &Results) -> Measured {
        let machine = &report.machine;
        let llvm_cpu = match cpus::family_and_model(&machine.cpu_details) {
            Some((family, model)) => cpus::for_machine(&machine.cpu, family, model),
            None => cpus::for_arm_machine(&machine.cpu, &machine.cpu_details),
        };
        let rows = report
            .results
            .iter()
            .filter(|row| !row.subject.is_latency())
            .map(|row| Timing {
                code: Code {
                    routine: row.subject.routine.clone(),
                    backend: row.subject.backend.clone(),
                    width: report.width_of(row),
                },
                ns_per_op: row.ns_per_op,
                cycles_per_op: row.cycles_per_op,
            })
            .collect();
        Measured {
            machine_id: machine.id.clone(),
            cpu: if machine.cpu_details.is_empty() {
                machine.cpu.clone()
            } else {
                format!("{} ({})", machine.cpu, machine.cpu_details)
            },
            llvm_cpu,
            rustc: machine.rustc.clone(),
            clock_ghz: machine.clock_ghz.filter(|ghz| *ghz > 0.0),
            rows,
        }
    }
}

/// The instructions per call callgrind counted for each throughput benchmark and backend
/// (`instructions.json` of `qbb instructions`), and the compilers that built them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Counts {
    pub rustc: String,
    pub rows: Vec<CountedRow>,
}

/// One throughput benchmark counted on one backend.
#[derive(Debug, Clone, PartialEq)]
pub struct CountedRow {
    pub code: Code,
    pub instructions_per_call: f64,
}

impl Counts {
    pub fn read(path: &Path) -> Result<Counts> {
        let report = Instructions::read_json(path, "an instructions.json of `qbb instructions`")?;
        Ok(Counts::of_report(&report))
    }

    fn of_report(report: &Instructions) -> Counts {
        Counts {
            rustc: report.machine.rustc.clone(),
            rows: report
                .results
                .iter()
                .filter(|c| !c.subject.is_latency())
                .map(|c| CountedRow {
                    code: Code {
                        routine: c.subject.routine.clone(),
                        backend: c.subject.backend.clone(),
                        width: report.width_of(c),
                    },
                    instructions_per_call: c.instructions_per_call,
                })
                .collect(),
        }
    }

    pub fn of(&self, routine: &str, backend: &str) -> Option<&CountedRow> {
        self.rows
            .iter()
            .find(|c| c.code.routine == routine && c.code.backend == backend)
    }
}

/// Where the clock that turns nanoseconds into cycles comes from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clock {
    pub ghz: f64,
    pub source: String,
}

/// The clock to use: the one measured with the timings, else `--ghz`, else none.
pub fn clock(measured: &Measured, ghz_flag: Option<f64>) -> Option<Clock> {
    match (measured.clock_ghz, ghz_flag) {
        (Some(ghz), _) => Some(Clock {
            ghz,
            source: "measured with the timings (results.json `clock_ghz`)".to_string(),
        }),
        (None, Some(ghz)) => Some(Clock {
            ghz,
            source: "given on the command line (--ghz)".to_string(),
        }),
        (None, None) => None,
    }
}

/// One row of the comparison.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pair {
    pub routine: String,
    pub backend: String,
    pub ns_per_op: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measured_cycles: Option<f64>,
    pub predicted_cycles: f64,
    /// The instructions llvm-mca modelled per call, and those callgrind counted per call of the
    /// benchmark (its loop included), when the folder has an instructions.json.
    pub probe_instructions: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub benchmark_instructions: Option<f64>,
    /// Callgrind's count when it is of another copy of the code than the one timed (and
    /// modelled): valgrind ran the portable backend at a narrower width. Not compared.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counted_another_copy: Option<CountOfAnotherCopy>,
    /// Predicted over measured cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted_over_measured: Option<f64>,
    /// More than [`DIFFERS`] times apart, either way.
    pub differs: bool,
    /// What the model left out of this probe (a loop, a call).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The cycles per pass of the block llvm-mca modelled, run on this core in llvm-mca's loop
    /// (`on_core`), or why it was not run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_on_core_cycles: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_not_run: Option<String>,
}

/// Measured cycles (the report's own, else nanoseconds times the clock) against a prediction.
pub fn compare(
    timing: &Timing,
    clock: Option<&Clock>,
    predicted: &Summary,
    counted: Option<&CountedRow>,
    notes: Vec<String>,
) -> Pair {
    // A count of another copy than the timed one describes other code: kept apart.
    let (counted, another_copy) = width::pair(
        counted.map(|c| (c.instructions_per_call, c.code.width.clone())),
        timing.code.width.as_ref(),
    );
    let predicted_cycles = predicted.cycles_per_call;
    let measured = timing
        .cycles_per_op
        .or_else(|| clock.map(|c| timing.ns_per_op * c.ghz))
        .map(super::mca::round2);
    let ratio = measured.filter(|m| *m > 0.0).map(|m| predicted_cycles / m);
    Pair {
        routine: timing.code.routine.clone(),
        backend: timing.code.backend.clone(),
        ns_per_op: timing.ns_per_op,
        measured_cycles: measured,
        predicted_cycles,
        probe_instructions: predicted.instructions,
        benchmark_instructions: counted,
        counted_another_copy: another_copy,
        predicted_over_measured: ratio.map(|r| (r * 1000.0).round() / 1000.0),
        differs: ratio.is_some_and(|r| !(1.0 / DIFFERS..=DIFFERS).contains(&r)),
        notes,
        block_on_core_cycles: None,
        block_not_run: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Row;
    use crate::testing::made_up_report;

    /// avx2's piece-at, 1.5 ns per call, in throughput and latency, timed at `clock`.
    fn sample(clock: Option<f64>) -> Results {
        let row = |bench: &str| {
            let avx2 = qbb_benches::Implementation::from_name("avx2").unwrap();
            Row::new(bench.parse().unwrap(), avx2, &[1.5], 1024, clock)
        };
        let mut report = made_up_report("ns", vec![row("piece-at"), row("piece-at-latency")]);
        report.machine.cpu = "AMD EPYC".to_string();
        report.machine.cpu_details = "family 23, model 1, stepping 2, 2 logical CPUs".to_string();
        report.machine.clock_ghz = clock;
        report
    }

    fn cycles(c: f64) -> Summary {
        Summary {
            cycles_per_call: c,
            uops_per_call: 1.0,
            instructions: 9,
            block_rthroughput: c,
            busiest_resource: None,
        }
    }

    #[test]
    fn a_report_without_clock_gives_throughput_rows_and_its_cpu() {
        let m = Measured::of(&sample(None));
        assert_eq!(m.llvm_cpu, "znver1");
        assert_eq!(m.clock_ghz, None);
        assert_eq!(m.rows.len(), 1, "the latency row is left out");
        assert_eq!(
            m.cpu,
            "AMD EPYC (family 23, model 1, stepping 2, 2 logical CPUs)"
        );
        assert_eq!(clock(&m, None), None);
        let c = clock(&m, Some(2.0)).unwrap();
        assert_eq!(c.ghz, 2.0);
        let row = compare(&m.rows[0], Some(&c), &cycles(3.0), None, vec![]);
        assert_eq!(row.measured_cycles, Some(3.0));
        assert_eq!(row.predicted_over_measured, Some(1.0));
        assert!(!row.differs);
        let unclocked = compare(&m.rows[0], None, &cycles(30.0), None, vec![]);
        assert_eq!(
            (unclocked.measured_cycles, unclocked.differs),
            (None, false)
        );
    }

    #[test]
    fn a_measured_clock_wins_over_the_flag_and_gives_the_cycles() {
        let m = Measured::of(&sample(Some(3.0)));
        let c = clock(&m, Some(2.0)).unwrap();
        assert_eq!(c.ghz, 3.0);
        // The row's own cycles (1.5 ns at 3 GHz) are what is compared.
        let row = compare(&m.rows[0], None, &cycles(2.0), None, vec![]);
        assert_eq!(row.measured_cycles, Some(4.5));
        assert!(row.differs, "2 against 4.5 is 0.44x");
        let row = compare(&m.rows[0], None, &cycles(5.0), None, vec![]);
        assert_eq!(row.predicted_over_measured, Some(1.111));
        assert!(!row.differs);
    }

    #[test]
    fn counts_are_read_by_routine_and_backend() {
        let counts = Counts::of_report(&crate::instructions::counts::tests::sample());
        let avx2 = counts.of("piece-at", "avx2").unwrap();
        assert_eq!(
            (avx2.instructions_per_call, avx2.code.width.as_deref()),
            (17.0, None)
        );
        assert_eq!(counts.of("piece-at", "sse2"), None, "not counted");
        let m = Measured::of(&sample(None));
        let row = compare(&m.rows[0], None, &cycles(3.0), Some(avx2), vec![]);
        assert_eq!(
            (row.probe_instructions, row.benchmark_instructions),
            (9, Some(17.0))
        );
    }

    #[test]
    fn a_count_of_another_copy_is_not_compared() {
        let report = crate::compare::results_tests::timed_and_counted(true);
        let m = Measured::of(&report);
        let mut instructions = crate::instructions::counts::tests::sample();
        instructions.machine.features = report.machine.features.clone();
        let counts = Counts::of_report(&instructions);
        let portable = &m.rows[1];
        assert_eq!(portable.code.width.as_deref(), Some("avx512"));
        let counted = counts.of("piece-at", "portable");
        let row = compare(portable, None, &cycles(3.0), counted, vec![]);
        assert_eq!(row.benchmark_instructions, None);
        assert_eq!(
            row.counted_another_copy
                .map(|c| (c.width, c.instructions_per_op)),
            Some(("avx2".to_string(), 18.0))
        );
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        let dir = crate::testing::scratch("model-measured");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.json");
        std::fs::write(&path, r#"{"machine": {"cpu": "x"}}"#).unwrap();
        let err = format!("{:#}", Measured::read(&path).unwrap_err());
        assert!(
            err.contains("is not a results.json of `qbb compare`"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

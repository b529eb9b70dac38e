//! The timings of `qbb compare` (`results.json`) beside the model: which CPU they were measured
//! on, at what clock, and each throughput row in cycles.
//!
//! The file is read field by field rather than through `compare`'s types, so that older files
//! (without a clock) and newer ones (with `clock_ghz` or `cycles_per_op`) are read alike.

use std::path::Path;

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde_json::Value;

use super::cpus;
use super::mca::Summary;

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

/// One throughput benchmark on one backend.
#[derive(Debug, Clone, PartialEq)]
pub struct Timing {
    pub routine: String,
    pub backend: String,
    pub ns_per_op: f64,
    /// Cycles per call when the report has them itself.
    pub cycles_per_op: Option<f64>,
}

impl Measured {
    pub fn read(path: &Path) -> Result<Measured> {
        read_json(path, "a results.json of `qbb compare`", Measured::from_json)
    }

    fn from_json(json: &Value) -> Result<Measured> {
        let machine = json.get("machine").context("no `machine`")?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let cpu = text(machine, "cpu").context("no `machine.cpu`")?;
        let details = text(machine, "cpu_details").unwrap_or_default();
        let llvm_cpu = match cpus::family_and_model(&details) {
            Some((family, model)) => cpus::for_machine(&cpu, family, model),
            None => "native",
        };
        let clock_ghz = machine
            .get("clock_ghz")
            .or_else(|| json.get("clock_ghz"))
            .and_then(Value::as_f64)
            .filter(|ghz| *ghz > 0.0);
        let Some(rows) = json.get("results").and_then(Value::as_array) else {
            bail!("no `results` list");
        };
        let mut timings = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            if text(row, "measure").as_deref() != Some("throughput") {
                continue; // the latency benchmarks chain calls; the model repeats independent ones
            }
            let field =
                |key: &str| text(row, key).with_context(|| format!("row {i} has no `{key}`"));
            timings.push(Timing {
                routine: field("routine")?,
                backend: field("backend")?,
                ns_per_op: row
                    .get("ns_per_op")
                    .and_then(Value::as_f64)
                    .with_context(|| format!("row {i} has no `ns_per_op`"))?,
                cycles_per_op: row.get("cycles_per_op").and_then(Value::as_f64),
            });
        }
        Ok(Measured {
            machine_id: text(machine, "id").unwrap_or_default(),
            cpu: if details.is_empty() {
                cpu
            } else {
                format!("{cpu} ({details})")
            },
            llvm_cpu,
            rustc: text(machine, "rustc").unwrap_or_default(),
            clock_ghz,
            rows: timings,
        })
    }
}

/// The instructions per call callgrind counted for each throughput benchmark and backend
/// (`instructions.json` of `qbb instructions`), and the compilers that built them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Counts {
    pub rustc: String,
    /// (routine, backend, instructions per call).
    pub rows: Vec<(String, String, f64)>,
}

impl Counts {
    pub fn read(path: &Path) -> Result<Counts> {
        read_json(
            path,
            "an instructions.json of `qbb instructions`",
            Counts::from_json,
        )
    }

    fn from_json(json: &Value) -> Result<Counts> {
        let rows = json
            .get("results")
            .and_then(Value::as_array)
            .context("no `results` list")?;
        let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        let mut counts = Vec::new();
        for row in rows {
            if text(row, "measure").as_deref() != Some("throughput") {
                continue;
            }
            if let (Some(routine), Some(backend), Some(n)) = (
                text(row, "routine"),
                text(row, "backend"),
                row.get("instructions_per_call").and_then(Value::as_f64),
            ) {
                counts.push((routine, backend, n));
            }
        }
        Ok(Counts {
            rustc: json
                .get("machine")
                .and_then(|m| text(m, "rustc"))
                .unwrap_or_default(),
            rows: counts,
        })
    }

    pub fn of(&self, routine: &str, backend: &str) -> Option<f64> {
        self.rows
            .iter()
            .find(|(r, b, _)| r == routine && b == backend)
            .map(|(_, _, n)| *n)
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
    /// Predicted over measured cycles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted_over_measured: Option<f64>,
    /// More than [`DIFFERS`] times apart, either way.
    pub differs: bool,
    /// What the model left out of this probe (a loop, a call).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Measured cycles (the report's own, else nanoseconds times the clock) against a prediction.
pub fn compare(
    timing: &Timing,
    clock: Option<&Clock>,
    predicted: &Summary,
    counted: Option<f64>,
    notes: Vec<String>,
) -> Pair {
    let predicted_cycles = predicted.cycles_per_call;
    let measured = timing
        .cycles_per_op
        .or_else(|| clock.map(|c| timing.ns_per_op * c.ghz))
        .map(super::mca::round2);
    let ratio = measured.filter(|m| *m > 0.0).map(|m| predicted_cycles / m);
    Pair {
        routine: timing.routine.clone(),
        backend: timing.backend.clone(),
        ns_per_op: timing.ns_per_op,
        measured_cycles: measured,
        predicted_cycles,
        probe_instructions: predicted.instructions,
        benchmark_instructions: counted,
        predicted_over_measured: ratio.map(|r| (r * 1000.0).round() / 1000.0),
        differs: ratio.is_some_and(|r| !(1.0 / DIFFERS..=DIFFERS).contains(&r)),
        notes,
    }
}

/// A report file read as JSON and taken apart by `parse`; an error names the file and `what` it
/// should have been.
fn read_json<T>(path: &Path, what: &str, parse: fn(&Value) -> Result<T>) -> Result<T> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading `{}`", path.display()))?;
    let json: Value =
        serde_json::from_str(&text).with_context(|| format!("`{}` is not JSON", path.display()))?;
    parse(&json).with_context(|| format!("`{}` is not {what}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(clock: &str, cycles: &str) -> Value {
        serde_json::from_str(&format!(
            r#"{{"machine": {{"id": "amd-epyc-f23m1", "cpu": "AMD EPYC",
                 "cpu_details": "family 23, model 1, stepping 2, 2 logical CPUs",
                 "rustc": "rustc 1.97.0-nightly" {clock}}},
               "results": [
                 {{"routine": "piece-at", "measure": "throughput", "backend": "avx2",
                   "ns_per_op": 1.5 {cycles}}},
                 {{"routine": "piece-at", "measure": "latency", "backend": "avx2",
                   "ns_per_op": 4.0}}]}}"#
        ))
        .unwrap()
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
        let m = Measured::from_json(&sample("", "")).unwrap();
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
    fn a_measured_clock_wins_and_own_cycles_win_over_both() {
        let m = Measured::from_json(&sample(r#", "clock_ghz": 3.0"#, "")).unwrap();
        let c = clock(&m, Some(2.0)).unwrap();
        assert_eq!(c.ghz, 3.0);
        let row = compare(&m.rows[0], Some(&c), &cycles(2.0), None, vec![]);
        assert_eq!(row.measured_cycles, Some(4.5));
        assert!(row.differs, "2 against 4.5 is 0.44x");

        let m = Measured::from_json(&sample("", r#", "cycles_per_op": 3.2"#)).unwrap();
        let row = compare(&m.rows[0], None, &cycles(4.0), None, vec![]);
        assert_eq!(row.measured_cycles, Some(3.2));
        assert_eq!(row.predicted_over_measured, Some(1.25));
        assert!(!row.differs);
    }

    #[test]
    fn counts_are_read_by_routine_and_backend() {
        let json = serde_json::json!({"machine": {"rustc": "rustc 1.95.0"}, "results": [
            {"routine": "nibble-add", "measure": "throughput", "backend": "swar",
             "instructions_per_call": 23.18},
            {"routine": "piece-at", "measure": "latency", "backend": "swar",
             "instructions_per_call": 30.0}]});
        let counts = Counts::from_json(&json).unwrap();
        assert_eq!(counts.of("nibble-add", "swar"), Some(23.18));
        assert_eq!(
            counts.of("piece-at", "swar"),
            None,
            "latency rows are not compared"
        );
        assert_eq!(counts.rustc, "rustc 1.95.0");
        let m = Measured::from_json(&sample("", "")).unwrap();
        let row = compare(&m.rows[0], None, &cycles(3.0), Some(23.18), vec![]);
        assert_eq!(
            (row.probe_instructions, row.benchmark_instructions),
            (9, Some(23.18))
        );
    }

    #[test]
    fn other_files_are_refused_with_a_reason() {
        let err = Measured::from_json(&serde_json::json!({"machine": {"cpu": "x"}})).unwrap_err();
        assert_eq!(err.to_string(), "no `results` list");
        let err = Measured::from_json(&serde_json::json!({"results": []})).unwrap_err();
        assert_eq!(err.to_string(), "no `machine`");
        let row = serde_json::json!({"machine": {"cpu": "x"},
            "results": [{"measure": "throughput", "backend": "avx2", "ns_per_op": 1.0}]});
        let err = Measured::from_json(&row).unwrap_err();
        assert_eq!(err.to_string(), "row 0 has no `routine`");
    }
}

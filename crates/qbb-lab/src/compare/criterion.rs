//! Reading back what `cargo bench --bench routines` left in `target/criterion/`: one folder per
//! group (the benchmark id) and function (the backend), whose `new/` holds the latest run.

use std::fs;
use std::path::Path;

use anyhow::{Context, Result, bail};
use qbb_benches::{Bench, Implementation};
use serde::Deserialize;

use super::results::Row;
use crate::report::files::{read_json_text, require_tool_dir};

/// How the timings are produced, for the messages that say what to run.
const BENCH_COMMAND: &str = "cargo bench -p qbb-benches --bench routines";

/// The part of criterion's `benchmark.json` that is needed.
#[derive(Debug, Deserialize)]
struct BenchmarkFile {
    group_id: String,
    function_id: Option<String>,
    throughput: Option<Throughput>,
}

#[derive(Debug, Deserialize)]
enum Throughput {
    Elements(u64),
    #[serde(other)]
    Other,
}

/// Criterion's `sample.json`: per sample, the iterations and their total time in nanoseconds.
#[derive(Debug, Deserialize)]
struct SampleFile {
    iters: Vec<f64>,
    times: Vec<f64>,
}

/// The rows found under `dir`, and how many criterion benchmarks were not routine benchmarks
/// (engine benchmarks live there too).
pub fn read(dir: &Path) -> Result<(Vec<Row>, usize)> {
    require_tool_dir(dir, "criterion", BENCH_COMMAND)?;
    let mut rows = Vec::new();
    let mut skipped = 0;
    for group in sorted_dirs(dir)? {
        for function in sorted_dirs(&group)? {
            let latest = function.join("new");
            if !latest.join("benchmark.json").is_file() {
                continue;
            }
            match read_one(&latest)? {
                Some(row) => rows.push(row),
                None => skipped += 1,
            }
        }
    }
    if rows.is_empty() {
        bail!(
            "`{}` holds no routine benchmarks: run `{BENCH_COMMAND}`",
            dir.display()
        );
    }
    Ok((rows, skipped))
}

fn sorted_dirs(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut dirs: Vec<_> = fs::read_dir(dir)
        .with_context(|| format!("reading `{}`", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// One benchmark's latest run, or `None` when it is not one of the routine benchmarks.
fn read_one(latest: &Path) -> Result<Option<Row>> {
    let json = |name: &str| {
        let path = latest.join(name);
        fs::read_to_string(&path).with_context(|| format!("reading `{}`", path.display()))
    };
    let meta: BenchmarkFile = read_json_text(&json("benchmark.json")?)
        .with_context(|| format!("parsing `{}`", latest.join("benchmark.json").display()))?;
    let (Ok(bench), Some(Some(on))) = (
        meta.group_id.parse::<Bench>(),
        meta.function_id.as_deref().map(Implementation::from_name),
    ) else {
        return Ok(None);
    };
    let Some(Throughput::Elements(calls_per_iter)) = meta.throughput else {
        bail!(
            "`{}`: a routine benchmark without an element throughput (not written by \
             benches/benches/routines.rs?)",
            latest.display()
        );
    };
    let samples: SampleFile = read_json_text(&json("sample.json")?)
        .with_context(|| format!("parsing `{}`", latest.join("sample.json").display()))?;
    let ns_per_call = per_call(&samples, calls_per_iter);
    if ns_per_call.is_empty() {
        bail!("`{}` holds no samples", latest.display());
    }
    let calls = samples.iters.iter().sum::<f64>() * calls_per_iter as f64;
    let calls_per_sample = (calls / samples.iters.len() as f64).round() as u64;
    // Criterion does not time the clock: no cycles.
    Ok(Some(Row::new(
        bench,
        on,
        &ns_per_call,
        calls_per_sample,
        None,
    )))
}

/// Nanoseconds per call of each sample.
fn per_call(samples: &SampleFile, calls_per_iter: u64) -> Vec<f64> {
    samples
        .iters
        .iter()
        .zip(&samples.times)
        .filter(|(iters, _)| **iters > 0.0)
        .map(|(iters, time)| time / iters / calls_per_iter as f64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{assert_fails_with, scratch};

    fn write(dir: &Path, group: &str, function: &str, elements: Option<u64>) {
        let latest = dir.join(group).join(function).join("new");
        fs::create_dir_all(&latest).unwrap();
        let throughput = match elements {
            Some(n) => format!("{{\"Elements\":{n}}}"),
            None => "null".to_string(),
        };
        fs::write(
            latest.join("benchmark.json"),
            format!(
                "{{\"group_id\":\"{group}\",\"function_id\":\"{function}\",\"value_str\":null,\
                 \"throughput\":{throughput},\"full_id\":\"{group}/{function}\",\
                 \"directory_name\":\"{group}/{function}\",\"title\":\"{group}/{function}\"}}"
            ),
        )
        .unwrap();
        fs::write(
            latest.join("sample.json"),
            "{\"sampling_mode\":\"Linear\",\"iters\":[1.0,2.0,3.0],\"times\":[2048.0,4096.0,9216.0]}",
        )
        .unwrap();
    }

    #[test]
    fn criterion_runs_become_rows_per_call() {
        let dir = scratch("criterion");
        write(&dir, "hex-sets", "avx2", Some(1024));
        write(&dir, "flip-latency", "scalar", Some(1024));
        write(&dir, "perft", "startpos", Some(1));
        let (rows, skipped) = read(&dir).unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(rows.len(), 2);
        let hex = rows
            .iter()
            .find(|r| r.subject.benchmark == "hex-sets")
            .unwrap();
        assert_eq!(hex.subject.backend, "avx2");
        assert_eq!((hex.ns_min, hex.ns_per_op, hex.ns_max), (2.0, 2.0, 3.0));
        assert_eq!(hex.samples, 3);
        assert_eq!(hex.calls_per_sample, 2048);
        write(&dir, "to-mailbox", "sse2", None);
        assert_fails_with(read(&dir), "element throughput");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_missing_folder_says_what_to_run() {
        assert_fails_with(read(Path::new("/nonexistent/criterion")), "cargo bench");
    }
}

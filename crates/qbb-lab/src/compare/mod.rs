//! `qbb compare` and `qbb report`: every routine on every backend side by side.
//!
//! `compare` times the benchmark definitions of `qbb-benches` (the same kernels `cargo bench`
//! runs) with a short plan; `report` reads back the latest `cargo bench` run from
//! `target/criterion/` instead. Both print the table and write `results.json`, `results.md`, the
//! overview chart and one chart per benchmark.

mod chart;
mod criterion;
mod results;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use qbb::BackendKind;
use qbb_benches::{ALL, Bench, Corpus, Plan, available_backends};

use crate::output::print;
use crate::report::files::{cargo_command, command_line, create_dir, out_dir, write};
use crate::report::machine::Machine;
use crate::report::table::{legend, machine_table, three_digits};
use crate::report::{REFERENCE, corpus_description};
use results::{Results, Row};

/// The timings' two commands: measure now, or read back a run of `cargo bench`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Time every routine on every backend this CPU runs, print the table and write
    /// results.json, results.md and SVG charts (to reports/<machine-id>/ unless --out).
    Compare(CompareArgs),
    /// Rebuild the table, results.md and charts from the latest `cargo bench` run in
    /// target/criterion/ (or from a results.json) instead of measuring again.
    Report(ReportArgs),
}

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Shorter and fewer samples: under a minute for everything instead of two to three.
    #[arg(long)]
    quick: bool,
    /// Where to write results.json, results.md and the charts [default: reports/<machine-id>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only these backends (comma-separated or repeated); scalar is always measured, as the
    /// reference of the speed-ups [default: every backend this CPU runs].
    #[arg(long = "backend", value_name = "NAME", value_delimiter = ',')]
    backends: Vec<BackendKind>,
    /// Only these benchmarks: routine ids such as `hex-sets`, or `piece-at-latency`,
    /// `flip-latency` (comma-separated or repeated) [default: all].
    #[arg(long = "bench", value_name = "ID", value_delimiter = ',')]
    benches: Vec<Bench>,
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Criterion's output folder.
    #[arg(long, value_name = "DIR", default_value = "target/criterion")]
    criterion: PathBuf,
    /// Redraw from a results.json written earlier (by compare or report) instead of criterion's
    /// folder: the same numbers, machine and date, with the current table and chart code.
    #[arg(long, value_name = "FILE", conflicts_with = "criterion")]
    json: Option<PathBuf>,
    /// Where to write results.json, results.md and the charts [default: reports/<machine-id>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// `qbb compare` or `qbb report`.
pub fn run(command: &Command) -> Result<ExitCode> {
    match command {
        Command::Compare(args) => compare(args),
        Command::Report(args) => report(args),
    }
}

/// `qbb compare`.
fn compare(args: &CompareArgs) -> Result<ExitCode> {
    let backends = chosen_backends(&args.backends)?;
    let benches: Vec<Bench> = if args.benches.is_empty() {
        ALL.to_vec()
    } else {
        ALL.iter()
            .copied()
            .filter(|b| args.benches.contains(b))
            .collect()
    };
    let plan = if args.quick {
        Plan::QUICK
    } else {
        Plan::NORMAL
    };
    let machine = Machine::current();
    let out = out_dir(args.out.as_deref(), &machine)?;
    let corpus = Corpus::standard();
    let names: Vec<&str> = backends.iter().map(|k| k.name()).collect();
    let estimate = plan.estimate(backends.len()) * benches.len() as u32;
    eprintln!(
        "measuring {} benchmarks on {} backends ({}) over {} positions on {}: about {} s",
        benches.len(),
        backends.len(),
        names.join(", "),
        corpus.len(),
        machine.cpu,
        estimate.as_secs().max(1)
    );
    let started = Instant::now();
    let mut rows = Vec::new();
    for (i, &bench) in benches.iter().enumerate() {
        let progress = format!("[{:>2}/{}] {bench}", i + 1, benches.len());
        let interactive = std::io::stderr().is_terminal();
        if interactive {
            eprint!("{progress} ...");
            let _ = std::io::stderr().flush();
        }
        let measured = qbb_benches::measure::measure(bench, &backends, &corpus, &plan)?;
        let summary: Vec<String> = measured
            .iter()
            .map(|m| format!("{} {} ns", m.backend, three_digits(m.median())))
            .collect();
        if interactive {
            eprint!("\r");
        }
        eprintln!("{progress}: {}", summary.join(", "));
        rows.extend(
            measured
                .into_iter()
                .map(|m| Row::new(m.bench, m.backend, &m.ns_per_call, m.calls_per_sample)),
        );
    }
    eprintln!("measured in {:.0} s", started.elapsed().as_secs_f64());
    let source = command_line();
    let results = Results::timings(machine, source, corpus_description(corpus.len()), rows);
    finish(&results, &out)
}

/// `qbb report`.
fn report(args: &ReportArgs) -> Result<ExitCode> {
    if let Some(path) = &args.json {
        let results = Results::read_json(path, "a results.json")?;
        let out = out_dir(args.out.as_deref(), &results.machine)?;
        return finish(&results, &out);
    }
    let mut machine = Machine::current();
    // The load now says nothing about the run being read back.
    machine.load = "not recorded by criterion".to_string();
    let out = out_dir(args.out.as_deref(), &machine)?;
    let (rows, skipped) = criterion::read(&args.criterion)?;
    if skipped > 0 {
        eprintln!(
            "{skipped} criterion benchmarks in `{}` are not routine benchmarks and were left out",
            args.criterion.display()
        );
    }
    let bench_command = if rows
        .iter()
        .any(|r| r.subject.backend == BackendKind::Portable.name())
    {
        "cargo +nightly bench -p qbb-benches --features portable-simd --bench routines"
    } else {
        "cargo bench -p qbb-benches --bench routines"
    };
    let source = format!(
        "criterion ({bench_command}), read back by {}",
        command_line()
    );
    let corpus = corpus_description(qbb_benches::corpus::POSITIONS);
    let results = Results::timings(machine, source, corpus, rows);
    finish(&results, &out)
}

/// The backends to measure: the ones asked for (each must run here) plus scalar, or all.
fn chosen_backends(asked: &[BackendKind]) -> Result<Vec<BackendKind>> {
    if asked.is_empty() {
        return Ok(available_backends());
    }
    let mut kinds = vec![REFERENCE];
    for &kind in asked {
        kind.check_available()?;
        kinds.push(kind);
    }
    kinds.sort();
    kinds.dedup();
    Ok(kinds)
}

/// Prints the table and writes the files.
fn finish(results: &Results, dir: &Path) -> Result<ExitCode> {
    print(
        &results
            .table()
            .terminal(&legend("fastest", "speed-up over scalar")),
    )?;
    let written = write_files(results, dir)?;
    eprintln!(
        "wrote {} files to {}: results.json, results.md, overview.svg, charts/",
        written,
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes `results.json`, `results.md`, `overview.svg` and `charts/<benchmark>.svg` into `dir`;
/// returns how many files were written.
fn write_files(results: &Results, dir: &Path) -> Result<usize> {
    let has_overview = results.has_several_backends();
    let page = markdown_page(results, has_overview);
    let mut written = results.write_json_and_page(dir, "results", &page)?.len();
    let charts = dir.join("charts");
    create_dir(&charts)?;
    if has_overview {
        write(&dir.join("overview.svg"), &chart::overview(results)?)?;
        written += 1;
    }
    for (id, rows) in results.by_benchmark() {
        write(
            &charts.join(format!("{id}.svg")),
            &chart::benchmark(results, &rows)?,
        )?;
        written += 1;
    }
    Ok(written)
}

/// `results.md`: the machine, the table, the charts.
fn markdown_page(results: &Results, has_overview: bool) -> String {
    let m = &results.machine;
    let samples = results.results.first().map_or(0, |r| r.samples);
    let mut page = format!(
        "# Every routine on every backend: {cpu} (`{id}`)\n\n\
         Measured by `{source}` on {date}. Each cell is the median of {samples} samples in \
         nanoseconds per call (lower is better), with the speed-up over scalar; the fastest \
         backend of each row is in bold. † marks a backend that runs another tier's code for \
         that routine (`qbb backends` says which and why). Throughput benchmarks make one \
         independent call per position; `-latency` benchmarks chain each call on the previous \
         result.\n\n",
        cpu = m.cpu,
        id = m.id,
        source = results.source,
        date = m.date,
    );
    if let Some(args) = results.source.strip_prefix("qbb ") {
        page.push_str(&format!(
            "Reproduce (on the same commit): `{}`\n\n",
            cargo_command(&m.flags, args)
        ));
    }
    page.push_str(&machine_table(
        m,
        ("rustc", m.rustc.clone()),
        ("load at start", m.load.clone()),
        &results.corpus,
    ));
    page.push('\n');
    page.push_str(&results.table().markdown());
    page.push_str(
        "\nThe fastest and slowest sample of each cell are in `results.json` (`ns_min`, \
         `ns_max`) and drawn as error bars in the charts. The machine may be shared: quote \
         ratios between backends of one run rather than absolute times.\n",
    );
    if has_overview {
        page.push_str("\n![Speed-up over scalar of every benchmark](overview.svg)\n");
    }
    page.push_str("\nOne chart per benchmark:");
    for (id, _) in results.by_benchmark() {
        page.push_str(&format!(" [{id}](charts/{id}.svg)"));
    }
    page.push('\n');
    page
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::results::tests::sample;
    use super::*;
    use crate::testing::{assert_fails_with, assert_json_and_page, scratch};

    #[test]
    fn files_are_written_where_asked() {
        let dir = scratch("compare-files");
        let results = sample();
        // The JSON file and the page, the overview, and a chart per benchmark.
        assert_eq!(write_files(&results, &dir).unwrap(), 2 + 1 + 4);
        let reproduce = "Reproduce (on the same commit): `cargo run --release -p qbb-lab -- test`";
        let page_parts = ["| hex-sets |", "(charts/flip.svg)", reproduce];
        assert_json_and_page(&results, &dir, "results", &page_parts);
        assert!(dir.join("charts/piece-at-latency.svg").is_file());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn scalar_joins_the_backends_asked_for() {
        assert_eq!(
            chosen_backends(&[BackendKind::Swar]).unwrap(),
            [BackendKind::Scalar, BackendKind::Swar]
        );
        if !BackendKind::Avx512.is_available() {
            assert_fails_with(chosen_backends(&[BackendKind::Avx512]), "avx512");
        }
    }

    #[test]
    fn the_terminal_table_has_a_line_per_benchmark_and_a_legend() {
        let text = sample()
            .table()
            .terminal(&legend("fastest", "speed-up over scalar"));
        assert!(text.contains("2.00 ns 5.0× *"), "{text}");
        assert!(text.ends_with("fastest of the row; † the backend runs another tier's code for this routine (see `qbb backends`); n× = speed-up over scalar\n"), "{text}");
        assert_eq!(text.matches("hex-sets").count(), 1);
    }
}

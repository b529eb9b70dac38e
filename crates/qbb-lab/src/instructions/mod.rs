//! `qbb instructions`: the instruction counts of the callgrind bench (valgrind through gungraun)
//! as a report beside the timings: `instructions.json`, `instructions.md` (benchmark × backend,
//! instructions per call and the ratio to scalar) and `instructions.svg`.
//!
//! The counts come from gungraun's own summaries, which the bench writes when run with
//! `--save-summary`; nothing is counted here.

pub mod counts;
mod gungraun;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use qbb::BackendKind;

use crate::output::print;
use crate::report::chart::RatioChart;
use crate::report::corpus_description;
use crate::report::files::{cargo_command, command_line, out_dir, write};
use crate::report::machine::{Machine, short_compiler};
use crate::report::table::{legend, machine_table};
use counts::{Count, Instructions, missing_benchmarks};
use gungraun::BENCH_COMMAND;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Gungraun's output folder, searched for the summaries of the callgrind bench.
    #[arg(long, value_name = "DIR", default_value = "target/gungraun")]
    gungraun: PathBuf,
    /// Redraw from an instructions.json written earlier instead of gungraun's folder: the same
    /// counts, machine and date, with the current table and chart code.
    #[arg(long, value_name = "FILE", conflicts_with = "gungraun")]
    json: Option<PathBuf>,
    /// Where to write instructions.json, instructions.md and instructions.svg
    /// [default: reports/<machine-id>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// `qbb instructions`.
pub fn run(args: &Args) -> Result<ExitCode> {
    let counts = match &args.json {
        Some(path) => Instructions::read_json(path, "an instructions.json")?,
        None => from_gungraun(&args.gungraun)?,
    };
    let out = out_dir(args.out.as_deref(), &counts.machine)?;
    let caption = format!(
        "instructions executed per call; {}",
        legend("fewest", "this backend's count / scalar's")
    );
    print(&counts.table().terminal(&caption))?;
    let written = write_files(&counts, &out)?;
    eprintln!("wrote {} to {}", written.join(", "), out.display());
    Ok(ExitCode::SUCCESS)
}

/// The counts of the summaries under `dir`, on this machine.
fn from_gungraun(dir: &Path) -> Result<Instructions> {
    let (runs, skipped) = gungraun::read(dir)?;
    if skipped > 0 {
        eprintln!(
            "{skipped} gungraun summaries in `{}` are not of the callgrind bench's routines and \
             were left out",
            dir.display()
        );
    }
    // Each executable is read once for the compiler that built it.
    let mut compilers: BTreeMap<&Path, String> = BTreeMap::new();
    for run in &runs {
        compilers.entry(&run.executable).or_insert_with(|| {
            gungraun::compiler_of(&run.executable).unwrap_or_else(|| {
                eprintln!(
                    "the benchmark executable `{}` is gone or names no compiler: its counts are \
                     written with an unknown compiler",
                    run.executable.display()
                );
                "unknown".to_string()
            })
        });
    }
    let calls = qbb_benches::corpus::POSITIONS as u64;
    let rows: Vec<Count> = runs
        .iter()
        .map(|run| Count::new(run, compilers[run.executable.as_path()].clone(), calls))
        .collect();
    let mut machine = Machine::current();
    machine.load = "not relevant: instruction counts do not depend on the load".to_string();
    if let Some(newest) = runs.iter().map(|r| r.started_at.as_str()).max() {
        machine.date = utc_minutes(newest);
    }
    let mut counts = Instructions::counted(
        machine,
        String::new(),
        corpus_description(qbb_benches::corpus::POSITIONS),
        rows,
    );
    counts.machine.rustc = compilers_line(&counts);
    counts.record_widths();
    counts.source = format!(
        "gungraun's summaries of callgrind ({}), read back by {}",
        bench_commands(&counts).join(" and "),
        command_line()
    );
    let missing = missing_benchmarks(&counts);
    if !missing.is_empty() {
        let names: Vec<String> = missing.iter().map(|b| b.id()).collect();
        eprintln!("no counts of {} in `{}`", names.join(", "), dir.display());
    }
    Ok(counts)
}

/// `2026-11-21T03:08:39.0838Z` as `2026-11-21 03:08 UTC`, the date format of the reports; any
/// other spelling is kept as it is.
fn utc_minutes(rfc3339: &str) -> String {
    let well_formed = rfc3339.len() >= 17
        && rfc3339.ends_with('Z')
        && rfc3339.as_bytes()[10] == b'T'
        && rfc3339.is_char_boundary(16);
    if well_formed {
        format!("{} {} UTC", &rfc3339[..10], &rfc3339[11..16])
    } else {
        rfc3339.to_string()
    }
}

/// The compilers in one line, each naming its backends when there are several.
fn compilers_line(counts: &Instructions) -> String {
    let compilers = counts.compilers();
    if let [(rustc, _)] = compilers.as_slice() {
        return rustc.clone();
    }
    compilers
        .iter()
        .map(|(rustc, backends)| format!("{rustc} for {}", backends.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The bench commands that give counts like these: one per compiler (nightly for a nightly
/// rustc, the portable feature where portable was counted, a filter when a compiler counted one
/// backend of several).
fn bench_commands(counts: &Instructions) -> Vec<String> {
    let compilers = counts.compilers();
    compilers
        .iter()
        .map(|(rustc, backends)| {
            let toolchain = if rustc.contains("nightly") {
                "+nightly "
            } else {
                ""
            };
            let portable = BackendKind::Portable.name();
            let features = if backends.iter().any(|b| b == portable) {
                "callgrind,portable-simd"
            } else {
                "callgrind"
            };
            let filter = match backends.as_slice() {
                [only] if compilers.len() > 1 => format!(" '*::{only}'"),
                _ => String::new(),
            };
            BENCH_COMMAND
                .replacen("cargo ", &format!("cargo {toolchain}"), 1)
                .replacen("--features callgrind", &format!("--features {features}"), 1)
                + &filter
        })
        .collect()
}

/// Writes `instructions.json`, `instructions.md` and (with more than scalar) `instructions.svg`
/// into `dir`; returns the names written.
fn write_files(counts: &Instructions, dir: &Path) -> Result<Vec<String>> {
    let has_chart = counts.has_several_backends();
    let page = markdown_page(counts, has_chart);
    let mut written = counts
        .write_json_and_page(dir, "instructions", &page)?
        .to_vec();
    if has_chart {
        write(&dir.join("instructions.svg"), &chart(counts)?)?;
        written.push("instructions.svg".to_string());
    }
    Ok(written)
}

/// Every benchmark's count relative to scalar, in the style of the speed-up overview.
fn chart(counts: &Instructions) -> Result<String> {
    let m = &counts.machine;
    let compilers: Vec<String> = counts
        .compilers()
        .iter()
        .map(|(rustc, _)| short_compiler(rustc))
        .collect();
    counts.ratio_chart(&RatioChart {
        title: "Instructions per call relative to scalar",
        caption: "A backend's instructions per call over scalar's (log scale: left of 1× is \
                  fewer instructions).",
        footer: format!(
            "{} ({}), {}, {}; callgrind via gungraun",
            m.cpu,
            m.id,
            compilers.join(" and "),
            m.day()
        ),
    })
}

/// `instructions.md`: what a count is, how to reproduce it, the machine, the table, the chart.
fn markdown_page(counts: &Instructions, has_chart: bool) -> String {
    let m = &counts.machine;
    let positions = qbb_benches::corpus::POSITIONS;
    let reader = counts
        .source
        .split_once("read back by ")
        .map_or("`qbb instructions`".to_string(), |(_, command)| {
            format!("`{command}`")
        });
    let mut page = format!(
        "# Instructions executed per call: {cpu} (`{id}`)\n\n\
         Counted by callgrind (valgrind) through gungraun, read back from gungraun's summaries by \
         {reader}; the newest run started {date}. Each cell is callgrind's count of instructions \
         executed (`Ir`) by one pass of the benchmark's loop over the {positions} positions of \
         the corpus, divided by {positions}: the instructions of one call, with its share of the \
         loop (reading the inputs, keeping the result) and of the one dispatch onto the backend. \
         Building and freeing the corpus are not counted. n× is the backend's count divided by \
         scalar's (below 1× it executes fewer instructions); the fewest of each row are in bold. \
         † marks a backend that runs another tier's code for that routine.\n\n\
         A count is exact and does not depend on the machine's load: a second run gives the \
         same numbers. It measures work, not time: a vector instruction counts as one, like a \
         scalar one, and an instruction that waits for the previous one counts the same as one \
         that runs beside it. A `-latency` row executes about as many instructions as its \
         throughput row, yet takes longer, because each call waits for the one before (compare \
         `results.md`). AVX-512 is not counted: valgrind cannot run it.\n\n",
        cpu = m.cpu,
        id = m.id,
        date = m.date,
    );
    if let Some((_, lab_args)) = counts.source.split_once("read back by qbb ") {
        page.push_str("Reproduce (on the same commit):\n\n```sh\n");
        for command in bench_commands(counts) {
            page.push_str(&format!("{command}\n"));
        }
        page.push_str(&format!("{}\n```\n\n", cargo_command(&m.flags, lab_args)));
    }
    let compilers: Vec<String> = counts
        .compilers()
        .iter()
        .map(|(rustc, backends)| format!("{rustc} ({})", backends.join(", ")))
        .collect();
    let first = counts.results.iter().map(|c| c.started_at.as_str()).min();
    let last = counts.results.iter().map(|c| c.started_at.as_str()).max();
    let runs = match (first, last) {
        (Some(a), Some(b)) => format!("{} to {}", utc_minutes(a), utc_minutes(b)),
        _ => "none".to_string(),
    };
    page.push_str(&machine_table(
        m,
        ("compilers", compilers.join("; ")),
        ("runs started", runs),
        &counts.corpus,
    ));
    page.push('\n');
    page.push_str(&counts.table().markdown());
    page.push_str(
        "\nThe whole count of each pass (`instructions_per_pass`) and the compiler of each \
         backend are in `instructions.json`.\n",
    );
    if has_chart {
        page.push_str(
            "\n![Instructions per call of every benchmark relative to scalar](instructions.svg)\n",
        );
    }
    page
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::counts::tests::{per_call, sample};
    use super::gungraun::tests::{summary, write_run};
    use super::*;
    use crate::testing::{assert_contains_all, assert_json_and_page, scratch};

    #[test]
    fn the_files_hold_the_table_the_chart_and_how_to_reproduce() {
        let dir = scratch("instructions-files");
        let mut counts = sample();
        counts.source = "gungraun's summaries of callgrind (…), read back by qbb instructions \
                         --out x"
            .to_string();
        let written = write_files(&counts, &dir).unwrap();
        assert_eq!(
            written,
            ["instructions.json", "instructions.md", "instructions.svg"]
        );
        assert_json_and_page(
            &counts,
            &dir,
            "instructions",
            &[
                "| benchmark | scalar | swar | avx2 (x86-64-v3) | portable |",
                "| piece-at | 26.5 | 24.4 0.92×† | **17.0 0.64×** | 18.0 0.68× |",
                "cargo bench -p qbb-benches --features callgrind --bench callgrind -- \
                 --save-summary=pretty-json\n",
                "cargo +nightly bench -p qbb-benches --features callgrind,portable-simd --bench \
                 callgrind -- --save-summary=pretty-json '*::portable'\n",
                "cargo run --release -p qbb-lab -- instructions --out x\n",
                "| compilers | rustc 1.95.0 (59807616e 2026-04-14) (scalar, swar, avx2); rustc \
                 1.97.0-nightly (portable) |",
                "(instructions.svg)",
            ],
        );
        let svg = fs::read_to_string(dir.join("instructions.svg")).unwrap();
        let chart_texts = [
            "piece-at",
            "flip",
            "log scale",
            "avx2",
            "portable",
            "rustc 1.95.0",
        ];
        assert_contains_all(&svg, &chart_texts);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn gungraun_summaries_become_a_report() {
        let dir = scratch("instructions-gungraun");
        for (function, id, ir) in [
            ("flip", "scalar", "20480"),
            ("flip", "sse2", "10240"),
            ("piece_at_latency", "scalar", "30720"),
        ] {
            write_run(&dir, function, id, &summary(function, id, ir));
        }
        let counts = from_gungraun(&dir).unwrap();
        assert_eq!(
            per_call(&counts),
            [
                ("flip", "scalar", 20.0, Some(1.0)),
                ("flip", "sse2", 10.0, Some(0.5)),
                ("piece-at-latency", "scalar", 30.0, Some(1.0)),
            ]
        );
        // The fixture's executable does not exist: the compiler is unknown, and said so.
        assert_eq!(counts.machine.rustc, "unknown");
        assert_eq!(counts.machine.date, "2026-11-21 03:08 UTC");
        assert!(
            counts.source.contains("--save-summary"),
            "{}",
            counts.source
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates_are_cut_to_minutes_only_when_well_formed() {
        assert_eq!(
            utc_minutes("2026-11-21T03:08:39.08384412Z"),
            "2026-11-21 03:08 UTC"
        );
        assert_eq!(utc_minutes("yesterday"), "yesterday");
        assert_eq!(
            utc_minutes("2026-11-21T03:08:39+01:00"),
            "2026-11-21T03:08:39+01:00"
        );
    }
}

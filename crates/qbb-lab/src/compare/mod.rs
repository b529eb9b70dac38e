//! `qbb compare` and `qbb report`: every routine on every backend side by side.
//!
//! `compare` times the benchmark definitions of `qbb-benches` (the same kernels `cargo bench`
//! runs) with a short plan, on every backend and on the baseline candidates (scalar and SWAR,
//! also built for x86-64-v3), and times the core clock before and after; `report` reads back the
//! latest `cargo bench` run from `target/criterion/` instead. Both print the table and write
//! `results.json`, `results.md`, the overview chart and one chart per benchmark. Every speed-up
//! is over the benchmark's baseline, the fastest scalar-class code.

mod agreement;
mod chart;
mod core_state;
mod criterion;
mod results;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use qbb::BackendKind;
use qbb_benches::{
    ALL, Bench, Corpus, Implementation, PLACEMENTS, Plan, available_implementations,
};

use crate::instructions::counts::Instructions;
use crate::output::print;
use crate::report::files::{cargo_command, command_line, create_dir, out_dir, write};
use crate::report::machine::Machine;
use crate::report::table::{BASELINE_RATIO, format_ratio, legend, machine_table, three_digits};
use crate::report::{corpus_description, round4};
#[cfg(test)]
pub(crate) use results::tests as results_tests;
pub use results::{Results, Row};

/// The timings' two commands: measure now, or read back a run of `cargo bench`.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Time every routine on every backend this CPU runs, print the table and write
    /// results.json, results.md and SVG charts (to reports/<machine-id>/ unless --out).
    Compare(CompareArgs),
    /// Rebuild the table, results.md and charts from the latest `cargo bench` run in
    /// target/criterion/ (or from a results.json) instead of measuring again.
    Report(ReportArgs),
    /// Draw the charts of several results.json files at once (machines side by side): one
    /// <benchmark>.svg per benchmark, a group per file; nothing is measured or rewritten.
    Charts(ChartsArgs),
}

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Shorter samples and a smaller budget per benchmark: under a minute for everything, where
    /// the default takes up to five.
    #[arg(long)]
    quick: bool,
    /// Where to write results.json, results.md and the charts [default: reports/<machine-id>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Only these backends (comma-separated or repeated); the baseline candidates (scalar,
    /// swar, scalar-v3, swar-v3) are always measured [default: every backend this CPU runs].
    #[arg(long = "backend", value_name = "NAME", value_delimiter = ',')]
    backends: Vec<BackendKind>,
    /// Only these benchmarks: routine ids such as `hex-sets`, or `piece-at-latency`,
    /// `flip-latency` (comma-separated or repeated) [default: all].
    #[arg(long = "bench", value_name = "ID", value_delimiter = ',')]
    benches: Vec<Bench>,
    /// Run the whole job N times and report how well the runs agree (every ratio against one
    /// fixed implementation, run by run); the first run's figures are written, with the
    /// agreement.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=9))]
    repeat: u32,
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
    /// With --json: results.json files of other runs of the same job, to tell how far each
    /// ratio moved from that run to these (the agreement is written with the figures).
    #[arg(long, value_name = "FILE", requires = "json")]
    agree_with: Vec<PathBuf>,
    /// Where to write results.json, results.md and the charts [default: reports/<machine-id>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct ChartsArgs {
    /// results.json files written by compare or report: a group per file in every chart, in
    /// this order.
    #[arg(required = true, value_name = "RESULTS_JSON")]
    files: Vec<PathBuf>,
    /// The folder the charts go in.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
}

/// `qbb compare`, `qbb report` or `qbb charts`.
pub fn run(command: &Command) -> Result<ExitCode> {
    match command {
        Command::Compare(args) => compare(args),
        Command::Report(args) => report(args),
        Command::Charts(args) => charts(args),
    }
}

/// `qbb charts`: every benchmark any file has, in the benchmark list's order.
fn charts(args: &ChartsArgs) -> Result<ExitCode> {
    let reports = args
        .files
        .iter()
        .map(|path| {
            let mut results = Results::read_json(path, "a results.json")?;
            // Judged by the present rule, as `qbb report --json` judges a file.
            results.add_paired_estimates();
            if results.noise.is_none() {
                results.add_noise_floor();
            }
            Ok(results)
        })
        .collect::<Result<Vec<Results>>>()?;
    let all: Vec<&Results> = reports.iter().collect();
    create_dir(&args.out)?;
    let mut written = 0;
    for bench in ALL {
        let id = bench.id();
        if all
            .iter()
            .any(|r| r.results.iter().any(|row| row.subject.benchmark == id))
        {
            write(
                &args.out.join(format!("{id}.svg")),
                &chart::benchmark(&all, &id)?,
            )?;
            written += 1;
        }
    }
    eprintln!(
        "wrote {written} charts of {} reports to {}",
        all.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `qbb compare`.
fn compare(args: &CompareArgs) -> Result<ExitCode> {
    let implementations = chosen_implementations(&args.backends)?;
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
    let names: Vec<String> = implementations.iter().map(|i| i.name()).collect();
    let estimate = plan.estimate(implementations.len()) * benches.len() as u32 * args.repeat;
    eprintln!(
        "measuring {} benchmarks on {} implementations ({}) over {} positions on {}: at most \
         about {} s",
        benches.len(),
        implementations.len(),
        names.join(", "),
        corpus.len(),
        machine.cpu,
        estimate.as_secs().max(1)
    );
    let mut runs = (0..args.repeat)
        .map(|run| {
            if args.repeat > 1 {
                eprintln!("run {} of {}", run + 1, args.repeat);
            }
            measure_once(&benches, &implementations, &corpus, &plan, machine.clone())
        })
        .collect::<Result<Vec<Results>>>()?;
    let mut results = runs.remove(0);
    if !runs.is_empty() {
        results.agreement = agreement::agreement(&results, &runs, 1);
        if let Some(a) = &results.agreement {
            eprintln!("agreement of the {}", agreement::describe(a));
        }
    }
    finish(&mut results, &out)
}

/// One run of the whole job: every benchmark on every implementation, the clock timed before
/// and after.
fn measure_once(
    benches: &[Bench],
    implementations: &[Implementation],
    corpus: &Corpus,
    plan: &Plan,
    mut machine: Machine,
) -> Result<Results> {
    let started = Instant::now();
    let clock_before = qbb_benches::clock::core_ghz(CLOCK_PASSES);
    let mut done = 0;
    let measured = qbb_benches::measure::measure_interleaved(
        benches,
        implementations,
        corpus,
        plan,
        |bench, measured, usual| {
            done += 1;
            let turns = measured.first().map_or(0, |m| m.turns.len());
            let usual = qbb_benches::measure::usual_turns(measured, usual);
            let summary: Vec<String> = measured
                .iter()
                .map(|m| {
                    let ns = three_digits(m.median_in(&usual));
                    format!("{} {ns} ns", m.implementation)
                })
                .collect();
            eprintln!(
                "[{done:>2}/{}] {bench} ({turns} turns, {} in the usual state): {}",
                benches.len(),
                usual.len(),
                summary.join(", ")
            );
        },
    )?;
    let clock_after = qbb_benches::clock::core_ghz(CLOCK_PASSES);
    machine.clock_samples_ghz = [clock_before, clock_after]
        .into_iter()
        .flatten()
        .map(round4)
        .collect();
    let clock = &machine.clock_samples_ghz;
    machine.clock_ghz =
        (!clock.is_empty()).then(|| round4(clock.iter().sum::<f64>() / clock.len() as f64));
    eprintln!(
        "measured in {:.0} s; core clock {}",
        started.elapsed().as_secs_f64(),
        machine
            .clock_ghz
            .map_or("not measured".to_string(), |ghz| format!("{ghz:.2} GHz"))
    );
    let usual = qbb_benches::measure::usual_state(measured.iter().map(|m| &m[..]));
    let rows = measured
        .iter()
        .flat_map(|measured| {
            let turns = qbb_benches::measure::usual_turns(measured, usual);
            let clock = machine.clock_ghz;
            measured
                .iter()
                .map(move |m| Row::measured(m, &turns, clock))
                .collect::<Vec<_>>()
        })
        .collect();
    let source = command_line();
    let results = Results::timings(machine, source, corpus_description(corpus.len()), rows);
    if let Some(state) = core_state::core_state(&results) {
        eprintln!("core state: {}", state.describe());
        if let Some(warning) = state.unsettled() {
            eprintln!("warning: {warning}");
        }
    }
    Ok(results)
}

/// `qbb report`.
fn report(args: &ReportArgs) -> Result<ExitCode> {
    if let Some(path) = &args.json {
        let mut results = Results::read_json(path, "a results.json")?;
        // The verdicts are the lab's present rule's, and a file written before the pairs were
        // recorded gets them (the floor comes out the same).
        results.add_paired_estimates();
        results.add_noise_floor();
        if !args.agree_with.is_empty() {
            let others = args
                .agree_with
                .iter()
                .map(|path| Results::read_json(path, "a results.json"))
                .collect::<Result<Vec<_>>>()?;
            results.agreement = agreement::agreement(&results, &others, 1 + others.len());
            if let Some(a) = &results.agreement {
                eprintln!("agreement of the {}", agreement::describe(a));
            }
        }
        let out = out_dir(args.out.as_deref(), &results.machine)?;
        return finish(&mut results, &out);
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
    let mut results = Results::timings(machine, source, corpus, rows);
    finish(&mut results, &out)
}

/// Passes of the clock's add chain before and after the run; the best counts.
const CLOCK_PASSES: usize = 20;

/// What to measure: the backends asked for (each must run here) plus the baseline candidates,
/// or everything this CPU runs.
fn chosen_implementations(asked: &[BackendKind]) -> Result<Vec<Implementation>> {
    if asked.is_empty() {
        return Ok(available_implementations());
    }
    let mut all = Implementation::baselines();
    for &kind in asked {
        kind.check_available()?;
        all.push(Implementation::native(kind));
    }
    all.sort();
    all.dedup();
    Ok(all)
}

/// Adds the instruction counts of `dir/instructions.json`, when `qbb instructions` wrote one
/// there, to the timings: instructions per call and per cycle.
fn add_counts_beside(results: &mut Results, dir: &Path) -> Result<()> {
    let path = dir.join("instructions.json");
    if !path.is_file() {
        return Ok(());
    }
    let counts = Instructions::read_json(&path, "an instructions.json")?;
    let found = results.add_instruction_counts(&counts);
    eprintln!(
        "instructions per call and per cycle for {found} of {} rows, from `{}`",
        results.results.len(),
        path.display()
    );
    let elsewhere = results
        .results
        .iter()
        .filter(|r| r.counted_another_copy.is_some())
        .count();
    if elsewhere > 0 {
        eprintln!(
            "{elsewhere} rows have a count of another copy of their code than the one timed (the \
             portable backend under valgrind): kept apart, without instructions per cycle"
        );
    }
    Ok(())
}

/// Prints the table and writes the files.
fn finish(results: &mut Results, dir: &Path) -> Result<ExitCode> {
    results.record_widths();
    add_counts_beside(results, dir)?;
    let best = if is_paired(results) {
        format!(
            "fastest (or tied with it: their interval within {} of 1)",
            margin_text()
        )
    } else {
        "fastest (or tied within the noise)".to_string()
    };
    print(&results.table().terminal(&legend(&best, BASELINE_RATIO)))?;
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
    for (id, _) in results.by_benchmark() {
        write(
            &charts.join(format!("{id}.svg")),
            &chart::benchmark(&[results], id)?,
        )?;
        written += 1;
    }
    Ok(written)
}

/// How the clock was measured, for the machine table.
fn clock_text(m: &Machine) -> String {
    match m.clock_ghz {
        Some(ghz) => format!(
            "{ghz:.2} GHz, timed by a chain of dependent additions (one per cycle) before and \
             after the run: {}",
            m.clock_samples_ghz
                .iter()
                .map(|g| format!("{g:.2}"))
                .collect::<Vec<_>>()
                .join(" and ")
        ),
        None => "not measured (cycles left out)".to_string(),
    }
}

/// The noise floor, for the machine table: what ties are decided by when the rows have no
/// intervals, a check of the intervals when they have.
fn noise_text(noise: Option<f64>, paired: bool) -> String {
    let decides = if paired {
        "ties are decided by each row's interval, not by it"
    } else {
        "differences inside it are ties"
    };
    match noise {
        Some(noise) => format!(
            "{:.1} %: the largest difference between two timings of the same machine code in \
             this run (a backend running another's routine where neither adds target \
             features); {decides}",
            noise * 100.0
        ),
        None => "unknown: this run timed no routine twice".to_string(),
    }
}

/// How the charts of a report with intervals draw them and the ties.
const TIE_BAND_TEXT: &str = "with its interval as a whisker and the ties' margin as a band around \
                             1×: a whisker that reaches into the band is a tie.";

/// Which of a benchmark's turns its figures come from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum ChosenTurns {
    /// Every turn (reports made before any were chosen).
    Every,
    /// The quietest third (reports made before the usual state was the run's).
    Quiet,
    /// Those in the run's usual state.
    Usual,
}

fn which_turns(results: &Results) -> ChosenTurns {
    let rows = &results.results;
    if rows.iter().any(|r| !r.usual_turns.is_empty()) {
        ChosenTurns::Usual
    } else if rows.iter().any(|r| !r.quiet_turns.is_empty()) {
        ChosenTurns::Quiet
    } else {
        ChosenTurns::Every
    }
}

/// The tie margin as the pages say it: `1 %`.
fn margin_text() -> String {
    crate::report::percent(qbb_benches::estimate::TIE_MARGIN)
}

/// Whether the rows were timed in turns, with intervals (`qbb compare`; not criterion's).
fn is_paired(results: &Results) -> bool {
    results.results.iter().any(|r| !r.turn_ns.is_empty())
}

/// How the cells were measured, in two sentences.
fn method_text(results: &Results) -> String {
    if !is_paired(results) {
        let most = results.results.iter().map(|r| r.samples).max().unwrap_or(0);
        return format!("Each cell is the median of {most} samples.");
    }
    let turns = results.results.iter().map(|r| r.turn_ns.len());
    let (fewest, most) = (turns.clone().min().unwrap_or(0), turns.max().unwrap_or(0));
    let placed = format!(
        "per benchmark (until every speed-up's interval was within ±2 % or the benchmark's time \
         was spent): in each turn every implementation ran once in each of the {PLACEMENTS} \
         placements of its loop, in a shuffled order, and a turn's time is the median over the \
         placements."
    );
    let chosen = match which_turns(results) {
        ChosenTurns::Every => {
            return format!(
                "The benchmarks were timed in turns, {fewest} to {most} {placed} A cell's time is \
                 the median over the turns, and its speed-up the median of the turns' ratios, \
                 with a 95 % interval in `results.json`."
            );
        }
        ChosenTurns::Quiet if results.results.iter().any(|r| !r.turn_probe.is_empty()) => {
            "each benchmark's quiet turns (of the turns in which the core was in its usual \
             state, by a probe of its issue width timed before every sample (`turn_probe`: \
             whether another thread shared the core), the quietest third: those in which the \
             implementations ran fastest against their typical times)"
        }
        ChosenTurns::Quiet => {
            "each benchmark's quiet turns (the quietest third of the turns: those in which the \
             implementations ran fastest against their typical times)"
        }
        ChosenTurns::Usual => {
            "each benchmark's turns in the run's usual state: a probe of the core's issue width \
             timed before every sample (`turn_probe`) says whether another thread shared the \
             core, and the turns counted are those whose probe lies within a tenth of the figure \
             most of the run's turns share (every turn of a benchmark with fewer than six such \
             turns)"
        }
    };
    format!(
        "The benchmarks were timed together in turns, a turn of each in every round, {fewest} to \
         {most} {placed} The figures come from {chosen}: a cell's time is the median over them, \
         and its speed-up the median of their ratios, with a 95 % interval in `results.json`."
    )
}

/// The table that shows what the baseline changes: per benchmark, the fastest implementation's
/// speed-up over the baseline beside its speed-up over the naive scalar reference.
fn fair_and_naive(results: &Results) -> String {
    let mut out = "\n## Over the baseline, and over the naive reference\n\n\
        The headline speed-up is over the baseline. Over the scalar reference (built for \
        baseline x86-64 and written square by square to be read, not to be fast) the same \
        backend looks faster; both are in `results.json` (`speedup_vs_baseline`, \
        `speedup_vs_scalar`).\n\n\
        | benchmark | baseline | fastest | over the baseline | over scalar |\n\
        | --- | --- | --- | ---: | ---: |\n"
        .to_string();
    for (id, rows) in results.by_benchmark() {
        let Some(fastest) = crate::report::best(&rows) else {
            continue;
        };
        let ratio = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{}×", format_ratio(r)));
        out.push_str(&format!(
            "| {id} | {} | {} | {} | {} |\n",
            fastest.baseline.as_deref().unwrap_or("-"),
            fastest.subject.backend,
            ratio(fastest.speedup_vs_baseline),
            ratio(fastest.speedup_vs_scalar),
        ));
    }
    out
}

/// A paragraph on the backends whose instruction counts are of another copy of their code than
/// the one timed, or nothing: each backend with the width counted and the width timed.
fn counts_of_another_copy(results: &Results) -> String {
    let mut copies: Vec<(&str, &str, &str)> = Vec::new();
    for row in &results.results {
        let (Some(other), Some(timed)) = (&row.counted_another_copy, &row.width) else {
            continue;
        };
        let copy = (
            row.subject.backend.as_str(),
            other.width.as_str(),
            timed.as_str(),
        );
        if !copies.contains(&copy) {
            copies.push(copy);
        }
    }
    copies
        .iter()
        .map(|(backend, counted, timed)| {
            format!(
                "\nThe instruction counts of {backend} (`instructions.json`) are of its \
                 {counted} copy: it runs the widest copy of its code the CPU reports, and \
                 valgrind, which counted it, hides AVX-512; this run timed its {timed} copy. \
                 `results.json` gives those counts apart (`counted_another_copy`) and no \
                 instructions per cycle for {backend}.\n"
            )
        })
        .collect()
}

/// `results.md`: the machine, the table, the charts.
fn markdown_page(results: &Results, has_overview: bool) -> String {
    let m = &results.machine;
    let mut page = format!(
        "# Every routine on every backend: {cpu} (`{id}`)\n\n\
         Measured by `{source}` on {date}. {how} Each cell gives nanoseconds per call (lower is \
         better), then cycles per call where the core clock was measured, then the speed-up \
         over the row's **baseline**: the fastest scalar-class code for that benchmark, among \
         the scalar reference and SWAR built for baseline x86-64 and the same two built for \
         x86-64-v3 (`scalar-v3`, `swar-v3`: POPCNT, BMI1/2, LZCNT and AVX2 allowed). ° marks \
         the baseline, so a speed-up measures what the backend's SIMD code buys over the best \
         plain code, not what a newer instruction set buys any code. The fastest cell of each \
         row is in bold, with every cell tied with it ({tie}). A column's header names the \
         x86-64 level its code is built for where the backend's name does not. † marks a \
         backend that runs another tier's code for that routine (`qbb backends` says which and \
         why). Throughput benchmarks make one independent call per position; `-latency` \
         benchmarks chain each call on the previous result.\n\n",
        cpu = m.cpu,
        id = m.id,
        source = results.source,
        date = m.date,
        how = method_text(results),
        tie = if is_paired(results) {
            format!(
                "the 95 % interval of their paired ratio reaches within {m} of 1: a difference \
                 under {m} is not called, however narrow its interval, since a second run of the \
                 same binary moves ratios by about that much",
                m = margin_text()
            )
        } else {
            "within the run's noise floor".to_string()
        },
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
    page.push_str(&format!("| core clock | {} |\n", clock_text(m)));
    page.push_str(&format!(
        "| noise floor | {} |\n",
        noise_text(results.noise, is_paired(results))
    ));
    if let Some(state) = core_state::core_state(results) {
        page.push_str(&format!("| core state | {} |\n", state.describe()));
    }
    if let Some(a) = &results.agreement {
        page.push_str(&format!("| agreement | {} |\n", agreement::describe(a)));
    }
    page.push('\n');
    page.push_str(&results.table().markdown());
    let (kept, charts) = if !is_paired(results) {
        (
            "The fastest and slowest sample of each cell are in `results.json` (`ns_min`, \
             `ns_max`).",
            "and the run's noise floor as a band around 1×.",
        )
    } else {
        let kept = match which_turns(results) {
            ChosenTurns::Every => {
                "Each turn's time, each placement's and each speed-up's interval are in \
                 `results.json` (`turn_ns`, `placement_ns`, `speedup_interval`); the fastest and \
                 slowest turn are `ns_min` and `ns_max`."
            }
            ChosenTurns::Quiet => {
                "Each turn's time, the quiet turns, each placement's time and each speed-up's \
                 interval are in `results.json` (`turn_ns`, `quiet_turns`, `placement_ns`, \
                 `speedup_interval`); the fastest and slowest quiet turn are `ns_min` and \
                 `ns_max`."
            }
            ChosenTurns::Usual => {
                "Each turn's time and probe, the turns counted, each placement's time and each \
                 speed-up's interval are in `results.json` (`turn_ns`, `turn_probe`, \
                 `usual_turns`, `placement_ns`, `speedup_interval`); the fastest and slowest \
                 turn counted are `ns_min` and `ns_max`."
            }
        };
        (kept, TIE_BAND_TEXT)
    };
    page.push_str(&format!(
        "\n{kept} The charts draw each speed-up over the baseline on a log axis {charts} The \
         machine may be shared: quote ratios between backends of one run rather than absolute \
         times.\n"
    ));
    page.push_str(&counts_of_another_copy(results));
    page.push_str(&fair_and_naive(results));
    if has_overview {
        page.push_str("\n![Speed-up over the baseline of every benchmark](overview.svg)\n");
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
    use crate::testing::{assert_contains_all, assert_fails_with, assert_json_and_page, scratch};

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
    fn the_page_says_when_a_count_is_of_another_copy() {
        let wide = markdown_page(&results::tests::timed_and_counted(true), false);
        assert_contains_all(
            &wide,
            &["The instruction counts of portable (`instructions.json`) are of its avx2 copy"],
        );
        assert!(wide.contains("this run timed its avx512 copy"), "{wide}");
        let narrow = markdown_page(&results::tests::timed_and_counted(false), false);
        assert!(!narrow.contains("another copy") && !narrow.contains("counted_another_copy"));
    }

    #[test]
    fn the_page_describes_the_method_its_report_was_timed_with() {
        let mut results = sample();
        results.add_paired_estimates();
        assert_eq!(results.tie_margin, None, "no intervals, no margin");
        for row in &mut results.results {
            row.turn_ns = vec![row.ns_per_op; 8];
        }
        results.add_paired_estimates();
        assert_eq!(results.tie_margin, Some(qbb_benches::estimate::TIE_MARGIN));
        let all_turns = markdown_page(&results, false);
        assert_contains_all(
            &all_turns,
            &[
                "A cell's time is the median over the turns",
                "reaches within 1 % of 1",
                "the ties' margin as a band",
            ],
        );
        assert!(!all_turns.contains("quiet"), "{all_turns}");
        for row in &mut results.results {
            row.quiet_turns = (0..8).collect();
        }
        let quiet = markdown_page(&results, false);
        assert_contains_all(&quiet, &["quietest third of the turns", "`quiet_turns`"]);
        assert!(!quiet.contains("turn_probe"), "{quiet}");
        for row in &mut results.results {
            row.turn_probe = vec![6.6; 8];
        }
        let probed = markdown_page(&results, false);
        assert_contains_all(&probed, &["in its usual state", "`turn_probe`"]);
        assert!(
            probed
                .contains("usual figure, 6.6 independent additions per ns, in 100 % of the turns"),
            "{probed}"
        );
        for row in &mut results.results {
            row.usual_turns = std::mem::take(&mut row.quiet_turns);
        }
        let usual = markdown_page(&results, false);
        assert_contains_all(
            &usual,
            &["the run's usual state", "`usual_turns`", "`turn_probe`"],
        );
        assert!(!usual.contains("quiet"), "{usual}");
    }

    #[test]
    fn the_baselines_join_the_backends_asked_for() {
        let mut want = Implementation::baselines();
        if BackendKind::Sse2.is_available() {
            want.push(Implementation::native(BackendKind::Sse2));
            assert_eq!(chosen_implementations(&[BackendKind::Sse2]).unwrap(), want);
        }
        if !BackendKind::Avx512.is_available() {
            assert_fails_with(chosen_implementations(&[BackendKind::Avx512]), "avx512");
        }
    }

    #[test]
    fn the_terminal_table_has_a_line_per_benchmark_and_a_legend() {
        let text = sample()
            .table()
            .terminal(&legend("fastest", BASELINE_RATIO));
        assert!(text.contains("2.00 ns 2.5× *"), "{text}");
        assert!(text.ends_with(&format!("fastest of the row; † the backend runs another tier's code for this routine (see `qbb backends`); n× = {BASELINE_RATIO}\n")), "{text}");
        assert_eq!(text.matches("hex-sets").count(), 1);
    }
}

//! `qbb perft DEPTH`: count the leaves of the legal move tree, on any backend, and check whole
//! perft suites.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use qbb::BackendKind;
use qbb_engine::{Attacks, Epd, Position};
use serde::Serialize;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Plies to count.
    #[arg(value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(0..=32))]
    depth: u32,
    /// The position (default: the start position).
    #[arg(long, value_name = "FEN", conflicts_with = "epd")]
    fen: Option<String>,
    /// A perft suite (`FEN ;D1 n ;D2 n ...` per line): check every count up to DEPTH.
    #[arg(long, value_name = "FILE")]
    epd: Option<PathBuf>,
    /// The backend (default: auto, or QBB_BACKEND).
    #[arg(long, value_name = "NAME|auto")]
    backend: Option<String>,
    /// Make every leaf move instead of counting the last ply's moves.
    #[arg(long)]
    no_bulk: bool,
    /// Where the move generator takes its slider attacks, checks and pins from: the engine's
    /// own tables, or the backend's `slider_attacks` and `checks_and_pins` routines.
    #[arg(long, value_name = "tables|backend", default_value_t = Attacks::Tables)]
    attacks: Attacks,
    /// Show the count below each root move.
    #[arg(long, conflicts_with = "epd")]
    divide: bool,
    /// Worker threads (root moves, or suite lines, are shared out).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The result of one perft, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Report {
    nodes: u64,
    seconds: f64,
    mnps: f64,
    backend: &'static str,
    attacks: &'static str,
    depth: u32,
    bulk: bool,
    threads: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    fen: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<(String, u64)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    suite: Option<SuiteReport>,
}

/// What `--epd` checked.
#[derive(Debug, Serialize)]
struct SuiteReport {
    positions: usize,
    counts_checked: usize,
    mismatches: Vec<String>,
    /// The lines that are no EPD position with perft counts, each with the reason.
    unreadable: Vec<String>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let kind = crate::backends::parse_backend(args.backend.as_deref())?;
    match &args.epd {
        Some(path) => run_suite(args, kind, path),
        None => run_position(args, kind),
    }
}

/// Shows how far a long run has come, on standard error, once it has lasted a second.
struct Progress {
    start: Instant,
    shown: Mutex<bool>,
    enabled: bool,
    what: &'static str,
}

impl Progress {
    fn new(what: &'static str) -> Progress {
        Progress {
            start: Instant::now(),
            shown: Mutex::new(false),
            enabled: std::io::stderr().is_terminal(),
            what,
        }
    }

    fn update(&self, done: usize, total: usize) {
        let elapsed = self.start.elapsed();
        if !self.enabled || elapsed < Duration::from_secs(1) {
            return;
        }
        if let Ok(mut shown) = self.shown.lock() {
            *shown = true;
            let mut err = std::io::stderr().lock();
            // A failed progress line is not worth failing the run for.
            let _ = write!(
                err,
                "\r{done}/{total} {} done, {:.1} s",
                self.what,
                elapsed.as_secs_f64()
            );
            let _ = err.flush();
        }
    }

    fn finish(&self) {
        if self.shown.lock().is_ok_and(|shown| *shown) {
            let _ = write!(std::io::stderr().lock(), "\r{:60}\r", "");
        }
    }
}

/// Runs `job` and says how long it took, the dispatch to the backend (a check of the CPU's
/// features, once per job or per line of a suite) included.
fn timed<T, E>(job: impl FnOnce() -> Result<T, E>) -> Result<(T, Duration), E> {
    let start = Instant::now();
    job().map(|value| (value, start.elapsed()))
}

fn run_position(args: &Args, kind: BackendKind) -> anyhow::Result<ExitCode> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).with_context(|| format!("cannot read FEN `{fen}`"))?,
        None => Position::startpos(),
    };
    let progress = Progress::new("root moves");
    let (per_move, elapsed) = timed(|| {
        qbb_engine::divide_on(
            kind,
            args.attacks,
            &pos,
            args.depth,
            !args.no_bulk,
            args.threads as usize,
            &|done, total| progress.update(done, total),
        )
    })?;
    progress.finish();
    // Depth 0 has no root moves and one node: the position itself.
    let nodes = if args.depth == 0 {
        1
    } else {
        per_move.iter().map(|&(_, n)| n).sum()
    };
    let mut divide: Vec<(String, u64)> = per_move
        .iter()
        .map(|&(mv, n)| (pos.move_to_uci(mv, pos.is_chess960()), n))
        .collect();
    divide.sort();
    let report = Report {
        fen: Some(pos.to_fen()),
        divide: args.divide.then_some(divide),
        ..Report::measured(args, kind, nodes, elapsed)
    };
    print_report(&report, args.json)?;
    Ok(ExitCode::SUCCESS)
}

impl Report {
    /// A run's figures, with nothing about where its positions came from yet.
    fn measured(args: &Args, kind: BackendKind, nodes: u64, elapsed: Duration) -> Report {
        Report {
            nodes,
            seconds: elapsed.as_secs_f64(),
            mnps: mnps(nodes, elapsed),
            backend: kind.name(),
            attacks: args.attacks.name(),
            depth: args.depth,
            bulk: !args.no_bulk,
            threads: args.threads,
            fen: None,
            divide: None,
            suite: None,
        }
    }
}

fn mnps(nodes: u64, elapsed: Duration) -> f64 {
    let seconds = elapsed.as_secs_f64();
    if seconds > 0.0 {
        nodes as f64 / seconds / 1e6
    } else {
        0.0
    }
}

fn print_report(report: &Report, json: bool) -> anyhow::Result<()> {
    if json {
        return Ok(crate::output::print(&format!(
            "{}\n",
            serde_json::to_string(report)?
        ))?);
    }
    let mut text = String::new();
    if let Some(divide) = &report.divide {
        for (mv, n) in divide {
            text.push_str(&format!("{mv}: {n}\n"));
        }
        text.push('\n');
    }
    if let Some(suite) = &report.suite {
        for u in &suite.unreadable {
            text.push_str(&format!("unreadable: {u}\n"));
        }
        for m in &suite.mismatches {
            text.push_str(&format!("mismatch: {m}\n"));
        }
        text.push_str(&format!(
            "{} positions, {} counts checked up to depth {}, {} mismatches",
            suite.positions,
            suite.counts_checked,
            report.depth,
            suite.mismatches.len()
        ));
        if !suite.unreadable.is_empty() {
            text.push_str(&format!(", {} lines unreadable", suite.unreadable.len()));
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "nodes {}  time {:.3} s  {:.1} Mnps  ({} backend, attacks from {}, depth {}, {}, {} thread{})\n",
        report.nodes,
        report.seconds,
        report.mnps,
        report.backend,
        report.attacks,
        report.depth,
        if report.bulk { "bulk" } else { "no bulk" },
        report.threads,
        if report.threads == 1 { "" } else { "s" }
    ));
    Ok(crate::output::print(&text)?)
}

/// One suite line to check: its line number, position and the counts up to the depth.
struct Line {
    number: usize,
    pos: Position,
    counts: Vec<(u32, u64)>,
}

/// Per line, per count: `(line, depth, expected, counted)`.
type Counted = Vec<(usize, u32, u64, u64)>;

/// Counts the perfts of every line on `kind`, the lines shared out on `--threads` threads.
fn count_lines(
    kind: BackendKind,
    lines: &[Line],
    args: &Args,
    progress: &Progress,
) -> anyhow::Result<Counted> {
    use rayon::prelude::*;
    let done = AtomicUsize::new(0);
    let check = |line: &Line| -> Result<Counted, qbb::BackendError> {
        let counted = line
            .counts
            .iter()
            .map(|&(depth, expected)| {
                let n = qbb_engine::perft_on(kind, args.attacks, &line.pos, depth, !args.no_bulk)?;
                Ok((line.number, depth, expected, n))
            })
            .collect::<Result<Counted, _>>()?;
        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
        progress.update(finished, lines.len());
        Ok(counted)
    };
    let per_line: Vec<Counted> = if args.threads <= 1 {
        lines.iter().map(check).collect::<Result<_, _>>()?
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads as usize)
            .build()?;
        pool.install(|| lines.par_iter().map(check).collect::<Result<_, _>>())?
    };
    Ok(per_line.into_iter().flatten().collect())
}

fn run_suite(args: &Args, kind: BackendKind, path: &PathBuf) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read the suite {}", path.display()))?;
    let mut unreadable = Vec::new();
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let parsed = Epd::parse(trimmed).and_then(|epd| Ok((epd.perft_counts()?, epd.position)));
        match parsed {
            Ok((counts, pos)) => lines.push(Line {
                number: i + 1,
                pos,
                counts: counts
                    .into_iter()
                    .filter(|&(d, _)| d <= args.depth)
                    .collect(),
            }),
            Err(e) => unreadable.push(format!("line {}: {e}", i + 1)),
        }
    }
    let progress = Progress::new("positions");
    let (counted, elapsed) = timed(|| count_lines(kind, &lines, args, &progress))?;
    progress.finish();
    let nodes = counted.iter().map(|&(_, _, _, n)| n).sum();
    let mut mismatches = Vec::new();
    for &(line, depth, expected, n) in &counted {
        if n != expected {
            let fen = lines
                .iter()
                .find(|l| l.number == line)
                .map(|l| l.pos.to_fen())
                .unwrap_or_default();
            mismatches.push(format!(
                "line {line}: {fen} depth {depth}: expected {expected}, counted {n}"
            ));
        }
    }
    let failed = !mismatches.is_empty() || !unreadable.is_empty();
    let report = Report {
        suite: Some(SuiteReport {
            positions: lines.len(),
            counts_checked: counted.len(),
            mismatches,
            unreadable,
        }),
        ..Report::measured(args, kind, nodes, elapsed)
    };
    print_report(&report, args.json)?;
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

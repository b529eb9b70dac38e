//! The measurements of one machine beside its CPU's predictions: the rows of `model.json`'s
//! `predicted_vs_measured` and their section of `model.md`.

use std::fmt::Write as _;

use serde::Serialize;

use super::measured::{self, Clock, Counts, DIFFERS, Measured};
use super::write::cycles_text;
use super::{CALLS, INDIRECT, LOOP, OnCore, Outcome, Prediction, has_note};

/// The measurements of one machine against its CPU's predictions.
#[derive(Debug, Serialize)]
pub struct Comparison {
    cpu: &'static str,
    machine: String,
    measured_with: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    clock: Option<Clock>,
    differs_above: f64,
    /// The compilers of the probes compared, each with its backends.
    compilers: Vec<(String, Vec<&'static str>)>,
    /// The compiler of the callgrind counts (instructions.json), when there are counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    counted_with: Option<String>,
    rows: Vec<measured::Pair>,
    /// Measured rows the model has no figure for, and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unmodelled: Vec<String>,
}

impl Comparison {
    pub fn new(
        m: &Measured,
        counts: Option<&Counts>,
        predictions: &[Prediction],
        on_core: &[OnCore],
        ghz: Option<f64>,
    ) -> Comparison {
        let clock = measured::clock(m, ghz);
        if let (Some(c), Some(flag)) = (&clock, ghz)
            && c.ghz != flag
        {
            eprintln!(
                "model: results.json has a measured clock ({} GHz); --ghz is not used",
                c.ghz
            );
        }
        let mut rows = Vec::new();
        let mut unmodelled = Vec::new();
        for t in &m.rows {
            let p = predictions.iter().find(|p| {
                p.cpu.name == m.llvm_cpu
                    && p.routine.id() == t.code.routine
                    && p.backend.name() == t.code.backend
            });
            match p.map(|p| (p, &p.outcome)) {
                Some((p, Outcome::Modelled(s))) => {
                    let mut row = measured::compare(
                        t,
                        clock.as_ref(),
                        s,
                        counts.and_then(|c| c.of(&t.code.routine, &t.code.backend)),
                        p.notes.clone(),
                    );
                    match on_core
                        .iter()
                        .find(|o| o.routine == p.routine && o.backend == p.backend)
                        .map(|o| &o.cycles)
                    {
                        Some(Ok(cycles)) => row.block_on_core_cycles = Some(*cycles),
                        Some(Err(why)) => row.block_not_run = Some(why.clone()),
                        None => {}
                    }
                    rows.push(row);
                }
                Some((_, Outcome::Failed(why))) => {
                    unmodelled.push(format!("{} {}: {why}", t.code.routine, t.code.backend));
                }
                Some((_, Outcome::Missing)) => {
                    unmodelled.push(format!(
                        "{} {}: no probe in the listings",
                        t.code.routine, t.code.backend
                    ));
                }
                _ => unmodelled.push(format!(
                    "{} {}: not modelled",
                    t.code.routine, t.code.backend
                )),
            }
        }
        let mut compilers: Vec<(String, Vec<&'static str>)> = Vec::new();
        for p in predictions.iter().filter(|p| p.cpu.name == m.llvm_cpu) {
            let compiler = p
                .compiler
                .clone()
                .unwrap_or_else(|| "an unknown compiler".to_string());
            match compilers.iter_mut().find(|(c, _)| *c == compiler) {
                Some((_, backends)) if backends.contains(&p.backend.name()) => {}
                Some((_, backends)) => backends.push(p.backend.name()),
                None => compilers.push((compiler, vec![p.backend.name()])),
            }
        }
        Comparison {
            compilers,
            cpu: m.llvm_cpu,
            machine: m.cpu.clone(),
            measured_with: m.rustc.clone(),
            clock,
            differs_above: DIFFERS,
            counted_with: counts.map(|c| c.rustc.clone()),
            rows,
            unmodelled,
        }
    }
}

pub fn section(c: &Comparison) -> String {
    let mut md = format!("## Predicted against measured: `{}`\n\n", c.cpu);
    let _ = write!(
        md,
        "The throughput benchmarks of `results.json` in this folder, measured on {} (built by \
         {}), beside `{}`'s predictions. ",
        c.machine, c.measured_with, c.cpu
    );
    let others: Vec<String> = c
        .compilers
        .iter()
        .filter(|(compiler, _)| *compiler != c.measured_with)
        .map(|(compiler, backends)| format!("{} by {compiler}", backends.join(", ")))
        .collect();
    if !others.is_empty() {
        let _ = write!(
            md,
            "The probes modelled were not all built by that compiler: {}. ",
            others.join("; ")
        );
    }
    match &c.clock {
        Some(clock) => {
            let _ = write!(
                md,
                "Measured cycles are nanoseconds times {} GHz, the clock {}. Rows where one \
                 figure is more than {DIFFERS}× the other are in bold. A benchmark's \
                 nanoseconds include its loop (reading the inputs, keeping the result), the \
                 prediction does not.\n\n",
                clock.ghz, clock.source
            );
        }
        None => md.push_str(
            "results.json holds no clock and no --ghz was given, so the measured figures stay \
             in nanoseconds and are not compared.\n\n",
        ),
    }
    let clocked = c.clock.is_some() || c.rows.iter().any(|r| r.measured_cycles.is_some());
    let counted = c.counted_with.is_some();
    if let Some(rustc) = &c.counted_with {
        let _ = write!(
            md,
            "The instruction columns give the instructions llvm-mca modelled per call (the \
             probe) and those callgrind counted per call of the benchmark, its loop included \
             (`instructions.json`, built by {rustc}).\n\n"
        );
    }
    let on_core = c.rows.iter().any(|r| r.block_on_core_cycles.is_some());
    if on_core {
        md.push_str(
            "*Block on this core* is the block llvm-mca was given, run on this machine in the \
             loop llvm-mca assumes (`qbb model` builds and times it): beside the benchmark, it \
             shows whether the model misjudges the core on that code or the benchmark runs \
             other code. A branch runs straight through, as llvm-mca reads it; a block with a call \
             or a jump out of its function is not run (-).\n\n",
        );
    }
    let mut header = vec!["benchmark", "backend", "measured"];
    let mut align = vec!["---", "---", "---:"];
    if clocked {
        header.push("measured cycles");
        align.push("---:");
    }
    header.push("predicted cycles");
    align.push("---:");
    if on_core {
        header.push("block on this core");
        align.push("---:");
    }
    if clocked {
        header.push("predicted ÷ measured");
        align.push("---:");
    }
    if counted {
        header.extend(["instructions: probe", "benchmark"]);
        align.extend(["---:", "---:"]);
    }
    header.push("model");
    align.push("---");
    let _ = writeln!(md, "| {} |\n| {} |", header.join(" | "), align.join(" | "));
    for r in &c.rows {
        let bold = |s: String| if r.differs { format!("**{s}**") } else { s };
        let mut cells = vec![
            bold(r.routine.clone()),
            r.backend.clone(),
            format!("{} ns", cycles_text(r.ns_per_op)),
        ];
        if clocked {
            cells.push(r.measured_cycles.map_or("-".to_string(), cycles_text));
        }
        cells.push(cycles_text(r.predicted_cycles));
        if on_core {
            cells.push(r.block_on_core_cycles.map_or("-".to_string(), cycles_text));
        }
        if clocked {
            let ratio = r
                .predicted_over_measured
                .map_or("-".to_string(), |x| format!("{x:.2}×"));
            cells.push(bold(ratio));
        }
        if counted {
            cells.push(r.probe_instructions.to_string());
            cells.push(benchmark_instructions_text(r));
        }
        cells.push(caveat_text(&r.notes));
        let _ = writeln!(md, "| {} |", cells.join(" | "));
    }
    let differing: Vec<String> = c
        .rows
        .iter()
        .filter(|r| r.differs)
        .map(|r| format!("{} on {}", r.routine, r.backend))
        .collect();
    if clocked {
        let _ = write!(
            md,
            "\n{} of {} rows differ by more than {DIFFERS}×",
            differing.len(),
            c.rows.len()
        );
        if differing.is_empty() {
            md.push_str(".\n");
        } else {
            let _ = writeln!(md, ": {}.", differing.join(", "));
        }
    }
    if let Some(other) = c.rows.iter().find_map(|r| r.counted_another_copy.as_ref()) {
        let _ = writeln!(
            md,
            "\n‡ Callgrind counted the portable backend's {} copy (valgrind hides AVX-512), not \
             the copy timed and modelled here: its count is of other code and is not compared.",
            other.width
        );
    }
    for u in &c.unmodelled {
        let _ = writeln!(md, "\nNot modelled: {u}.");
    }
    md
}

/// Callgrind's count of the benchmark; one of another copy of the code than the timed one is
/// shown marked ‡, as the note under the table explains.
fn benchmark_instructions_text(r: &measured::Pair) -> String {
    match (&r.benchmark_instructions, &r.counted_another_copy) {
        (Some(n), _) => cycles_text(*n),
        (None, Some(other)) => format!("{} ‡", cycles_text(other.instructions_per_op)),
        (None, None) => "-".to_string(),
    }
}

fn caveat_text(notes: &[String]) -> String {
    let mut parts = Vec::new();
    if has_note(notes, LOOP) {
        parts.push("one pass of a loop");
    }
    if has_note(notes, CALLS) {
        parts.push("calls a function");
    }
    if has_note(notes, INDIRECT) {
        parts.push("indirect jump");
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caveats_are_short() {
        let notes = vec![LOOP.to_string(), format!("{CALLS} `f`: ...")];
        assert_eq!(caveat_text(&notes), "one pass of a loop, calls a function");
        assert_eq!(caveat_text(&[]), "");
    }
}

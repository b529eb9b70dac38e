//! The model's files: `model.json` (one row per routine, backend and CPU, and the comparison
//! with the measurements) and `model.md` (an overview, the comparison and one table per CPU),
//! in the layout of the lab's other reports.

use std::fmt::Write as _;

use anyhow::Result;
use qbb::{BackendKind, Routine, Support};
use serde::Serialize;

use super::comparison::Comparison;
use super::cpus::Cpu;
use super::isa::Isa;
use super::listing::Listing;
use super::mca::{ITERATIONS, Mca, Summary};
use super::{Outcome, Prediction};

const UNIT: &str = "cycles per call: llvm-mca's Total Cycles / Iterations for the probe repeated \
                    as a loop of independent calls (its reciprocal throughput)";

/// The whole of `model.json`.
#[derive(Debug, Serialize)]
pub struct Model {
    source: &'static str,
    command: String,
    date: String,
    unit: &'static str,
    /// The llvm-mca of the x86-64 CPUs.
    #[serde(skip_serializing_if = "Option::is_none")]
    llvm_mca: Option<LlvmMca>,
    /// The llvm-mca of the AArch64 CPUs, when the model has any.
    #[serde(skip_serializing_if = "Option::is_none")]
    llvm_mca_aarch64: Option<LlvmMca>,
    /// Said when the model has AArch64 CPUs: no ARM machine measured their rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    aarch64_measured: Option<&'static str>,
    listings: Vec<ListingInfo>,
    cpus: Vec<CpuInfo>,
    predictions: Vec<Row>,
    #[serde(skip_serializing_if = "Option::is_none")]
    predicted_vs_measured: Option<Comparison>,
    #[serde(skip)]
    all: Vec<Prediction>,
}

#[derive(Debug, Serialize)]
struct LlvmMca {
    path: String,
    version: String,
    arguments: String,
}

#[derive(Debug, Serialize)]
struct ListingInfo {
    file: String,
    /// `aarch64` for a listing of AArch64 code (absent for x86-64).
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'static str>,
    compiler: String,
    probes: usize,
    /// The backends whose probes were taken from this listing (a probe in several listings is
    /// taken from the first).
    used_for: Vec<&'static str>,
}

#[derive(Debug, Serialize)]
struct CpuInfo {
    name: &'static str,
    title: &'static str,
    runs_avx512_backend: bool,
    /// `aarch64` for an ARM core (absent for x86-64).
    #[serde(skip_serializing_if = "Option::is_none")]
    isa: Option<&'static str>,
}

/// What the files say of the AArch64 rows, in `model.json` and under their tables.
pub const NOT_MEASURED_ON_ARM: &str = "predictions only: no ARM silicon measured the AArch64 rows \
    here (the lab has no timings of an ARM machine), so they have no measured figure";

/// One routine on one backend and CPU.
#[derive(Debug, Serialize)]
struct Row {
    routine: &'static str,
    backend: &'static str,
    cpu: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    probe: Option<String>,
    /// The file the probe was read from (`listings` names its compiler).
    #[serde(skip_serializing_if = "Option::is_none")]
    listing: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    support: Option<String>,
    #[serde(flatten)]
    summary: Option<Summary>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    not_available: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

impl Model {
    pub fn new(
        command: String,
        date: String,
        mcas: &[Mca],
        listings: &[Listing],
        cpus: &[Cpu],
        predictions: Vec<Prediction>,
        comparison: Option<Comparison>,
    ) -> Model {
        let listings = listings
            .iter()
            .map(|l| {
                let file = super::shown(&l.path);
                let mut used_for: Vec<BackendKind> = predictions
                    .iter()
                    .filter(|p| p.listing.as_ref() == Some(&file))
                    .map(|p| p.backend)
                    .collect();
                used_for.sort();
                used_for.dedup();
                ListingInfo {
                    target: (l.isa == Isa::Aarch64).then_some(l.isa.name()),
                    compiler: l.compiler.clone().unwrap_or_else(|| {
                        "unknown (the listing has no `# rustc ...` header)".to_string()
                    }),
                    probes: l
                        .functions
                        .iter()
                        .filter(|f| f.name.starts_with("qbb::probes::"))
                        .count(),
                    used_for: used_for.iter().map(|b| b.name()).collect(),
                    file,
                }
            })
            .collect();
        let llvm_mca = |isa: Isa| {
            mcas.iter().find(|m| m.isa == isa).map(|m| LlvmMca {
                path: m.path.display().to_string(),
                version: m.version.clone(),
                arguments: m.arguments(),
            })
        };
        let aarch64 = llvm_mca(Isa::Aarch64);
        Model {
            source: "qbb model: llvm-mca on the asm-probes of crate qbb",
            command,
            date,
            unit: UNIT,
            llvm_mca: llvm_mca(Isa::X86_64),
            aarch64_measured: aarch64.as_ref().map(|_| NOT_MEASURED_ON_ARM),
            llvm_mca_aarch64: aarch64,
            listings,
            cpus: cpus
                .iter()
                .map(|c| CpuInfo {
                    name: c.name,
                    title: c.title,
                    runs_avx512_backend: c.lacks_avx512.is_none(),
                    isa: (c.isa == Isa::Aarch64).then_some(c.isa.name()),
                })
                .collect(),
            predictions: predictions.iter().map(row).collect(),
            predicted_vs_measured: comparison,
            all: predictions,
        }
    }

    pub fn to_json(&self) -> Result<String> {
        Ok(serde_json::to_string_pretty(self)? + "\n")
    }

    fn backends(&self) -> Vec<BackendKind> {
        let mut kinds: Vec<BackendKind> = self.all.iter().map(|p| p.backend).collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }

    fn cpu_list(&self) -> Vec<Cpu> {
        let mut cpus: Vec<Cpu> = Vec::new();
        for p in &self.all {
            if !cpus.contains(&p.cpu) {
                cpus.push(p.cpu);
            }
        }
        cpus
    }

    fn get(&self, routine: Routine, backend: BackendKind, cpu: &Cpu) -> Option<&Prediction> {
        self.all
            .iter()
            .find(|p| p.routine == routine && p.backend == backend && p.cpu == *cpu)
    }

    /// What the command prints: the overview and the comparison.
    pub fn terminal(&self) -> String {
        let mut text = self.overview();
        if let Some(c) = &self.predicted_vs_measured {
            text.push('\n');
            text.push_str(&super::comparison::section(c));
        }
        text
    }

    pub fn markdown(&self) -> String {
        let mut md = String::new();
        md.push_str(
            "# Predicted cycles per call: every routine on every backend, in llvm-mca's models\n\n",
        );
        let x86 = self.llvm_mca.as_ref();
        let arm = self.llvm_mca_aarch64.as_ref();
        let with = match (x86, arm) {
            (Some(x), Some(a)) => format!(
                "{} (`{}`) for the x86-64 CPUs and {} (`{}`) for the AArch64 ones",
                x.version, x.path, a.version, a.path
            ),
            (Some(m), None) | (None, Some(m)) => format!("{} (`{}`)", m.version, m.path),
            (None, None) => "no llvm-mca".to_string(),
        };
        let triple = match (x86, arm) {
            (Some(_), Some(_)) => "x86_64 (aarch64 for the ARM cores)",
            (None, Some(_)) => "aarch64",
            _ => "x86_64",
        };
        let _ = write!(
            md,
            "Predicted by `qbb model` on {} with {with}. Each routine's asm probe (the routine \
             compiled out of line with its backend's features, `crates/qbb/src/probes.rs`; \
             without its `ret` and `vzeroupper`) is given to `llvm-mca \
             -mtriple={triple} -mcpu=CPU -iterations={ITERATIONS}`, which repeats it as a loop; a \
             cell is its Total Cycles divided by the iterations: the cycles per call when calls \
             are independent, as in the throughput benchmarks (lower is better). So that the \
             repeated block does not chain one pass on the previous through an argument register \
             the probe reads and then overwrites, each pass starts by setting such registers \
             (`mov r32, 0`{}, one integer operation each; `model.json` lists them). These are \
             predictions of LLVM's scheduling models, not measurements; the benchmark's own loop \
             (reading its inputs, keeping the result) is not in them, and inlined into that loop \
             the compiler may make other code of a routine than the probe's. `model.json` has, \
             per cell, the uOps per call, llvm-mca's resource bound (Block RThroughput) and its \
             busiest execution resource.\n\n",
            self.date,
            if arm.is_some() {
                ", `mov xN, #0` on AArch64"
            } else {
                ""
            },
        );
        if arm.is_some() {
            let _ = write!(
                md,
                "The AArch64 cores run the scalar, swar and neon backends, modelled from a listing \
                 made for `aarch64-unknown-linux-gnu`: beside the x86-64 cores in the first \
                 table, and in a table each below. {}.\n\n",
                capitalised(NOT_MEASURED_ON_ARM)
            );
        }
        if self.backends().contains(&BackendKind::Portable) {
            md.push_str(
                "The portable column models the copy the portable backend runs on that CPU, \
                 the widest it has (`Portable::width`): `probes::portable_avx512` where the \
                 CPU runs the avx512 backend, `probes::portable_avx2` elsewhere.\n\n",
            );
        }
        // The lab's build does not matter to the model (the listings are made by cargo asm).
        let args = self.command.strip_prefix("qbb ").unwrap_or(&self.command);
        let _ = writeln!(
            md,
            "Reproduce (on the same commit): `cargo run --release -p qbb-lab -- {args}`\n"
        );
        md.push_str("| model | |\n| --- | --- |\n");
        if let Some(m) = x86 {
            let _ = writeln!(md, "| llvm-mca | {} (`{}`) |", m.version, m.path);
        }
        if let Some(m) = arm {
            let _ = writeln!(md, "| llvm-mca, AArch64 | {} (`{}`) |", m.version, m.path);
        }
        for l in self.listings.iter().filter(|l| !l.used_for.is_empty()) {
            let _ = writeln!(
                md,
                "| listing of {} | {} (`{}`) |",
                l.used_for.join(", "),
                l.compiler,
                l.file
            );
        }
        for c in &self.cpus {
            let _ = writeln!(md, "| `{}` | {} |", c.name, c.title);
        }
        md.push('\n');
        md.push_str(&self.overview());
        if let Some(c) = &self.predicted_vs_measured {
            md.push('\n');
            md.push_str(&super::comparison::section(c));
        }
        for cpu in self.cpu_list() {
            md.push('\n');
            md.push_str(&self.cpu_section(&cpu));
        }
        md
    }

    /// Per routine and CPU, the backend with the fewest predicted cycles.
    fn overview(&self) -> String {
        let cpus = self.cpu_list();
        let mut md = String::from("## The fastest backend of each routine, by CPU\n\n");
        md.push_str(
            "The backend with the fewest predicted cycles per call, and that figure. Probes with \
             a loop or a call (marked in the tables below) are left out of the choice.\n\n",
        );
        md.push_str("| routine |");
        for c in &cpus {
            let _ = write!(md, " {} |", c.name);
        }
        md.push_str("\n| --- |");
        md.push_str(&" --- |".repeat(cpus.len()));
        md.push('\n');
        for &routine in Routine::ALL.iter() {
            let _ = write!(md, "| {} |", routine.id());
            for cpu in &cpus {
                let best = self
                    .backends()
                    .into_iter()
                    .filter_map(|b| self.get(routine, b, cpu))
                    .filter(|p| !p.has_caveat())
                    .filter_map(|p| Some((p.backend, p.summary()?.cycles_per_call)))
                    .min_by(|a, b| a.1.total_cmp(&b.1));
                match best {
                    Some((b, cycles)) => {
                        let _ = write!(md, " {} {} |", b.name(), cycles_text(cycles));
                    }
                    None => md.push_str(" - |"),
                }
            }
            md.push('\n');
        }
        let arm: Vec<String> = cpus
            .iter()
            .filter(|c| c.isa == Isa::Aarch64)
            .map(|c| format!("`{}`", c.name))
            .collect();
        if !arm.is_empty() {
            let _ = writeln!(
                md,
                "\nThe AArch64 columns ({}) choose among scalar, swar and neon, the x86-64 ones \
                 among the x86-64 backends. {}.",
                arm.join(", "),
                capitalised(NOT_MEASURED_ON_ARM)
            );
        }
        md
    }

    /// One CPU: routines down, its instruction set's backends across.
    fn cpu_section(&self, cpu: &Cpu) -> String {
        let backends: Vec<BackendKind> = self
            .backends()
            .into_iter()
            .filter(|&b| self.all.iter().any(|p| p.backend == b && p.cpu == *cpu))
            .collect();
        let mut md = format!("## `{}`: {}\n\n", cpu.name, cpu.title);
        md.push_str("| routine |");
        for b in &backends {
            let _ = write!(md, " {} |", b.name());
        }
        md.push_str("\n| --- |");
        md.push_str(&" ---: |".repeat(backends.len()));
        md.push('\n');
        let mut marks = Marks::default();
        for &routine in Routine::ALL.iter() {
            let row: Vec<Option<&Prediction>> = backends
                .iter()
                .map(|&b| self.get(routine, b, cpu))
                .collect();
            let fewest = row
                .iter()
                .flatten()
                .filter(|p| !p.has_caveat())
                .filter_map(|p| p.summary().map(|s| s.cycles_per_call))
                .min_by(f64::total_cmp);
            let _ = write!(md, "| {} |", routine.id());
            for p in row {
                let _ = write!(md, " {} |", marks.cell(p, fewest));
            }
            md.push('\n');
        }
        md.push('\n');
        md.push_str(&marks.legend(cpu));
        if cpu.isa == Isa::Aarch64 {
            let _ = writeln!(md, "\n{}.", capitalised(NOT_MEASURED_ON_ARM));
        }
        md
    }
}

/// What the cells of one table were marked with, for the lines under it.
#[derive(Default)]
struct Marks {
    looped: bool,
    called: bool,
    inherited: bool,
    not_available: Vec<(BackendKind, &'static str)>,
    /// Backend and routine of the cells without a probe.
    missing: Vec<(BackendKind, Routine)>,
    failed: Vec<String>,
}

impl Marks {
    fn cell(&mut self, p: Option<&Prediction>, fewest: Option<f64>) -> String {
        let Some(p) = p else {
            return "-".to_string();
        };
        match &p.outcome {
            Outcome::Modelled(s) => {
                let mut text = cycles_text(s.cycles_per_call);
                if fewest == Some(s.cycles_per_call) && !p.has_caveat() {
                    text = format!("**{text}**");
                }
                if p.looped() {
                    text.push_str(" ↺");
                    self.looped = true;
                }
                if p.jumps_away() {
                    text.push_str(" →");
                    self.called = true;
                }
                if matches!(
                    p.backend.support(p.routine),
                    Some(Support::Inherited { .. })
                ) {
                    text.push('†');
                    self.inherited = true;
                }
                text
            }
            Outcome::NotAvailable(why) => {
                if !self.not_available.iter().any(|(b, _)| *b == p.backend) {
                    self.not_available.push((p.backend, why));
                }
                "n/a".to_string()
            }
            Outcome::Missing => {
                self.missing.push((p.backend, p.routine));
                "-".to_string()
            }
            Outcome::Failed(why) => {
                self.failed
                    .push(format!("{} on {}: {why}", p.routine.id(), p.backend.name()));
                "-".to_string()
            }
        }
    }

    fn legend(&self, cpu: &Cpu) -> String {
        let mut lines = Vec::new();
        for (backend, why) in &self.not_available {
            lines.push(format!(
                "{}: not available on `{}`: {why}.",
                backend.name(),
                cpu.name
            ));
        }
        if self.looped {
            lines.push(
                "↺ the probe has a backward branch (a loop); llvm-mca runs straight through the \
                 block, so the loop's body is counted once, however often it repeats."
                    .to_string(),
            );
        }
        if self.called {
            lines.push(
                "→ the probe calls a function (named in `model.json`), which llvm-mca counts as \
                 one instruction of fixed latency without modelling the callee, or jumps through \
                 a table, whose every target llvm-mca counts once."
                    .to_string(),
            );
        }
        if self.inherited {
            lines.push(
                "† the backend runs another tier's code for that routine (`qbb backends` says \
                 which and why)."
                    .to_string(),
            );
        }
        let mut backends: Vec<BackendKind> = self.missing.iter().map(|(b, _)| *b).collect();
        backends.dedup();
        for backend in backends {
            let routines: Vec<&str> = self
                .missing
                .iter()
                .filter(|(b, _)| *b == backend)
                .map(|(_, r)| r.id())
                .collect();
            lines.push(format!(
                "No {} probe in the listings for {}.",
                backend.name(),
                routines.join(", ")
            ));
        }
        for f in &self.failed {
            lines.push(format!("Not modelled: {f}."));
        }
        lines
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

fn row(p: &Prediction) -> Row {
    let (summary, not_available, error) = match &p.outcome {
        Outcome::Modelled(s) => (Some(s.clone()), None, None),
        Outcome::NotAvailable(why) => (None, Some(*why), None),
        Outcome::Missing => (None, None, Some("no probe in the listings".to_string())),
        Outcome::Failed(why) => (None, None, Some(why.clone())),
    };
    Row {
        routine: p.routine.id(),
        backend: p.backend.name(),
        cpu: p.cpu.name,
        probe: p.probe.clone(),
        listing: p.listing.clone(),
        support: p.backend.support(p.routine).map(|s| match s {
            Support::Native => "native".to_string(),
            Support::Inherited { from, .. } => format!("inherited from {from}"),
        }),
        summary,
        notes: p.notes.clone(),
        not_available,
        error,
    }
}

/// `predictions only...` -> `Predictions only...`.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Three significant digits, as the lab's tables print figures.
pub fn cycles_text(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_keep_three_digits() {
        assert_eq!(cycles_text(5.15), "5.15");
        assert_eq!(cycles_text(12.34), "12.3");
        assert_eq!(cycles_text(1234.0), "1234");
    }
}

//! `qbb model`: llvm-mca's prediction of the cycles per call of every routine on every backend,
//! for several microarchitectures (x86-64 cores, and AArch64 cores for neon), from the machine
//! code of the asm probes; beside the measured cycles when the folder holds a `results.json` of
//! `qbb compare`.
//!
//! A probe is the routine compiled out of line with its backend's features
//! (`crates/qbb/src/probes.rs`), the code a benchmark's loop runs inlined. llvm-mca repeats it
//! [`mca::ITERATIONS`] times as a loop of independent calls and predicts the cycles per pass.

mod aarch64;
mod arguments;
mod cargo_asm;
mod comparison;
mod cpus;
mod isa;
mod listing;
mod mca;
mod measured;
mod on_core;
mod registers;
mod write;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use qbb::{BackendKind, Routine};
use rayon::prelude::*;

use crate::report::files::{command_line, out_dir};
use crate::report::machine::{Machine, cpuinfo_field};
use cpus::Cpu;
use isa::Isa;
use listing::Listing;
use mca::{Mca, Summary};
use measured::{Counts, Measured};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Listings of the asm probes, made by `cargo asm -p qbb --features asm-probes --lib
    /// --simplify --full-name --everything` (and with nightly and `portable-simd` for the
    /// portable backend, with `--target aarch64-unknown-linux-gnu` for neon); a probe in several
    /// is taken from the first. Without --asm, qbb runs those commands itself, which needs
    /// cargo-show-asm (`cargo install cargo-show-asm`), and for an AArch64 CPU a compiler with
    /// the aarch64-unknown-linux-gnu standard library.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    asm: Vec<PathBuf>,
    /// The CPUs to model, by llvm-mca name, comma-separated; `default` stands for the default
    /// set, and AArch64 cores (apple-m4, neoverse-v2, ...) model neon [default: znver1,znver3,
    /// znver4,skylake,icelake-server,sapphirerapids; the measured machine's CPU is added].
    #[arg(long, value_name = "CPU,...", value_delimiter = ',')]
    cpu: Vec<String>,
    /// The llvm-mca to run, comma-separated; each instruction set's CPUs are modelled by the
    /// first that knows them [default: llvm-mca-19, else llvm-mca, for x86-64 (LLVM 17 or
    /// newer); llvm-mca-22, else the newest found, for AArch64].
    #[arg(long, value_name = "PATH,...", value_delimiter = ',')]
    llvm_mca: Vec<PathBuf>,
    /// The core clock in GHz, to turn the measured nanoseconds into cycles when results.json
    /// holds no clock of its own.
    #[arg(long, value_name = "GHZ", value_parser = positive)]
    ghz: Option<f64>,
    /// Without --asm: list the stable build only, not the nightly one with the portable backend.
    #[arg(long)]
    stable_only: bool,
    /// Where to write model.json and model.md; a results.json there is compared with the
    /// model [default: reports/<machine-id>].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("`{text}` is not a positive number of GHz")),
    }
}

pub fn run(args: &Args) -> Result<ExitCode> {
    let here = Machine::current();
    let out = out_dir(args.out.as_deref(), &here)?;
    let (measured, counts) = measurements(&out, &here)?;
    if measured.is_none() && args.ghz.is_some() {
        eprintln!(
            "model: no results.json in {}, so --ghz is not used",
            out.display()
        );
    }
    let cpus = cpus::selection(&args.cpu, measured.as_ref().map(|m| m.llvm_cpu))?;
    // Listings named on the command line are read first: a bad file fails before anything runs.
    let given: Vec<Listing> = args
        .asm
        .iter()
        .map(|p| Listing::read(p))
        .collect::<Result<_>>()?;
    let isas = instruction_sets(&cpus);
    let mcas: Vec<Mca> = isas
        .iter()
        .map(|&isa| {
            let wanted: Vec<&str> = cpus
                .iter()
                .filter(|c| c.isa == isa)
                .map(|c| c.name)
                .collect();
            Mca::find(&args.llvm_mca, isa, &wanted)
        })
        .collect::<Result<_>>()?;
    let aarch64 = isas.contains(&Isa::Aarch64);
    if aarch64 && !given.is_empty() {
        check_aarch64_listing(&given, &cpus)?;
    }
    let listings = if given.is_empty() {
        let made = cargo_asm::produce(&cargo_asm::checkout()?, !args.stable_only, aarch64)?;
        for path in &made {
            eprintln!(
                "model: wrote {} (model it again with --asm)",
                path.display()
            );
        }
        made.iter()
            .map(|p| Listing::read(p))
            .collect::<Result<_>>()?
    } else {
        given
    };

    let predictions = predict(&mcas, &listings, &cpus)?;
    let on_core = match &measured {
        Some(m) if m.machine_id == here.id => time_on_core(&predictions, m.llvm_cpu),
        _ => Vec::new(),
    };
    let comparison = measured
        .as_ref()
        .map(|m| comparison::Comparison::new(m, counts.as_ref(), &predictions, &on_core, args.ghz));
    let model = write::Model::new(
        command_line(),
        here.date.clone(),
        &mcas,
        &listings,
        &cpus,
        predictions,
        comparison,
    );
    std::fs::create_dir_all(&out).with_context(|| format!("creating `{}`", out.display()))?;
    crate::report::files::write(&out.join("model.json"), &model.to_json()?)?;
    crate::report::files::write(&out.join("model.md"), &model.markdown())?;
    crate::output::print(&model.terminal())?;
    eprintln!("model: wrote {}/model.json and model.md", out.display());
    Ok(ExitCode::SUCCESS)
}

/// The instruction sets of `cpus`, x86-64 first.
fn instruction_sets(cpus: &[Cpu]) -> Vec<Isa> {
    let mut isas: Vec<Isa> = cpus.iter().map(|c| c.isa).collect();
    isas.sort();
    isas.dedup();
    isas
}

/// Refuses AArch64 cores with listings of which none is of AArch64: their rows would all be
/// missing.
fn check_aarch64_listing(listings: &[Listing], cpus: &[Cpu]) -> Result<()> {
    if listings.iter().any(|l| l.isa == Isa::Aarch64) {
        return Ok(());
    }
    let arm: Vec<&str> = cpus
        .iter()
        .filter(|c| c.isa == Isa::Aarch64)
        .map(|c| c.name)
        .collect();
    bail!(
        "{} {} AArch64, and no listing given with --asm is: add one made by `cargo asm --target \
         aarch64-unknown-linux-gnu -p qbb --features asm-probes --lib --simplify --full-name \
         --everything`, or leave out --asm",
        arm.join(", "),
        if arm.len() == 1 { "is" } else { "are" }
    )
}

/// The blocks llvm-mca modelled for `cpu`, this machine's, timed on this core
/// ([`on_core`]): one entry per modelled prediction of that CPU, by routine and backend. Empty,
/// with a word on standard error, when the blocks' program cannot be built.
fn time_on_core(predictions: &[Prediction], cpu: &str) -> Vec<OnCore> {
    let modelled: Vec<&Prediction> = predictions
        .iter()
        .filter(|p| p.cpu.name == cpu && p.summary().is_some())
        .collect();
    let blocks: Vec<on_core::Block> = modelled
        .iter()
        .map(|p| on_core::Block {
            instructions: &p.block,
            resets: p.resets,
        })
        .collect();
    let dir = cargo_asm::checkout()
        .map(|root| root.join("target/qbb-blocks"))
        .unwrap_or_else(|_| std::env::temp_dir().join("qbb-blocks"));
    eprintln!(
        "model: timing the {} blocks of `{cpu}` on this core",
        blocks.len()
    );
    match on_core::time(&dir, &blocks) {
        Ok(timed) => modelled
            .iter()
            .zip(timed)
            .map(|(p, cycles)| OnCore {
                routine: p.routine,
                backend: p.backend,
                cycles,
            })
            .collect(),
        Err(why) => {
            eprintln!("model: the blocks are not timed on this core: {why:#}");
            Vec::new()
        }
    }
}

/// A modelled block's cycles per pass on this core, or why it has none.
pub struct OnCore {
    pub routine: Routine,
    pub backend: BackendKind,
    pub cycles: Result<f64, String>,
}

/// A path as the files name it: relative to the current folder when it is below it (the
/// checkout, where the lab runs), so that a committed report names no machine's folders.
pub fn shown(path: &Path) -> String {
    let relative = std::env::current_dir()
        .ok()
        .and_then(|here| path.strip_prefix(here).ok().map(Path::to_path_buf));
    relative
        .unwrap_or_else(|| path.to_path_buf())
        .display()
        .to_string()
}

/// The timings in `out` (results.json) when the model can name their CPU, and the callgrind
/// counts beside them (instructions.json), read before anything runs.
fn measurements(out: &Path, here: &Machine) -> Result<(Option<Measured>, Option<Counts>)> {
    let results = out.join("results.json");
    if !results.is_file() {
        return Ok((None, None));
    }
    let mut measured = Measured::read(&results)?;
    if measured.llvm_cpu == "native" && measured.machine_id == here.id {
        // The model number named no core; this machine's own extensions may.
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let flags = cpuinfo_field(&cpuinfo, "flags").unwrap_or_default();
        if let Some(cpu) = cpus::intel_by_flags(&flags) {
            measured.llvm_cpu = cpu;
        }
    }
    if measured.llvm_cpu == "native" && measured.machine_id != here.id {
        eprintln!(
            "model: the CPU of {} ({}) has no llvm-mca name the lab knows, and it is not this \
             machine; no predicted-vs-measured table",
            results.display(),
            measured.cpu
        );
        return Ok((None, None));
    }
    let counts = out.join("instructions.json");
    let counts = if counts.is_file() {
        Some(Counts::read(&counts)?)
    } else {
        None
    };
    Ok((Some(measured), counts))
}

/// A probe found in a listing.
struct Found<'a> {
    name: String,
    listing: &'a Listing,
    function: &'a listing::Function,
}

/// The probe of `routine` on `backend` as it runs on `cpu`, from the first listing that has it.
fn find<'a>(
    listings: &'a [Listing],
    routine: Routine,
    backend: BackendKind,
    cpu: &Cpu,
) -> Option<Found<'a>> {
    let module = match backend {
        BackendKind::Portable => cpu.portable_probe(),
        other => other.name(),
    };
    let name = format!("qbb::probes::{module}::{}", routine.method());
    let of_its_isa = listings.iter().filter(|l| l.isa == cpu.isa);
    of_its_isa.into_iter().find_map(|listing| {
        let function = listing.function(&name)?;
        Some(Found {
            name: name.clone(),
            listing,
            function,
        })
    })
}

/// The notes that qualify a figure; the tables mark them (↺ a loop, → a call or indirect jump).
pub const LOOP: &str = "loop: modelled as one pass";
pub const RESET: &str = "fresh arguments";
pub const CALLS: &str = "calls";
pub const INDIRECT: &str = "indirect jump: every target counted once";

pub fn has_note(notes: &[String], prefix: &str) -> bool {
    notes.iter().any(|n| n.starts_with(prefix))
}

/// What the model says of one routine on one backend and CPU.
#[derive(Debug, Clone)]
pub struct Prediction {
    pub routine: Routine,
    pub backend: BackendKind,
    pub cpu: Cpu,
    pub probe: Option<String>,
    pub compiler: Option<String>,
    /// The listing the probe was taken from.
    pub listing: Option<String>,
    /// What llvm-mca left out: a loop, a call.
    pub notes: Vec<String>,
    pub outcome: Outcome,
    /// The instructions llvm-mca was given, the fresh arguments first; empty unless modelled.
    pub block: Vec<String>,
    pub resets: usize,
}

#[derive(Debug, Clone)]
pub enum Outcome {
    Modelled(Summary),
    /// The CPU cannot run the backend: `CPU lacks AVX-512`.
    NotAvailable(&'static str),
    /// No probe of the routine and backend in the listings.
    Missing,
    /// An empty probe, or one llvm-mca refused.
    Failed(String),
}

impl Prediction {
    pub fn summary(&self) -> Option<&Summary> {
        match &self.outcome {
            Outcome::Modelled(s) => Some(s),
            _ => None,
        }
    }

    /// The figure carries a caveat: llvm-mca modelled one pass of a loop, or a call.
    pub fn has_caveat(&self) -> bool {
        self.looped() || self.jumps_away()
    }

    pub fn looped(&self) -> bool {
        has_note(&self.notes, LOOP)
    }

    /// A call or an indirect jump: code llvm-mca does not follow.
    pub fn jumps_away(&self) -> bool {
        has_note(&self.notes, CALLS) || has_note(&self.notes, INDIRECT)
    }
}

/// Every routine x backend x CPU of the backend's instruction set; llvm-mca runs in parallel,
/// one process per probe and CPU.
fn predict(mcas: &[Mca], listings: &[Listing], cpus: &[Cpu]) -> Result<Vec<Prediction>> {
    let mut jobs = Vec::new();
    for &routine in Routine::ALL.iter() {
        for backend in BackendKind::ALL {
            for cpu in cpus.iter().filter(|c| c.isa.backends().contains(&backend)) {
                let mca = mcas.iter().find(|m| m.isa == cpu.isa);
                jobs.push((
                    routine,
                    backend,
                    *cpu,
                    mca.expect("an llvm-mca per instruction set"),
                ));
            }
        }
    }
    let predictions: Vec<Prediction> = jobs
        .into_par_iter()
        .map(|(routine, backend, cpu, mca)| one(mca, listings, routine, backend, cpu))
        .collect();
    if predictions.iter().all(|p| p.probe.is_none()) {
        bail!(
            "the listings hold no probe (`qbb::probes::<backend>::<routine>`): make them with \
             `--features asm-probes` and `--everything`"
        );
    }
    // A backend with no probe at all (portable without a nightly listing) is left out.
    Ok(predictions
        .into_iter()
        .filter(|p| p.probe.is_some() || has_any(listings, p.backend, p.cpu.isa))
        .collect())
}

fn has_any(listings: &[Listing], backend: BackendKind, isa: Isa) -> bool {
    let prefix = format!("qbb::probes::{}", backend.name());
    listings
        .iter()
        .filter(|l| l.isa == isa)
        .any(|l| l.functions.iter().any(|f| f.name.starts_with(&prefix)))
}

fn one(
    mca: &Mca,
    listings: &[Listing],
    routine: Routine,
    backend: BackendKind,
    cpu: Cpu,
) -> Prediction {
    let found = find(listings, routine, backend, &cpu);
    let mut prediction = Prediction {
        routine,
        backend,
        cpu,
        probe: found.as_ref().map(|f| f.name.clone()),
        compiler: found.as_ref().and_then(|f| f.listing.compiler.clone()),
        listing: found.as_ref().map(|f| shown(&f.listing.path)),
        notes: Vec::new(),
        outcome: Outcome::Missing,
        block: Vec::new(),
        resets: 0,
    };
    let Some(found) = found else {
        return prediction;
    };
    let body = match found.listing.body(found.function) {
        Ok(body) => body,
        Err(why) => {
            prediction.outcome =
                Outcome::Failed(format!("{}: {why}", found.listing.path.display()));
            return prediction;
        }
    };
    let resets = match cpu.isa {
        Isa::X86_64 => arguments::resets(&body.instructions),
        Isa::Aarch64 => aarch64::resets(&body.instructions),
    };
    if !resets.is_empty() {
        prediction
            .notes
            .push(format!("{RESET}: {}", resets.join("; ")));
    }
    if body.has_loop {
        prediction.notes.push(LOOP.to_string());
    }
    if body.indirect_jump {
        prediction.notes.push(INDIRECT.to_string());
    }
    for callee in &body.tail_calls {
        prediction
            .notes
            .push(format!("tail call to `{callee}`, modelled in place"));
    }
    for callee in &body.calls {
        prediction
            .notes
            .push(format!("{CALLS} `{callee}`, not modelled"));
    }
    let needs_avx512 =
        matches!(backend, BackendKind::Avx512) || found.name.contains("::portable_avx512::");
    prediction.outcome = match cpu.lacks_avx512 {
        Some(why) if needs_avx512 => Outcome::NotAvailable(why),
        _ if body.instructions.is_empty() => Outcome::Failed("the probe is only `ret`".to_string()),
        _ => {
            let block: Vec<String> = resets.iter().chain(&body.instructions).cloned().collect();
            match mca.run(cpu.name, &block) {
                Ok(summary) => {
                    prediction.block = block;
                    prediction.resets = resets.len();
                    Outcome::Modelled(summary.without(resets.len()))
                }
                Err(why) => Outcome::Failed(format!("llvm-mca: {why}")),
            }
        }
    };
    prediction
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aarch64_cores_need_an_aarch64_listing() {
        let x86 = Listing::parse(Path::new("x86.s"), "f:\n\tmov rax, rdi\n\tret\n").unwrap();
        let arm = Listing::parse(Path::new("arm.s"), "f:\n\tldr x0, [x1]\n\tret\n").unwrap();
        let cpus = cpus::selection(&["znver4".to_string(), "apple-m4".to_string()], None).unwrap();
        assert_eq!(instruction_sets(&cpus), [Isa::X86_64, Isa::Aarch64]);
        let err = check_aarch64_listing(std::slice::from_ref(&x86), &cpus).unwrap_err();
        assert!(err.to_string().starts_with("apple-m4 is AArch64"), "{err}");
        assert!(check_aarch64_listing(&[x86, arm], &cpus).is_ok());
    }
}

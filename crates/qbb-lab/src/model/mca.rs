//! Finding llvm-mca, running it on one probe for one CPU, and reading its summary.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Result, bail};
use serde::Serialize;

use super::isa::Isa;

/// How often llvm-mca repeats the block: enough for the loop's steady state to dominate the
/// start-up and drain of the pipeline.
pub const ITERATIONS: u32 = 100;

/// The oldest LLVM whose llvm-mca knows all the default CPUs (Zen 4 arrived in LLVM 16, and 17
/// is the first release with its scheduling model complete).
const OLDEST_MAJOR: u32 = 17;

/// Tried in this order for x86-64 when `--llvm-mca` is not given. Debian's `llvm-19` package
/// installs the first; a plain `llvm-mca` is often an older default LLVM.
const CANDIDATES: [&str; 3] = ["llvm-mca-19", "llvm-mca", "/usr/lib/llvm-19/bin/llvm-mca"];

/// Tried in this order for AArch64: the newest LLVM first, whose models of the Apple and Neoverse
/// cores are the most complete.
const AARCH64_CANDIDATES: [&str; 5] = [
    "llvm-mca-22",
    "llvm-mca-21",
    "llvm-mca-20",
    "llvm-mca",
    "/usr/lib/llvm-22/bin/llvm-mca",
];

/// A usable llvm-mca, for the CPUs of one instruction set.
#[derive(Debug, Clone, Serialize)]
pub struct Mca {
    pub path: PathBuf,
    /// `LLVM version 19.1.7`.
    pub version: String,
    #[serde(skip)]
    pub isa: Isa,
    /// The CPUs it knows for that instruction set.
    #[serde(skip)]
    cpus: Vec<String>,
}

impl Mca {
    /// The first llvm-mca of `explicit` (`--llvm-mca`), or else of the candidates for `isa`, that
    /// is recent enough and knows every CPU of `wanted`.
    pub fn find(explicit: &[PathBuf], isa: Isa, wanted: &[&str]) -> Result<Mca> {
        let candidates: Vec<PathBuf> = if !explicit.is_empty() {
            explicit.to_vec()
        } else {
            match isa {
                Isa::X86_64 => CANDIDATES.iter().map(PathBuf::from).collect(),
                Isa::Aarch64 => AARCH64_CANDIDATES.iter().map(PathBuf::from).collect(),
            }
        };
        let mut refused = Vec::new();
        for path in candidates {
            match Mca::probe(&path, isa).and_then(|mca| mca.knows(wanted).map(|()| mca)) {
                Ok(mca) => return Ok(mca),
                Err(why) => refused.push(format!("`{}`: {why}", path.display())),
            }
        }
        match isa {
            Isa::X86_64 => bail!(
                "no usable llvm-mca ({}); `qbb model` needs LLVM {OLDEST_MAJOR} or newer, whose \
                 llvm-mca models Zen 4 and Sapphire Rapids. On Debian or Ubuntu: `apt-get install \
                 llvm-19` (then /usr/bin/llvm-mca-19 is found by itself), or name one with \
                 --llvm-mca PATH",
                refused.join("; ")
            ),
            Isa::Aarch64 => bail!(
                "no llvm-mca that models the AArch64 cores {} ({}); install a recent LLVM \
                 (llvm-mca-22 is tried first) or name one with --llvm-mca PATH",
                wanted.join(", "),
                refused.join("; ")
            ),
        }
    }

    fn probe(path: &Path, isa: Isa) -> Result<Mca, String> {
        let out = Command::new(path)
            .arg("--version")
            .output()
            .map_err(|e| format!("cannot run it ({e})"))?;
        let text = String::from_utf8_lossy(&out.stdout);
        let (version, major) = parse_version(&text).ok_or("prints no `LLVM version`")?;
        if major < OLDEST_MAJOR {
            return Err(format!("{version} is older than LLVM {OLDEST_MAJOR}"));
        }
        // `-mcpu=help` lists the CPUs on standard error (and exits 1).
        let help = Command::new(path)
            .args([format!("-mtriple={}", isa.triple()).as_str(), "-mcpu=help"])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("cannot run it ({e})"))?;
        let cpus = parse_cpu_list(&String::from_utf8_lossy(&help.stderr));
        if cpus.is_empty() {
            return Err(format!("lists no {} CPUs for -mcpu=help", isa.name()));
        }
        Ok(Mca {
            path: path.to_path_buf(),
            version,
            isa,
            cpus,
        })
    }

    /// Fails naming the CPUs this llvm-mca does not know; `native` is always known.
    fn knows(&self, names: &[&str]) -> Result<(), String> {
        let unknown: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| *n != "native" && !self.cpus.iter().any(|c| c == n))
            .collect();
        if unknown.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} does not know the CPU {}; `-mcpu=help` lists the ones it does",
                self.version,
                unknown.join(", ")
            ))
        }
    }

    /// `-mtriple=x86_64 -mcpu=CPU -iterations=100`, as the files name the arguments.
    pub fn arguments(&self) -> String {
        format!(
            "-mtriple={} -mcpu=CPU -iterations={ITERATIONS}",
            self.isa.triple()
        )
    }

    /// llvm-mca's summary of `instructions` repeated [`ITERATIONS`] times on `cpu`, or its error.
    pub fn run(&self, cpu: &str, instructions: &[String]) -> Result<Summary, String> {
        let mut child = Command::new(&self.path)
            .arg(format!("-mtriple={}", self.isa.triple()))
            .arg(format!("-mcpu={cpu}"))
            .arg(format!("-iterations={ITERATIONS}"))
            .arg("-")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot run {} ({e})", self.path.display()))?;
        let input = format!("{}{}\n", self.isa.prelude(), instructions.join("\n"));
        if let Some(mut stdin) = child.stdin.take() {
            // A write error means llvm-mca stopped reading; its exit status says why.
            let _ = stdin.write_all(input.as_bytes());
        }
        let out = child
            .wait_with_output()
            .map_err(|e| format!("llvm-mca did not finish ({e})"))?;
        if !out.status.success() {
            return Err(first_error(&String::from_utf8_lossy(&out.stderr)));
        }
        parse_summary(&String::from_utf8_lossy(&out.stdout))
    }
}

/// `Debian LLVM version 19.1.7` -> (`LLVM version 19.1.7`, 19).
fn parse_version(text: &str) -> Option<(String, u32)> {
    let at = text.find("LLVM version ")?;
    let version = text[at..].lines().next()?.trim().to_string();
    let number = version.strip_prefix("LLVM version ")?;
    let major = number.split('.').next()?.parse().ok()?;
    Some((version, major))
}

/// The names under `Available CPUs for this target:`, up to the features.
fn parse_cpu_list(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("Available CPUs"))
        .skip(1)
        .take_while(|l| !l.starts_with("Available features"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

/// The line that says what went wrong, with its note (the instruction) when there is one.
fn first_error(stderr: &str) -> String {
    let mut lines = stderr.lines().skip_while(|l| !l.contains("error"));
    let mut text = lines.next().unwrap_or("llvm-mca failed").trim().to_string();
    if let Some(note) = lines.find(|l| l.starts_with("note:")) {
        text.push_str(&format!(" ({})", note.trim().replace('\t', " ")));
    }
    text
}

/// What llvm-mca predicts for one pass of a block, from its summary view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Total Cycles / Iterations: one pass of the block in a steady loop.
    pub cycles_per_call: f64,
    pub uops_per_call: f64,
    pub instructions: u64,
    /// The bound from resource use alone, without dependencies ("Block RThroughput").
    pub block_rthroughput: f64,
    /// The most used execution resource and its cycles per pass, when the report lists them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub busiest_resource: Option<Resource>,
}

impl Summary {
    /// The summary of a block that had `extra` one-uop instructions put before it, counted
    /// without them (their cycles stay in: they were scheduled with the rest).
    pub fn without(mut self, extra: usize) -> Summary {
        self.instructions = self.instructions.saturating_sub(extra as u64);
        self.uops_per_call = round2((self.uops_per_call - extra as f64).max(0.0));
        self
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Resource {
    pub name: String,
    pub cycles_per_call: f64,
}

/// Reads the summary view (`Iterations:`, `Total Cycles:` ...) and the resource pressure.
pub fn parse_summary(report: &str) -> Result<Summary, String> {
    let field = |name: &str| -> Result<f64, String> {
        report
            .lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse::<f64>().ok())
            .ok_or_else(|| format!("llvm-mca's report has no `{name}`"))
    };
    let iterations = field("Iterations:")?;
    if iterations <= 0.0 {
        return Err("llvm-mca's report has no iterations".to_string());
    }
    Ok(Summary {
        cycles_per_call: round2(field("Total Cycles:")? / iterations),
        uops_per_call: round2(field("Total uOps:")? / iterations),
        instructions: (field("Instructions:")? / iterations).round() as u64,
        block_rthroughput: field("Block RThroughput:")?,
        busiest_resource: busiest(report),
    })
}

/// The resource with the most cycles in "Resource pressure per iteration", named from the
/// "Resources:" list (`[3]   - Zn3ALU0`, or `[3.1]` for a part of a unit).
fn busiest(report: &str) -> Option<Resource> {
    let names: Vec<(&str, &str)> = report
        .lines()
        .skip_while(|l| !l.starts_with("Resources:"))
        .skip(1)
        .take_while(|l| l.starts_with('['))
        .filter_map(|l| {
            let (index, name) = l.split_once('-')?;
            Some((index.trim(), name.trim()))
        })
        .collect();
    let mut table = report
        .lines()
        .skip_while(|l| !l.starts_with("Resource pressure per iteration:"))
        .skip(1);
    let header: Vec<&str> = table.next()?.split_whitespace().collect();
    let values: Vec<&str> = table.next()?.split_whitespace().collect();
    header
        .iter()
        .zip(values)
        .filter_map(|(index, value)| Some((*index, value.parse::<f64>().ok()?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .and_then(|(index, cycles)| {
            let name = names.iter().find(|(i, _)| i == &index)?.1;
            Some(Resource {
                name: name.to_string(),
                cycles_per_call: cycles,
            })
        })
}

pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// llvm-mca 19's report of avx2's `piece_at` for `-mcpu=znver1`, the parts read.
    const REPORT: &str = "\
Iterations:        100
Instructions:      900
Total Cycles:      515
Total uOps:        1100

Dispatch Width:    4
uOps Per Cycle:    2.14
IPC:               1.75
Block RThroughput: 5.0


Resources:
[0]   - ZnAGU0
[1]   - ZnAGU1
[2]   - ZnALU0
[3]   - ZnALU1
[4]   - ZnALU2
[5]   - ZnALU3
[6]   - ZnDivider
[7]   - ZnFPU0
[8]   - ZnFPU1
[9]   - ZnFPU2
[10]  - ZnFPU3
[11]  - ZnMultiplier


Resource pressure per iteration:
[0]    [1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]    [9]    [10]   [11]   
0.50   0.50   1.23   1.29   1.24   1.24    -      -      -     5.00    -     1.00   

Resource pressure by instruction:
";

    #[test]
    fn the_summary_gives_cycles_and_uops_per_call() {
        let s = parse_summary(REPORT).unwrap();
        assert_eq!(s.cycles_per_call, 5.15);
        assert_eq!(s.uops_per_call, 11.0);
        assert_eq!(s.instructions, 9);
        assert_eq!(s.block_rthroughput, 5.0);
        assert_eq!(
            s.busiest_resource,
            Some(Resource {
                name: "ZnFPU2".to_string(),
                cycles_per_call: 5.0
            })
        );
    }

    #[test]
    fn parts_of_units_are_named_too() {
        let report = "Iterations: 10\nInstructions: 20\nTotal Cycles: 31\nTotal uOps: 20\n\
                      Block RThroughput: 2.5\n\nResources:\n[0.0] - SPRPort00\n[0.1] - SPRPort01\n\n\
                      Resource pressure per iteration:\n[0.0]  [0.1]\n 0.50   2.50\n";
        let s = parse_summary(report).unwrap();
        assert_eq!(s.cycles_per_call, 3.1);
        assert_eq!(s.busiest_resource.unwrap().name, "SPRPort01");
    }

    #[test]
    fn a_report_without_the_summary_is_an_error() {
        let err = parse_summary("Iterations: 100\nInstructions: 5\n").unwrap_err();
        assert_eq!(err, "llvm-mca's report has no `Total Cycles:`");
        assert!(parse_summary("").is_err());
    }

    #[test]
    fn versions_and_cpu_lists_are_read() {
        assert_eq!(
            parse_version("Debian LLVM version 19.1.7\n  Optimized build.\n"),
            Some(("LLVM version 19.1.7".to_string(), 19))
        );
        assert_eq!(
            parse_version("Ubuntu LLVM version 14.0.0"),
            Some(("LLVM version 14.0.0".to_string(), 14))
        );
        assert_eq!(parse_version("something else"), None);
        let help = "Available CPUs for this target:\n\n  znver3   - Select the znver3 processor.\n  \
                    znver4   - Select the znver4 processor.\n\nAvailable features for this target:\n\n  \
                    avx2 - Enable AVX2.\n";
        assert_eq!(parse_cpu_list(help), ["znver3", "znver4"]);
    }

    #[test]
    fn errors_keep_the_instruction_they_name() {
        let stderr = "error: found an unsupported instruction in the input assembly sequence.\n\
                      note: instruction: \tvpandq zmm6, zmm6, zmm7\n";
        assert_eq!(
            first_error(stderr),
            "error: found an unsupported instruction in the input assembly sequence. \
             (note: instruction:  vpandq zmm6, zmm6, zmm7)"
        );
    }
}

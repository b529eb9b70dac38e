//! Reading back what gungraun leaves under `target/gungraun/` when the callgrind bench runs with
//! `--save-summary`: one `summary.json` per benchmark function and id
//! (`qbb-benches/callgrind/routines/piece_at.scalar/summary.json`), whose total holds callgrind's
//! count of instructions executed, `Ir`.
//!
//! Only the fields needed are read, in gungraun's summary format 7 (gungraun 0.20); a summary of
//! another format is refused by name rather than misread.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use qbb_benches::{Bench, Implementation};
use serde::Deserialize;

use crate::report::files::require_tool_dir;

/// The summary format this reader knows (`version` in every `summary.json`).
pub const SUMMARY_FORMAT: &str = "7";

/// The benchmark file and group of benches/benches/callgrind.rs, as gungraun names them.
const MODULE_PREFIX: &str = "callgrind::routines::";

/// How the counts are produced, for the messages that say what to run.
pub const BENCH_COMMAND: &str = "cargo bench -p qbb-benches --features callgrind --bench callgrind -- --save-summary=pretty-json";

/// One benchmark counted on one implementation.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    pub bench: Bench,
    pub implementation: Implementation,
    /// Callgrind's `Ir` for the measured function: one pass over the corpus.
    pub instructions: u64,
    /// When gungraun started the run (RFC 3339).
    pub started_at: String,
    /// The benchmark executable that ran, as an absolute path.
    pub executable: PathBuf,
}

/// The part of gungraun's `summary.json` that is needed (its `version` is checked first).
#[derive(Debug, Deserialize)]
struct Summary {
    module_path: String,
    id: Option<String>,
    benchmark_exe: PathBuf,
    project_root: PathBuf,
    started_at: String,
    profiles: Vec<Profile>,
}

#[derive(Debug, Deserialize)]
struct Profile {
    tool: String,
    data: ProfileData,
}

#[derive(Debug, Deserialize)]
struct ProfileData {
    total: Total,
}

#[derive(Debug, Deserialize)]
struct Total {
    metrics: BTreeMap<String, MetricResult>,
}

/// A metric of the new run and, when a baseline was compared, the old one.
#[derive(Debug, Deserialize)]
struct MetricResult {
    values: Values,
}

#[derive(Debug, Deserialize)]
struct Values {
    new: Option<serde_json::Value>,
}

/// The runs found under `dir` (searched to any depth), and how many summaries belong to other
/// benchmarks than the routines of the callgrind bench.
pub fn read(dir: &Path) -> Result<(Vec<Run>, usize)> {
    require_tool_dir(dir, "gungraun", BENCH_COMMAND)?;
    let mut files = Vec::new();
    find_summaries(dir, &mut files)?;
    if files.is_empty() {
        bail!(
            "`{}` holds no summary.json: gungraun writes one per benchmark only when asked, run \
             `{BENCH_COMMAND}`",
            dir.display()
        );
    }
    let mut runs: Vec<(Run, PathBuf)> = Vec::new();
    let mut skipped = 0;
    for file in files {
        match read_one(&file)? {
            Some(run) => {
                if let Some((_, first)) = runs
                    .iter()
                    .find(|(r, _)| r.bench == run.bench && r.implementation == run.implementation)
                {
                    bail!(
                        "two counts of {} on {}: `{}` and `{}`; give --gungraun the folder of one \
                         run",
                        run.bench,
                        run.implementation,
                        first.display(),
                        file.display()
                    );
                }
                runs.push((run, file));
            }
            None => skipped += 1,
        }
    }
    if runs.is_empty() {
        bail!(
            "the summaries in `{}` are not of benches/benches/callgrind.rs: run `{BENCH_COMMAND}`",
            dir.display()
        );
    }
    Ok((runs.into_iter().map(|(run, _)| run).collect(), skipped))
}

/// Every `summary.json` below `dir`, in path order.
fn find_summaries(dir: &Path, found: &mut Vec<PathBuf>) -> Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("reading `{}`", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            find_summaries(&path, found)?;
        } else if path.file_name().is_some_and(|n| n == "summary.json") {
            found.push(path);
        }
    }
    Ok(())
}

/// One summary, or `None` when it is not one of the callgrind bench's routines.
fn read_one(path: &Path) -> Result<Option<Run>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading `{}`", path.display()))?;
    // The version first: a summary of another format may not parse at all.
    let version = serde_json::from_str::<serde_json::Value>(&text)
        .with_context(|| format!("`{}` is not JSON", path.display()))?
        .get("version")
        .and_then(|v| v.as_str().map(str::to_string));
    match version.as_deref() {
        Some(SUMMARY_FORMAT) => {}
        Some(other) => bail!(
            "`{}` is a gungraun summary of format {other}; this lab reads format \
             {SUMMARY_FORMAT} (gungraun 0.20)",
            path.display()
        ),
        None => bail!(
            "`{}` is not a gungraun summary (it has no `version`)",
            path.display()
        ),
    }
    let summary: Summary = serde_json::from_str(&text)
        .with_context(|| format!("`{}` is not a gungraun summary", path.display()))?;
    let Some(function) = summary.module_path.strip_prefix(MODULE_PREFIX) else {
        return Ok(None);
    };
    let id = function.replace('_', "-");
    let bench: Bench = id.parse().with_context(|| {
        format!(
            "`{}`: `{}` is not one of the lab's benchmarks (benches/benches/callgrind.rs and the \
             lab are out of step)",
            path.display(),
            summary.module_path
        )
    })?;
    // gungraun's ids are identifiers: `scalar_v3` stands for the implementation `scalar-v3`.
    let id = summary
        .id
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("`{}` names no backend (no `id`)", path.display()))?;
    let implementation = Implementation::from_name(&id.replace('_', "-")).ok_or_else(|| {
        anyhow::anyhow!(
            "`{}`: its `id` `{id}` is not a backend or a baseline (scalar_v3, swar_v3)",
            path.display()
        )
    })?;
    let instructions = instructions(&summary)
        .with_context(|| format!("`{}`: no instruction count", path.display()))?;
    Ok(Some(Run {
        bench,
        implementation,
        instructions,
        started_at: summary.started_at,
        executable: summary.project_root.join(summary.benchmark_exe),
    }))
}

/// Callgrind's total `Ir` of the new run.
fn instructions(summary: &Summary) -> Result<u64> {
    let profile = summary
        .profiles
        .iter()
        .find(|p| p.tool == "Callgrind")
        .ok_or_else(|| anyhow::anyhow!("no callgrind profile"))?;
    let ir = profile
        .data
        .total
        .metrics
        .get("Ir")
        .ok_or_else(|| anyhow::anyhow!("callgrind's total has no `Ir`"))?;
    let value = ir
        .values
        .new
        .as_ref()
        .ok_or_else(|| anyhow::anyhow!("`Ir` has no value of a new run (only a baseline)"))?;
    value
        .as_u64()
        .filter(|&n| n > 0)
        .ok_or_else(|| anyhow::anyhow!("`Ir` is `{value}`, not a positive whole number"))
}

/// The compiler named in an executable's `.comment` section (`rustc version 1.95.0 (…)`, which
/// rustc writes into every binary it links), as `rustc --version` spells it.
pub fn compiler_of(executable: &Path) -> Option<String> {
    let bytes = fs::read(executable).ok()?;
    let marker = b"rustc version ";
    let start = bytes.windows(marker.len()).position(|w| w == marker)? + marker.len();
    let rest = &bytes[start..];
    let end = rest
        .iter()
        .position(|&b| b == 0 || b == b'\n')
        .unwrap_or(rest.len());
    let version = std::str::from_utf8(&rest[..end]).ok()?.trim();
    (!version.is_empty()).then(|| format!("rustc {version}"))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::testing::{assert_fails_with, scratch};
    use qbb::BackendKind;

    /// A summary as gungraun 0.20 writes it (fields it writes but the lab does not read left out).
    pub fn summary(function: &str, id: &str, ir: &str) -> String {
        format!(
            r#"{{
  "baselines": [null, null],
  "benchmark_exe": "target/release/deps/callgrind-0000",
  "benchmark_file": "benches/benches/callgrind.rs",
  "duration_ns": 1219556299,
  "function_name": "{function}",
  "group": "routines",
  "id": "{id}",
  "kind": "LibraryBenchmark",
  "module_path": "callgrind::routines::{function}",
  "output_dir": "target/gungraun/qbb-benches/callgrind/routines/{function}.{id}",
  "package_dir": "benches",
  "profiles": [
    {{
      "data": {{
        "parts": [],
        "total": {{
          "metrics": {{
            "Dr": {{ "values": {{ "new": 6922 }} }},
            "Ir": {{ "values": {{ "new": {ir} }} }}
          }},
          "regressions": []
        }}
      }},
      "duration_ns": 1219542884,
      "process_ns": 1219476289,
      "started_at": "2026-11-21T03:08:39.083856383Z",
      "tool": "Callgrind"
    }}
  ],
  "project_root": "/nonexistent/project",
  "started_at": "2026-11-21T03:08:39.08384412Z",
  "version": "7"
}}"#
        )
    }

    /// Writes `summary.json` files under `dir` as gungraun lays them out.
    pub fn write_run(dir: &Path, function: &str, id: &str, text: &str) {
        let folder = dir
            .join("qbb-benches/callgrind/routines")
            .join(format!("{function}.{id}"));
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("summary.json"), text).unwrap();
    }

    #[test]
    fn summaries_become_runs() {
        let dir = scratch("gungraun-runs");
        write_run(
            &dir,
            "piece_at",
            "scalar",
            &summary("piece_at", "scalar", "27170"),
        );
        write_run(
            &dir,
            "flip_latency",
            "avx2",
            &summary("flip_latency", "avx2", "40960"),
        );
        let other =
            summary("piece_at", "scalar", "1").replace("callgrind::routines::", "other::g::");
        write_run(&dir.join("elsewhere"), "piece_at", "scalar", &other);
        let (runs, skipped) = read(&dir).unwrap();
        assert_eq!(skipped, 1);
        assert_eq!(runs.len(), 2);
        let flip = &runs[0];
        assert_eq!(flip.bench.id(), "flip-latency");
        assert_eq!(
            flip.implementation,
            Implementation::native(BackendKind::Avx2)
        );
        assert_eq!(flip.instructions, 40960);
        assert_eq!(flip.started_at, "2026-11-21T03:08:39.08384412Z");
        assert_eq!(
            flip.executable,
            Path::new("/nonexistent/project/target/release/deps/callgrind-0000")
        );
        assert_eq!(runs[1].bench.id(), "piece-at");
        assert_eq!(runs[1].instructions, 27170);
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The message of reading a folder holding one summary `text`.
    fn error_for(name: &str, text: &str) -> String {
        let dir = scratch(&format!("gungraun-{name}"));
        write_run(&dir, "piece_at", "scalar", text);
        let err = format!("{:#}", read(&dir).unwrap_err());
        fs::remove_dir_all(&dir).unwrap();
        err
    }

    #[test]
    fn garbled_summaries_are_named_with_what_is_wrong() {
        let good = summary("piece_at", "scalar", "27170");
        // A good summary with one part replaced, and the message that says what is wrong.
        let spoilt = [
            ("\"version\": \"7\"", "\"version\": \"6\"", "format 6"),
            ("\"version\": \"7\"", "\"v\": 1", "no `version`"),
            ("\"profiles\"", "\"profile\"", "not a gungraun summary"),
            ("\"Callgrind\"", "\"DHAT\"", "no callgrind profile"),
            ("\"Ir\"", "\"Irr\"", "no `Ir`"),
            ("\"new\": 27170", "\"old\": 27170", "only a baseline"),
        ];
        // Summaries that parse but hold what the lab does not take: the function, id and count
        // they are written with, and the message.
        let unfit = [
            ("piece_at", "scalar", "2.5", "not a positive whole number"),
            ("piece_at", "scalar", "0", "not a positive whole number"),
            ("piece_on", "scalar", "1", "`callgrind::routines::piece_on`"),
            ("piece_at", "mmx", "1", "not a backend"),
        ];
        let cases = spoilt
            .map(|(part, by, expected)| (good.replace(part, by), expected))
            .into_iter()
            .chain(unfit.map(|(function, id, ir, expected)| (summary(function, id, ir), expected)))
            .chain([("{ \"version\": ".to_string(), "is not JSON")]);
        for (i, (text, expected)) in cases.enumerate() {
            let err = error_for(&format!("garbled-{i}"), &text);
            assert!(err.contains(expected), "{expected}: {err}");
            assert!(
                err.contains("summary.json"),
                "{expected} names no file: {err}"
            );
        }
    }

    #[test]
    fn missing_folders_and_summaries_say_what_to_run() {
        assert_fails_with(read(Path::new("/nonexistent/gungraun")), "--save-summary");
        let dir = scratch("gungraun-empty");
        fs::create_dir_all(dir.join("qbb-benches/callgrind/routines/piece_at.scalar")).unwrap();
        assert_fails_with(read(&dir), "no summary.json");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_same_count_twice_is_refused() {
        let dir = scratch("gungraun-twice");
        let text = summary("flip", "sse2", "100");
        write_run(&dir, "flip", "sse2", &text);
        write_run(&dir.join("x86_64-unknown-linux-gnu"), "flip", "sse2", &text);
        assert_fails_with(read(&dir), "two counts of flip on sse2");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_compiler_is_read_from_the_comment_section() {
        let dir = scratch("gungraun-exe");
        fs::create_dir_all(&dir).unwrap();
        let exe = dir.join("bench");
        fs::write(
            &exe,
            b"\x7fELF\0\0junk\0rustc version 1.95.0 (59807616e 2026-04-14)\0Linker: LLD\0",
        )
        .unwrap();
        assert_eq!(
            compiler_of(&exe).as_deref(),
            Some("rustc 1.95.0 (59807616e 2026-04-14)")
        );
        fs::write(&exe, b"\x7fELF\0no marker\0").unwrap();
        assert_eq!(compiler_of(&exe), None);
        assert_eq!(compiler_of(&dir.join("gone")), None);
        fs::remove_dir_all(&dir).unwrap();
    }
}

//! A report's files: the folder they go to, writing them, reading a JSON file back, and the
//! commands a page names so that a reader can reproduce it; and the folder of the tool a report
//! is read back from.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Report;
use super::machine::Machine;

/// The folder to write to: `--out`, or `reports/<machine-id>`; refused before any measuring if it
/// names a file, or if this process runs under an emulator (no report is written there).
pub fn out_dir(out: Option<&Path>, machine: &Machine) -> Result<PathBuf> {
    super::emulation::refuse_if_emulated()?;
    let dir = match out {
        Some(dir) => dir.to_path_buf(),
        None => Path::new("reports").join(&machine.id),
    };
    if dir.exists() && !dir.is_dir() {
        bail!("--out `{}` exists and is not a folder", dir.display());
    }
    Ok(dir)
}

/// Refuses a missing output folder of `tool` (`criterion`, `gungraun`) before reading it back,
/// saying what fills it (`command`) and the option that names another folder (`--<tool>`).
pub fn require_tool_dir(dir: &Path, tool: &str, command: &str) -> Result<()> {
    if !dir.is_dir() {
        bail!(
            "no {tool} results in `{}`: run `{command}` first (or give the folder with --{tool})",
            dir.display()
        );
    }
    Ok(())
}

/// Creates the folder `dir` and those above it, naming it when that fails.
pub fn create_dir(dir: &Path) -> Result<()> {
    fs::create_dir_all(dir).with_context(|| format!("creating `{}`", dir.display()))
}

/// Writes `text` to `path`, naming the file when that fails. The text goes to a temporary file
/// beside it, renamed over `path` once whole: a run that fails or is stopped half-way leaves the
/// file as it was, never a truncated one.
pub fn write(path: &Path, text: &str) -> Result<()> {
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".partial");
    let temporary = PathBuf::from(temporary);
    let written = fs::write(&temporary, text)
        .and_then(|()| fs::rename(&temporary, path))
        .with_context(|| format!("writing `{}`", path.display()));
    if written.is_err() {
        // Nothing half-written stays behind; the error above is the one to report.
        let _ = fs::remove_file(&temporary);
    }
    written
}

impl<R: Serialize> Report<R> {
    /// The report as its JSON file holds it: pretty, with a final newline.
    pub fn to_json(&self) -> Result<String> {
        Ok(serde_json::to_string_pretty(self)? + "\n")
    }

    /// Writes the files every report has into `dir` (created if need be): its JSON file
    /// `<name>.json` and its markdown page `<name>.md`; returns their names. The charts, which
    /// differ between reports, are left to the caller.
    pub fn write_json_and_page(&self, dir: &Path, name: &str, page: &str) -> Result<[String; 2]> {
        create_dir(dir)?;
        let (json, markdown) = (format!("{name}.json"), format!("{name}.md"));
        write(&dir.join(&json), &self.to_json()?)?;
        write(&dir.join(&markdown), page)?;
        Ok([json, markdown])
    }
}

impl<R: DeserializeOwned> Report<R> {
    /// A report read back from its JSON file; `what` names the file expected
    /// (`a results.json`) when `path` is something else.
    ///
    /// A damaged file is refused in one line that names the file and the field:
    /// `` `results.json` is not a results.json of qbb: field `results[3].ns_per_call`: invalid
    /// type: string "x", expected f64 at line 40 column 30 ``.
    pub fn read_json(path: &Path, what: &str) -> Result<Self> {
        let text =
            fs::read_to_string(path).with_context(|| format!("reading `{}`", path.display()))?;
        read_json_text(&text).with_context(|| format!("`{}` is not {what} of qbb", path.display()))
    }
}

/// JSON text read into `T`; an error names the field where it went wrong (the top level when the
/// text is no JSON at all, or ends early).
pub fn read_json_text<T: DeserializeOwned>(text: &str) -> Result<T> {
    let reader = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(reader).map_err(|e| {
        // `?` stands for a key not read yet (the text ended, or is no JSON, there).
        let path = e.path().to_string();
        let field = path.trim_end_matches(".?");
        let inner = e.into_inner();
        if matches!(field, "." | "?") {
            anyhow::anyhow!("{inner}")
        } else {
            anyhow::anyhow!("field `{field}`: {inner}")
        }
    })
}

/// The command as typed, for the files: `qbb compare --quick`.
pub fn command_line() -> String {
    let args: Vec<String> = std::env::args().skip(1).collect();
    format!("qbb {}", args.join(" ")).trim_end().to_string()
}

/// The cargo command that rebuilds the lab as it was built (`flags` name the portable feature
/// when it was on) and runs it with `args`.
pub fn cargo_command(flags: &str, args: &str) -> String {
    if flags.contains("portable-simd") {
        format!("cargo +nightly run --release -p qbb-lab --features portable-simd -- {args}")
    } else {
        format!("cargo run --release -p qbb-lab -- {args}")
    }
}

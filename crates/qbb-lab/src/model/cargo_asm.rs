//! Making the listings when `--asm` is not given: `cargo asm` on the asm-probes of crate qbb,
//! as `book/generate.sh` does, each listing headed by the compiler that made it.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, Result, bail};

/// The checkout this binary was built from: cargo asm runs there.
pub fn checkout() -> Result<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if !root.join("crates/qbb/src/probes.rs").is_file() {
        bail!(
            "the checkout qbb was built from ({}) is gone, so there is nothing to run `cargo asm` \
             on; pass listings with --asm FILE",
            root.display()
        );
    }
    Ok(root.canonicalize().unwrap_or(root))
}

/// Writes `target/qbb-model/stable.s` and, when `nightly` and a nightly toolchain exists,
/// `nightly.s` with the portable backend; returns their paths.
pub fn produce(root: &Path, nightly: bool) -> Result<Vec<PathBuf>> {
    let version = Command::new("cargo").args(["asm", "--version"]).output();
    if !version.is_ok_and(|o| o.status.success()) {
        bail!(
            "`cargo asm` is not installed: `cargo install cargo-show-asm`, or pass listings \
             made elsewhere with --asm FILE"
        );
    }
    let dir = root.join("target/qbb-model");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating `{}`", dir.display()))?;
    let mut made = vec![listing(
        root,
        &dir.join("stable.s"),
        None,
        "asm-probes",
        &[],
    )?];
    if nightly {
        if compiler(root, Some("nightly")).is_ok() {
            made.push(listing(
                root,
                &dir.join("nightly.s"),
                Some("nightly"),
                "asm-probes,portable-simd",
                &["--target-dir", "target/nightly"],
            )?);
        } else {
            eprintln!("model: no nightly toolchain, so no listing of the portable backend");
        }
    }
    Ok(made)
}

/// One listing: `cargo [+toolchain] asm ... --everything` into `path`, below a `# rustc` line.
fn listing(
    root: &Path,
    path: &Path,
    toolchain: Option<&str>,
    features: &str,
    extra: &[&str],
) -> Result<PathBuf> {
    let rustc = compiler(root, toolchain)?;
    let mut cargo = Command::new("cargo");
    cargo.current_dir(root);
    if let Some(t) = toolchain {
        cargo.arg(format!("+{t}"));
    }
    cargo
        .args([
            "asm",
            "-p",
            "qbb",
            "--features",
            features,
            "--lib",
            "--simplify",
        ])
        .args(["--full-name", "--everything"])
        .args(extra)
        .stderr(Stdio::inherit());
    eprintln!("model: listing the probes with {rustc}");
    let out = cargo.output().context("running `cargo asm`")?;
    if !out.status.success() {
        bail!(
            "`cargo asm` failed ({}); its messages are above",
            out.status
        );
    }
    let mut text = format!("# {rustc}\n").into_bytes();
    text.extend_from_slice(&out.stdout);
    std::fs::write(path, text).with_context(|| format!("writing `{}`", path.display()))?;
    Ok(path.to_path_buf())
}

/// `rustc --version` of the toolchain, as the checkout selects it.
fn compiler(root: &Path, toolchain: Option<&str>) -> Result<String> {
    let mut rustc = match toolchain {
        Some(t) => {
            let mut c = Command::new("rustup");
            c.args(["run", t, "rustc"]);
            c
        }
        None => Command::new("rustc"),
    };
    let out = rustc
        .arg("--version")
        .current_dir(root)
        .output()
        .context("running `rustc --version`")?;
    if !out.status.success() {
        bail!("no {} toolchain", toolchain.unwrap_or("default"));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

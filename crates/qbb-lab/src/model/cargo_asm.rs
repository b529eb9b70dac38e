//! Making the listings when `--asm` is not given: `cargo asm` on the asm-probes of crate qbb,
//! as `book/generate.sh` does, each listing headed by the compiler that made it (and its target,
//! for the AArch64 one).

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

/// The target of the AArch64 listing.
const AARCH64: &str = "aarch64-unknown-linux-gnu";

/// Debian's compiler with the arm64 standard library (`rustc-web` and `libstd-rust-web-dev:arm64`,
/// which `.ci/aarch64-under-qemu` installs), for a checkout whose own compiler lacks it.
const DEBIAN_RUSTC: &str = "/usr/bin/rustc";

/// Writes `target/qbb-model/stable.s`, when `nightly` and a nightly toolchain exists
/// `nightly.s` with the portable backend, and when `aarch64` `aarch64.s` with neon; returns
/// their paths.
pub fn produce(root: &Path, nightly: bool, aarch64: bool) -> Result<Vec<PathBuf>> {
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
        Toolchain::Default,
        "asm-probes",
        &[],
    )?];
    if nightly {
        if compiler(root, Toolchain::Nightly).is_ok() {
            made.push(listing(
                root,
                &dir.join("nightly.s"),
                Toolchain::Nightly,
                "asm-probes,portable-simd",
                &["--target-dir", "target/nightly"],
            )?);
        } else {
            eprintln!("model: no nightly toolchain, so no listing of the portable backend");
        }
    }
    // On an AArch64 host the first listing is already of AArch64.
    if aarch64 && !cfg!(target_arch = "aarch64") {
        let (toolchain, extra) = aarch64_compiler(root)?;
        let mut args = vec!["--target", AARCH64];
        args.extend(extra);
        made.push(listing(
            root,
            &dir.join("aarch64.s"),
            toolchain,
            "asm-probes",
            &args,
        )?);
    }
    Ok(made)
}

/// The compiler a listing is made with.
#[derive(Clone, Copy)]
enum Toolchain {
    /// The checkout's own (`rustc` in it).
    Default,
    Nightly,
    /// A compiler by path, given to cargo as `RUSTC`.
    At(&'static str),
}

/// The compiler of the AArch64 listing, and cargo's extra arguments for it: the checkout's own
/// when it has the target's standard library, else Debian's in a target folder of its own (the
/// one `.ci/aarch64-under-qemu` builds in: the host build's fingerprints are of another rustc).
fn aarch64_compiler(root: &Path) -> Result<(Toolchain, Vec<&'static str>)> {
    for (toolchain, extra) in [
        (Toolchain::Default, vec![]),
        (
            Toolchain::At(DEBIAN_RUSTC),
            vec!["--target-dir", "target/aarch64-build"],
        ),
    ] {
        if has_aarch64_std(root, toolchain) {
            return Ok((toolchain, extra));
        }
    }
    bail!(
        "no compiler here has the {AARCH64} standard library, so there is no listing of the neon \
         backend: `rustup target add {AARCH64}`, or on Debian `apt-get install rustc-web \
         libstd-rust-web-dev:arm64` (as .ci/aarch64-under-qemu does), or pass a listing with --asm"
    )
}

/// The compiler's sysroot holds the AArch64 standard library.
fn has_aarch64_std(root: &Path, toolchain: Toolchain) -> bool {
    let Ok(out) = rustc(toolchain)
        .args(["--print", "sysroot"])
        .current_dir(root)
        .output()
    else {
        return false;
    };
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    out.status.success()
        && Path::new(&sysroot)
            .join("lib/rustlib")
            .join(AARCH64)
            .join("lib")
            .is_dir()
}

/// One listing: `cargo [+toolchain] asm ... --everything` into `path`, below a `# rustc` line.
fn listing(
    root: &Path,
    path: &Path,
    toolchain: Toolchain,
    features: &str,
    extra: &[&str],
) -> Result<PathBuf> {
    let rustc = compiler(root, toolchain)?;
    let mut cargo = Command::new("cargo");
    cargo.current_dir(root);
    match toolchain {
        Toolchain::Default => {}
        Toolchain::Nightly => {
            cargo.arg("+nightly");
        }
        Toolchain::At(path) => {
            cargo.env("RUSTC", path);
        }
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
    if let Some(at) = extra.iter().position(|a| *a == "--target") {
        text.extend(format!("# target {}\n", extra[at + 1]).into_bytes());
    }
    text.extend_from_slice(&out.stdout);
    std::fs::write(path, text).with_context(|| format!("writing `{}`", path.display()))?;
    Ok(path.to_path_buf())
}

/// The compiler of the toolchain, as the checkout selects it.
fn rustc(toolchain: Toolchain) -> Command {
    match toolchain {
        Toolchain::Default => Command::new("rustc"),
        Toolchain::Nightly => {
            let mut c = Command::new("rustup");
            c.args(["run", "nightly", "rustc"]);
            c
        }
        Toolchain::At(path) => Command::new(path),
    }
}

/// `rustc --version` of the toolchain, as the checkout selects it.
fn compiler(root: &Path, toolchain: Toolchain) -> Result<String> {
    let out = rustc(toolchain)
        .arg("--version")
        .current_dir(root)
        .output()
        .context("running `rustc --version`")?;
    if !out.status.success() {
        let name = match toolchain {
            Toolchain::Default => "default",
            Toolchain::Nightly => "nightly",
            Toolchain::At(path) => path,
        };
        bail!("no {name} toolchain");
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

//! Records how the benchmarks were compiled (rustc version, flags, profile), so that every result
//! names the compiler that produced it.

use std::env;
use std::process::Command;

fn main() {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let version = Command::new(&rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| format!("unknown (`{rustc} --version` failed)"));
    let flags = env::var("CARGO_ENCODED_RUSTFLAGS")
        .unwrap_or_default()
        .split('\x1f')
        .filter(|f| !f.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let get = |name: &str| env::var(name).unwrap_or_default();
    println!("cargo:rustc-env=QBB_RUSTC_VERSION={version}");
    println!("cargo:rustc-env=QBB_RUSTFLAGS={flags}");
    println!("cargo:rustc-env=QBB_PROFILE={}", get("PROFILE"));
    println!("cargo:rustc-env=QBB_OPT_LEVEL={}", get("OPT_LEVEL"));
    println!("cargo:rustc-env=QBB_TARGET={}", get("TARGET"));
    println!(
        "cargo:rustc-env=QBB_TARGET_FEATURES={}",
        get("CARGO_CFG_TARGET_FEATURE")
    );
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTFLAGS");
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
}

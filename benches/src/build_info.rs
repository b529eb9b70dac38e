//! How this crate was compiled, recorded by `build.rs` at build time: the benchmarks and the lab
//! are built in the same cargo invocation, so this is the compiler that produced the measured code.

/// `rustc --version` of the compiler that built the benchmarks.
pub const RUSTC_VERSION: &str = env!("QBB_RUSTC_VERSION");

/// The extra flags given to rustc (`RUSTFLAGS`), empty when none.
pub const RUSTFLAGS: &str = env!("QBB_RUSTFLAGS");

/// Cargo's profile family (`release` for `--release` and `cargo bench`, `debug` otherwise).
pub const PROFILE: &str = env!("QBB_PROFILE");

/// The optimisation level.
pub const OPT_LEVEL: &str = env!("QBB_OPT_LEVEL");

/// The target triple.
pub const TARGET: &str = env!("QBB_TARGET");

/// The target features enabled for the whole build (the baseline; each backend adds its own
/// inside its dispatch region).
pub const TARGET_FEATURES: &str = env!("QBB_TARGET_FEATURES");

/// The flags in one line, for reports: profile, optimisation level, RUSTFLAGS, features.
pub fn flags() -> String {
    let rustflags = if RUSTFLAGS.is_empty() {
        "no RUSTFLAGS".to_string()
    } else {
        format!("RUSTFLAGS=\"{RUSTFLAGS}\"")
    };
    let assertions = if cfg!(debug_assertions) {
        ", debug assertions on"
    } else {
        ""
    };
    let portable = if cfg!(feature = "portable-simd") {
        ", feature portable-simd"
    } else {
        ""
    };
    format!("profile {PROFILE}, opt-level {OPT_LEVEL}, {rustflags}{assertions}{portable}")
}

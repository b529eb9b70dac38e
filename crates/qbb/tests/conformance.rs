//! Every backend against the scalar reference: real positions from the perft suites and 10^5
//! random inputs per routine. Adding a backend is one `conformance!` line.

use qbb::conformance::{Config, check_backend};
use qbb::{Backend, BackendKind, Quad};
use qbb_corpus::Suite;

/// The suites' positions (about 8,000), or at most `QBB_CONFORMANCE_POSITIONS` of them spread
/// evenly over all the suites: the emulators, some hundred times slower, run fewer.
fn positions() -> Vec<Quad> {
    let all: Vec<Quad> = Suite::ALL
        .iter()
        .flat_map(|s| s.placements())
        .map(|p| Quad::from_placement(p).expect("suite placements parse"))
        .collect();
    let wanted = count_from_env("QBB_CONFORMANCE_POSITIONS").unwrap_or(all.len());
    let step = all.len().div_ceil(wanted.max(1)).max(1);
    all.into_iter().step_by(step).take(wanted).collect()
}

/// The kit's size: 10^5 random inputs per routine, or `QBB_CONFORMANCE_CASES` of them (CI runs a
/// smaller kit under valgrind, which is some fifty times slower).
fn config() -> Config {
    Config {
        random_cases: count_from_env("QBB_CONFORMANCE_CASES").unwrap_or(100_000),
        ..Config::default()
    }
}

/// A count set in the environment variable `name`, if it is set; a value that is not a whole
/// number stops the test rather than being ignored.
fn count_from_env(name: &str) -> Option<usize> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, not {value:?}")),
    )
}

/// Runs the kit on `B`. Where the CPU has the backend's features, the backend must construct: a
/// refusal there is a failure, not a skip.
fn run<B: Backend>() {
    let kind = B::KIND;
    let Some(backend) = B::new() else {
        match kind.availability() {
            Ok(()) => {
                panic!("{kind}: the CPU has its features but the backend refused to construct")
            }
            Err(why) => {
                eprintln!("{kind}: not tested on this machine: {why}");
                return;
            }
        }
    };
    assert!(
        kind.is_available(),
        "{kind} constructed although detection says it is unavailable"
    );
    let config = config();
    let coverage = check_backend(backend, &positions(), &config).unwrap_or_else(|m| panic!("{m}"));
    assert_eq!(coverage.cases.len(), qbb::Routine::ALL.len());
    assert!(
        coverage
            .cases
            .iter()
            .all(|&(_, n)| n >= config.random_cases)
    );
}

// ANCHOR: conformance_lines
macro_rules! conformance {
    ($name:ident, $backend:ty) => {
        #[test]
        fn $name() {
            run::<$backend>();
        }
    };
}

conformance!(scalar, qbb::Scalar);
conformance!(swar, qbb::Swar);
#[cfg(target_arch = "x86_64")]
conformance!(sse2, qbb::Sse2);
#[cfg(target_arch = "x86_64")]
conformance!(avx2, qbb::Avx2);
#[cfg(target_arch = "x86_64")]
conformance!(avx512, qbb::Avx512);
#[cfg(target_arch = "aarch64")]
conformance!(neon, qbb::Neon);
#[cfg(feature = "portable-simd")]
conformance!(portable, qbb::Portable);
// ANCHOR_END: conformance_lines

// ANCHOR: selected_backend
/// The backend that run-time selection picks (or that `QBB_BACKEND` forces) runs through
/// `with_backend!`, the path the lab and the engine take, and is really the one that ran.
#[test]
fn selected_backend_runs_through_dispatch() {
    let kind = BackendKind::selected().expect("QBB_BACKEND names an available backend");
    let positions = positions();
    let config = Config {
        random_cases: config().random_cases.min(20_000),
        ..Config::default()
    };
    let ran = qbb::with_backend!(kind, |b| {
        check_backend(b, &positions, &config).unwrap_or_else(|m| panic!("{m}"));
        kind_of(b)
    })
    .expect("the selected backend runs");
    assert_eq!(ran, kind);
    if let Ok(Some(forced)) = BackendKind::from_env() {
        assert_eq!(ran, forced, "QBB_BACKEND was honoured");
    }
}
// ANCHOR_END: selected_backend

/// The kind of the token the job received.
fn kind_of<B: Backend>(_: B) -> BackendKind {
    B::KIND
}

#[test]
fn detection_prefers_the_widest_available() {
    let best = BackendKind::detect_best();
    let preference = [
        BackendKind::Neon,
        BackendKind::Avx512,
        BackendKind::Avx2,
        BackendKind::Sse2,
    ];
    for kind in preference {
        // Where PDEP and PEXT are microcode, avx2 is slower than sse2 and passed over.
        let slow = kind == BackendKind::Avx2 && qbb::backend::cpu_model::pdep_is_microcoded();
        if kind.is_available() && !slow {
            assert_eq!(best, kind);
            return;
        }
    }
    assert_eq!(best, BackendKind::Swar);
}

#[test]
fn unknown_and_unavailable_backends_are_explained() {
    let err = "avx9".parse::<BackendKind>().unwrap_err().to_string();
    assert!(
        err.contains("avx9") && err.contains("avx512") && err.contains("neon"),
        "{err}"
    );
    if let Err(e) = BackendKind::Portable.check_available() {
        assert!(e.to_string().contains("portable-simd"), "{e}");
    }
}

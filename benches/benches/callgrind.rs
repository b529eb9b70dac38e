//! Instruction counts of every routine on every backend valgrind can run, with gungraun: one
//! benchmark function per routine (the id with `-` as `_`), one run per implementation (each
//! backend, and the baselines scalar and swar built for x86-64-v3: `scalar_v3`, `swar_v3`). Each run is one
//! pass over the 1024 positions of the corpus (building and freeing the corpus are not counted),
//! so instructions per call are the count / 1024: the routine and its share of the loop.
//!
//! AVX-512 is absent on purpose: valgrind neither runs nor reports it, so the backend refuses to
//! construct under it; its numbers come from criterion.
//!
//! ```text
//! cargo install gungraun-runner --version 0.20.0     # once; must match the gungraun dependency
//! cargo bench -p qbb-benches --features callgrind --bench callgrind -- --save-summary=pretty-json
//! cargo run --release -p qbb-lab -- instructions    # reports/<machine-id>/instructions.{json,md,svg}
//! ```

use std::hint::black_box;

use gungraun::{library_benchmark, library_benchmark_group, main};
use qbb::BackendKind;
use qbb_benches::{Bench, Corpus, Implementation};

/// Builds the corpus outside the measured function (gungraun does not count the setup).
fn prepare(on: Implementation, id: &str) -> (Implementation, Bench, Corpus) {
    let bench = id.parse().unwrap_or_else(|e| panic!("{e}"));
    // The CPU's features are detected once per process, at the first question about one the
    // baseline lacks: asked here, the count holds only the dispatch's check of the cached answer.
    #[cfg(target_arch = "x86_64")]
    black_box(qbb::backend::cpu_has("avx2"));
    (on, bench, Corpus::standard())
}

/// The measured function: one pass, which hands its input back so that freeing the corpus
/// happens in the teardown, outside the count.
fn one_pass(input: (Implementation, Bench, Corpus)) -> (Implementation, Bench, Corpus) {
    let (on, bench, corpus) = &input;
    if let Err(e) = black_box(*bench).run(*on, corpus, 1) {
        eprintln!("{bench} on {on}: {e}");
    }
    input
}

/// Frees the corpus (gungraun does not count the teardown either).
fn release(input: (Implementation, Bench, Corpus)) {
    drop(input);
}

/// One counted function: a run per implementation valgrind runs.
macro_rules! counted {
    ($name:ident = $id:expr) => {
        #[library_benchmark(setup = prepare, teardown = release)]
        #[bench::scalar(args = (Implementation::native(BackendKind::Scalar), $id))]
        #[bench::swar(args = (Implementation::native(BackendKind::Swar), $id))]
        #[bench::scalar_v3(args = (Implementation::raised(BackendKind::Scalar), $id))]
        #[bench::swar_v3(args = (Implementation::raised(BackendKind::Swar), $id))]
        #[bench::sse2(args = (Implementation::native(BackendKind::Sse2), $id))]
        #[bench::avx2(args = (Implementation::native(BackendKind::Avx2), $id))]
        #[cfg_attr(
                    feature = "portable-simd",
                    bench::portable(args = (Implementation::native(BackendKind::Portable), $id))
                )]
        fn $name(input: (Implementation, Bench, Corpus)) -> (Implementation, Bench, Corpus) {
            one_pass(input)
        }
    };
}

/// Every routine of the catalogue's table, then the two latency benchmarks.
macro_rules! counted_routines {
    ([] $( $(#[$doc:meta])* row $row:literal, $module:ident, $variant:ident = $id:literal,
           $title:literal: fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*)
           $(-> $ret:ty)?; )*) => {
        $( counted!($name = $id); )*
        counted!(piece_at_latency = "piece-at-latency");
        counted!(flip_latency = "flip-latency");

        library_benchmark_group!(
            name = routines;
            benchmarks = $( $name, )* piece_at_latency, flip_latency
        );
    };
}

qbb::for_each_routine!(counted_routines);

main!(library_benchmark_groups = routines);

//! Every routine on every backend this CPU runs, with criterion: one group per benchmark (the
//! routine's id, or `<id>-latency`), one function per implementation (each backend, and the
//! baselines `scalar-v3` and `swar-v3`: scalar and SWAR compiled for x86-64-v3). One iteration is one pass over the
//! 1024 positions of the corpus, so criterion's throughput line reads in calls per second and
//! `qbb report` divides its times by the pass size.
//!
//! ```text
//! cargo bench -p qbb-benches --bench routines                       # everything
//! cargo bench -p qbb-benches --bench routines -- hex-sets           # one routine
//! cargo +nightly bench -p qbb-benches --bench routines --features portable-simd
//! ```

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use qbb_benches::{ALL, Corpus, available_implementations};

fn routines(c: &mut Criterion) {
    let corpus = Corpus::standard();
    let implementations = available_implementations();
    for bench in &ALL {
        let mut group = c.benchmark_group(bench.id());
        group.throughput(Throughput::Elements(corpus.len() as u64));
        for &on in &implementations {
            group.bench_function(on.name(), |b| {
                b.iter_custom(|rounds| {
                    let start = Instant::now();
                    bench
                        .run(on, &corpus, rounds)
                        .unwrap_or_else(|e| panic!("{bench} on {on}: {e}"));
                    start.elapsed()
                })
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(50);
    targets = routines
}
criterion_main!(benches);

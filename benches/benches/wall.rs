//! The inlining wall, measured (the book's chapter "Runtime dispatch and the inlining wall"): a
//! small AVX2 routine over 1024 suite positions, called from a loop *inside* the backend's feature
//! region, where it inlines, and from the same loop compiled for the x86-64 baseline, where every
//! call crosses the target-feature boundary and stays a call. The scalar reference, inlined, is the
//! yardstick.
//!
//! `cargo bench -p qbb-benches --bench wall` times every variant `QBB_WALL_ROUNDS` times (default
//! 15), the variants interleaved within each round so that a noisy moment hurts them alike, and
//! prints the median and the fastest round in nanoseconds per call. With `QBB_WALL_JSON=path` the
//! results are also written as JSON. On a CPU without AVX2 there is no wall to measure, and the
//! bench says so; nor on AArch64, where NEON is part of the baseline every function is compiled
//! for.

#[cfg(target_arch = "x86_64")]
mod wall {
    use std::hint::black_box;
    use std::time::{Duration, Instant};

    use qbb::{Avx2, Backend, Quad, Scalar};
    use qbb_benches::harness::HarnessArgs;
    use qbb_corpus::Suite;

    /// How many positions one pass covers: the suites' first 1024, 32 KiB of quads.
    const POSITIONS: usize = 1024;

    /// A routine of the catalogue that takes one quad.
    trait Routine {
        const NAME: &'static str;
        fn call<B: Backend>(b: B, q: &Quad) -> impl Sized;
    }

    /// `quad_routine!(Type, method)`: the routine `method` as a type named `Type`.
    macro_rules! quad_routine {
        ($routine:ident, $method:ident) => {
            struct $routine;

            impl Routine for $routine {
                const NAME: &'static str = stringify!($method);
                #[inline(always)]
                fn call<B: Backend>(b: B, q: &Quad) -> impl Sized {
                    b.$method(q)
                }
            }
        };
    }

    quad_routine!(PieceSets, piece_sets);
    quad_routine!(Flip, flip);

    /// `passes` passes over the positions, one call per position, every result observed.
    #[inline(always)]
    fn passes<R: Routine, B: Backend>(b: B, positions: &[Quad], passes: u64) {
        for _ in 0..passes {
            for q in black_box(positions) {
                black_box(R::call(b, q));
            }
        }
    }

    /// Inside the region: `with_features` compiles the loop with the backend's features, so the
    /// routine inlines into it.
    fn inside<R: Routine, B: Backend>(b: B, positions: &[Quad], n: u64) {
        b.with_features(|b| passes::<R, B>(b, positions, n));
    }

    /// Across the wall: this loop is compiled for the baseline, and the backend's routine, a
    /// `#[target_feature]` function, cannot be inlined into it.
    #[inline(never)]
    fn across<R: Routine, B: Backend>(b: B, positions: &[Quad], n: u64) {
        passes::<R, B>(b, positions, n);
    }

    /// Runs `n` passes over the positions.
    type Passes = Box<dyn Fn(&[Quad], u64)>;

    /// One way of running a routine over the positions.
    struct Variant {
        name: &'static str,
        run: Passes,
    }

    fn variants<R: Routine>(avx2: Avx2) -> Vec<Variant> {
        vec![
            Variant {
                name: "scalar",
                run: Box::new(|p, n| inside::<R, _>(Scalar, p, n)),
            },
            Variant {
                name: "avx2-inside",
                run: Box::new(move |p, n| inside::<R, _>(avx2, p, n)),
            },
            Variant {
                name: "avx2-across",
                run: Box::new(move |p, n| across::<R, _>(avx2, p, n)),
            },
        ]
    }

    /// Passes that take about `target` on the slowest variant.
    fn calibrate(variants: &[Variant], positions: &[Quad], target: Duration) -> u64 {
        let mut n = 1u64;
        loop {
            let slowest = variants
                .iter()
                .map(|v| {
                    let start = Instant::now();
                    (v.run)(positions, n);
                    start.elapsed()
                })
                .max()
                .unwrap_or_default();
            if slowest >= target || n >= 1 << 30 {
                return n;
            }
            n *= 2;
        }
    }

    /// Nanoseconds per call of each variant in each round, variants interleaved.
    fn measure(variants: &[Variant], positions: &[Quad], rounds: usize) -> Vec<Vec<f64>> {
        let n = calibrate(variants, positions, Duration::from_millis(20));
        let calls = (n * positions.len() as u64) as f64;
        let mut samples = vec![Vec::with_capacity(rounds); variants.len()];
        for _ in 0..rounds {
            for (v, variant) in variants.iter().enumerate() {
                let start = Instant::now();
                (variant.run)(positions, n);
                samples[v].push(start.elapsed().as_secs_f64() * 1e9 / calls);
            }
        }
        for s in &mut samples {
            s.sort_by(f64::total_cmp);
        }
        samples
    }

    pub fn main() {
        let args = HarnessArgs::from_env("QBB_WALL_ROUNDS", 15);
        if !args.wants(&["wall", PieceSets::NAME, Flip::NAME]) {
            args.nothing_matches("wall");
            return;
        }
        let Some(avx2) = Avx2::new() else {
            println!("wall: this CPU has no AVX2, so there is no feature boundary to measure");
            return;
        };
        let rounds = args.rounds;
        let positions: Vec<Quad> = Suite::ALL
            .iter()
            .flat_map(|s| s.placements())
            .take(POSITIONS)
            .map(|p| Quad::from_placement(p).expect("suite placements parse"))
            .collect();

        println!("the inlining wall: ns per call over {POSITIONS} positions, {rounds} rounds");
        println!();
        println!("| routine | variant | median | fastest |");
        println!("| --- | --- | ---: | ---: |");
        let mut json = Vec::new();
        for (routine, variants) in [
            (PieceSets::NAME, variants::<PieceSets>(avx2)),
            (Flip::NAME, variants::<Flip>(avx2)),
        ] {
            let samples = measure(&variants, &positions, rounds);
            for (variant, s) in variants.iter().zip(&samples) {
                let median = s[s.len() / 2];
                println!(
                    "| {routine} | {} | {median:.3} | {:.3} |",
                    variant.name, s[0]
                );
                json.push(format!(
                    "{{\"routine\":\"{routine}\",\"variant\":\"{}\",\"ns_per_call\":{median:.4},\
                 \"fastest\":{:.4},\"slowest\":{:.4}}}",
                    variant.name,
                    s[0],
                    s[s.len() - 1]
                ));
            }
        }
        if let Ok(path) = std::env::var("QBB_WALL_JSON") {
            let text = format!(
                "{{\"rounds\":{rounds},\"positions\":{POSITIONS},\"results\":[\n{}\n]}}\n",
                json.join(",\n")
            );
            if let Err(e) = std::fs::write(&path, text) {
                eprintln!("cannot write {path}: {e}");
                std::process::exit(1);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn main() {
    wall::main();
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    let args = qbb_benches::harness::HarnessArgs::from_env("QBB_WALL_ROUNDS", 15);
    if !args.wants(&["wall", "piece_sets", "flip"]) {
        args.nothing_matches("wall");
        return;
    }
    println!(
        "wall: NEON is part of the AArch64 baseline, so there is no feature boundary to measure"
    );
}

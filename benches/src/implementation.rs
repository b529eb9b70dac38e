//! What one timing runs: a backend's routines, compiled for a backend's target features.
//!
//! Every backend runs in its own feature region. The scalar-class backends (the scalar reference
//! and SWAR) also run raised to the avx2 backend's instruction-set level (x86-64-v3: POPCNT,
//! BMI1/2, LZCNT, AVX2): the same source, inlined into the avx2 region, so that `count_ones`
//! becomes `popcnt` and `trailing_zeros` `tzcnt`. The fastest of these is a benchmark's
//! *baseline*: a vector backend's speed-up over it is what its SIMD width buys, not what a newer
//! instruction set buys any code.

use std::fmt;

use qbb::{BackendError, BackendKind};

use crate::corpus::Corpus;
use crate::kernels::Kernel;

/// A backend's code in a backend's feature region. Ordered as the tables show them: the
/// baseline candidates first (scalar, swar, scalar-v3, swar-v3), then the backends by tier.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Implementation {
    /// Whose routines run.
    pub code: BackendKind,
    /// Whose target features they are compiled with.
    pub region: BackendKind,
}

/// The region the scalar-class backends are raised to.
const RAISED_TO: BackendKind = BackendKind::Avx2;

/// What the raised implementations' names end with: the x86-64 level of [`RAISED_TO`].
const RAISED_SUFFIX: &str = "-v3";

impl Implementation {
    /// A backend in its own region: what `with_backend!` runs.
    pub const fn native(kind: BackendKind) -> Implementation {
        Implementation {
            code: kind,
            region: kind,
        }
    }

    /// A scalar-class backend compiled for x86-64-v3.
    pub const fn raised(code: BackendKind) -> Implementation {
        Implementation {
            code,
            region: RAISED_TO,
        }
    }

    /// `scalar`, `avx2`, ... for a backend in its own region; `scalar-v3`, `swar-v3` raised.
    pub fn name(self) -> String {
        if self.is_raised() {
            format!("{}{RAISED_SUFFIX}", self.code.name())
        } else {
            self.code.name().to_string()
        }
    }

    /// The implementation a name given by [`Implementation::name`] stands for.
    pub fn from_name(name: &str) -> Option<Implementation> {
        let raised = name.strip_suffix(RAISED_SUFFIX);
        let kind: BackendKind = raised.unwrap_or(name).parse().ok()?;
        match raised {
            Some(_) if is_scalar_class(kind) => Some(Implementation::raised(kind)),
            Some(_) => None,
            None => Some(Implementation::native(kind)),
        }
    }

    pub fn is_raised(self) -> bool {
        self.code != self.region
    }

    /// Whether this may be a benchmark's baseline: scalar-class code, in any region.
    pub fn is_baseline_candidate(self) -> bool {
        is_scalar_class(self.code)
    }

    /// The instruction sets its code may use, for legends: `x86-64-v3 (..)` for a raised one.
    pub fn instruction_sets(self) -> String {
        if self.is_raised() {
            format!("{}'s code built for {}", self.code, self.region.isa_level())
        } else {
            self.code.isa_level().to_string()
        }
    }

    /// Whether this CPU runs it.
    pub fn check_available(self) -> Result<(), BackendError> {
        self.code.check_available()?;
        self.region.check_available()
    }

    /// The baseline candidates this CPU runs: scalar and SWAR, raised too where x86-64-v3 runs.
    pub fn baselines() -> Vec<Implementation> {
        let native = [BackendKind::Scalar, BackendKind::Swar].map(Implementation::native);
        let raised = [BackendKind::Scalar, BackendKind::Swar].map(Implementation::raised);
        native
            .into_iter()
            .chain(raised)
            .filter(|i| i.check_available().is_ok())
            .collect()
    }

    /// Runs kernel `K` for `rounds` passes over `corpus`: one dispatch, the whole loop inside the
    /// region's target features. The loop is the copy at `placement` (below [`PLACEMENTS`]).
    pub fn run<K: Kernel>(
        self,
        corpus: &Corpus,
        rounds: u64,
        placement: usize,
    ) -> Result<(), BackendError> {
        match placement {
            0 => self.run_copy::<K, 0>(corpus, rounds),
            1 => self.run_copy::<K, 1>(corpus, rounds),
            2 => self.run_copy::<K, 2>(corpus, rounds),
            _ => self.run_copy::<K, 3>(corpus, rounds),
        }
    }

    fn run_copy<K: Kernel, const SHIFT: usize>(
        self,
        corpus: &Corpus,
        rounds: u64,
    ) -> Result<(), BackendError> {
        if !self.is_raised() {
            return qbb::with_backend!(self.code, |b| {
                shift_what_follows::<SHIFT>();
                K::run(b, corpus, rounds)
            });
        }
        self.check_available()?;
        raised::<K, SHIFT>(self.code, corpus, rounds)
    }
}

/// How many copies of every benchmark loop there are, each placed [`PLACEMENT_STEP`] bytes
/// further from a 64-byte boundary than the one before: four copies cover every 16-byte
/// alignment of a loop within the cache line (LLVM starts loops at 16-byte boundaries).
///
/// Where a short loop sits relative to the 64-byte lines the front end fetches can change how
/// fast it runs (the measuring chapter shows rows whose time moves by half with it). Timing every
/// copy and taking the median over them measures the code, not the place the linker happened to
/// give it.
pub const PLACEMENTS: usize = 4;

/// The distance between two copies' placements, bytes.
pub const PLACEMENT_STEP: usize = 16;

/// Aligns the code that follows to 64 bytes, then moves it `SHIFT * PLACEMENT_STEP` bytes on:
/// the kernel's loop, inlined right after, lands at a known offset from a cache-line boundary in
/// each copy. The padding is no-operations that run once per timed sample.
#[inline(always)]
fn shift_what_follows<const SHIFT: usize>() {
    #[cfg(target_arch = "x86_64")]
    const NOP_BYTES: usize = 1;
    #[cfg(not(target_arch = "x86_64"))]
    const NOP_BYTES: usize = 4;
    // SAFETY: the block is alignment padding and no-operations: it reads and writes no register,
    // no memory and no flag, and leaves the stack alone.
    unsafe {
        std::arch::asm!(
            ".p2align 6",
            ".rept {count}",
            "nop",
            ".endr",
            count = const SHIFT * PLACEMENT_STEP / NOP_BYTES,
            options(nomem, nostack, preserves_flags),
        );
    }
}

fn is_scalar_class(kind: BackendKind) -> bool {
    matches!(kind, BackendKind::Scalar | BackendKind::Swar)
}

/// The scalar-class kernel inside the avx2 region. The kernel is `#[inline(always)]`, and so are
/// the scalar and swar trait methods (and the routines LLVM would otherwise keep out of line), so
/// everything compiles with the region's features. The check: in `objdump -d -C target/release/qbb`
/// no function `<Avx2 as Backend>::with_features::region` calls into `scalar` or `swar`.
#[cfg(target_arch = "x86_64")]
fn raised<K: Kernel, const SHIFT: usize>(
    code: BackendKind,
    corpus: &Corpus,
    rounds: u64,
) -> Result<(), BackendError> {
    use qbb::{Scalar, Swar};
    match code {
        BackendKind::Scalar => in_avx2_region::<K, Scalar, SHIFT>(corpus, rounds),
        BackendKind::Swar => in_avx2_region::<K, Swar, SHIFT>(corpus, rounds),
        other => Err(BackendError::Unknown(format!("{other}{RAISED_SUFFIX}"))),
    }
}

#[cfg(target_arch = "x86_64")]
fn in_avx2_region<K: Kernel, B: qbb::Backend, const SHIFT: usize>(
    corpus: &Corpus,
    rounds: u64,
) -> Result<(), BackendError> {
    use qbb::Backend;
    let (Some(region), Some(code)) = (qbb::Avx2::new(), B::new()) else {
        return RAISED_TO.check_available().and(B::KIND.check_available());
    };
    region.with_features(
        #[inline(always)]
        |_| {
            shift_what_follows::<SHIFT>();
            K::run(code, corpus, rounds)
        },
    );
    Ok(())
}

#[cfg(not(target_arch = "x86_64"))]
fn raised<K: Kernel, const SHIFT: usize>(
    _: BackendKind,
    _: &Corpus,
    _: u64,
) -> Result<(), BackendError> {
    RAISED_TO.check_available()
}

impl Ord for Implementation {
    fn cmp(&self, other: &Implementation) -> std::cmp::Ordering {
        let key = |i: &Implementation| (!i.is_baseline_candidate(), i.is_raised(), i.code);
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Implementation {
    fn partial_cmp(&self, other: &Implementation) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl From<BackendKind> for Implementation {
    fn from(kind: BackendKind) -> Implementation {
        Implementation::native(kind)
    }
}

impl fmt::Display for Implementation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        for kind in BackendKind::ALL {
            let native = Implementation::native(kind);
            assert_eq!(Implementation::from_name(&native.name()), Some(native));
        }
        let raised = Implementation::raised(BackendKind::Swar);
        assert_eq!(raised.name(), "swar-v3");
        assert_eq!(Implementation::from_name("swar-v3"), Some(raised));
        assert_eq!(Implementation::from_name("avx2-v3"), None);
        assert_eq!(Implementation::from_name("scalar-v9"), None);
    }

    #[test]
    fn baselines_come_first() {
        let mut all: Vec<Implementation> = BackendKind::ALL.map(Implementation::native).to_vec();
        all.extend([BackendKind::Swar, BackendKind::Scalar].map(Implementation::raised));
        all.sort();
        let names: Vec<String> = all.iter().map(|i| i.name()).collect();
        assert_eq!(
            names,
            [
                "scalar",
                "swar",
                "scalar-v3",
                "swar-v3",
                "sse2",
                "avx2",
                "avx512",
                "neon",
                "portable"
            ]
        );
    }

    #[test]
    fn baselines_are_scalar_class() {
        let baselines = Implementation::baselines();
        assert!(baselines.contains(&Implementation::native(BackendKind::Scalar)));
        assert!(baselines.iter().all(|i| i.is_baseline_candidate()));
        assert_eq!(
            baselines.contains(&Implementation::raised(BackendKind::Scalar)),
            BackendKind::Avx2.is_available()
        );
    }
}

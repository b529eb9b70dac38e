//! The portable backend: every routine written once with `std::simd` (nightly, cargo feature
//! `portable-simd`), the ideas of the ISA backends without a single `core::arch` intrinsic. The
//! quad is a `u64x4`, a mailbox a `u8x64`, a nibble board a `u8x32`; rays of several directions
//! share a vector and shift lane by lane.
//!
//! # Which instructions it becomes
//!
//! A `std::simd` type is lowered to whatever the function being compiled may use. Compiled for the
//! x86-64 baseline (SSE2), a `u64x4` is two `xmm` registers, a lane-wise variable shift is two
//! shifts and a blend, a byte shuffle has no `pshufb` and a population count has no `popcnt`. The
//! same source compiled inside a function that enables AVX2 becomes single `ymm` instructions, and
//! with AVX-512 the mailbox becomes one `zmm` and mask registers.
//!
//! So the token remembers, when it is made, the widest of the feature sets the x86 backends already
//! name that this CPU has ([`Width`]), and `with_features` runs the job inside a function compiled
//! with exactly those features: the same dispatch once at the top as the other backends, chosen at
//! run time. The price is that a job is compiled once per width (three copies on x86-64); the
//! gain is that one binary runs the portable code at the CPU's width. [`Portable::baseline`] keeps
//! the baseline-only build at hand, to measure what the width brings.
//!
//! Only what inlines into that function is compiled for the width: the routines are `#[inline]`
//! for that reason, and a function the job calls without inlining it (a recursive search, say) is
//! compiled for the baseline, like any function without target features.
//!
//! # Files
//!
//! One file per group of the catalogue (`square`, `sets`, `mailbox`, `moves`, `fills`,
//! `attacks`, `counting`, `nibbles`, `boards`, `hash`), each routine a function of the routine's
//! name; the trait methods below are generated from the routine table and call them. `lanes`
//! moves a quad into a vector's lanes and back.

mod attacks;
mod boards;
mod counting;
mod fills;
mod hash;
mod lanes;
mod mailbox;
mod moves;
mod nibbles;
mod nnue;
mod sets;
mod square;

use crate::backend::features;
use crate::backend::{BackendKind, impl_backend};
use crate::routine::types::*;

pub use crate::backend::width::Width;

/// The portable backend token; `width` is proof that the CPU has that width's features.
#[derive(Copy, Clone, Debug)]
pub struct Portable {
    width: Width,
}

impl Portable {
    /// The portable backend compiled for the baseline only, whatever the CPU: for measuring what
    /// the wider registers bring.
    pub const fn baseline() -> Portable {
        Portable {
            width: Width::Baseline,
        }
    }

    /// The instructions this token's jobs are compiled for.
    pub const fn width(self) -> Width {
        self.width
    }
}

impl_backend! {
    // SAFETY: the routines use `std::simd` only, which compiles to the baseline everywhere; wider
    // instructions run only inside `with_features`, for a `width` that `new` detected (or the
    // baseline), and `Portable` has no other constructor.
    unsafe impl Backend for Portable {
        const KIND: BackendKind = BackendKind::Portable;

        #[inline]
        fn new() -> Option<Portable> {
            Some(Portable {
                width: Width::detect(),
            })
        }

        #[inline(always)]
        fn with_features<R>(self, job: impl FnOnce(Portable) -> R) -> R {
            match self.width {
                Width::Baseline => job(self),
                #[cfg(target_arch = "x86_64")]
                Width::Avx2 => {
                    #[features(avx2)]
                    fn region<R>(backend: Portable, job: impl FnOnce(Portable) -> R) -> R {
                        job(backend)
                    }
                    // SAFETY: a token holds `Width::Avx2` only where detection found these
                    // features (`AVX2_FEATURES`), or the AVX-512 set that includes them.
                    unsafe { region(self, job) }
                }
                #[cfg(target_arch = "x86_64")]
                Width::Avx512 => {
                    #[features(avx512)]
                    fn region<R>(backend: Portable, job: impl FnOnce(Portable) -> R) -> R {
                        job(backend)
                    }
                    // SAFETY: a token holds `Width::Avx512` only where detection found these
                    // features (`AVX512_FEATURES`).
                    unsafe { region(self, job) }
                }
            }
        }
    }

    own: fns;
    inherited: {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{Config, check_backend};

    /// The conformance kit at the widths below the detected one (which `tests/conformance.rs`
    /// checks): the same source, compiled for fewer features, must agree as well.
    #[test]
    fn narrower_widths_agree_with_scalar() {
        let mut narrower = vec![Portable::baseline()];
        #[cfg(target_arch = "x86_64")]
        if Width::detect() == Width::Avx512 {
            narrower.push(Portable { width: Width::Avx2 });
        }
        let start = [Quad::start_position()];
        for token in narrower {
            check_backend(token, &start, &Config::default()).unwrap_or_else(|m| panic!("{m}"));
        }
    }
}

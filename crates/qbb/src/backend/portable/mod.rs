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

mod board;
mod count;
mod fills;
mod hash;
mod mailbox;
mod nibbles;
mod sets;

use crate::backend::features;
use std::simd::prelude::*;

use crate::aspects::MoveAspects;
use crate::backend::{Backend, BackendKind};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

/// The instructions a job of the portable backend is compiled for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// The architecture's baseline (SSE2 on x86-64): runs everywhere.
    Baseline,
    /// The avx2 backend's features: AVX2, BMI1/2, LZCNT, POPCNT.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// The avx512 backend's features: AVX-512 F/BW/VL/VBMI/VBMI2, GFNI, VPOPCNTDQ, BITALG and
    /// the AVX2 set.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Width {
    /// The widest this CPU runs.
    pub fn detect() -> Width {
        #[cfg(target_arch = "x86_64")]
        {
            if BackendKind::Avx512.is_available() {
                return Width::Avx512;
            }
            if BackendKind::Avx2.is_available() {
                return Width::Avx2;
            }
        }
        Width::Baseline
    }
}

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

/// The quad's four planes as the four lanes of one vector.
#[inline(always)]
fn lanes(q: &Quad) -> u64x4 {
    u64x4::from_array(q.bb)
}

#[inline(always)]
fn quad(planes: u64x4) -> Quad {
    Quad {
        bb: planes.to_array(),
    }
}

// SAFETY: the routines use `std::simd` only, which compiles to the baseline everywhere; wider
// instructions run only inside `with_features`, for a `width` that `new` detected (or the
// baseline), and `Portable` has no other constructor.
unsafe impl Backend for Portable {
    const KIND: BackendKind = BackendKind::Portable;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[];

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
                // SAFETY: a token holds `Width::Avx2` only where detection found these features
                // (`AVX2_FEATURES`), or the AVX-512 set that includes them.
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

    #[inline]
    fn piece_at(self, quad: &Quad, sq: Square) -> u8 {
        board::piece_at(quad, sq)
    }

    #[inline]
    fn set_piece(self, quad: &mut Quad, sq: Square, code: u8) {
        board::set_piece(quad, sq, code)
    }

    #[inline]
    fn piece_sets(self, quad: &Quad) -> PieceSets {
        sets::piece_sets(quad)
    }

    #[inline]
    fn hex_sets(self, quad: &Quad) -> HexSets {
        sets::hex_sets(quad)
    }

    #[inline]
    fn to_mailbox(self, quad: &Quad) -> Mailbox {
        mailbox::to_mailbox(quad)
    }

    #[inline]
    fn from_mailbox(self, mailbox: &Mailbox) -> Quad {
        mailbox::from_mailbox(mailbox)
    }

    #[inline]
    fn move_delta(self, aspects: &MoveAspects) -> Quad {
        board::move_delta(aspects)
    }

    #[inline]
    fn flip(self, quad: &Quad) -> Quad {
        board::flip(quad)
    }

    #[inline]
    fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8] {
        fills::occluded_fills(generators, empty)
    }

    #[inline]
    fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64 {
        fills::slider_attacks(orth, diag, empty)
    }

    #[inline]
    fn knight_attacks(self, knights: u64) -> u64 {
        fills::knight_attacks(knights)
    }

    #[inline]
    fn checks_and_pins(self, position: &SliderPosition) -> [KingSafety; 2] {
        fills::checks_and_pins(position)
    }

    #[inline]
    fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
        count::weighted_popcount(sets, weights)
    }

    #[inline]
    fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        nibbles::nibble_add(a, b)
    }

    #[inline]
    fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        nibbles::nibble_sub(a, b)
    }

    #[inline]
    fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
        nibbles::nibble_avg(a, b)
    }

    #[inline]
    fn to_nibble_board(self, quad: &Quad) -> NibbleBoard {
        nibbles::to_nibble_board(quad)
    }

    #[inline]
    fn from_nibble_board(self, board: &NibbleBoard) -> Quad {
        nibbles::from_nibble_board(board)
    }

    #[inline]
    fn to_classical(self, quad: &Quad) -> ClassicalBoard {
        sets::to_classical(quad)
    }

    #[inline]
    fn from_classical(self, board: &ClassicalBoard) -> Quad {
        sets::from_classical(board)
    }

    #[inline]
    fn to_dense(self, quad: &Quad) -> DenseBoard {
        sets::to_dense(quad)
    }

    #[inline]
    fn from_dense(self, board: &DenseBoard) -> Quad {
        sets::from_dense(board)
    }

    #[inline]
    fn hash_manino(self, quad: &Quad, state: u64) -> u64 {
        hash::hash_manino(quad, state)
    }

    #[inline]
    fn hash_zobrist(self, quad: &Quad) -> u64 {
        hash::hash_zobrist(quad)
    }
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

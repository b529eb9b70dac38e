//! The swar backend: SIMD within a register, with nothing but `u64` arithmetic.
//!
//! A 64-bit word is read as lanes (64 one-bit squares, eight byte ranks, sixteen nibbles) and one
//! operation works on all lanes at once: masks keep carries and borrows inside their lane (the H
//! and L masks of the Nibble article), multiplies gather bits or add lanes, delta swaps transpose
//! bit matrices. It runs on any CPU.
//!
//! One file per group of the catalogue (`square`, `sets`, `mailbox`, `moves`, `fills`,
//! `attacks`, `nibbles`, `boards`, `hash`), each routine a function of the routine's name; the
//! trait methods below are generated from the routine table and call them, except for the
//! routines taken from scalar, declared below with the reason (so `counting` and `nnue` have no
//! file here). `transpose` holds the bit transposes that `mailbox`, `nibbles` and `hash` share.

mod attacks;
mod boards;
mod fills;
mod hash;
mod mailbox;
mod moves;
mod nibbles;
mod sets;
mod square;
mod transpose;

use crate::backend::{BackendKind, impl_backend};
use crate::routine::types::*;

/// Why the NNUE routines come from scalar.
const NNUE_WHY: &str = "128 lanes of i16: the compiler already runs the scalar loops eight lanes \
    to an SSE2 register, where a u64 holds four";

/// The swar backend token; it needs no CPU feature, so a value always exists.
#[derive(Copy, Clone, Debug)]
pub struct Swar(());

impl Swar {
    /// The token, for the backends above that take a routine from this one.
    pub(crate) const TOKEN: Swar = Swar(());
}

impl_backend! {
    // SAFETY: the swar backend uses no instruction beyond the base architecture.
    unsafe impl Backend for Swar {
        const KIND: BackendKind = BackendKind::Swar;

        #[inline(always)]
        fn new() -> Option<Swar> {
            Some(Swar::TOKEN)
        }

        #[inline(always)]
        fn with_features<R>(self, job: impl FnOnce(Swar) -> R) -> R {
            job(self)
        }
    }

    own: fns;
    inherited: {
        piece_sets from Scalar: "the article's formulas are whole-word ANDs, ORs and XORs already",
        flip from Scalar:
            "a byte swap per plane is one base instruction (bswap): no SWAR mirror can beat it",
        weighted_popcount from Scalar:
            "LLVM compiles count_ones to the SWAR popcount itself: a copy gave the same code",
        hash_manino from Scalar:
            "eight 64-bit multiplies of 32-bit halves: no lanes to pack in a word",
        nnue_refresh from Scalar: NNUE_WHY,
        nnue_update from Scalar: NNUE_WHY,
        nnue_evaluate from Scalar: NNUE_WHY,
    }
}

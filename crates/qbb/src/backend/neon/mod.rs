//! The neon backend (AArch64's Advanced SIMD): 128-bit registers like SSE2's, two planes per
//! register, a quad in two and a mailbox in four, and 32 of them.
//!
//! What the instruction set brings, module by module:
//!
//! - `square`: per-lane shift counts (`ushl` shifts each lane by its own signed count), so one
//!   square's four plane bits come down side by side at once; writing a nibble with `bsl`, the
//!   bitwise select;
//! - `sets`: the sixteen code sets of `quad2hexBB`, two per instruction (`bic` is and-not);
//! - `mailbox`: `tbl` looks up the quad's 32 bytes for sixteen squares at once; back without a
//!   movemask: `cmtst` + weights + three rounds of pairwise adds (`addp`) gather the bits;
//! - `moves`: the colour flip by `rev64`, a byte swap per plane;
//! - `fills`: Kogge-Stone on two planes at once;
//! - `attacks`: Isenberg's checks and pins, both kings in one register, on the fills' Kogge-Stone;
//! - `counting`: `cnt` counts the bits of every byte, `uaddlp` and `addp` sum them per set, one
//!   widening multiply-add (`smull`, `smlal2`) weights them;
//! - `nibbles`: nibble arithmetic with byte lanes (the carry out of a byte is dropped, `uhadd`
//!   halves without overflow), and the nibble board by `uzp1`/`uzp2` + `sli` from the mailbox and
//!   `zip1`/`zip2` back;
//! - `nnue`: the whole accumulator in sixteen of the 32 registers, the forward pass with `smlal`.
//!
//! Helpers: `lanes` moves a quad in and out of two registers; `mailbox`'s conversions serve
//! `nibbles`, and `fills`' Kogge-Stone serves `attacks`.
//!
//! The routines where NEON has nothing to add come from the swar backend, each with its reason in
//! `inherited.rs` (so `boards` and `hash` have no file here).
//!
//! The intrinsic code lives in `#[features(neon)]` functions of the submodules; the trait methods
//! below only forward to them, which is sound because a [`Neon`] value exists only on a CPU that
//! has the features.

use crate::backend::{BackendKind, impl_backend};
use crate::routine::types::*;

mod attacks;
mod counting;
mod fills;
mod lanes;
mod mailbox;
mod moves;
mod nibbles;
mod nnue;
mod sets;
mod square;

// ANCHOR: token
/// The neon backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Neon(());

// The routines neon takes from swar are declared once, with their reasons, in `inherited.rs`,
// which the lab reads on every architecture.
crate::backend::neon_inherited::with_inherited! {
    impl_backend {
        // SAFETY: `new` checks the CPU before making a value; no other constructor exists.
        unsafe impl Backend for Neon {
            const KIND: BackendKind = BackendKind::Neon;

            #[inline]
            fn new() -> Option<Neon> {
                BackendKind::Neon.is_available().then_some(Neon(()))
            }

            crate::backend::feature_region!(Neon, neon);
        }

        own: feature_fns;
    }
}
// ANCHOR_END: token

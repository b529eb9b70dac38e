//! The sse2 backend (x86-64-v2: SSE2 as in the Quad-Bitboards article, plus SSSE3, SSE4.1/4.2 and
//! POPCNT where a routine says why): two planes per 128-bit register, a quad in two registers.
//!
//! What the instruction set brings, module by module:
//!
//! - `square`: the vertical nibble of one square by `psllq` + `shufps` + `movmskps`; writing a
//!   nibble by shifting a code's one-square quad onto the square;
//! - `sets`: the disjoint piece sets two per instruction, and the article's `quad2hexBB`;
//! - `mailbox`: the article's `quadBB2Board`, and `pmovmskb` back;
//! - `moves`: the make/unmake delta from the same shifted unit quads, and the colour flip with
//!   `pshufb`;
//! - `fills`: Kogge-Stone on two planes at once, for the quad's fills;
//! - `attacks`: Isenberg's checks and pins, both kings in one register, on the fills' Kogge-Stone;
//! - `counting`: `popCountWeight8` with `pshufb` byte counts;
//! - `nibbles`: the Nibble article's SWAR formulas 128 bits wide, and the nibble board by
//!   `pmaddubsw` pairing of the mailbox's registers;
//! - `boards`: the classical and dense boards from the six piece types made two per instruction;
//! - `hash`: `pmuludq` for Manino's hash.
//!
//! Helpers: `lanes` moves a quad in and out of two registers. A helper shared by two routine
//! files lives with the idea it belongs to: `square`'s unit quads serve `moves`, `sets`' lane
//! pick serves `boards`, `mailbox`'s board registers serve `nibbles`, and `fills`' Kogge-Stone
//! serves `attacks`.
//!
//! Three routines come from the swar backend, each with its reason in [`Sse2::INHERITED`]: a
//! single bitboard (slider and knight attacks) does not fill two lanes, and Zobrist hashing is
//! table loads, for which SSE2 has no gather.
//!
//! The intrinsic code lives in `#[target_feature]` functions of the submodules; the trait methods
//! below only forward to them, which is sound because an [`Sse2`] value exists only on a CPU that
//! has the features.

use crate::backend::{BackendKind, impl_backend};
use crate::routine::types::*;

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

/// The sse2 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Sse2(());

impl_backend! {
    // SAFETY: `new` checks the CPU before making a value; no other constructor exists.
    unsafe impl Backend for Sse2 {
        const KIND: BackendKind = BackendKind::Sse2;

        #[inline]
        fn new() -> Option<Sse2> {
            BackendKind::Sse2.is_available().then_some(Sse2(()))
        }

        crate::backend::feature_region!(Sse2, sse2);
    }

    own: feature_fns;
    // ANCHOR: inherited
    inherited: {
        slider_attacks from Swar:
            "one set per direction: pairing directions in two lanes needs a mirrored copy and \
             blended shifts, which measured slower than swar's rays",
        knight_attacks from Swar:
            "one set: moving it into a register and back costs more than the second lane saves",
        hash_zobrist from Swar:
            "64 table loads and no gather before AVX2: swar's mailbox in integer registers \
             measured faster",
    }
    // ANCHOR_END: inherited
}

//! The avx512 backend: AVX-512 F/BW/VL with VBMI/VBMI2, GFNI, VPOPCNTDQ and BITALG.
//!
//! What the wider instruction set changes, module by module:
//!
//! - **mask registers** (`square`): `vptestmq` turns the four plane bits of a square into the
//!   nibble, and a piece code is itself the write mask that puts a square into the right planes;
//! - **`vpternlogq` on a move's aspects** (`moves`): each aspect's plane masks, from the avx2
//!   backend's table of codes, are cut to the square and xor-ed into the delta by one
//!   instruction; making each aspect a broadcast with the code as write mask was slower in the
//!   move-delta benchmark;
//! - **any three-input boolean function in one instruction** (`sets`, `boards`): `vpermt2q` picks
//!   each lane's operands from the planes and their complements, one `vpternlogq` combines them,
//!   so the 16 hex sets or the 12 classical bitboards come out eight at a time;
//! - **GFNI bit-matrix transposes** (`mailbox`, `nibbles`): `gf2p8affineqb` multiplies bytes by an
//!   8x8 bit matrix; feeding it the bytes `1, 2, 4, .. 128` transposes the matrix, which turns
//!   four planes into eight mailbox bytes (and back) in one instruction, with `vpermb` arranging
//!   the bytes; `vpternlogq` also merges the masking steps of the SWAR nibble arithmetic;
//! - **eight directions at once** (`fills`, `attacks`): a 512-bit register holds one bitboard per
//!   compass direction; `vprolvq` rotates each lane by its own direction's step and `vpternlogq`
//!   does the Kogge-Stone `fill |= pro & shifted` in one instruction;
//! - **`vpopcntq`, `vpcompressb` and gathers** (`counting`, `hash`): eight popcounts in one
//!   instruction, and Zobrist keys fetched only for the occupied squares.
//!
//! Helpers: `lanes` moves quads and tables in and out of registers and holds the `vpternlogq`
//! truth-table columns and the lane reductions. A helper shared by two routine files lives with
//! the idea it belongs to: `mailbox`'s transposes serve `nibbles` and `hash`, `sets`' minterm
//! operands serve `boards`, and `fills`' rotations and propagators serve `attacks`.
//!
//! Every kernel is a `#[target_feature]` function of a submodule; the trait methods below only
//! call them, under the proof that the token gives.

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

/// The avx512 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Avx512(());

impl_backend! {
    // SAFETY: `new` checks the CPU before making a value; no other constructor exists.
    unsafe impl Backend for Avx512 {
        const KIND: BackendKind = BackendKind::Avx512;

        #[inline]
        fn new() -> Option<Avx512> {
            BackendKind::Avx512.is_available().then_some(Avx512(()))
        }

        crate::backend::feature_region!(Avx512, avx512);
    }

    own: feature_fns;
    inherited: {}
}

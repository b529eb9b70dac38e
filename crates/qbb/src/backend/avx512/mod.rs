//! The avx512 backend: AVX-512 F/BW/VL with VBMI/VBMI2, GFNI, VPOPCNTDQ and BITALG.
//!
//! What the wider instruction set changes, routine by routine:
//!
//! - **eight directions at once** (`rays`): a 512-bit register holds one bitboard per compass
//!   direction; `vprolvq` rotates each lane by its own direction's step and `vpternlogq` does the
//!   Kogge-Stone `fill |= pro & shifted` in one instruction;
//! - **GFNI bit-matrix transposes** (`transpose`): `gf2p8affineqb` multiplies bytes by an 8x8 bit
//!   matrix; feeding it the bytes `1, 2, 4, .. 128` transposes the matrix, which turns four planes
//!   into eight mailbox bytes (and back) in one instruction, with `vpermb` arranging the bytes;
//! - **any three-input boolean function in one instruction** (`sets`): `vpermt2q` picks each
//!   lane's operands from the planes and their complements, one `vpternlogq` combines them, so
//!   the 16 hex sets or the 12 classical bitboards come out eight at a time;
//! - **mask registers** (`squares`): `vptestmq` turns the four plane bits of a square into the
//!   nibble, and a piece code is itself the write mask that puts a square into the right planes;
//! - **`vpopcntq`, `vpcompressb` and gathers** (`counting`, `hash`): eight popcounts in one
//!   instruction, and Zobrist keys fetched only for the occupied squares.
//!
//! Every kernel is a `#[target_feature]` function of a submodule; the trait methods below only
//! call them, under the proof that the token gives.

use crate::backend::{Backend, BackendKind, forward_to_feature_fns};
use crate::routine::Routine;
use crate::routine::types::*;

mod counting;
mod hash;
mod rays;
mod sets;
mod squares;
mod transpose;
mod vector;

/// The avx512 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Avx512(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Avx512 {
    const KIND: BackendKind = BackendKind::Avx512;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = &[];

    #[inline]
    fn new() -> Option<Avx512> {
        BackendKind::Avx512.is_available().then_some(Avx512(()))
    }

    crate::backend::feature_region!(Avx512, avx512);

    crate::for_each_routine!(forward_to_feature_fns);
}

// Transitional: the catalogue's modules that the layout does not have yet.
mod square {
    pub(super) use super::squares::{piece_at, set_piece};
}
mod moves {
    pub(super) use super::squares::{flip, move_delta};
}
mod mailbox {
    pub(super) use super::transpose::{from_mailbox, to_mailbox};
}
mod fills {
    pub(super) use super::rays::occluded_fills;
}
mod attacks {
    pub(super) use super::rays::{checks_and_pins, knight_attacks, slider_attacks};
}
mod nibbles {
    pub(super) use super::counting::{nibble_add, nibble_avg, nibble_sub};
    pub(super) use super::transpose::{from_nibble_board, to_nibble_board};
}
mod boards {
    pub(super) use super::sets::{from_classical, from_dense, to_classical, to_dense};
}

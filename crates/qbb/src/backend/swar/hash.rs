//! Hashing a quad from scratch: Manino's (scalar's), and Zobrist's over the transposed mailbox.

use super::transpose;
use crate::backend::{Backend, Scalar};
use crate::hash::ZOBRIST;
use crate::quad::Quad;

/// Inherited from scalar (why: `Swar::INHERITED`, in mod.rs).
#[inline]
pub(super) fn hash_manino(quad: &Quad, state: u64) -> u64 {
    Scalar.hash_manino(quad, state)
}

// ANCHOR: hash
/// The bit transpose of [`transpose::to_mailbox`] puts every square's code in a byte of its own,
/// so each square costs one byte read and one table load instead of gathering four plane bits.
// Always inlined, like the trait's forwarding method: large enough that LLVM would keep it out
// of line, compiled for baseline x86-64 even when called from the avx2 region (`swar-v3`).
#[inline(always)]
pub(super) fn hash_zobrist(quad: &Quad) -> u64 {
    let ranks = transpose::to_mailbox(&quad.bb);
    let mut key = 0;
    for (r, rank) in ranks.iter().enumerate() {
        for (f, &code) in rank.to_le_bytes().iter().enumerate() {
            key ^= ZOBRIST[usize::from(code)][8 * r + f];
        }
    }
    key
}
// ANCHOR_END: hash

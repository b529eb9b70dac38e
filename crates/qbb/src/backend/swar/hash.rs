//! Hashing a quad from scratch: Zobrist's over the transposed mailbox (Manino's is scalar's, see
//! mod.rs).

use super::transpose;
use crate::hash::ZOBRIST;
use crate::quad::Quad;

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

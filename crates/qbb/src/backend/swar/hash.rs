//! Zobrist hashing from scratch over the transposed mailbox.

use super::transpose;
use crate::hash::ZOBRIST;

// ANCHOR: hash
/// The bit transpose of [`transpose::to_mailbox`] puts every square's code in a byte of its own,
/// so each square costs one byte read and one table load instead of gathering four plane bits.
#[inline]
pub fn hash_zobrist(planes: &[u64; 4]) -> u64 {
    let ranks = transpose::to_mailbox(planes);
    let mut key = 0;
    for (r, rank) in ranks.iter().enumerate() {
        for (f, &code) in rank.to_le_bytes().iter().enumerate() {
            key ^= ZOBRIST[usize::from(code)][8 * r + f];
        }
    }
    key
}
// ANCHOR_END: hash

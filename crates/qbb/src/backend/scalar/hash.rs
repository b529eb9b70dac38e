//! Hashing a quad from scratch: Manino's multiplies and Zobrist's table.

use super::square::piece_at;
use crate::hash::{MANINO_A, MANINO_B, MANINO_C, ZOBRIST};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: hash
#[inline]
pub(super) fn hash_manino(quad: &Quad, state: u64) -> u64 {
    let mut key = state.wrapping_mul(MANINO_C);
    for i in 0..4 {
        key ^= (quad.bb[i] & 0xFFFF_FFFF).wrapping_mul(MANINO_A[i]);
        key ^= (quad.bb[i] >> 32).wrapping_mul(MANINO_B[i]);
    }
    key
}

#[inline]
pub(super) fn hash_zobrist(quad: &Quad) -> u64 {
    Square::all().fold(0, |key, sq| {
        key ^ ZOBRIST[piece_at(quad, sq) as usize][sq.index()]
    })
}
// ANCHOR_END: hash

//! Hashing a quad from scratch: Manino's multiplies in four lanes, Zobrist's table by gathers.

use std::simd::prelude::*;

use super::lanes;
use super::mailbox::mailbox_lanes;
use crate::hash::{MANINO_A, MANINO_B, MANINO_C, ZOBRIST};
use crate::quad::Quad;

// ANCHOR: hash
/// Manino's hash: the low and high halves of the four planes multiplied by their constants in
/// four lanes, and the eight products folded by xor.
#[inline]
pub fn hash_manino(q: &Quad, state: u64) -> u64 {
    const A: u64x4 = u64x4::from_array(MANINO_A);
    const B: u64x4 = u64x4::from_array(MANINO_B);
    let planes = lanes(q);
    let low = planes & u64x4::splat(0xFFFF_FFFF);
    let high = planes >> 32;
    ((low * A) ^ (high * B)).reduce_xor() ^ state.wrapping_mul(MANINO_C)
}

/// Zobrist: the mailbox gives each square's code, `code * 64 + square` indexes the flattened key
/// table, and eight keys at a time are gathered and folded by xor.
#[inline]
pub fn hash_zobrist(q: &Quad) -> u64 {
    const FIRST_EIGHT: usizex8 = usizex8::from_array([0, 1, 2, 3, 4, 5, 6, 7]);
    let keys = ZOBRIST.as_flattened();
    let codes = mailbox_lanes(q).to_array();
    let folded = codes
        .chunks_exact(8)
        .enumerate()
        .fold(u64x8::splat(0), |acc, (row, eight)| {
            let code = u8x8::from_slice(eight).cast::<usize>() & usizex8::splat(15);
            let square = FIRST_EIGHT + usizex8::splat(8 * row);
            acc ^ u64x8::gather_or_default(keys, (code << 6) | square)
        });
    folded.reduce_xor()
}
// ANCHOR_END: hash

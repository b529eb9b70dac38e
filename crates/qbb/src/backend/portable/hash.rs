//! Hashing a quad from scratch: Manino's multiplies in four lanes, Zobrist's table by gathers.

use std::simd::prelude::*;

use super::lanes::lanes;
use super::mailbox::mailbox_lanes;
use crate::hash::{MANINO_A, MANINO_B, MANINO_C, ZOBRIST};
use crate::quad::Quad;

// ANCHOR: hash
/// Manino's hash: the low and high halves of the four planes multiplied by their constants in
/// four lanes, and the eight products folded by xor.
#[inline]
pub(super) fn hash_manino(q: &Quad, state: u64) -> u64 {
    const A: u64x4 = u64x4::from_array(MANINO_A);
    const B: u64x4 = u64x4::from_array(MANINO_B);
    let planes = lanes(q);
    let low = planes & u64x4::splat(0xFFFF_FFFF);
    let high = planes >> 32;
    ((low * A) ^ (high * B)).reduce_xor() ^ state.wrapping_mul(MANINO_C)
}

/// Zobrist: the mailbox gives every square's code at once, `code * 64 + square` indexes the
/// flattened key table, and one 64-lane gather fetches the keys (empty squares fetch the zero
/// row), folded by xor. The index is below 1024 by construction, so the gather's bounds check
/// folds away. How to gather is the compiler's choice: `vpgatherqq` with AVX-512; with AVX2 only
/// when tuning for a CPU it knows to gather fast (`-C target-cpu=skylake`), otherwise (generic
/// x86-64, Zen 3) it loads the keys lane by lane.
#[inline]
pub(super) fn hash_zobrist(q: &Quad) -> u64 {
    const SQUARES: Simd<usize, 64> = Simd::from_array(const_table!(|s| s));
    let codes = (mailbox_lanes(q) & u8x64::splat(15)).cast::<usize>();
    let keys = Simd::gather_or_default(ZOBRIST.as_flattened(), (codes << 6) | SQUARES);
    keys.reduce_xor()
}
// ANCHOR_END: hash

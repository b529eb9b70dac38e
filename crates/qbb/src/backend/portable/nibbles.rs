//! The Nibble article's array of nibbles as 32 byte lanes: two squares per lane, so the SWAR masks
//! of the article (H = 0x88, L = 0x77 per byte) keep carries inside each nibble, and converting to
//! or from a quad goes through the 64-byte mailbox.

use std::simd::ToBytes;
use std::simd::prelude::*;

use super::mailbox::{mailbox_lanes, quad_from_mailbox_lanes};
use crate::quad::Quad;
use crate::repr::NibbleBoard;

// ANCHOR: nibble_arith
/// The high bit of each nibble.
const H: u8x32 = u8x32::from_array([0x88; 32]);
/// The three low bits of each nibble.
const L: u8x32 = u8x32::from_array([0x77; 32]);

#[inline(always)]
fn bytes(board: &NibbleBoard) -> u8x32 {
    u8x32::from_array(board.0)
}

/// Add the low three bits of each nibble (no carry can leave them), then put the high bits back
/// by xor (their carry is dropped: addition mod 16).
#[inline]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b) = (bytes(a), bytes(b));
    NibbleBoard((((a & L) + (b & L)) ^ ((a ^ b) & H)).to_array())
}

/// Set the high bits of `a` so that no borrow leaves a nibble, subtract, then fix the high bits.
#[inline]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b) = (bytes(a), bytes(b));
    NibbleBoard((((a | H) - (b & L)) ^ ((a ^ !b) & H)).to_array())
}

/// `(a + b) / 2 = (a & b) + (a ^ b) / 2`; the halving must not move a bit into the nibble below.
#[inline]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (a, b) = (bytes(a), bytes(b));
    NibbleBoard(((a & b) + (((a ^ b) >> 1) & L)).to_array())
}
// ANCHOR_END: nibble_arith

// ANCHOR: nibble_board
/// The mailbox, then two bytes into one: read as 16-bit lanes, `w | w >> 4` puts square `2k + 1`
/// beside square `2k` in the low byte, and the truncating cast keeps that byte.
#[inline]
pub(super) fn to_nibble_board(q: &Quad) -> NibbleBoard {
    let pairs = u16x32::from_le_bytes(mailbox_lanes(q));
    NibbleBoard((pairs | pairs >> 4).cast::<u8>().to_array())
}

/// The inverse: widen each byte to 16 bits and copy its high nibble into the next byte; the
/// mailbox reader only looks at the low nibble of each byte.
#[inline]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    let pairs = bytes(board).cast::<u16>();
    quad_from_mailbox_lanes((pairs | pairs << 4).to_le_bytes())
}
// ANCHOR_END: nibble_board

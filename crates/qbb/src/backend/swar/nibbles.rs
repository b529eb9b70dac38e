//! The Nibble article's array of nibbles: arithmetic on sixteen 4-bit lanes per 64-bit word, and
//! the nibble board from and to the quad by the bit transposes of [`transpose`].

use super::transpose;
use crate::quad::Quad;
use crate::repr::NibbleBoard;

// ANCHOR: nibble_arith
/// The top bit of every nibble (the Nibble article's `H`) and the bottom bit (`L`).
const H: u64 = 0x8888_8888_8888_8888;
const L: u64 = 0x1111_1111_1111_1111;

/// Adds the low three bits of the lanes, where a carry stops at the lane's top bit, then sets the
/// top bit by xor (addition mod 2), so no carry crosses into the next lane.
#[inline(always)]
const fn add(x: u64, y: u64) -> u64 {
    ((x & !H).wrapping_add(y & !H)) ^ ((x ^ y) & H)
}

/// With the top bits of `x` set and those of `y` clear, no lane borrows from its neighbour; the
/// xor then puts the true top bit back.
#[inline(always)]
const fn sub(x: u64, y: u64) -> u64 {
    ((x | H).wrapping_sub(y & !H)) ^ ((x ^ !y) & H)
}

/// `x + y = 2 * (x & y) + (x ^ y)`, so the average is `(x & y) + (x ^ y) / 2`; clearing each
/// lane's bottom bit first keeps the halving inside the lane.
#[inline(always)]
const fn avg(x: u64, y: u64) -> u64 {
    (x & y) + (((x ^ y) & !L) >> 1)
}

/// Applies a lane-wise operation to the four words of two nibble boards.
#[inline(always)]
fn words(a: &NibbleBoard, b: &NibbleBoard, op: impl Fn(u64, u64) -> u64) -> NibbleBoard {
    let (a, b) = (a.to_words(), b.to_words());
    NibbleBoard::from_words(std::array::from_fn(|i| op(a[i], b[i])))
}

#[inline]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    words(a, b, add)
}

#[inline]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    words(a, b, sub)
}

#[inline]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    words(a, b, avg)
}
// ANCHOR_END: nibble_arith

/// The board's four words: the planes transposed by [`transpose::to_nibble_words`].
#[inline]
pub(super) fn to_nibble_board(quad: &Quad) -> NibbleBoard {
    NibbleBoard::from_words(transpose::to_nibble_words(&quad.bb))
}

/// The planes: the board's four words transposed back by [`transpose::from_nibble_words`].
#[inline]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    Quad {
        bb: transpose::from_nibble_words(&board.to_words()),
    }
}

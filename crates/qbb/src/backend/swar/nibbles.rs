//! One square's nibble: read it, write it, and the make/unmake delta built from such nibbles.

use crate::aspects::{MoveAspects, Special};
use crate::square::Square;

// ANCHOR: piece_at
/// Each plane keeps only the square's bit and is rotated by its plane number, so the four bits
/// sit side by side at `s .. s + 3` (mod 64); one rotation back by `s` brings the whole nibble down.
/// Two variable shifts instead of four.
#[inline]
pub fn piece_at(planes: &[u64; 4], sq: Square) -> u8 {
    let bit = sq.bit();
    let side_by_side = (planes[0] & bit)
        | (planes[1] & bit).rotate_left(1)
        | (planes[2] & bit).rotate_left(2)
        | (planes[3] & bit).rotate_left(3);
    (side_by_side.rotate_right(sq.index() as u32) & 15) as u8
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
/// The same picture backwards: the code rotated to the square once puts its bit `p` at `s + p`,
/// and a constant rotation by `p` per plane brings that bit onto the square.
#[inline]
pub fn set_piece(planes: &mut [u64; 4], sq: Square, code: u8) {
    let bit = sq.bit();
    let placed = u64::from(code & 15).rotate_left(sq.index() as u32);
    for (p, plane) in planes.iter_mut().enumerate() {
        *plane = (*plane & !bit) | (placed.rotate_right(p as u32) & bit);
    }
}
// ANCHOR_END: set_piece

// ANCHOR: move_delta
/// One aspect of a move: its code rotated onto the square, and each plane's bit brought onto
/// the square by a constant rotation, as in [`set_piece`].
#[inline(always)]
fn aspect(delta: &mut [u64; 4], sq: Square, code: u8) {
    let placed = u64::from(code & 15).rotate_left(sq.index() as u32);
    for (p, plane) in delta.iter_mut().enumerate() {
        *plane ^= placed.rotate_right(p as u32) & sq.bit();
    }
}

/// The capture needs no branch: without one its code is 0 and adds nothing. Castling keeps its
/// branch; it is rare, so the branch predicts well.
#[inline]
pub fn move_delta(m: &MoveAspects) -> [u64; 4] {
    let mut delta = [0; 4];
    aspect(&mut delta, m.from, m.piece);
    aspect(&mut delta, m.to, m.landing_code());
    aspect(&mut delta, m.capture_square(), m.captured);
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = m.special
    {
        aspect(&mut delta, rook_from, rook);
        aspect(&mut delta, rook_to, rook);
    }
    delta
}
// ANCHOR_END: move_delta

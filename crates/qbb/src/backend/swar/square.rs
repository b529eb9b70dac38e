//! One square: read its nibble, write one, with rotations instead of a shift per plane.

use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
/// Each plane keeps only the square's bit and is rotated by its plane number, so the four bits
/// sit side by side at `s .. s + 3` (mod 64); one rotation back by `s` brings the whole nibble down.
/// Two variable shifts instead of four.
#[inline]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let bit = sq.bit();
    let side_by_side = (quad.bb[0] & bit)
        | (quad.bb[1] & bit).rotate_left(1)
        | (quad.bb[2] & bit).rotate_left(2)
        | (quad.bb[3] & bit).rotate_left(3);
    (side_by_side.rotate_right(sq.index() as u32) & 15) as u8
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
/// The same picture backwards: the code rotated to the square once puts its bit `p` at `s + p`,
/// and a constant rotation by `p` per plane brings that bit onto the square.
#[inline]
pub(super) fn set_piece(quad: &mut Quad, sq: Square, code: u8) {
    let bit = sq.bit();
    let placed = u64::from(code & 15).rotate_left(sq.index() as u32);
    for (p, plane) in quad.bb.iter_mut().enumerate() {
        *plane = (*plane & !bit) | (placed.rotate_right(p as u32) & bit);
    }
}
// ANCHOR_END: set_piece

//! One square: read its nibble, write one.

use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: piece_at
#[inline]
pub(super) fn piece_at(quad: &Quad, sq: Square) -> u8 {
    let s = sq.index();
    let bit = |plane: usize| ((quad.bb[plane] >> s) & 1) as u8;
    bit(0) | bit(1) << 1 | bit(2) << 2 | bit(3) << 3
}
// ANCHOR_END: piece_at

// ANCHOR: set_piece
#[inline]
pub(super) fn set_piece(quad: &mut Quad, sq: Square, code: u8) {
    for (plane, bb) in quad.bb.iter_mut().enumerate() {
        let bit = u64::from(code >> plane & 1);
        *bb = (*bb & !sq.bit()) | bit << sq.index();
    }
}
// ANCHOR_END: set_piece

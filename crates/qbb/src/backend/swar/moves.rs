//! Make/unmake by xor: a move's delta quad built from rotated nibbles (the colour flip is
//! scalar's, see mod.rs).

use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;
use crate::square::Square;

// ANCHOR: move_delta
/// One aspect of a move: its code rotated onto the square, and each plane's bit brought onto
/// the square by a constant rotation, as in [`set_piece`](super::square::set_piece).
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
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
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
    Quad { bb: delta }
}
// ANCHOR_END: move_delta

//! Make/unmake by xor: a move's delta quad, and the colour flip.

use crate::aspects::{MoveAspects, Special};
use crate::quad::Quad;

// ANCHOR: move_delta
#[inline]
pub(super) fn move_delta(m: &MoveAspects) -> Quad {
    let mut delta = Quad::nibble_at(m.from, m.piece) ^ Quad::nibble_at(m.to, m.landing_code());
    if m.captured != 0 {
        delta ^= Quad::nibble_at(m.capture_square(), m.captured);
    }
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = m.special
    {
        delta ^= Quad::nibble_at(rook_from, rook) ^ Quad::nibble_at(rook_to, rook);
    }
    delta
}
// ANCHOR_END: move_delta

// ANCHOR: flip
#[inline]
pub(super) fn flip(quad: &Quad) -> Quad {
    // Mirror the board: rank r becomes rank 7 - r, one byte swap per plane ...
    let m = quad.mirrored();
    // ... and every piece changes colour: empty squares keep their colour bit.
    Quad::new(m.bb[0] ^ m.occupied(), m.bb[1], m.bb[2], m.bb[3])
}
// ANCHOR_END: flip

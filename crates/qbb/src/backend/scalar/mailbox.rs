//! Quad <-> mailbox: one byte per square.

use super::square::piece_at;
use crate::quad::Quad;
use crate::repr::Mailbox;
use crate::square::Square;

// ANCHOR: to_mailbox
#[inline]
pub(super) fn to_mailbox(quad: &Quad) -> Mailbox {
    let mut out = Mailbox::default();
    for sq in Square::all() {
        out.0[sq.index()] = piece_at(quad, sq);
    }
    out
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
#[inline]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    let mut quad = Quad::EMPTY;
    for (s, &code) in mailbox.0.iter().enumerate() {
        for (plane, bb) in quad.bb.iter_mut().enumerate() {
            *bb |= u64::from(code >> plane & 1) << s;
        }
    }
    quad
}
// ANCHOR_END: from_mailbox

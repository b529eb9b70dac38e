//! Quad <-> mailbox by the bit transposes of [`transpose`], which work on the
//! mailbox as eight words, one rank of eight byte codes each.

use super::transpose;
use crate::quad::Quad;
use crate::repr::Mailbox;

/// The planes transposed into eight ranks by [`transpose::to_mailbox`], each rank's eight bytes
/// the codes of its squares.
#[inline]
pub(super) fn to_mailbox(quad: &Quad) -> Mailbox {
    let ranks = transpose::to_mailbox(&quad.bb);
    let mut out = Mailbox::default();
    for (bytes, rank) in out.0.chunks_exact_mut(8).zip(ranks) {
        bytes.copy_from_slice(&rank.to_le_bytes());
    }
    out
}

/// The mailbox read as eight ranks, transposed back into planes by [`transpose::from_mailbox`].
#[inline]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    let ranks =
        std::array::from_fn(|r| u64::from_le_bytes(std::array::from_fn(|f| mailbox.0[8 * r + f])));
    Quad {
        bb: transpose::from_mailbox(&ranks),
    }
}

//! Quad <-> mailbox, 64 byte lanes at once: a plane becomes a lane mask of 64 bytes and back.

use std::simd::prelude::*;

use crate::quad::Quad;
use crate::repr::Mailbox;

// ANCHOR: to_mailbox
/// `quadBB2Board`: each plane, read as a mask of 64 byte lanes, selects its bit value into the
/// bytes of its squares.
#[inline]
pub(super) fn to_mailbox(q: &Quad) -> Mailbox {
    Mailbox(mailbox_lanes(q).to_array())
}

#[inline(always)]
pub(super) fn mailbox_lanes(q: &Quad) -> u8x64 {
    q.bb.iter()
        .enumerate()
        .fold(u8x64::splat(0), |bytes, (plane, &bb)| {
            let bit = u8x64::splat(1 << plane);
            bytes | mask8x64::from_bitmask(bb).select(bit, u8x64::splat(0))
        })
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
/// The inverse: shift bit `p` of every byte into its sign, and the 64 signs are plane `p` (two
/// `pmovmskb` per plane with AVX2, one `vpmovb2m` with AVX-512).
#[inline]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    quad_from_mailbox_lanes(u8x64::from_array(mailbox.0))
}

#[inline(always)]
pub(super) fn quad_from_mailbox_lanes(bytes: u8x64) -> Quad {
    let plane = |p: u8| {
        let signs = (bytes << (7 - p)).cast::<i8>();
        signs.simd_lt(i8x64::splat(0)).to_bitmask()
    };
    Quad::new(plane(0), plane(1), plane(2), plane(3))
}
// ANCHOR_END: from_mailbox

//! Quad <-> mailbox without a bit transpose: `tbl` looks up the byte of each plane that holds a
//! square, for sixteen squares at once, and the way back gathers bits without a movemask.
//!
//! The mailbox is four registers, squares `16k .. 16k + 15` in register `k`.

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::cast;
use crate::quad::Quad;
use crate::repr::Mailbox;

// ANCHOR: square_bytes
/// Byte `j` of a register of sixteen squares lies in byte `j / 8` of the register's two bytes
/// of a plane.
const BYTE_OF_SQUARE: [u8; 16] = const_table!(|j| (j / 8) as u8);

/// Byte `j` holds the bit of square `j` within its byte (square `16k + j` is bit `j % 8`).
const SQUARE_BIT: [u8; 16] = const_table!(|j| 1 << (j % 8));
// ANCHOR_END: square_bytes

// ANCHOR: to_mailbox
/// Sixteen squares per register, one `tbl` per plane: the lookup puts in each byte the plane's
/// byte that holds the square, `cmtst` against the square's bit makes it all ones or zero, and
/// the plane's bit of the code is kept from that (`and`) and merged in (`orr`).
#[inline]
#[features(neon)]
pub(super) fn to_mailbox(quad: &Quad) -> Mailbox {
    let planes: [uint8x16_t; 2] = cast(quad.bb);
    let table = uint8x16x2_t(planes[0], planes[1]);
    // SAFETY: 16 bytes from 16-byte tables.
    let (byte_of_square, square_bit) = unsafe {
        (
            vld1q_u8(BYTE_OF_SQUARE.as_ptr()),
            vld1q_u8(SQUARE_BIT.as_ptr()),
        )
    };
    let registers: [uint8x16_t; 4] = std::array::from_fn(|k| {
        let mut codes = vdupq_n_u8(0);
        for p in 0..4 {
            // plane `p`'s bytes of squares `16k ..`: `8p + 2k` and the one after it
            let index = vaddq_u8(byte_of_square, vdupq_n_u8((8 * p + 2 * k) as u8));
            let set = vtstq_u8(vqtbl2q_u8(table, index), square_bit);
            codes = vorrq_u8(codes, vandq_u8(set, vdupq_n_u8(1 << p)));
        }
        codes
    });
    Mailbox(cast(registers))
}
// ANCHOR_END: to_mailbox

// ANCHOR: from_mailbox
/// No movemask in NEON: `cmtst` turns each byte's plane bit into all ones, an `and` keeps the
/// square's weight within its byte of the plane (1, 2, 4 .. 128), and three rounds of pairwise
/// adds (`addp`) sum each rank's eight weights into one byte, in square order. Two planes share
/// the last round, which leaves them as the two lanes of one register.
#[inline]
#[features(neon)]
pub(super) fn from_mailbox(mailbox: &Mailbox) -> Quad {
    let squares: [uint8x16_t; 4] = cast(mailbox.0);
    // SAFETY: 16 bytes from a 16-byte table.
    let weights = unsafe { vld1q_u8(SQUARE_BIT.as_ptr()) };
    let quarters = |p: u8| {
        let bit = vdupq_n_u8(1 << p);
        let w = squares.map(|s| vandq_u8(vtstq_u8(s, bit), weights));
        vpaddq_u8(vpaddq_u8(w[0], w[1]), vpaddq_u8(w[2], w[3]))
    };
    let planes = [
        vpaddq_u8(quarters(0), quarters(1)),
        vpaddq_u8(quarters(2), quarters(3)),
    ];
    Quad { bb: cast(planes) }
}
// ANCHOR_END: from_mailbox

//! The Nibble article's array of nibbles with byte lanes: two nibbles per byte, the high one's
//! carry dropped at the byte's end for free, the low one's cut off by a mask; and the nibble board
//! packed from the mailbox (`uzp1`/`uzp2`, `sli`) and unpacked into it (`zip1`/`zip2`).

use crate::backend::features;
use std::arch::aarch64::*;

use super::lanes::cast;
use super::mailbox::{from_mailbox, to_mailbox};
use crate::quad::Quad;
use crate::repr::{Mailbox, NibbleBoard};

// ANCHOR: nibble_arith
/// The board as two registers of sixteen bytes.
#[inline]
#[features(neon)]
fn registers(board: &NibbleBoard) -> [uint8x16_t; 2] {
    cast(board.0)
}

// ANCHOR: bsl_halves
/// Applies `low` and `high` to the two registers of `a` and `b` and takes each byte's low nibble
/// from the first result and its high nibble from the second (`bsl` with the mask `0x0F`).
#[inline]
#[features(neon)]
fn halves(
    a: &NibbleBoard,
    b: &NibbleBoard,
    low: impl Fn(uint8x16_t, uint8x16_t) -> uint8x16_t,
    high: impl Fn(uint8x16_t, uint8x16_t) -> uint8x16_t,
) -> NibbleBoard {
    let (a, b) = (registers(a), registers(b));
    let low_nibble = vdupq_n_u8(0x0F);
    let out: [uint8x16_t; 2] =
        std::array::from_fn(|i| vbslq_u8(low_nibble, low(a[i], b[i]), high(a[i], b[i])));
    NibbleBoard(cast(out))
}
// ANCHOR_END: bsl_halves

/// The low nibbles added with the bytes: a carry out of the low nibble goes into the high one,
/// whose bits `bsl` does not take from this sum. The high nibbles added on their own (low nibbles
/// cleared): a carry out of the byte is dropped.
#[inline]
#[features(neon)]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let high = vdupq_n_u8(0xF0);
    halves(
        a,
        b,
        |x, y| vaddq_u8(x, y),
        |x, y| vaddq_u8(vandq_u8(x, high), vandq_u8(y, high)),
    )
}

/// As the sum: a borrow from the high nibble leaves the low one correct, and one out of the byte
/// is dropped.
#[inline]
#[features(neon)]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let high = vdupq_n_u8(0xF0);
    halves(
        a,
        b,
        |x, y| vsubq_u8(x, y),
        |x, y| vsubq_u8(vandq_u8(x, high), vandq_u8(y, high)),
    )
}

/// `uhadd` halves the nine-bit sum of two bytes without losing its carry: of the low nibbles
/// alone it is their average, of the high nibbles alone their average times 16 plus a half that
/// `bsl` leaves in the low nibble's place, which the other result fills.
#[inline]
#[features(neon)]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    let (low, high) = (vdupq_n_u8(0x0F), vdupq_n_u8(0xF0));
    halves(
        a,
        b,
        |x, y| vhaddq_u8(vandq_u8(x, low), vandq_u8(y, low)),
        |x, y| vhaddq_u8(vandq_u8(x, high), vandq_u8(y, high)),
    )
}
// ANCHOR_END: nibble_arith

// ANCHOR: nibble_board
/// The mailbox's even squares (`uzp1`) and odd squares (`uzp2`) of each pair of registers, and
/// `sli` (shift left and insert) puts each odd square's code over its even neighbour's high
/// nibble: byte `i` = `code(2i) | code(2i + 1) << 4`.
#[inline]
#[features(neon)]
pub(super) fn to_nibble_board(quad: &Quad) -> NibbleBoard {
    let squares: [uint8x16_t; 4] = cast(to_mailbox(quad).0);
    let packed: [uint8x16_t; 2] = std::array::from_fn(|i| {
        let (first, second) = (squares[2 * i], squares[2 * i + 1]);
        vsliq_n_u8::<4>(vuzp1q_u8(first, second), vuzp2q_u8(first, second))
    });
    NibbleBoard(cast(packed))
}

/// Each byte's two nibbles apart (`and`, `ushr`), then interleaved back into square order
/// (`zip1`, `zip2`): the mailbox, which [`from_mailbox`] turns into planes.
#[inline]
#[features(neon)]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    let low_nibble = vdupq_n_u8(0x0F);
    let registers = registers(board);
    let mut squares = [vdupq_n_u8(0); 4];
    for (i, packed) in registers.into_iter().enumerate() {
        let (even, odd) = (vandq_u8(packed, low_nibble), vshrq_n_u8::<4>(packed));
        squares[2 * i] = vzip1q_u8(even, odd);
        squares[2 * i + 1] = vzip2q_u8(even, odd);
    }
    from_mailbox(&Mailbox(cast(squares)))
}
// ANCHOR_END: nibble_board

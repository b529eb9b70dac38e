//! The Nibble article's array of 64 nibbles: lane-wise arithmetic, and conversion from and to
//! the quad.

use super::square::piece_at;
use crate::quad::Quad;
use crate::repr::NibbleBoard;
use crate::square::Square;

// ANCHOR: nibble_arith
#[inline]
pub(super) fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    nibble_lanes(a, b, |x, y| x.wrapping_add(y))
}

#[inline]
pub(super) fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    nibble_lanes(a, b, |x, y| x.wrapping_sub(y))
}

#[inline]
pub(super) fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
    nibble_lanes(a, b, |x, y| (x + y) / 2)
}
// ANCHOR_END: nibble_arith

// ANCHOR: nibble_board
#[inline]
pub(super) fn to_nibble_board(quad: &Quad) -> NibbleBoard {
    let mut out = NibbleBoard::default();
    for sq in Square::all() {
        out.set(sq, piece_at(quad, sq));
    }
    out
}

#[inline]
pub(super) fn from_nibble_board(board: &NibbleBoard) -> Quad {
    let mut quad = Quad::EMPTY;
    for sq in Square::all() {
        let code = board.get(sq);
        for (plane, bb) in quad.bb.iter_mut().enumerate() {
            *bb |= u64::from(code >> plane & 1) << sq.index();
        }
    }
    quad
}
// ANCHOR_END: nibble_board

/// Applies `op` to each pair of nibble lanes (mod 16).
#[inline]
fn nibble_lanes(a: &NibbleBoard, b: &NibbleBoard, op: impl Fn(u8, u8) -> u8) -> NibbleBoard {
    let mut out = NibbleBoard::default();
    for sq in Square::all() {
        out.set(sq, op(a.get(sq), b.get(sq)) & 15);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibble_arithmetic_is_lane_wise_mod_16() {
        let a = to_nibble_board(&Quad::start_position());
        let twice = nibble_add(&a, &a);
        assert_eq!(
            twice.get(Square::E1),
            (12 + 12) % 16,
            "the white king's code, doubled"
        );
        assert_eq!(nibble_sub(&twice, &a), a);
        assert_eq!(nibble_avg(&a, &a), a);
        let b = nibble_add(&a, &NibbleBoard([0x11; 32]));
        assert_eq!(nibble_avg(&a, &b), a, "(x + x + 1) / 2 rounds down to x");
    }
}

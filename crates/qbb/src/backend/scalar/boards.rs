//! The other representations: the classical twelve bitboards and the denser 2 + 6 board, to and
//! from the quad.

use super::sets::hex_sets;
use crate::piece::{Color, Piece, PieceType};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

// ANCHOR: classical
#[inline]
pub(super) fn to_classical(quad: &Quad) -> ClassicalBoard {
    let hex = hex_sets(quad);
    let mut out = ClassicalBoard::default();
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            let piece = Piece::new(color, kind);
            out.bb[ClassicalBoard::index(piece)] = hex.0[piece.code() as usize];
        }
    }
    out
}

#[inline]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    let mut quad = Quad::EMPTY;
    for color in [Color::White, Color::Black] {
        for kind in PieceType::ALL {
            let piece = Piece::new(color, kind);
            let set = board.pieces(piece);
            for (plane, bb) in quad.bb.iter_mut().enumerate() {
                if piece.code() >> plane & 1 != 0 {
                    *bb |= set;
                }
            }
        }
    }
    quad
}
// ANCHOR_END: classical

// ANCHOR: dense
#[inline]
pub(super) fn to_dense(quad: &Quad) -> DenseBoard {
    let hex = hex_sets(quad);
    let mut out = DenseBoard::default();
    for kind in PieceType::ALL {
        let white = hex.0[Piece::new(Color::White, kind).code() as usize];
        let black = hex.0[Piece::new(Color::Black, kind).code() as usize];
        out.bb[2 + kind.index()] = white | black;
        out.bb[DenseBoard::WHITE] |= white;
        out.bb[DenseBoard::BLACK] |= black;
    }
    out
}

#[inline]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    let mut quad = Quad::EMPTY;
    let mut typed = 0;
    for kind in PieceType::ALL {
        let set = board.of_type(kind);
        typed |= set;
        for bit in 0..3 {
            if (kind as u8) >> bit & 1 != 0 {
                quad.bb[1 + bit] |= set;
            }
        }
    }
    quad.bb[0] = board.bb[DenseBoard::BLACK] & typed;
    quad
}
// ANCHOR_END: dense

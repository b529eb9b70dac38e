//! The other representations: inherited from swar (see `Neon::INHERITED`).

use crate::backend::features;
use crate::backend::{Backend, Swar};

use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard};

#[features(neon)]
pub(super) fn to_classical(quad: &Quad) -> ClassicalBoard {
    Swar::TOKEN.to_classical(quad)
}

#[features(neon)]
pub(super) fn from_classical(board: &ClassicalBoard) -> Quad {
    Swar::TOKEN.from_classical(board)
}

#[features(neon)]
pub(super) fn to_dense(quad: &Quad) -> DenseBoard {
    Swar::TOKEN.to_dense(quad)
}

#[features(neon)]
pub(super) fn from_dense(board: &DenseBoard) -> Quad {
    Swar::TOKEN.from_dense(board)
}

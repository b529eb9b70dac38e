//! Hashing a quad from scratch: inherited from swar (see `Neon::INHERITED`).

use crate::backend::features;
use crate::backend::{Backend, Swar};

use crate::quad::Quad;

#[features(neon)]
pub(super) fn hash_manino(quad: &Quad, state: u64) -> u64 {
    Swar::TOKEN.hash_manino(quad, state)
}

#[features(neon)]
pub(super) fn hash_zobrist(quad: &Quad) -> u64 {
    Swar::TOKEN.hash_zobrist(quad)
}

//! The quad in a vector's lanes and back: its four planes are the four lanes of a `u64x4`.

use std::simd::prelude::*;

use crate::quad::Quad;

/// The quad's four planes as the four lanes of one vector.
#[inline(always)]
pub(super) fn lanes(q: &Quad) -> u64x4 {
    u64x4::from_array(q.bb)
}

/// The four lanes as the quad's planes.
#[inline(always)]
pub(super) fn quad(planes: u64x4) -> Quad {
    Quad {
        bb: planes.to_array(),
    }
}

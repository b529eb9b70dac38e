//! NNUE inference: inherited from scalar (why: `Swar::INHERITED`, in mod.rs).

use crate::backend::{Backend, Scalar};
use crate::nnue::{Accumulators, Network};
use crate::quad::Quad;

#[inline]
pub(super) fn nnue_refresh(quad: &Quad, net: &Network) -> Accumulators {
    Scalar.nnue_refresh(quad, net)
}

#[inline]
pub(super) fn nnue_update(acc: &mut Accumulators, before: &Quad, delta: &Quad, net: &Network) {
    Scalar.nnue_update(acc, before, delta, net)
}

#[inline]
pub(super) fn nnue_evaluate(acc: &Accumulators, net: &Network) -> i32 {
    Scalar.nnue_evaluate(acc, net)
}

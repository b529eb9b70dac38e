//! Counting: population counts of eight sets, weighted and summed.

use crate::backend::{Backend, Scalar};

/// Inherited from scalar (why: `Swar::INHERITED`, in mod.rs).
#[inline]
pub(super) fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32 {
    Scalar.weighted_popcount(sets, weights)
}

//! The scalar reference: plain Rust that reads like the articles, one bitboard at a time.
//! Every other backend must agree with it bit for bit, on any input.
//!
//! One file per group of the catalogue (`square`, `sets`, `mailbox`, `moves`, `fills`,
//! `attacks`, `counting`, `nibbles`, `boards`, `hash`), each routine a function of the routine's
//! name; the trait methods below are generated from the routine table and call them. The
//! helpers the chapters also show, [`occluded_fill`], [`ray_attacks`] and [`piece_sets_of`], stay
//! public.

mod attacks;
mod boards;
mod counting;
mod fills;
mod hash;
mod mailbox;
mod moves;
mod nibbles;
mod nnue;
mod sets;
mod square;

pub use attacks::ray_attacks;
pub use fills::occluded_fill;
pub use sets::piece_sets_of;

use crate::backend::{BackendKind, impl_backend};
use crate::routine::types::*;

/// The reference backend; runs everywhere.
#[derive(Copy, Clone, Debug, Default)]
pub struct Scalar;

impl_backend! {
    // SAFETY: the scalar backend uses no instruction beyond the base architecture.
    unsafe impl Backend for Scalar {
        const KIND: BackendKind = BackendKind::Scalar;

        #[inline(always)]
        fn new() -> Option<Scalar> {
            Some(Scalar)
        }

        #[inline(always)]
        fn with_features<R>(self, job: impl FnOnce(Scalar) -> R) -> R {
            job(self)
        }
    }

    own: fns;
    inherited: {}
}

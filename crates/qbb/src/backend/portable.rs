//! The portable backend (being written: every routine still comes from the scalar reference).

use crate::aspects::MoveAspects;
use crate::backend::scaffold::{all_inherited_from_scalar, scalar_routines};
use crate::backend::{Backend, BackendKind, Scalar};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

/// The portable backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Portable(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Portable {
    const KIND: BackendKind = BackendKind::Portable;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = all_inherited_from_scalar!();

    #[inline]
    fn new() -> Option<Portable> {
        Some(Portable(()))
    }

    #[inline(always)]
    fn with_features<R>(self, job: impl FnOnce(Portable) -> R) -> R {
        job(self)
    }

    scalar_routines!();
}

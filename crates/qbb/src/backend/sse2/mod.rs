//! The sse2 backend (being written: every routine still comes from the scalar reference).

use crate::aspects::MoveAspects;
use crate::backend::scaffold::{all_inherited_from_scalar, scalar_routines};
use crate::backend::{Backend, BackendKind, Scalar};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

/// The sse2 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Sse2(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Sse2 {
    const KIND: BackendKind = BackendKind::Sse2;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = all_inherited_from_scalar!();

    #[inline]
    fn new() -> Option<Sse2> {
        BackendKind::Sse2.is_available().then_some(Sse2(()))
    }

    crate::backend::feature_region!(Sse2, "sse2,ssse3,sse4.1,sse4.2,popcnt");

    scalar_routines!();
}

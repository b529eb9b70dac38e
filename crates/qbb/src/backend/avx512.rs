//! The avx512 backend (being written: every routine still comes from the scalar reference).

use crate::aspects::MoveAspects;
use crate::backend::scaffold::{all_inherited_from_scalar, scalar_routines};
use crate::backend::{Backend, BackendKind, Scalar};
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::Routine;
use crate::square::Square;

/// The avx512 backend token: a value exists only where the CPU has its instructions.
#[derive(Copy, Clone, Debug)]
pub struct Avx512(());

// SAFETY: `new` checks the CPU before making a value; no other constructor exists.
unsafe impl Backend for Avx512 {
    const KIND: BackendKind = BackendKind::Avx512;
    const INHERITED: &'static [(Routine, BackendKind, &'static str)] = all_inherited_from_scalar!();

    #[inline]
    fn new() -> Option<Avx512> {
        BackendKind::Avx512.is_available().then_some(Avx512(()))
    }

    crate::backend::feature_region!(
        Avx512,
        "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,gfni,avx512vpopcntdq,avx512bitalg,avx2,bmi1,bmi2,lzcnt,popcnt"
    );

    scalar_routines!();
}

//! What the neon backend takes from swar, each with its reason (`Neon::INHERITED`). A file of
//! its own, compiled on every architecture, so that the lab on x86-64 knows which of neon's
//! probes it models are native (`BackendKind::support`).

use crate::backend::BackendKind;
use crate::routine::Routine;

/// Why the boards come from swar.
const BOARDS_WHY: &str = "sets picked and merged by whole-word ANDs and ORs, one result per \
    set: in lanes each result would be moved out of a register again";

pub(crate) const INHERITED: &[(Routine, BackendKind, &str)] = &[
    (
        Routine::PieceSets,
        BackendKind::Swar,
        "the article's formulas are whole-word ANDs, ORs and XORs, ten results from four \
         planes: paired in lanes, each result would be moved out of a register again",
    ),
    (
        Routine::MoveDelta,
        BackendKind::Swar,
        "a few rotations of one code per aspect, on general registers: nothing to run in \
         lanes",
    ),
    (
        Routine::SliderAttacks,
        BackendKind::Swar,
        "one set per direction: swar's subtraction and Kogge-Stone rays on general \
         registers, no second lane to fill",
    ),
    (
        Routine::KnightAttacks,
        BackendKind::Swar,
        "one set, seventeen shifts and masks on general registers: no second lane to fill",
    ),
    (Routine::ToClassical, BackendKind::Swar, BOARDS_WHY),
    (Routine::FromClassical, BackendKind::Swar, BOARDS_WHY),
    (Routine::ToDense, BackendKind::Swar, BOARDS_WHY),
    (Routine::FromDense, BackendKind::Swar, BOARDS_WHY),
    (
        Routine::HashManino,
        BackendKind::Swar,
        "64-bit products: NEON multiplies at most 32 by 32 bits",
    ),
    (
        Routine::HashZobrist,
        BackendKind::Swar,
        "64 table loads and no gather in NEON: swar's mailbox in general registers",
    ),
];

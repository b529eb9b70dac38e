//! What the neon backend takes from swar, each with its reason: declared once, here, in a file
//! compiled on every architecture. On AArch64 the backend's declaration (`impl_backend!` in
//! `mod.rs`) reads it and makes `Neon::INHERITED` and the forwarding methods from it; elsewhere it
//! makes the same table alone, so that the lab, modelling neon's listings on x86-64, marks neon's
//! inherited probes as on every other backend (`BackendKind::support`).

/// Why the boards come from swar.
pub(crate) const BOARDS_WHY: &str = "sets picked and merged by whole-word ANDs and ORs, one \
    result per set: in lanes each result would be moved out of a register again";

// ANCHOR: with_inherited
/// Hands `callback` its tokens followed by neon's `inherited: { .. }` declaration.
macro_rules! with_inherited {
    ($callback:ident { $($before:tt)* }) => {
        $callback! {
            $($before)*
            inherited: {
                piece_sets from Swar:
                    "the article's formulas are whole-word ANDs, ORs and XORs, ten results from \
                     four planes: paired in lanes, each result would be moved out of a register \
                     again",
                move_delta from Swar:
                    "a few rotations of one code per aspect, on general registers: nothing to run \
                     in lanes",
                slider_attacks from Swar:
                    "one set per direction: swar's subtraction and Kogge-Stone rays on general \
                     registers, no second lane to fill",
                knight_attacks from Swar:
                    "one set, seventeen shifts and masks on general registers: no second lane to \
                     fill",
                to_classical from Swar: $crate::backend::neon_inherited::BOARDS_WHY,
                from_classical from Swar: $crate::backend::neon_inherited::BOARDS_WHY,
                to_dense from Swar: $crate::backend::neon_inherited::BOARDS_WHY,
                from_dense from Swar: $crate::backend::neon_inherited::BOARDS_WHY,
                hash_manino from Swar: "64-bit products: NEON multiplies at most 32 by 32 bits",
                hash_zobrist from Swar:
                    "64 table loads and no gather in NEON: swar's mailbox in general registers",
            }
        }
    };
}
// ANCHOR_END: with_inherited
// On AArch64 the backend's declaration calls it from `mod.rs`; elsewhere only `INHERITED` below.
#[cfg_attr(not(target_arch = "aarch64"), allow(unused_imports))]
pub(crate) use with_inherited;

// ANCHOR: inherited_table
/// The declaration as a table, where the backend itself is not built.
#[cfg(not(target_arch = "aarch64"))]
macro_rules! table {
    (inherited: { $($name:ident from $from:ident: $why:expr),* $(,)? }) => {
        &[$((
            crate::routine::Routine::of_method(stringify!($name)),
            crate::backend::BackendKind::$from,
            $why,
        )),*]
    };
}

/// Neon's inherited routines, on an architecture that does not build the backend.
#[cfg(not(target_arch = "aarch64"))]
pub(crate) const INHERITED: &[(crate::routine::Routine, crate::backend::BackendKind, &str)] =
    with_inherited!(table {});
// ANCHOR_END: inherited_table

//! # qbb: the chess quad-bitboard and its SIMD techniques
//!
//! A [`Quad`] holds a whole chess position in four `u64` bit-planes: the nibble of each square is a
//! 4-bit piece code (`type << 1 | colour`). Every technique of the catalogue (piece access, disjoint
//! sets, mailbox conversions, make/unmake by xor, colour flipping, Kogge-Stone fills, knight attacks,
//! checks and pins, weighted popcount, nibble arithmetic, other board representations, hashing) is a
//! method of the [`Backend`] trait, implemented once per instruction set: [`Scalar`] (the reference),
//! [`Swar`], `Sse2`, `Avx2`, `Avx512` (x86-64), `Neon` (AArch64) and, on nightly, `Portable`.
//!
//! ```
//! use qbb::{Backend, BackendKind, Quad, Square};
//!
//! let kind = BackendKind::detect_best();
//! // Dispatch once: the closure runs inside the backend's target features.
//! let code = qbb::with_backend!(kind, |b| b.piece_at(&Quad::start_position(), Square::E1));
//! assert_eq!(code.unwrap(), 0b1100);
//! ```

#![cfg_attr(feature = "portable-simd", feature(portable_simd))]

#[macro_use]
mod const_table;

pub mod aspects;
pub mod backend;
pub mod conformance;
pub mod direction;
pub mod hash;
pub mod king_safety;
mod named;
pub mod nnue;
pub mod piece;
#[cfg(feature = "asm-probes")]
pub mod probes;
pub mod quad;
pub mod repr;
pub mod routine;
pub mod square;

pub use aspects::{MoveAspects, Special};
pub use backend::{Backend, BackendError, BackendKind, Scalar, Swar};
pub use direction::Direction;
pub use king_safety::{KingSafety, SliderPosition};
pub use piece::{Color, Piece, PieceType};
pub use quad::{PlacementError, Quad};
pub use repr::{
    Bitboard, ClassicalBoard, CompactBoard, DenseBoard, HexSets, Mailbox, NibbleBoard,
    PieceBbArray, PieceSets,
};
pub use routine::{Routine, Support};
pub use square::{Square, Squares};

#[cfg(target_arch = "aarch64")]
pub use backend::Neon;
#[cfg(target_arch = "x86_64")]
pub use backend::{Avx2, Avx512, Sse2};

#[cfg(feature = "portable-simd")]
pub use backend::Portable;

//! A UCI chess engine on the quad-bitboard, generic over the SIMD backend.
//!
//! The position lives in relative orientation (QBBEngine's): the side to move always plays up the
//! board, and make-move xors the move's delta quad into the board and flips it. Legal move
//! generation is written once, colour-agnostic, with check and pin masks per node.
//!
//! On top of it: the evaluation, by default a small NNUE network kept up to date through make-move
//! ([`nnue`]), else the hand-written one ([`eval`]: tapered material and piece-square tables,
//! counted terms through the weighted population count), the search ([`search`], with [`tt`] and
//! [`time`]), and the UCI protocol ([`uci`]) that the `qbb-engine` binary speaks.
//!
//! ```
//! use qbb::BackendKind;
//! use qbb_engine::{Attacks, Position, perft_on};
//!
//! let start = Position::startpos();
//! let nodes = perft_on(BackendKind::detect_best(), Attacks::Tables, &start, 3, true);
//! assert_eq!(nodes.unwrap(), 8902);
//! ```

pub mod board;
pub mod eval;
mod perft;
pub mod search;
pub mod tools;
pub mod uci;

pub use board::{
    Attacks, Epd, EpdError, EpdOperation, FenError, MAX_MOVES, Move, MoveError, MoveList, Position,
    Side, UnknownAttacks,
};
pub use eval::{nnue, score};
pub use perft::{
    PerftError, ThreadError, divide_on, divide_with_progress, perft, perft_on, perft_with,
};
pub use search::{time, tt};
pub use tools::{bench, datagen};

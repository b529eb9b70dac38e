//! A UCI chess engine on the quad-bitboard, generic over the SIMD backend.
//!
//! The position lives in relative orientation (QBBEngine's): the side to move always plays up the
//! board, and make-move xors the move's delta quad into the board and flips it. Legal move
//! generation is written once, colour-agnostic, with check and pin masks per node.
//!
//! ```
//! use qbb::{BackendKind, BackendTask, Backend};
//! use qbb_engine::{Position, perft};
//!
//! struct StartPerft;
//! impl BackendTask for StartPerft {
//!     type Output = u64;
//!     fn run<B: Backend>(self, b: B) -> u64 {
//!         perft(b, &Position::startpos(), 3, true)
//!     }
//! }
//! assert_eq!(qbb::run_on(BackendKind::detect_best(), StartPerft).unwrap(), 8902);
//! ```

mod attacks;
mod fen;
mod movegen;
mod moves;
mod perft;
mod position;
mod zobrist;

pub use fen::{Epd, EpdError, EpdOperation, FenError, Side};
pub use moves::{MAX_MOVES, Move, MoveError, MoveList};
pub use perft::{ThreadError, divide, divide_with_progress, perft, perft_threads};
pub use position::Position;

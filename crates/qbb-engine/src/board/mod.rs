//! The board: the position in relative orientation, its moves and their generation, FEN, Zobrist
//! hashing, and the attack sets move generation asks for.
//!
//! Everything else in the engine stands on this folder, and it stands on nothing of the engine's
//! (only on the `qbb` crate): the search, the evaluation and perft import from here, never the
//! other way round.

pub(crate) mod attack_source;
pub(crate) mod attacks;
pub(crate) mod fen;
pub(crate) mod movegen;
pub(crate) mod moves;
pub(crate) mod position;
pub(crate) mod relative_sets;
pub(crate) mod zobrist;

pub use attack_source::{Attacks, UnknownAttacks};
pub use fen::{Epd, EpdError, EpdOperation, FenError, Side};
pub use moves::{MAX_MOVES, Move, MoveError, MoveList};
pub use position::Position;

//! The routine catalogue: every technique that every backend implements, one row per method of
//! [`Backend`](crate::Backend), each tagged with its row (1..=18) in the catalogue of techniques
//! that the book's chapters follow.

use std::fmt;

use crate::backend::BackendKind;

// ANCHOR: table
/// The routine catalogue, written once: every other list of routines is generated from it.
///
/// Each row gives the routine's row in the catalogue (1..=18), the module that holds it in every
/// backend folder, its [`Routine`] variant, its id (command line, JSON, benchmark names), a short
/// title, and the [`Backend`](crate::Backend) method with its documentation.
///
/// `for_each_routine!(callback)` expands to `callback! { [] rows }`, and
/// `for_each_routine!(callback, tokens)` to `callback! { [tokens] rows }`, where each row reads
///
/// ```text
/// $(#[$doc:meta])* row $row:literal, $module:ident, $variant:ident = $id:literal, $title:literal:
/// fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*) $(-> $ret:ty)?;
/// ```
///
/// The types in the signatures are those of [`routine::types`](crate::routine::types); the
/// callback's module imports them. The NNUE routines are generic over the network's width,
/// `const HIDDEN` (a `usize`): where the callback defines a method or a function, it declares the
/// parameter; where it calls the routine, `HIDDEN` is the one `types` exports, the width the lab
/// measures.
// ANCHOR: table_head
#[macro_export]
macro_rules! for_each_routine {
    ($callback:ident $(, $($extra:tt)*)?) => {
        $callback! {
            [$($($extra)*)?]

            // ---- 1, 2: one square ----------------------------------------------------------

            /// The nibble of `sq` (the article's `getPiece`).
            row 1, square, PieceAt = "piece-at", "piece at square":
            fn piece_at(quad: &Quad, sq: Square) -> u8;

            /// Write `code & 15` into the nibble of `sq` (code 0 clears the square).
            row 2, square, SetPiece = "set-piece", "set / clear a square":
            fn set_piece(quad: &mut Quad, sq: Square, code: u8);
            // ANCHOR_END: table_head

            // ---- 3, 4: sets ----------------------------------------------------------------

            /// The disjoint piece sets of the article (see [`PieceSets`] for the formulas).
            row 3, sets, PieceSets = "piece-sets", "disjoint piece sets":
            fn piece_sets(quad: &Quad) -> PieceSets;

            /// The 16 sets of `quad2hexBB`: set `c` holds the squares whose nibble is `c`.
            row 4, sets, HexSets = "hex-sets", "quad -> 16 sets":
            fn hex_sets(quad: &Quad) -> HexSets;

            // ---- 5, 6: mailbox -------------------------------------------------------------

            /// Byte `s` = the nibble of square `s` (`quadBB2Board`).
            row 5, mailbox, ToMailbox = "to-mailbox", "quad -> mailbox":
            fn to_mailbox(quad: &Quad) -> Mailbox;

            /// The inverse of 5; only the low nibble of each byte is read.
            row 6, mailbox, FromMailbox = "from-mailbox", "mailbox -> quad":
            fn from_mailbox(mailbox: &Mailbox) -> Quad;

            // ---- 7, 8: make/unmake and flip ------------------------------------------------

            /// The delta quad of a move: the xor of its aspects (the piece leaving `from`, the
            /// piece or its promotion arriving on `to`, the captured piece leaving its square, the
            /// castling rook). `quad ^ delta` makes the move; xor-ing the delta again unmakes it.
            row 7, moves, MoveDelta = "move-delta", "make/unmake delta":
            fn move_delta(aspects: &MoveAspects) -> Quad;

            /// The colour flip: mirror all planes vertically (byte swap) and toggle the colour bit
            /// of every occupied square (type bits not all zero).
            row 8, moves, Flip = "flip", "colour flip":
            fn flip(quad: &Quad) -> Quad;

            // ---- 9..12: fills and attacks --------------------------------------------------

            /// Kogge-Stone occluded fills of four generator sets at once, in all eight
            /// directions: `out[d.index()]` holds, per plane, the generators plus the squares they
            /// reach through `empty` in direction `d` (blockers excluded, no wrap around the
            /// board's edges).
            row 9, fills, OccludedFills = "occluded-fills", "occluded fill, 8 directions":
            fn occluded_fills(generators: &Quad, empty: u64) -> [Quad; 8];

            /// The union of the ray attacks of the rook-wise sliders `orth` in the four orthogonal
            /// directions and the bishop-wise sliders `diag` in the four diagonal ones; rays stop
            /// at (and include) the first square not in `empty`.
            row 10, attacks, SliderAttacks = "slider-attacks", "sliding attacks of a set":
            fn slider_attacks(orth: u64, diag: u64, empty: u64) -> u64;

            /// The squares attacked by any knight of `knights`.
            row 11, attacks, KnightAttacks = "knight-attacks", "knight attacks of a set":
            fn knight_attacks(knights: u64) -> u64;

            /// Checks and pins of both kings by Isenberg's coding; `out[i]` is about the king of
            /// side `i` of the position (see [`KingSafety`] for the exact sets).
            row 12, attacks, ChecksAndPins = "checks-and-pins", "checks and pins":
            fn checks_and_pins(position: &SliderPosition) -> [KingSafety; 2];

            // ---- 13, 14, 15: counting and nibbles ------------------------------------------

            /// `sum popcount(sets[i]) * weights[i]` (`popCountWeight8`).
            row 13, counting, WeightedPopcount = "weighted-popcount", "weighted popcount":
            fn weighted_popcount(sets: &[u64; 8], weights: &[i16; 8]) -> i32;

            /// Lane-wise `a + b` mod 16 of 64 nibbles, carries never crossing lanes.
            row 14, nibbles, NibbleAdd = "nibble-add", "SWAR nibble add":
            fn nibble_add(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;

            /// Lane-wise `a - b` mod 16.
            row 14, nibbles, NibbleSub = "nibble-sub", "SWAR nibble sub":
            fn nibble_sub(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;

            /// Lane-wise `(a + b) / 2`, rounded down, without overflow.
            row 14, nibbles, NibbleAvg = "nibble-avg", "SWAR nibble average":
            fn nibble_avg(a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;

            /// The vertical nibbles of the quad laid out horizontally: a bit transpose.
            row 15, nibbles, ToNibbleBoard = "to-nibble-board", "quad -> nibble board":
            fn to_nibble_board(quad: &Quad) -> NibbleBoard;

            /// The inverse of `to_nibble_board`.
            row 15, nibbles, FromNibbleBoard = "from-nibble-board", "nibble board -> quad":
            fn from_nibble_board(board: &NibbleBoard) -> Quad;

            // ---- 16: other representations -------------------------------------------------

            /// The classical twelve bitboards (codes 2..=13; see [`ClassicalBoard`]).
            row 16, boards, ToClassical = "to-classical", "quad -> 12 bitboards":
            fn to_classical(quad: &Quad) -> ClassicalBoard;

            /// Plane `p` = the union of the sets whose piece code has bit `p` (any input).
            row 16, boards, FromClassical = "from-classical", "12 bitboards -> quad":
            fn from_classical(board: &ClassicalBoard) -> Quad;

            /// The denser board of two colour and six type sets (see [`DenseBoard`]).
            row 16, boards, ToDense = "to-dense", "quad -> 2+6 bitboards":
            fn to_dense(quad: &Quad) -> DenseBoard;

            /// Plane 0 = `black & (types)`, plane `p > 0` = the union of the type sets whose type
            /// has bit `p - 1` (any input; the white set is implied).
            row 16, boards, FromDense = "from-dense", "2+6 bitboards -> quad":
            fn from_dense(board: &DenseBoard) -> Quad;

            // ---- 17: hashing ---------------------------------------------------------------

            /// Manino's hash from scratch:
            /// `state * C ^ xor_i (lo32(bb[i]) * A[i] ^ hi32(bb[i]) * B[i])`, with the constants
            /// of [`crate::hash`].
            row 17, hash, HashManino = "hash-manino", "Manino hash from scratch":
            fn hash_manino(quad: &Quad, state: u64) -> u64;

            /// Zobrist from scratch: the xor of `ZOBRIST[nibble][square]` over all squares.
            row 17, hash, HashZobrist = "hash-zobrist", "Zobrist hash from scratch":
            fn hash_zobrist(quad: &Quad) -> u64;

            // ---- 18: NNUE ------------------------------------------------------------------

            /// Both perspectives' accumulators from scratch: the feature bias plus the row of
            /// every piece on the board (see [`crate::nnue`]).
            row 18, nnue, NnueRefresh = "nnue-refresh", "NNUE accumulator refresh":
            fn nnue_refresh<const HIDDEN>(
                quad: &Quad, net: &Network<HIDDEN>
            ) -> Accumulators<HIDDEN>;

            /// The incremental update: the accumulators of `before` become those of
            /// `before ^ delta` (a move's delta quad, before the flip), the rows of the pieces
            /// that left subtracted and of those that arrived added.
            row 18, nnue, NnueUpdate = "nnue-update", "NNUE incremental update":
            fn nnue_update<const HIDDEN>(
                acc: &mut Accumulators<HIDDEN>, before: &Quad, delta: &Quad, net: &Network<HIDDEN>
            );

            /// The forward pass: both accumulators through the squared clipped ReLU, times the
            /// output weights, summed; in centipawns for `us` ([`Network::finish`]).
            row 18, nnue, NnueEvaluate = "nnue-evaluate", "NNUE forward pass":
            fn nnue_evaluate<const HIDDEN>(
                acc: &Accumulators<HIDDEN>, net: &Network<HIDDEN>
            ) -> i32;
        }
    };
}
// ANCHOR_END: table

/// The types the routines' signatures use, for the modules that expand [`for_each_routine!`].
pub mod types {
    pub use crate::aspects::MoveAspects;
    pub use crate::king_safety::{KingSafety, SliderPosition};
    pub use crate::nnue::{Accumulators, HIDDEN, Network};
    pub use crate::quad::Quad;
    pub use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
    pub use crate::square::Square;
}

/// The [`Routine`] enum and its tables, from the catalogue.
macro_rules! routine_enum {
    ([] $( $(#[$doc:meta])* row $row:literal, $module:ident, $variant:ident = $id:literal,
           $title:literal: fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*)
           $(-> $ret:ty)?; )*) => {
        /// One routine of the catalogue.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Routine { $( #[doc = concat!("`", stringify!($name), "`: ", $title, ".")] $variant, )* }

        impl Routine {
            pub const ALL: &'static [Routine] = &[ $( Routine::$variant, )* ];

            /// The identifier used on the command line, in JSON and in benchmark names.
            pub const fn id(self) -> &'static str {
                match self { $( Routine::$variant => $id, )* }
            }

            /// The row of the catalogue (1..=18) this routine belongs to.
            pub const fn row(self) -> u8 {
                match self { $( Routine::$variant => $row, )* }
            }

            /// A short human title.
            pub const fn title(self) -> &'static str {
                match self { $( Routine::$variant => $title, )* }
            }

            /// The [`Backend`](crate::Backend) method, which is also the function's name in the
            /// backend's module.
            pub const fn method(self) -> &'static str {
                match self { $( Routine::$variant => stringify!($name), )* }
            }

            /// The module of every backend folder that holds the routine.
            pub const fn module(self) -> &'static str {
                match self { $( Routine::$variant => stringify!($module), )* }
            }

            /// The routine whose [`method`](Routine::method) is `name`; in a constant, a name
            /// that is no routine's fails the build.
            pub const fn of_method(name: &str) -> Routine {
                $( if same_str(name, stringify!($name)) { return Routine::$variant; } )*
                panic!("not the method of a routine of the catalogue")
            }
        }
    };
}

crate::for_each_routine!(routine_enum);

/// `a == b`, in a constant.
const fn same_str(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A routine name that is not in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a routine of the catalogue (see `qbb backends` for the list)")]
pub struct ParseRoutineError(pub String);

crate::display_and_parse_by_name!(Routine, id, ParseRoutineError = ParseRoutineError);

/// How a backend provides a routine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Support {
    /// Written with the backend's own instructions.
    Native,
    /// Taken from a lower tier, because this instruction set offers nothing better.
    Inherited {
        from: BackendKind,
        why: &'static str,
    },
}

impl fmt::Display for Support {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Support::Native => f.write_str("native"),
            Support::Inherited { from, why } => write!(f, "inherited: from {from} ({why})"),
        }
    }
}

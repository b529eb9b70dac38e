//! The routine catalogue: every technique that every backend implements, one entry per method of
//! [`Backend`](crate::Backend), each tagged with its row in the catalogue of DESIGN.md section 3.

use std::fmt;
use std::str::FromStr;

use crate::backend::BackendKind;

macro_rules! routines {
    ($( $variant:ident = $id:literal, row $row:literal, $title:literal; )*) => {
        /// One routine of the catalogue.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Routine { $( $variant, )* }

        impl Routine {
            pub const ALL: &'static [Routine] = &[ $( Routine::$variant, )* ];

            /// The identifier used on the command line, in JSON and in benchmark names.
            pub const fn id(self) -> &'static str {
                match self { $( Routine::$variant => $id, )* }
            }

            /// The row of the catalogue (1..=17) this routine belongs to.
            pub const fn row(self) -> u8 {
                match self { $( Routine::$variant => $row, )* }
            }

            /// A short human title.
            pub const fn title(self) -> &'static str {
                match self { $( Routine::$variant => $title, )* }
            }
        }
    };
}

routines! {
    PieceAt = "piece-at", row 1, "piece at square";
    SetPiece = "set-piece", row 2, "set / clear a square";
    PieceSets = "piece-sets", row 3, "disjoint piece sets";
    HexSets = "hex-sets", row 4, "quad -> 16 sets";
    ToMailbox = "to-mailbox", row 5, "quad -> mailbox";
    FromMailbox = "from-mailbox", row 6, "mailbox -> quad";
    MoveDelta = "move-delta", row 7, "make/unmake delta";
    Flip = "flip", row 8, "colour flip";
    OccludedFills = "occluded-fills", row 9, "occluded fill, 8 directions";
    SliderAttacks = "slider-attacks", row 10, "sliding attacks of a set";
    KnightAttacks = "knight-attacks", row 11, "knight attacks of a set";
    ChecksAndPins = "checks-and-pins", row 12, "checks and pins";
    WeightedPopcount = "weighted-popcount", row 13, "weighted popcount";
    NibbleAdd = "nibble-add", row 14, "SWAR nibble add";
    NibbleSub = "nibble-sub", row 14, "SWAR nibble sub";
    NibbleAvg = "nibble-avg", row 14, "SWAR nibble average";
    ToNibbleBoard = "to-nibble-board", row 15, "quad -> nibble board";
    FromNibbleBoard = "from-nibble-board", row 15, "nibble board -> quad";
    ToClassical = "to-classical", row 16, "quad -> 12 bitboards";
    FromClassical = "from-classical", row 16, "12 bitboards -> quad";
    ToDense = "to-dense", row 16, "quad -> 2+6 bitboards";
    FromDense = "from-dense", row 16, "2+6 bitboards -> quad";
    HashManino = "hash-manino", row 17, "Manino hash from scratch";
    HashZobrist = "hash-zobrist", row 17, "Zobrist hash from scratch";
}

impl fmt::Display for Routine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A routine name that is not in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a routine of the catalogue (see `qbb backends` for the list)")]
pub struct ParseRoutineError(pub String);

impl FromStr for Routine {
    type Err = ParseRoutineError;

    fn from_str(s: &str) -> Result<Routine, ParseRoutineError> {
        Routine::ALL
            .iter()
            .copied()
            .find(|r| r.id() == s)
            .ok_or_else(|| ParseRoutineError(s.to_string()))
    }
}

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

//! The aspects of a move that make/unmake by xor needs (catalogue row 7).
//!
//! `qbb ^= fromTable[move.fromAspects()] ^ toTable[move.toAspects()]`: the move carries the codes of
//! the moving and captured pieces, so its delta is a xor of single-nibble quads and applying the delta
//! a second time restores the position.

use crate::square::Square;

/// What a move does besides lifting `piece` from `from` and putting it (or its promotion) on `to`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Special {
    #[default]
    None,
    /// The captured pawn stands on `captured_on`, not on the target square.
    EnPassant { captured_on: Square },
    /// The rook (code `rook`) goes from `rook_from` to `rook_to` as well; in Chess960 any of the
    /// four squares may coincide, which the xor handles by itself.
    Castle {
        rook_from: Square,
        rook_to: Square,
        rook: u8,
    },
}

/// A move described by its aspects. Codes are nibbles (0..=15); `captured == 0` means no capture
/// and `promotion == 0` no promotion.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveAspects {
    pub from: Square,
    pub to: Square,
    pub piece: u8,
    pub captured: u8,
    pub promotion: u8,
    pub special: Special,
}

impl MoveAspects {
    /// A quiet move of `piece`.
    pub const fn quiet(from: Square, to: Square, piece: u8) -> MoveAspects {
        MoveAspects {
            from,
            to,
            piece,
            captured: 0,
            promotion: 0,
            special: Special::None,
        }
    }

    /// The code that lands on `to`: the promotion piece if any, otherwise the moving piece.
    #[inline(always)]
    pub const fn landing_code(&self) -> u8 {
        if self.promotion != 0 {
            self.promotion
        } else {
            self.piece
        }
    }

    /// Where the captured piece stood: the target square, or the passed pawn's square.
    #[inline(always)]
    pub const fn capture_square(&self) -> Square {
        match self.special {
            Special::EnPassant { captured_on } => captured_on,
            _ => self.to,
        }
    }
}

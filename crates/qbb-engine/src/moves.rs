//! Moves and fixed-capacity move lists.
//!
//! A [`Move`] carries everything make-move needs, as the Quad-Bitboards article's
//! `fromTable[move.fromAspects()] ^ toTable[move.toAspects()]` suggests: the squares, the type of
//! the moving piece, the type of the captured piece and the promotion, so that making it reads
//! nothing from the board. Squares are relative to the side to move (it plays up the board).

use std::fmt;
use std::ops::Index;

use qbb::{Backend, PieceType, Square};

use crate::position::Position;

/// A move in 32 bits: `from | to << 6 | piece << 12 | captured << 15 | promotion << 18 |
/// special << 21`, the three type fields holding [`PieceType`] bits (0 = none).
///
/// Castling is encoded as "king takes own rook": `to` is the rook's square, in standard chess as in
/// Chess960.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

/// What a move does beyond moving (and capturing on `to`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum Special {
    Normal = 0,
    Castle = 1,
    EnPassant = 2,
    /// A pawn's two-square advance, which may create an en-passant square.
    DoublePush = 3,
}

impl Move {
    /// No move: from a1 to a1 with no piece. Never legal, never generated.
    pub const NULL: Move = Move(0);

    #[inline(always)]
    pub(crate) const fn new(
        from: usize,
        to: usize,
        piece: u32,
        captured: u32,
        promotion: u32,
        special: Special,
    ) -> Move {
        Move(
            from as u32
                | (to as u32) << 6
                | piece << 12
                | captured << 15
                | promotion << 18
                | (special as u32) << 21,
        )
    }

    /// The square the piece leaves (relative).
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0)
    }

    /// The square the piece goes to (relative); the rook's square for a castling move.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked(self.0 >> 6)
    }

    #[inline(always)]
    pub(crate) const fn origin(self) -> usize {
        (self.0 & 63) as usize
    }

    #[inline(always)]
    pub(crate) const fn target(self) -> usize {
        (self.0 >> 6 & 63) as usize
    }

    /// The type bits (1..=6) of the moving piece; 0 for [`Move::NULL`].
    #[inline(always)]
    pub(crate) const fn piece_bits(self) -> u32 {
        self.0 >> 12 & 7
    }

    /// The type bits of the captured piece, 0 if none (en passant: a pawn).
    #[inline(always)]
    pub(crate) const fn captured_bits(self) -> u32 {
        self.0 >> 15 & 7
    }

    #[inline(always)]
    pub(crate) const fn promotion_bits(self) -> u32 {
        self.0 >> 18 & 7
    }

    #[inline(always)]
    pub(crate) const fn special(self) -> Special {
        match self.0 >> 21 & 3 {
            0 => Special::Normal,
            1 => Special::Castle,
            2 => Special::EnPassant,
            _ => Special::DoublePush,
        }
    }

    /// True if the move is `special` (one shift and compare, no decoding).
    #[inline(always)]
    pub(crate) const fn is(self, special: Special) -> bool {
        self.0 >> 21 & 3 == special as u32
    }

    /// The moving piece's type (`None` only for [`Move::NULL`]).
    #[inline(always)]
    pub const fn piece(self) -> Option<PieceType> {
        PieceType::from_bits(self.piece_bits() as u8)
    }

    /// The captured piece's type, if any (a pawn for en passant).
    #[inline(always)]
    pub const fn captured(self) -> Option<PieceType> {
        PieceType::from_bits(self.captured_bits() as u8)
    }

    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        PieceType::from_bits(self.promotion_bits() as u8)
    }

    /// True for captures, en passant included.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.captured_bits() != 0
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.is(Special::Castle)
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.is(Special::EnPassant)
    }

    /// The raw 32 bits (for hash tables).
    #[inline(always)]
    pub const fn to_bits(self) -> u32 {
        self.0
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NULL {
            return f.write_str("Move(null)");
        }
        write!(f, "Move({}{}", self.from(), self.to())?;
        if let Some(p) = self.promotion() {
            write!(f, "={}", p.letter())?;
        }
        if let Some(c) = self.captured() {
            write!(f, " x{}", c.letter())?;
        }
        match self.special() {
            Special::Castle => f.write_str(" castle")?,
            Special::EnPassant => f.write_str(" e.p.")?,
            Special::DoublePush | Special::Normal => {}
        }
        f.write_str(")")
    }
}

/// Why a UCI move text is not a legal move in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("`{0}` is not a move in UCI notation (expected like e2e4, e7e8q or 0000)")]
    Syntax(String),
    #[error("`{0}` is not a legal move in this position")]
    Illegal(String),
}

/// The most moves a position can have is 218; 256 leaves room and keeps the index a byte.
pub const MAX_MOVES: usize = 256;

/// A list of moves that lives on the stack: move generation never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub const fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Refills the list through a [`Filler`]: the count stays in a local (a register) while the
    /// moves are written, instead of going through memory at each push.
    #[inline(always)]
    pub(crate) fn fill(&mut self, generate: impl FnOnce(&mut Filler<'_>)) {
        let mut filler = Filler {
            slots: &mut self.moves,
            len: 0,
        };
        generate(&mut filler);
        self.len = filler.len;
    }

    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves, mutable (for ordering them in place).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    #[inline(always)]
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

/// Writes moves into a [`MoveList`]'s slots; see [`MoveList::fill`].
pub(crate) struct Filler<'a> {
    slots: &'a mut [Move; MAX_MOVES],
    len: usize,
}

impl Filler<'_> {
    /// Appends a move; the capacity exceeds any position's move count, so a legal position never
    /// overflows it (a full list ignores further moves rather than writing out of bounds).
    #[inline(always)]
    pub(crate) fn push(&mut self, mv: Move) {
        if let Some(slot) = self.slots.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Index<usize> for MoveList {
    type Output = Move;

    #[inline(always)]
    fn index(&self, i: usize) -> &Move {
        &self.as_slice()[i]
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl Position {
    /// The move in UCI notation, with absolute squares. Castling is written as the king's two-square
    /// move (`e1g1`) in standard chess and as "king takes own rook" (`e1h1`) when `chess960`.
    pub fn move_to_uci(&self, mv: Move, chess960: bool) -> String {
        if mv == Move::NULL {
            return "0000".to_string();
        }
        let to = if mv.is_castle() && !chess960 {
            let king_to = if mv.target() > mv.origin() { 6 } else { 2 };
            Square::from_index_masked(king_to)
        } else {
            mv.to()
        };
        let mut text = format!(
            "{}{}",
            self.absolute_square(mv.from()),
            self.absolute_square(to)
        );
        if let Some(p) = mv.promotion() {
            text.push(p.letter());
        }
        text
    }

    /// The legal move that `text` (UCI notation, absolute squares) names. Castling is accepted
    /// in both notations, the one of this position's variant taking precedence.
    pub fn parse_uci_move<B: Backend>(&self, b: B, text: &str) -> Result<Move, MoveError> {
        let well_formed = match text.as_bytes() {
            [f1, r1, f2, r2, rest @ ..] => {
                [f1, f2].iter().all(|f| (b'a'..=b'h').contains(f))
                    && [r1, r2].iter().all(|r| (b'1'..=b'8').contains(r))
                    && matches!(rest, [] | [b'n' | b'b' | b'r' | b'q'])
            }
            _ => false,
        };
        if !well_formed {
            return Err(MoveError::Syntax(text.to_string()));
        }
        let mut moves = MoveList::new();
        self.generate_moves(b, &mut moves);
        let named = |chess960: bool| {
            moves
                .iter()
                .copied()
                .find(|&m| self.move_to_uci(m, chess960) == text)
        };
        named(self.chess960)
            .or_else(|| named(!self.chess960).filter(|m| m.is_castle()))
            .ok_or_else(|| MoveError::Illegal(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let mv = Move::new(12, 28, 1, 0, 0, Special::DoublePush);
        assert_eq!(mv.from(), "e2".parse().unwrap());
        assert_eq!(mv.to(), "e4".parse().unwrap());
        assert_eq!(mv.piece(), Some(PieceType::Pawn));
        assert!(!mv.is_capture() && !mv.is_castle() && !mv.is_en_passant());
        let promo = Move::new(54, 63, 1, 4, 5, Special::Normal);
        assert_eq!(promo.promotion(), Some(PieceType::Queen));
        assert_eq!(promo.captured(), Some(PieceType::Rook));
        assert!(promo.is_capture());
        let ep = Move::new(36, 43, 1, 1, 0, Special::EnPassant);
        assert!(ep.is_en_passant() && ep.is_capture());
        let castle = Move::new(4, 7, 6, 0, 0, Special::Castle);
        assert!(castle.is_castle() && !castle.is_capture());
        assert_eq!(Move::NULL.piece(), None);
        assert_ne!(castle, Move::NULL);
    }

    #[test]
    fn list_never_overflows() {
        let mut list = MoveList::new();
        list.fill(|f| {
            for i in 0..300 {
                f.push(Move::new(i % 64, 0, 1, 0, 0, Special::Normal));
            }
        });
        assert_eq!(list.len(), MAX_MOVES);
        assert_eq!(list[3].origin(), 3);
        list.clear();
        assert!(list.is_empty());
    }
}

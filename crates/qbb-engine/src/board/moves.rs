//! Moves and fixed-capacity move lists.
//!
//! A [`Move`] carries everything make-move needs, as the Quad-Bitboards article's
//! `fromTable[move.fromAspects()] ^ toTable[move.toAspects()]` suggests: the squares, the type of
//! the moving piece, the type of the captured piece and the promotion, so that making it reads
//! nothing from the board. Squares are relative to the side to move (it plays up the board).

use std::fmt;
use std::ops::Index;

use qbb::{Backend, PieceType, Square};

use crate::board::position::{Position, TypeBits, castled_king};

/// A move in 32 bits: `from | to << 6 | piece << 12 | captured << 15 | promotion << 18 |
/// kind << 21`, the three type fields holding [`PieceType`] bits (0 = none).
///
/// Castling is encoded as "king takes own rook": `to` is the rook's square, in standard chess as in
/// Chess960.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

/// What a move does beyond moving (and capturing on `to`). Make-move turns it into the aspects'
/// [`qbb::Special`], which also carries the squares the xor needs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub(crate) enum MoveKind {
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
        from: Square,
        to: Square,
        piece: PieceType,
        captured: TypeBits,
        promotion: TypeBits,
        kind: MoveKind,
    ) -> Move {
        Move(
            from.index() as u32
                | (to.index() as u32) << 6
                | (piece as u32) << 12
                | captured.bits() << 15
                | promotion.bits() << 18
                | (kind as u32) << 21,
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

    /// The type bits of the moving piece; none only for [`Move::NULL`].
    #[inline(always)]
    pub(crate) const fn piece_bits(self) -> TypeBits {
        TypeBits::masked(self.0 >> 12)
    }

    /// The type bits of the captured piece, none if nothing is captured (en passant: a pawn).
    #[inline(always)]
    pub(crate) const fn captured_bits(self) -> TypeBits {
        TypeBits::masked(self.0 >> 15)
    }

    /// The type bits of the promotion, none if the move does not promote.
    #[inline(always)]
    pub(crate) const fn promotion_bits(self) -> TypeBits {
        TypeBits::masked(self.0 >> 18)
    }

    #[inline(always)]
    pub(crate) const fn kind(self) -> MoveKind {
        match self.0 >> 21 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::Castle,
            2 => MoveKind::EnPassant,
            _ => MoveKind::DoublePush,
        }
    }

    /// True if the move is of `kind` (one shift and compare, no decoding).
    #[inline(always)]
    pub(crate) const fn is(self, kind: MoveKind) -> bool {
        self.0 >> 21 & 3 == kind as u32
    }

    /// The moving piece's type (`None` only for [`Move::NULL`]).
    #[inline(always)]
    pub const fn piece(self) -> Option<PieceType> {
        self.piece_bits().kind()
    }

    /// The captured piece's type, if any (a pawn for en passant).
    #[inline(always)]
    pub const fn captured(self) -> Option<PieceType> {
        self.captured_bits().kind()
    }

    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceType> {
        self.promotion_bits().kind()
    }

    /// True for captures, en passant included.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        !self.captured_bits().is_none()
    }

    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.is(MoveKind::Castle)
    }

    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.is(MoveKind::EnPassant)
    }

    /// The raw 32 bits (for hash tables).
    #[inline(always)]
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// The move whose [`Move::to_bits`] these are (a hash table's copy).
    #[inline(always)]
    pub(crate) const fn from_bits(bits: u32) -> Move {
        Move(bits)
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
        match self.kind() {
            MoveKind::Castle => f.write_str(" castle")?,
            MoveKind::EnPassant => f.write_str(" e.p.")?,
            MoveKind::DoublePush | MoveKind::Normal => {}
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

    /// Keeps the moves for which `keep` holds, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let mv = self.moves[i];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
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
            castled_king(mv.from(), mv.to())
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

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn fields_round_trip() {
        let none = TypeBits::NONE;
        let mv = Move::new(
            sq("e2"),
            sq("e4"),
            PieceType::Pawn,
            none,
            none,
            MoveKind::DoublePush,
        );
        assert_eq!((mv.from(), mv.to()), (sq("e2"), sq("e4")));
        assert_eq!(mv.piece(), Some(PieceType::Pawn));
        assert!(!mv.is_capture() && !mv.is_castle() && !mv.is_en_passant());
        let rook = TypeBits::of(PieceType::Rook);
        let queen = TypeBits::of(PieceType::Queen);
        let promo = Move::new(
            sq("g7"),
            sq("h8"),
            PieceType::Pawn,
            rook,
            queen,
            MoveKind::Normal,
        );
        assert_eq!(promo.promotion(), Some(PieceType::Queen));
        assert_eq!(promo.captured(), Some(PieceType::Rook));
        assert!(promo.is_capture());
        let pawn = TypeBits::of(PieceType::Pawn);
        let ep = Move::new(
            sq("e5"),
            sq("d6"),
            PieceType::Pawn,
            pawn,
            none,
            MoveKind::EnPassant,
        );
        assert!(ep.is_en_passant() && ep.is_capture());
        let castle = Move::new(
            Square::E1,
            Square::H1,
            PieceType::King,
            none,
            none,
            MoveKind::Castle,
        );
        assert!(castle.is_castle() && !castle.is_capture());
        assert_eq!(Move::NULL.piece(), None);
        assert_ne!(castle, Move::NULL);
    }

    #[test]
    fn list_never_overflows() {
        let mut list = MoveList::new();
        let none = TypeBits::NONE;
        list.fill(|f| {
            for i in 0..300 {
                let from = Square::from_index_masked(i);
                f.push(Move::new(
                    from,
                    Square::A1,
                    PieceType::Pawn,
                    none,
                    none,
                    MoveKind::Normal,
                ));
            }
        });
        assert_eq!(list.len(), MAX_MOVES);
        assert_eq!(list[3].from(), Square::from_index_masked(3));
        list.clear();
        assert!(list.is_empty());
    }
}

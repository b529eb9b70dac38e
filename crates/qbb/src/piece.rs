//! Colours, piece types and the 4-bit piece codes of the Quad-Bitboards article:
//! `code = type << 1 | colour`, empty = 0000B, white king = 1100B, black pawn = 0011B.

use std::fmt;

/// White is 0 and black is 1: the colour bit of a piece code, and plane 0 of an absolute quad.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Color {
    White = 0,
    Black = 1,
}

impl Color {
    #[inline(always)]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// The six piece types, numbered as in the article's coding (the three type bits of a nibble).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum PieceType {
    Pawn = 1,
    Knight = 2,
    Bishop = 3,
    Rook = 4,
    Queen = 5,
    King = 6,
}

impl PieceType {
    pub const ALL: [PieceType; 6] = [
        PieceType::Pawn,
        PieceType::Knight,
        PieceType::Bishop,
        PieceType::Rook,
        PieceType::Queen,
        PieceType::King,
    ];

    /// The type with these three bits, if they name one (1..=6).
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> Option<PieceType> {
        match bits {
            1 => Some(PieceType::Pawn),
            2 => Some(PieceType::Knight),
            3 => Some(PieceType::Bishop),
            4 => Some(PieceType::Rook),
            5 => Some(PieceType::Queen),
            6 => Some(PieceType::King),
            _ => None,
        }
    }

    /// Index 0..6 (pawn = 0), for arrays of per-type data.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    /// The lower-case letter of FEN (`p n b r q k`).
    pub const fn letter(self) -> char {
        match self {
            PieceType::Pawn => 'p',
            PieceType::Knight => 'n',
            PieceType::Bishop => 'b',
            PieceType::Rook => 'r',
            PieceType::Queen => 'q',
            PieceType::King => 'k',
        }
    }
}

/// A coloured piece, stored as its nibble code (2..=13).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece(u8);

impl Piece {
    // ANCHOR: piece_code
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece((kind as u8) << 1 | color as u8)
    }
    // ANCHOR_END: piece_code

    /// The piece of a nibble code, if the code names one (codes 0, 1, 14 and 15 do not).
    #[inline(always)]
    pub const fn from_code(code: u8) -> Option<Piece> {
        match PieceType::from_bits((code >> 1) & 7) {
            Some(_) if code < 16 => Some(Piece(code)),
            _ => None,
        }
    }

    /// The 4-bit code: `type << 1 | colour`.
    #[inline(always)]
    pub const fn code(self) -> u8 {
        self.0
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        match PieceType::from_bits(self.0 >> 1) {
            Some(kind) => kind,
            None => unreachable!(),
        }
    }

    /// FEN letter: upper case for white, lower case for black.
    pub const fn letter(self) -> char {
        let c = self.kind().letter();
        match self.color() {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_letter(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_lowercase() {
            'p' => PieceType::Pawn,
            'n' => PieceType::Knight,
            'b' => PieceType::Bishop,
            'r' => PieceType::Rook,
            'q' => PieceType::Queen,
            'k' => PieceType::King,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({:04b}B)", self.letter(), self.0)
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Signed nibbles (Nibble article): bit 3 is the sign of a two's complement value in -8..=7.
pub mod signed {
    /// The value of a nibble read as signed: 0..=7 stay, 8..=15 become -8..=-1.
    #[inline(always)]
    pub const fn to_signed(nibble: u8) -> i8 {
        (((nibble & 15) << 4) as i8) >> 4
    }

    /// The nibble that holds `value`, which must be in -8..=7; `None` outside that range.
    #[inline(always)]
    pub const fn from_signed(value: i8) -> Option<u8> {
        if value >= -8 && value <= 7 {
            Some(value as u8 & 15)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_article_table() {
        let table = [
            ('P', 0b0010),
            ('N', 0b0100),
            ('B', 0b0110),
            ('R', 0b1000),
            ('Q', 0b1010),
            ('K', 0b1100),
            ('p', 0b0011),
            ('n', 0b0101),
            ('b', 0b0111),
            ('r', 0b1001),
            ('q', 0b1011),
            ('k', 0b1101),
        ];
        for (letter, code) in table {
            let piece = Piece::from_letter(letter).unwrap();
            assert_eq!(piece.code(), code, "{letter}");
            assert_eq!(Piece::from_code(code), Some(piece));
            assert_eq!(piece.letter(), letter);
        }
        for code in [0, 1, 14, 15, 16] {
            assert_eq!(Piece::from_code(code), None);
        }
    }

    #[test]
    fn signed_nibbles_match_the_article_table() {
        let expected = [0, 1, 2, 3, 4, 5, 6, 7, -8, -7, -6, -5, -4, -3, -2, -1];
        for (nibble, want) in expected.into_iter().enumerate() {
            assert_eq!(signed::to_signed(nibble as u8), want);
            assert_eq!(signed::from_signed(want), Some(nibble as u8));
        }
        assert_eq!(signed::from_signed(8), None);
        assert_eq!(signed::from_signed(-9), None);
    }
}

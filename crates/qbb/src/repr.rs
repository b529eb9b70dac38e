//! The other board representations of the seed articles, and the set types the routines return.
//!
//! Each one converts to and from [`Quad`](crate::Quad) through the backend routines (catalogue rows
//! 4, 5, 15 and 16); the types here only hold the data and give it its natural accessors.

use std::ops::{BitAnd, BitOr, BitXor, Shl, Shr};

use crate::piece::{Color, Piece, PieceType};
use crate::square::Square;

/// What set formulas ask of a bitboard: the bitwise operations, shifts by a number of squares
/// (`i32`, as `Direction::delta` gives them) and a constant set (`From<u64>`). `u64` is one; a
/// batch of boards, one per lane, is another: the engine's perft counts eight children at once
/// with the reference's [`piece_sets_of`](crate::backend::scalar::piece_sets_of) and its own
/// pawn pushes and captures.
pub trait Bitboard:
    Copy
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Shl<i32, Output = Self>
    + Shr<i32, Output = Self>
    + From<u64>
{
}

impl Bitboard for u64 {}

/// The 8x8 mailbox of the SSE2 `quadBB2Board`: byte `s` holds the nibble of square `s`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(C, align(64))]
pub struct Mailbox(pub [u8; 64]);

impl Default for Mailbox {
    fn default() -> Mailbox {
        Mailbox([0; 64])
    }
}

impl Mailbox {
    #[inline(always)]
    pub const fn get(&self, sq: Square) -> u8 {
        self.0[sq.index()]
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square, code: u8) {
        self.0[sq.index()] = code;
    }
}

/// The 16 disjoint sets of `quad2hexBB`: `0[c]` = the squares whose nibble is `c`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(64))]
pub struct HexSets(pub [u64; 16]);

/// The disjoint bitboards of the Quad-Bitboards article, derived by a few bitwise operations.
///
/// On any four planes: `black = bb0`, `occupied = bb1|bb2|bb3`, `odd = bb1^bb2^bb3`,
/// `white = bb0 ^ occupied`, `pawns = odd & bb1`, `knights = odd & bb2`, `bishops = bb1 & bb2`,
/// `rooks = odd & bb3`, `queens = bb1 & bb3`, `kings = bb2 & bb3`. (On random planes these sets may
/// overlap: code 15 is a "bishop", a "queen" and a "king"; code 1 is "black" but not occupied.)
///
/// The sets are bitboards (`u64`); the formulas also run on other types of bitboard, such as the
/// engine's lanes of several boards at once (`qbb::backend::scalar::piece_sets_of`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(16))]
pub struct PieceSets<T = u64> {
    pub black: T,
    pub white: T,
    pub occupied: T,
    pub odd: T,
    pub pawns: T,
    pub knights: T,
    pub bishops: T,
    pub rooks: T,
    pub queens: T,
    pub kings: T,
}

impl PieceSets {
    /// The set of one piece type.
    #[inline(always)]
    pub const fn of_type(&self, kind: PieceType) -> u64 {
        match kind {
            PieceType::Pawn => self.pawns,
            PieceType::Knight => self.knights,
            PieceType::Bishop => self.bishops,
            PieceType::Rook => self.rooks,
            PieceType::Queen => self.queens,
            PieceType::King => self.kings,
        }
    }

    /// The set of one colour (`black` or `white`).
    #[inline(always)]
    pub const fn of_color(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// The classical board of the Bitboard Board-Definition article: one bitboard per coloured piece,
/// `bb[colour * 6 + type - 1]` (white pawns .. white king, black pawns .. black king).
///
/// From a quad it takes the squares of codes 2..=13; codes 1, 14 and 15 name no piece and are not
/// represented.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(32))]
pub struct ClassicalBoard {
    pub bb: [u64; 12],
}

impl ClassicalBoard {
    #[inline(always)]
    pub const fn index(piece: Piece) -> usize {
        piece.color().index() * 6 + piece.kind().index()
    }

    #[inline(always)]
    pub const fn pieces(&self, piece: Piece) -> u64 {
        self.bb[Self::index(piece)]
    }

    /// The `pieceBB[14]` array form with its redundant union sets.
    pub fn to_array_form(&self) -> PieceBbArray {
        let mut bb = [0u64; 14];
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let set = self.pieces(Piece::new(color, kind));
                bb[PieceBbArray::index(Piece::new(color, kind))] = set;
                bb[color.index()] |= set;
            }
        }
        let occupied = bb[0] | bb[1];
        PieceBbArray {
            bb,
            occupied,
            empty: !occupied,
        }
    }
}

/// The `pieceBB[14]` array form: `[white, black, white pawns, black pawns, white knights, ...]`,
/// indexed `2 + 2 * (type - 1) + colour`, plus the occupied and empty sets.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct PieceBbArray {
    pub bb: [u64; 14],
    pub occupied: u64,
    pub empty: u64,
}

impl PieceBbArray {
    pub const WHITE: usize = 0;
    pub const BLACK: usize = 1;

    #[inline(always)]
    pub const fn index(piece: Piece) -> usize {
        2 + 2 * piece.kind().index() + piece.color().index()
    }

    /// Back to the twelve piece bitboards (the union sets are redundant).
    pub fn to_classical(&self) -> ClassicalBoard {
        let mut out = ClassicalBoard::default();
        for color in [Color::White, Color::Black] {
            for kind in PieceType::ALL {
                let piece = Piece::new(color, kind);
                out.bb[ClassicalBoard::index(piece)] = self.bb[Self::index(piece)];
            }
        }
        out
    }
}

/// The denser board: two colour sets and six colourless piece-type sets,
/// `[white, black, pawns, knights, bishops, rooks, queens, kings]`.
///
/// From a quad: type `t` holds the squares of codes `2t` and `2t + 1`; white holds the even codes
/// 2..=12 and black the odd codes 3..=13; codes 0, 1, 14 and 15 belong to no set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(64))]
pub struct DenseBoard {
    pub bb: [u64; 8],
}

impl DenseBoard {
    pub const WHITE: usize = 0;
    pub const BLACK: usize = 1;

    #[inline(always)]
    pub const fn of_type(&self, kind: PieceType) -> u64 {
        self.bb[2 + kind.index()]
    }

    #[inline(always)]
    pub const fn of_color(&self, color: Color) -> u64 {
        self.bb[color.index()]
    }

    /// The article's `getPieceSet`: a colour set intersected with a type set.
    #[inline(always)]
    pub const fn pieces(&self, piece: Piece) -> u64 {
        self.of_type(piece.kind()) & self.of_color(piece.color())
    }
}

/// The Nibble article's array of nibbles: `nibbleBoard[32]`, square `s` in byte `s / 2`, the low
/// nibble for even squares and the high nibble for odd ones.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
#[repr(C, align(32))]
pub struct NibbleBoard(pub [u8; 32]);

impl NibbleBoard {
    /// The article's `getPiece(square)`.
    #[inline(always)]
    pub const fn get(&self, sq: Square) -> u8 {
        let shift = (sq.index() & 1) << 2; // 4 or 0
        (self.0[sq.index() >> 1] >> shift) & 15
    }

    /// The article's `setPiece(square, piece)`: clear the nibble, then or the code in.
    #[inline(always)]
    pub fn set(&mut self, sq: Square, code: u8) {
        let shift = (sq.index() & 1) << 2;
        let byte = &mut self.0[sq.index() >> 1];
        *byte &= 0xF0u8 >> shift; // keeps the other nibble (0xF0 or 0x0F)
        *byte |= (code & 15) << shift;
    }

    /// The same 64 nibbles as four 64-bit words, word `k` holding squares `16k .. 16k + 15`.
    #[inline(always)]
    pub fn to_words(&self) -> [u64; 4] {
        std::array::from_fn(|k| {
            u64::from_le_bytes(self.0[8 * k..8 * k + 8].try_into().expect("8 bytes"))
        })
    }

    #[inline(always)]
    pub fn from_words(words: [u64; 4]) -> NibbleBoard {
        let mut out = NibbleBoard::default();
        for (k, w) in words.into_iter().enumerate() {
            out.0[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        out
    }
}

/// Vučković's Compact Chessboard Representation: eight 32-bit words, one per rank, the nibble of
/// file `f` in bits `4f .. 4f + 3` (so a rank reads right to left in hex: `0x846CA648` is the white
/// back rank R N B Q K B N R from a1). The same nibbles as [`NibbleBoard`], held for register
/// processing.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct CompactBoard {
    pub ranks: [u32; 8],
}

impl CompactBoard {
    #[inline(always)]
    pub const fn get(&self, sq: Square) -> u8 {
        ((self.ranks[sq.rank() as usize] >> (4 * sq.file())) & 15) as u8
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square, code: u8) {
        let rank = &mut self.ranks[sq.rank() as usize];
        let shift = 4 * sq.file();
        *rank = (*rank & !(15 << shift)) | (u32::from(code & 15) << shift);
    }

    /// The four-u64 view of the paper: two ranks per word.
    #[inline(always)]
    pub fn to_u64_words(&self) -> [u64; 4] {
        std::array::from_fn(|k| {
            u64::from(self.ranks[2 * k]) | u64::from(self.ranks[2 * k + 1]) << 32
        })
    }

    pub fn from_nibble_board(board: &NibbleBoard) -> CompactBoard {
        CompactBoard {
            ranks: std::array::from_fn(|r| {
                u32::from_le_bytes(board.0[4 * r..4 * r + 4].try_into().expect("4 bytes"))
            }),
        }
    }

    pub fn to_nibble_board(&self) -> NibbleBoard {
        let mut out = NibbleBoard::default();
        for (r, rank) in self.ranks.iter().enumerate() {
            out.0[4 * r..4 * r + 4].copy_from_slice(&rank.to_le_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nibble_board_get_set_as_the_article() {
        let mut nb = NibbleBoard::default();
        for sq in Square::all() {
            nb.set(sq, (sq.index() * 7) as u8 & 15);
        }
        for sq in Square::all() {
            assert_eq!(nb.get(sq), (sq.index() * 7) as u8 & 15);
        }
        nb.set(Square::E1, 0b1100);
        assert_eq!(nb.0[2] & 15, 0b1100, "e1 = square 4: low nibble of byte 2");
        assert_eq!(NibbleBoard::from_words(nb.to_words()), nb);
    }

    #[test]
    fn compact_board_is_the_nibble_board_by_ranks() {
        let mut nb = NibbleBoard::default();
        let back = [8u8, 4, 6, 10, 12, 6, 4, 8];
        for (f, code) in back.into_iter().enumerate() {
            nb.set(Square::new(f as u8).unwrap(), code);
        }
        let ccr = CompactBoard::from_nibble_board(&nb);
        assert_eq!(ccr.ranks[0], 0x846C_A648);
        assert_eq!(ccr.get(Square::E1), 12);
        assert_eq!(ccr.to_nibble_board(), nb);
        assert_eq!(ccr.to_u64_words(), nb.to_words());
    }
}

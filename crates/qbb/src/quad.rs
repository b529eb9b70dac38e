//! The quad-bitboard: four `u64` planes holding one vertical nibble per square.
//!
//! Plane 0 is the colour bit and planes 1..3 are the three bits of the piece type, so the nibble of
//! square `s` is `bb[0]>>s & 1 | (bb[1]>>s & 1) << 1 | (bb[2]>>s & 1) << 2 | (bb[3]>>s & 1) << 3`.
//! Two readings of the same four planes:
//!
//! - **absolute** (the Quad-Bitboards article): plane 0 = the black pieces, a1 at the bottom;
//! - **relative** (QBBEngine's `PM, P0, P1, P2`): plane 0 = the side to move's pieces, and the board
//!   is mirrored when black is to move, so that the side to move always plays "up the board".

use std::fmt;
use std::ops::{BitAnd, BitOr, BitXor, BitXorAssign, Not};

use crate::piece::{Color, Piece};
use crate::square::Square;

// ANCHOR: quad
/// Four bit-planes, 32-byte aligned so that one AVX2 register (or two SSE2 registers) holds them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
#[repr(C, align(32))]
pub struct Quad {
    pub bb: [u64; 4],
}
// ANCHOR_END: quad

impl Quad {
    pub const EMPTY: Quad = Quad { bb: [0; 4] };

    #[inline(always)]
    pub const fn new(bb0: u64, bb1: u64, bb2: u64, bb3: u64) -> Quad {
        Quad {
            bb: [bb0, bb1, bb2, bb3],
        }
    }

    /// The same bitboard in all four planes (the article's `QBB pro(pro64)`).
    #[inline(always)]
    pub const fn splat(bb: u64) -> Quad {
        Quad { bb: [bb; 4] }
    }

    /// The quad whose only non-zero nibble is `code` on `sq`: one aspect of a move.
    #[inline(always)]
    pub const fn nibble_at(sq: Square, code: u8) -> Quad {
        let (s, c) = (sq.index(), code as u64);
        Quad {
            bb: [
                (c & 1) << s,
                (c >> 1 & 1) << s,
                (c >> 2 & 1) << s,
                (c >> 3 & 1) << s,
            ],
        }
    }

    /// Squares holding a piece: any type bit set (codes 0 and 1 count as empty).
    #[inline(always)]
    pub const fn occupied(&self) -> u64 {
        self.bb[1] | self.bb[2] | self.bb[3]
    }

    /// The start position in absolute orientation.
    pub fn start_position() -> Quad {
        Quad::from_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
            .expect("the start position parses")
    }

    /// Parses the first field of a FEN (the piece placement) into an absolute quad.
    pub fn from_placement(placement: &str) -> Result<Quad, PlacementError> {
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != 8 {
            return Err(PlacementError::RankCount(ranks.len()));
        }
        let mut quad = Quad::EMPTY;
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=8).contains(&d) {
                        return Err(PlacementError::BadDigit {
                            rank: rank + 1,
                            digit: c,
                        });
                    }
                    file += d as u8;
                } else {
                    let piece = Piece::from_letter(c).ok_or(PlacementError::BadLetter {
                        rank: rank + 1,
                        letter: c,
                    })?;
                    if file >= 8 {
                        return Err(PlacementError::RankLength { rank: rank + 1 });
                    }
                    let sq = Square::from_file_rank(file, rank).expect("file and rank below 8");
                    quad ^= Quad::nibble_at(sq, piece.code());
                    file += 1;
                }
                if file > 8 {
                    return Err(PlacementError::RankLength { rank: rank + 1 });
                }
            }
            if file != 8 {
                return Err(PlacementError::RankLength { rank: rank + 1 });
            }
        }
        Ok(quad)
    }

    /// Writes the FEN placement field of an absolute quad. Squares with codes 1, 14 or 15, which
    /// name no piece, are written as empty.
    pub fn to_placement(&self) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = Square::from_file_rank(file, rank).expect("in range");
                match Piece::from_code(self.nibble(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The nibble of one square, the article's `getPiece` (the scalar reference of routine 1).
    #[inline(always)]
    pub const fn nibble(&self, sq: Square) -> u8 {
        let s = sq.index();
        ((self.bb[0] >> s) & 1
            | ((self.bb[1] >> s) & 1) << 1
            | ((self.bb[2] >> s) & 1) << 2
            | ((self.bb[3] >> s) & 1) << 3) as u8
    }

    /// Mirror every plane vertically (rank 1 <-> rank 8): one byte swap per plane.
    #[inline(always)]
    pub const fn mirrored(&self) -> Quad {
        Quad::new(
            self.bb[0].swap_bytes(),
            self.bb[1].swap_bytes(),
            self.bb[2].swap_bytes(),
            self.bb[3].swap_bytes(),
        )
    }

    // ANCHOR: relative
    /// Toggle the colour bit of every occupied square (QBBEngine's `PM ^= occupied`).
    #[inline(always)]
    pub const fn colors_swapped(&self) -> Quad {
        Quad::new(
            self.bb[0] ^ self.occupied(),
            self.bb[1],
            self.bb[2],
            self.bb[3],
        )
    }

    /// The relative reading of an absolute quad for `side_to_move`: plane 0 = its pieces, board
    /// mirrored when black is to move.
    #[inline(always)]
    pub const fn to_relative(&self, side_to_move: Color) -> Quad {
        match side_to_move {
            Color::White => self.colors_swapped(),
            Color::Black => self.mirrored(),
        }
    }
    // ANCHOR_END: relative

    /// The absolute reading of a relative quad; the inverse of [`Quad::to_relative`].
    #[inline(always)]
    pub const fn to_absolute(&self, side_to_move: Color) -> Quad {
        match side_to_move {
            Color::White => self.colors_swapped(),
            Color::Black => self.mirrored(),
        }
    }

    /// Draws the four planes side by side as the article does (`bb3 bb2 bb1 bb0`, rank 8 on top),
    /// each as an 8x8 grid of `1` and `.`.
    pub fn planes_diagram(&self, titles: [&str; 4]) -> String {
        let mut out = String::new();
        for (i, plane) in [3usize, 2, 1, 0].into_iter().enumerate() {
            if i > 0 {
                out.push_str("   ");
            }
            out.push_str(&format!("{:<15}", titles[plane]));
        }
        out.push('\n');
        for rank in (0..8).rev() {
            for (i, plane) in [3usize, 2, 1, 0].into_iter().enumerate() {
                if i > 0 {
                    out.push_str("   ");
                }
                let row: Vec<&str> = (0..8)
                    .map(|file| {
                        if self.bb[plane] >> (rank * 8 + file) & 1 != 0 {
                            "1"
                        } else {
                            "."
                        }
                    })
                    .collect();
                out.push_str(&row.join(" "));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Debug for Quad {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Quad[{:#018x}, {:#018x}, {:#018x}, {:#018x}]",
            self.bb[0], self.bb[1], self.bb[2], self.bb[3]
        )
    }
}

macro_rules! lanewise {
    ($trait:ident, $method:ident, $op:tt) => {
        impl $trait for Quad {
            type Output = Quad;
            #[inline(always)]
            fn $method(self, rhs: Quad) -> Quad {
                Quad::new(
                    self.bb[0] $op rhs.bb[0],
                    self.bb[1] $op rhs.bb[1],
                    self.bb[2] $op rhs.bb[2],
                    self.bb[3] $op rhs.bb[3],
                )
            }
        }
    };
}
lanewise!(BitAnd, bitand, &);
lanewise!(BitOr, bitor, |);
lanewise!(BitXor, bitxor, ^);

impl BitXorAssign for Quad {
    #[inline(always)]
    fn bitxor_assign(&mut self, rhs: Quad) {
        *self = *self ^ rhs;
    }
}

impl Not for Quad {
    type Output = Quad;
    #[inline(always)]
    fn not(self) -> Quad {
        Quad::new(!self.bb[0], !self.bb[1], !self.bb[2], !self.bb[3])
    }
}

/// What is wrong with a FEN piece-placement field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    #[error("the placement has {0} ranks separated by '/', expected 8")]
    RankCount(usize),
    #[error(
        "rank {rank}: `{letter}` is not a piece letter (expected one of PNBRQK pnbrqk or a digit 1-8)"
    )]
    BadLetter { rank: u8, letter: char },
    #[error("rank {rank}: digit `{digit}` is out of range (expected 1-8)")]
    BadDigit { rank: u8, digit: char },
    #[error("rank {rank} does not describe exactly 8 squares")]
    RankLength { rank: u8 },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The article's diagram of the start position, rank 8 first, planes bb3 bb2 bb1 bb0.
    const ARTICLE: &str = "\
1 . . 1 1 . . 1   . 1 1 . 1 1 1 .   . . 1 1 . 1 . .   1 1 1 1 1 1 1 1
. . . . . . . .   . . . . . . . .   1 1 1 1 1 1 1 1   1 1 1 1 1 1 1 1
. . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . .
. . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . .
. . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . .
. . . . . . . .   . . . . . . . .   . . . . . . . .   . . . . . . . .
. . . . . . . .   . . . . . . . .   1 1 1 1 1 1 1 1   . . . . . . . .
1 . . 1 1 . . 1   . 1 1 . 1 1 1 .   . . 1 1 . 1 . .   . . . . . . . .
";

    #[test]
    fn start_position_matches_the_article_diagram() {
        let q = Quad::start_position();
        let drawn = q.planes_diagram(["bb0", "bb1", "bb2", "bb3"]);
        let grids: String = drawn.lines().skip(1).map(|l| format!("{l}\n")).collect();
        assert_eq!(grids, ARTICLE);
        assert_eq!(q.bb[0], 0xFFFF_0000_0000_0000, "plane 0 = black");
        assert_eq!(q.nibble(Square::E1), 0b1100, "white king on e1");
        assert_eq!(q.nibble(Square::E8), 0b1101, "black king on e8");
        assert_eq!(q.nibble("d1".parse().unwrap()), 0b1010, "white queen on d1");
        assert_eq!(q.nibble("a7".parse().unwrap()), 0b0011, "black pawn on a7");
    }

    #[test]
    fn relative_reading_matches_qbbengine_diagram() {
        // QBBEngine's picture: with white to move, PM holds ranks 1 and 2.
        let rel = Quad::start_position().to_relative(Color::White);
        assert_eq!(rel.bb[0], 0x0000_0000_0000_FFFF);
        assert_eq!(rel.to_absolute(Color::White), Quad::start_position());
        let black = Quad::start_position().to_relative(Color::Black);
        assert_eq!(
            black.bb[0], 0x0000_0000_0000_FFFF,
            "black's pieces, mirrored to the bottom"
        );
        assert_eq!(black.to_absolute(Color::Black), Quad::start_position());
    }

    #[test]
    fn placement_round_trips_and_rejects_bad_input() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R";
        assert_eq!(Quad::from_placement(fen).unwrap().to_placement(), fen);
        assert_eq!(
            Quad::from_placement("8/8/8/8/8/8/8"),
            Err(PlacementError::RankCount(7))
        );
        assert!(matches!(
            Quad::from_placement("8/8/8/8/8/8/8/7X"),
            Err(PlacementError::BadLetter {
                rank: 1,
                letter: 'X'
            })
        ));
        assert!(matches!(
            Quad::from_placement("9/8/8/8/8/8/8/8"),
            Err(PlacementError::BadDigit { rank: 8, .. })
        ));
        assert!(matches!(
            Quad::from_placement("ppppppppp/8/8/8/8/8/8/8"),
            Err(PlacementError::RankLength { rank: 8 })
        ));
        assert!(matches!(
            Quad::from_placement("7/8/8/8/8/8/8/8"),
            Err(PlacementError::RankLength { rank: 8 })
        ));
        assert!(matches!(
            Quad::from_placement("44p/8/8/8/8/8/8/8"),
            Err(PlacementError::RankLength { rank: 8 })
        ));
    }
}

//! FEN and EPD: reading positions (standard, X-FEN and Shredder-FEN castling) and writing them.
//!
//! Every position the engine could not play correctly is refused with an error that names the
//! problem; no input makes the parser panic.

use std::fmt;

use qbb::{Color, Piece, PieceType, PlacementError, Quad, Square};

use crate::board::position::{NO_EP, Position};

/// Which side, for messages.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Side(pub Color);

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error(
        "a FEN has 4 to 6 fields separated by spaces (placement, side to move, castling, \
         en passant, half-move clock, move number); found {0}"
    )]
    FieldCount(usize),
    #[error(transparent)]
    Placement(#[from] PlacementError),
    #[error("{side} has {count} kings, expected exactly one")]
    KingCount { side: Side, count: u32 },
    #[error("a pawn stands on {square}: pawns cannot stand on the first or last rank")]
    PawnOnBackRank { square: Square },
    #[error(
        "{side} has more material than a game of chess allows (at most 8 pawns, 16 pieces, \
         and no more promoted pieces than missing pawns)"
    )]
    TooMuchMaterial { side: Side },
    #[error("side to move `{0}` is neither `w` nor `b`")]
    SideToMove(String),
    #[error("the side not to move ({side}) is in check")]
    OpponentInCheck { side: Side },
    #[error(
        "castling field `{field}`: `{letter}` is not a castling letter \
         (expected KQkq, file letters A-H a-h, or -)"
    )]
    BadCastlingLetter { field: String, letter: char },
    #[error("castling right `{right}`: the {side} king is not on its first rank")]
    CastlingWithoutKing { right: char, side: Side },
    #[error("castling right `{right}`: no {side} rook on its first rank on that side of the king")]
    CastlingWithoutRook { right: char, side: Side },
    #[error("castling right `{right}` gives {side} a second right on the same side of the king")]
    DuplicateCastling { right: char, side: Side },
    #[error("en-passant field `{0}` is not a square or -")]
    BadEnPassant(String),
    #[error(
        "en-passant square {square}: no pawn can have just passed it \
         (wrong rank, occupied, or no pawn in front of it)"
    )]
    ImpossibleEnPassant { square: Square },
    #[error("half-move clock `{0}` is not a number")]
    HalfmoveClock(String),
    #[error("move number `{0}` is not a number")]
    FullmoveNumber(String),
}

/// The squares of `piece` in an absolute quad.
fn squares_of(quad: &Quad, piece: Piece) -> u64 {
    let code = piece.code();
    (0..4).fold(!0u64, |acc, p| {
        acc & if code >> p & 1 != 0 {
            quad.bb[p]
        } else {
            !quad.bb[p]
        }
    })
}

fn check_material(quad: &Quad, color: Color) -> Result<(), FenError> {
    let count = |kind| squares_of(quad, Piece::new(color, kind)).count_ones();
    let kings = count(PieceType::King);
    if kings != 1 {
        return Err(FenError::KingCount {
            side: Side(color),
            count: kings,
        });
    }
    let pawns = count(PieceType::Pawn);
    let excess = count(PieceType::Queen).saturating_sub(1)
        + count(PieceType::Rook).saturating_sub(2)
        + count(PieceType::Bishop).saturating_sub(2)
        + count(PieceType::Knight).saturating_sub(2);
    let all: u32 = PieceType::ALL.iter().map(|&k| count(k)).sum();
    if pawns > 8 || all > 16 || excess > 8 - pawns {
        return Err(FenError::TooMuchMaterial { side: Side(color) });
    }
    Ok(())
}

/// Reads the castling field into the absolute squares of the castling rooks, and whether it can
/// only be Chess960.
fn parse_castling(field: &str, quad: &Quad) -> Result<(u64, bool), FenError> {
    let mut rooks_with_rights = 0u64;
    // Which rights were given: [white short, white long, black short, black long].
    let mut given = [false; 4];
    let mut chess960 = false;
    if field == "-" {
        return Ok((rooks_with_rights, chess960));
    }
    for letter in field.chars() {
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let side = Side(color);
        let back_rank: u64 = if color == Color::White {
            0xFF
        } else {
            0xFF << 56
        };
        let bad_letter = || FenError::BadCastlingLetter {
            field: field.to_string(),
            letter,
        };
        let lower = letter.to_ascii_lowercase();
        if !matches!(lower, 'k' | 'q' | 'a'..='h') {
            return Err(bad_letter());
        }
        let king = squares_of(quad, Piece::new(color, PieceType::King)) & back_rank;
        if king == 0 {
            return Err(FenError::CastlingWithoutKing {
                right: letter,
                side,
            });
        }
        let king_file = (king.trailing_zeros() & 7) as u8;
        let rooks = squares_of(quad, Piece::new(color, PieceType::Rook)) & back_rank;
        let mut rook_files =
            (0..8u8).filter(|f| rooks & back_rank & 0x0101_0101_0101_0101 << f != 0);
        let rook_file = match lower {
            'k' => rook_files.filter(|&f| f > king_file).max(),
            'q' => rook_files.filter(|&f| f < king_file).min(),
            file => {
                chess960 = true;
                let f = file as u8 - b'a';
                rook_files.find(|&r| r == f && r != king_file)
            }
        }
        .ok_or(FenError::CastlingWithoutRook {
            right: letter,
            side,
        })?;
        let short = rook_file > king_file;
        let index = (color == Color::Black) as usize * 2 + (!short) as usize;
        if given[index] {
            return Err(FenError::DuplicateCastling {
                right: letter,
                side,
            });
        }
        given[index] = true;
        rooks_with_rights |= back_rank & 0x0101_0101_0101_0101 << rook_file;
        if king_file != 4 || rook_file != if short { 7 } else { 0 } {
            chess960 = true;
        }
    }
    Ok((rooks_with_rights, chess960))
}

impl Position {
    /// Reads a FEN: placement, side to move, castling (KQkq, X-FEN or Shredder-FEN file letters),
    /// en passant, and optionally the half-move clock and move number (default 0 and 1).
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if !(4..=6).contains(&fields.len()) {
            return Err(FenError::FieldCount(fields.len()));
        }
        let absolute = Quad::from_placement(fields[0])?;
        for color in [Color::White, Color::Black] {
            check_material(&absolute, color)?;
        }
        let pawns = squares_of(&absolute, Piece::new(Color::White, PieceType::Pawn))
            | squares_of(&absolute, Piece::new(Color::Black, PieceType::Pawn));
        let back_ranks = 0xFF00_0000_0000_00FFu64;
        if pawns & back_ranks != 0 {
            return Err(FenError::PawnOnBackRank {
                square: Square::from_index_masked((pawns & back_ranks).trailing_zeros()),
            });
        }
        let side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::SideToMove(other.to_string())),
        };
        let (castle_rooks, chess960) = parse_castling(fields[2], &absolute)?;
        let halfmove = match fields.get(4) {
            Some(text) => text
                .parse()
                .map_err(|_| FenError::HalfmoveClock(text.to_string()))?,
            None => 0,
        };
        let fullmove = match fields.get(5) {
            Some(text) => text
                .parse()
                .map_err(|_| FenError::FullmoveNumber(text.to_string()))?,
            None => 1,
        };
        let mut pos = Position {
            quad: absolute.to_relative(side),
            hash: 0,
            castle_rooks: match side {
                Color::White => castle_rooks,
                Color::Black => castle_rooks.swap_bytes(),
            },
            ep_file: NO_EP,
            side,
            chess960,
            halfmove,
            fullmove,
        };
        pos.ep_file = parse_en_passant(fields[3], &pos)?;
        if pos.make_null_move().in_check(qbb::Scalar) {
            return Err(FenError::OpponentInCheck {
                side: Side(side.other()),
            });
        }
        pos.hash = pos.hash_from_scratch(qbb::Scalar);
        Ok(pos)
    }

    /// Writes the position as a FEN with all six fields. Castling is written in X-FEN: `K`, `Q`,
    /// `k` or `q` when the castling rook is the outermost rook on its side of the king (always so
    /// in standard chess), the rook's file letter (Shredder-FEN) only when it is an inner one.
    pub fn to_fen(&self) -> String {
        let ep = match self.en_passant() {
            Some(sq) => self.absolute_square(sq).to_string(),
            None => "-".to_string(),
        };
        format!(
            "{} {} {} {} {} {}",
            self.absolute_quad().to_placement(),
            match self.side {
                Color::White => 'w',
                Color::Black => 'b',
            },
            self.castling_text(),
            ep,
            self.halfmove,
            self.fullmove
        )
    }

    /// The absolute square of relative square `sq` (they differ when black is to move).
    #[inline]
    pub fn absolute_square(&self, sq: Square) -> Square {
        match self.side {
            Color::White => sq,
            Color::Black => sq.mirrored(),
        }
    }

    fn castling_text(&self) -> String {
        let absolute = self.absolute_quad();
        let rooks = match self.side {
            Color::White => self.castle_rooks,
            Color::Black => self.castle_rooks.swap_bytes(),
        };
        let mut out = String::new();
        for color in [Color::White, Color::Black] {
            let back_rank = match color {
                Color::White => 0xFF,
                Color::Black => 0xFF << 56,
            };
            let king = squares_of(&absolute, Piece::new(color, PieceType::King)) & back_rank;
            let king_file = king.trailing_zeros() & 7;
            let on_file = |file: u32| back_rank & 0x0101_0101_0101_0101 << file;
            let our_rooks = squares_of(&absolute, Piece::new(color, PieceType::Rook)) & back_rank;
            let files = (0..8u32).filter(|&f| rooks & on_file(f) != 0);
            // King side first, as in KQkq.
            let mut letters: Vec<(bool, char)> = files
                .map(|file| {
                    let short = file > king_file;
                    let mut beyond = if short { file + 1..8 } else { 0..file };
                    let outermost = !beyond.any(|f| our_rooks & on_file(f) != 0);
                    let letter = match (outermost, short) {
                        (true, true) => 'k',
                        (true, false) => 'q',
                        (false, _) => char::from(b'a' + file as u8),
                    };
                    (!short, letter)
                })
                .collect();
            letters.sort();
            for (_, letter) in letters {
                out.push(match color {
                    Color::White => letter.to_ascii_uppercase(),
                    Color::Black => letter,
                });
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }
}

/// Reads the en-passant field; a square is kept only if a pawn of the side to move could capture
/// there (as X-FEN writes it), so that positions reached by different move orders compare equal.
fn parse_en_passant(field: &str, pos: &Position) -> Result<u8, FenError> {
    if field == "-" {
        return Ok(NO_EP);
    }
    let square: Square = field
        .parse()
        .map_err(|_| FenError::BadEnPassant(field.to_string()))?;
    let rel = pos.absolute_square(square).index();
    let file = rel & 7;
    let pawns = pos.of_type(PieceType::Pawn);
    let occupied = pos.quad.occupied();
    let possible = rel / 8 == 5
        && occupied >> rel & 1 == 0
        && occupied >> (rel + 8) & 1 == 0
        && (pawns & pos.them()) >> (rel - 8) & 1 != 0;
    if !possible {
        return Err(FenError::ImpossibleEnPassant { square });
    }
    let beside = (if file > 0 { 1u64 << (rel - 9) } else { 0 })
        | (if file < 7 { 1u64 << (rel - 7) } else { 0 });
    Ok(if beside & pawns & pos.us() != 0 {
        file as u8
    } else {
        NO_EP
    })
}

/// One EPD operation: `opcode operands`, as in `bm e4` or `D3 8902`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdOperation {
    pub opcode: String,
    pub operands: String,
}

/// A position with EPD operations: `FEN ;D1 20 ;D2 400` (perft suites) or `FEN bm e4; id "x";`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Epd {
    pub position: Position,
    pub operations: Vec<EpdOperation>,
}

/// What is wrong with an EPD line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    #[error("{0}")]
    Fen(#[from] FenError),
    #[error("operation `{0}` is not `Dk n` (a depth and a node count)")]
    BadPerftCount(String),
}

impl Epd {
    /// Reads an EPD line: the four FEN fields, optionally the two counters, then operations
    /// separated by `;`.
    pub fn parse(line: &str) -> Result<Epd, EpdError> {
        let (head, rest) = line.split_once(';').unwrap_or((line, ""));
        let tokens: Vec<&str> = head.split_whitespace().collect();
        if tokens.len() < 4 {
            return Err(FenError::FieldCount(tokens.len()).into());
        }
        let counters = tokens[4..]
            .iter()
            .take(2)
            .take_while(|t| t.bytes().all(|b| b.is_ascii_digit()))
            .count();
        let fen = tokens[..4 + counters].join(" ");
        let position = Position::from_fen(&fen)?;
        let first_op = tokens[4 + counters..].join(" ");
        let operations = std::iter::once(first_op.as_str())
            .chain(rest.split(';'))
            .filter_map(|op| {
                let op = op.trim();
                let (opcode, operands) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
                (!opcode.is_empty()).then(|| EpdOperation {
                    opcode: opcode.to_string(),
                    operands: operands.trim().to_string(),
                })
            })
            .collect();
        Ok(Epd {
            position,
            operations,
        })
    }

    /// The perft counts of the line: operations `Dk n`, as `(depth, nodes)`.
    pub fn perft_counts(&self) -> Result<Vec<(u32, u64)>, EpdError> {
        self.operations
            .iter()
            .filter(|op| op.opcode.starts_with('D'))
            .map(|op| {
                let bad = || EpdError::BadPerftCount(format!("{} {}", op.opcode, op.operands));
                let depth = op.opcode[1..].parse().map_err(|_| bad())?;
                let nodes = op.operands.parse().map_err(|_| bad())?;
                Ok((depth, nodes))
            })
            .collect()
    }

    /// Writes the line back: the FEN, then ` ;opcode operands` per operation.
    pub fn to_epd(&self) -> String {
        let mut out = self.position.to_fen();
        for op in &self.operations {
            out.push_str(" ;");
            out.push_str(&op.opcode);
            if !op.operands.is_empty() {
                out.push(' ');
                out.push_str(&op.operands);
            }
        }
        out
    }
}

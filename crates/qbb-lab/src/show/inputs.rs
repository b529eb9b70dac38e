//! The inputs of the pictures that need more than a position: squares to write (`--set`) and a
//! move (`--move`), read into what the routines take.

use anyhow::{Context, bail};
use qbb::{Color, MoveAspects, Piece, PieceType, Quad, Special, Square};
use qbb_engine::Position;

/// `SQUARE=WHAT`: a piece letter, `.` to clear, or a code 0..=15 in decimal.
pub fn parse_write(text: &str) -> anyhow::Result<(Square, u8)> {
    let context = || format!("--set {text}: expected SQUARE=PIECE, like b8=Q, c7=. or e4=12");
    let (square, what) = text.split_once('=').with_context(context)?;
    let square: Square = square.parse().with_context(context)?;
    let code = match what {
        "." => 0,
        _ if what.chars().all(|c| c.is_ascii_digit()) && !what.is_empty() => match what.parse() {
            Ok(code @ 0..=15) => code,
            _ => bail!("--set {text}: a code is 0 to 15"),
        },
        _ => {
            let mut chars = what.chars();
            match (chars.next().and_then(Piece::from_letter), chars.next()) {
                (Some(piece), None) => piece.code(),
                _ => bail!(
                    "--set {text}: `{what}` is not a piece letter (PNBRQK pnbrqk), `.` or a code 0-15"
                ),
            }
        }
    };
    Ok((square, code))
}

/// A FEN completed to the four fields the engine needs (side to move, castling, en passant).
fn full_fen(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    for (i, default) in ["w", "-", "-"].into_iter().enumerate() {
        if fields.len() <= i + 1 {
            fields.push(default);
        }
    }
    fields.join(" ")
}

/// The aspects of a legal move, given in UCI notation (`e1g1`, `e7e8q`; castling also as king
/// takes own rook, `e1h1`), in the absolute orientation of `quad`: the piece that leaves, the
/// piece or promotion that lands, the captured piece (on its own square for en passant), the
/// castling rook.
pub fn move_aspects(fen: &str, quad: &Quad, text: &str) -> anyhow::Result<MoveAspects> {
    let position = Position::from_fen(&full_fen(fen))
        .with_context(|| format!("--move needs a legal position: {fen}"))?;
    position
        .parse_uci_move(qbb::Scalar, text)
        .with_context(|| format!("--move {text}"))?;
    // A legal move of the engine: the text is well formed and its squares hold what it says.
    let square = |at: usize| {
        text[at..at + 2]
            .parse::<Square>()
            .expect("checked by the engine")
    };
    let (from, to) = (square(0), square(2));
    let piece = quad.nibble(from);
    let colour = piece & 1;
    let own_rook = Piece::new(color_of(colour), PieceType::Rook).code();
    let on_rank = |file: u8| Square::from_file_rank(file, from.rank()).expect("on the board");
    let kind = piece & !1;
    let mut aspects = MoveAspects::quiet(from, to, piece);
    if kind == 12 && (quad.nibble(to) == own_rook || from.file().abs_diff(to.file()) == 2) {
        let kingside = to.file() > from.file();
        let rook_from = if quad.nibble(to) == own_rook {
            to
        } else {
            on_rank(if kingside { 7 } else { 0 })
        };
        aspects.to = on_rank(if kingside { 6 } else { 2 });
        aspects.special = Special::Castle {
            rook_from,
            rook_to: on_rank(if kingside { 5 } else { 3 }),
            rook: own_rook,
        };
    } else if kind == 2 && from.file() != to.file() && quad.nibble(to) == 0 {
        aspects.captured = 2 | (colour ^ 1);
        aspects.special = Special::EnPassant {
            captured_on: Square::from_file_rank(to.file(), from.rank()).expect("on the board"),
        };
    } else {
        aspects.captured = quad.nibble(to);
        if let Some(letter) = text.chars().nth(4) {
            let kind = Piece::from_letter(letter.to_ascii_uppercase())
                .expect("checked by the engine")
                .kind();
            aspects.promotion = Piece::new(color_of(colour), kind).code();
        }
    }
    Ok(aspects)
}

fn color_of(bit: u8) -> Color {
    if bit == 0 { Color::White } else { Color::Black }
}

/// What the aspects say, in words: `king e1 -> g1, rook h1 -> f1`.
pub fn describe(aspects: &MoveAspects) -> String {
    let name = |code: u8| match Piece::from_code(code) {
        Some(p) => format!("{} ({code:X})", p.letter()),
        None => format!("code {code:X}"),
    };
    let mut out = format!("{} {} -> {}", name(aspects.piece), aspects.from, aspects.to);
    if aspects.promotion != 0 {
        out.push_str(&format!(", promoted to {}", name(aspects.promotion)));
    }
    if aspects.captured != 0 {
        out.push_str(&format!(
            ", takes {} on {}",
            name(aspects.captured),
            aspects.capture_square()
        ));
    }
    if let Special::Castle {
        rook_from,
        rook_to,
        rook,
    } = aspects.special
    {
        out.push_str(&format!(", {} {rook_from} -> {rook_to}", name(rook)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qbb::Backend;

    /// The quad after the move by xor, against the engine's own make-move.
    fn check(fen: &str, uci: &str) {
        let quad = Quad::from_placement(fen.split(' ').next().unwrap()).unwrap();
        let aspects = move_aspects(fen, &quad, uci).unwrap();
        let after = quad ^ qbb::Scalar.move_delta(&aspects);
        let position = Position::from_fen(fen).unwrap();
        let mv = position.parse_uci_move(qbb::Scalar, uci).unwrap();
        let engine = position.make_move(qbb::Scalar, mv).to_fen();
        assert_eq!(
            after.to_placement(),
            engine.split(' ').next().unwrap(),
            "{fen} {uci}"
        );
    }

    #[test]
    fn aspects_make_the_engines_move() {
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        for uci in ["e1g1", "e1c1", "e1h1", "e5f7", "d5e6", "a2a4", "e2a6"] {
            check(kiwipete, uci);
        }
        let black = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        for uci in ["e8g8", "e8c8", "h3g2", "b4c3"] {
            check(black, uci);
        }
        check(
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "e5f6",
        );
        for uci in ["c7b8q", "c7c8n", "c7b8r"] {
            check("1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1", uci);
        }
    }

    #[test]
    fn bad_moves_and_writes_are_refused_with_a_reason() {
        let quad = Quad::start_position();
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let error = |r: anyhow::Result<MoveAspects>| format!("{:#}", r.unwrap_err());
        assert!(error(move_aspects(start, &quad, "e2e5")).contains("not a legal move"));
        assert!(error(move_aspects(start, &quad, "e2")).contains("not a move in UCI"));
        assert_eq!(parse_write("b8=Q").unwrap(), ("b8".parse().unwrap(), 10));
        assert_eq!(parse_write("c7=.").unwrap(), ("c7".parse().unwrap(), 0));
        assert_eq!(parse_write("a1=15").unwrap(), (Square::A1, 15));
        assert!(format!("{:#}", parse_write("b8Q").unwrap_err()).contains("SQUARE=PIECE"));
        assert!(format!("{:#}", parse_write("b8=X").unwrap_err()).contains("`X`"));
        assert!(format!("{:#}", parse_write("b8=16").unwrap_err()).contains("0 to 15"));
        assert!(format!("{:#}", parse_write("z8=Q").unwrap_err()).contains("`z8`"));
    }
}

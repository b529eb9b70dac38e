//! The position's contract: FEN reading, writing and refusing, Zobrist keys kept incrementally,
//! UCI move text, the capture generator, and the check test, along random games from the suites
//! on every backend.

use proptest::prelude::*;
use qbb::{Backend, BackendKind, Color, PieceType, Square};
use qbb_corpus::Suite;
use qbb_engine::{Attacks, Epd, FenError, Move, MoveError, MoveList, Position, Side};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn fen_round_trips_on_every_suite() {
    for suite in Suite::ALL {
        for entry in suite.entries() {
            let p = pos(entry.fen);
            let written = p.to_fen();
            assert_eq!(Position::from_fen(&written), Ok(p), "{written}");
            // Without an en-passant square (kept only when a capture is possible) and with X-FEN
            // castling letters, the text comes back as given (the fischer suite's Shredder-FEN
            // letters are checked below).
            let fields: Vec<&str> = entry.fen.split_whitespace().collect();
            if fields[3] == "-" && fields[2].chars().all(|c| "KQkq-".contains(c)) {
                assert_eq!(written, entry.fen, "{suite}");
            }
        }
    }
}

/// The X-FEN letter for the Shredder-FEN castling letter `letter` in the placement `placement`,
/// read from the text: `K`/`Q` (`k`/`q` for black) when its rook is the outermost rook on its side
/// of the king, else the letter itself (and `-` for no rights).
fn x_fen_letter(placement: &str, letter: char) -> char {
    if letter == '-' {
        return letter;
    }
    let ranks: Vec<&str> = placement.split('/').collect();
    let white = letter.is_ascii_uppercase();
    let back_rank: Vec<char> = ranks[if white { 7 } else { 0 }]
        .chars()
        .flat_map(|c| match c.to_digit(10) {
            Some(n) => vec!['.'; n as usize],
            None => vec![c],
        })
        .collect();
    let (king, rook) = if white { ('K', 'R') } else { ('k', 'r') };
    let king_file = back_rank.iter().position(|&c| c == king).unwrap();
    let file = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    assert_eq!(back_rank[file], rook, "{placement} {letter}");
    let short = file > king_file;
    let beyond = if short { file + 1..8 } else { 0..file };
    if beyond.clone().any(|f| back_rank[f] == rook) {
        letter
    } else {
        let x_fen = if short { 'k' } else { 'q' };
        if white {
            x_fen.to_ascii_uppercase()
        } else {
            x_fen
        }
    }
}

#[test]
fn chess960_castling_is_written_in_x_fen() {
    let mut x_fen_inputs = 0;
    for entry in Suite::Fischer.entries() {
        let p = pos(entry.fen);
        let written = p.to_fen();
        assert_eq!(Position::from_fen(&written), Ok(p), "{written}");
        let given: Vec<&str> = entry.fen.split_whitespace().collect();
        let fields: Vec<&str> = written.split_whitespace().collect();
        let castling: String = given[2]
            .chars()
            .map(|c| x_fen_letter(given[0], c))
            .collect();
        assert_eq!(fields[2], castling, "{}", entry.fen);
        assert_eq!([fields[0], fields[1]], [given[0], given[1]]);
        assert_eq!(fields[4..], given[4..]);
        // Read back, the X-FEN text is written exactly as read.
        assert_eq!(pos(&written).to_fen(), written);
        x_fen_inputs += castling.chars().all(|c| "KQkq".contains(c)) as usize;
    }
    assert!(x_fen_inputs > 900, "{x_fen_inputs} of 960 in plain KQkq");
}

#[test]
fn inner_castling_rooks_keep_their_file_letters() {
    // White castles short with the f1 rook, inside the h1 rook, and long with the outermost a1
    // rook; black short with its inner f8 rook.
    let inner = "1r1k1r1r/8/8/8/8/8/8/R2K1R1R w FQf - 0 1";
    assert_eq!(pos(inner).to_fen(), inner);
    assert_eq!(
        pos("1r1k1r1r/8/8/8/8/8/8/R2K1R1R w FAf - 0 1").to_fen(),
        inner
    );
    // The h1 rook castles: it is the outermost one, so `K` names it.
    assert_eq!(
        pos("1r1k1r1r/8/8/8/8/8/8/R2K1R1R w HA - 0 1").to_fen(),
        "1r1k1r1r/8/8/8/8/8/8/R2K1R1R w KQ - 0 1"
    );
    assert_ne!(
        pos("1r1k1r1r/8/8/8/8/8/8/R2K1R1R w KQ - 0 1"),
        pos("1r1k1r1r/8/8/8/8/8/8/R2K1R1R w FQ - 0 1")
    );
}

#[test]
fn accessors_read_the_fen() {
    let p = pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 3 17");
    assert_eq!(p.side_to_move(), Color::Black);
    assert_eq!((p.halfmove_clock(), p.fullmove_number()), (3, 17));
    assert!(!p.is_chess960() && !p.in_check(qbb::Scalar) && p.has_non_pawn_material());
    // Relative squares: black to move, so its queen on e7 is seen on e2.
    assert_eq!(p.piece_on("e2".parse().unwrap()), Some(PieceType::Queen));
    assert!(p.is_ours("e2".parse().unwrap()));
    assert_eq!(p.piece_on("e7".parse().unwrap()), Some(PieceType::Bishop));
    assert!(!p.is_ours("e7".parse().unwrap()));
    assert_eq!(
        p.quad().bb[0].count_ones(),
        16,
        "plane 0 = black's 16 pieces"
    );
    assert_eq!(
        Position::startpos(),
        pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    let bare = pos("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
    assert!(!bare.has_non_pawn_material());
    let four_fields = pos("4k3/8/8/8/8/8/8/4K2R w K -");
    assert_eq!(
        (four_fields.halfmove_clock(), four_fields.fullmove_number()),
        (0, 1)
    );
    assert!(
        pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
            .to_fen()
            .ends_with("w K - 0 1")
    );
    let chess960 = pos("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    assert!(chess960.is_chess960());
    assert!(
        pos("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1").is_chess960(),
        "X-FEN"
    );
    assert_eq!(
        pos("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1").to_fen(),
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1"
    );
    assert_eq!(
        pos("rk5r/8/8/8/8/8/8/RK5R w HAha - 0 1").to_fen(),
        "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "Shredder-FEN letters of outermost rooks are written in X-FEN"
    );
}

#[test]
fn bad_fens_are_refused_with_named_errors() {
    use FenError::*;
    use qbb::PlacementError::*;
    let white = Side(Color::White);
    let black = Side(Color::Black);
    let cases: Vec<(&str, FenError)> = vec![
        ("", FieldCount(0)),
        ("8/8/8/8/8/8/8/8 w", FieldCount(2)),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", FieldCount(7)),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", Placement(RankCount(7))),
        (
            "4k3/8/8/8/8/8/8/4K2X w - - 0 1",
            Placement(BadLetter {
                rank: 1,
                letter: 'X',
            }),
        ),
        (
            "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
            Placement(RankLength { rank: 1 }),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2 w - - 0 1",
            Placement(RankLength { rank: 1 }),
        ),
        (
            "4k3/8/8/8/8/8/8/9 w - - 0 1",
            Placement(BadDigit {
                rank: 1,
                digit: '9',
            }),
        ),
        (
            "4k3/8/8/8/8/8/8/8 w - - 0 1",
            KingCount {
                side: white,
                count: 0,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
            KingCount {
                side: white,
                count: 2,
            },
        ),
        (
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            KingCount {
                side: black,
                count: 0,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",
            PawnOnBackRank { square: Square::A1 },
        ),
        (
            "p3k3/8/8/8/8/8/8/4K3 w - - 0 1",
            PawnOnBackRank { square: Square::A8 },
        ),
        (
            "4k3/8/8/8/8/8/QQQQQQQQ/QQQQK3 w - - 0 1",
            TooMuchMaterial { side: white },
        ),
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", SideToMove("x".into())),
        (
            "4k3/8/8/8/8/8/8/4K2R w KX - 0 1",
            BadCastlingLetter {
                field: "KX".into(),
                letter: 'X',
            },
        ),
        (
            "4k3/8/8/8/8/8/4K3/7R w K - 0 1",
            CastlingWithoutKing {
                right: 'K',
                side: white,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            CastlingWithoutRook {
                right: 'K',
                side: white,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w K - 0 1",
            CastlingWithoutRook {
                right: 'K',
                side: white,
            },
        ),
        (
            "4k2r/8/8/8/8/8/8/4K3 w q - 0 1",
            CastlingWithoutRook {
                right: 'q',
                side: black,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R w C - 0 1",
            CastlingWithoutRook {
                right: 'C',
                side: white,
            },
        ),
        (
            "4k3/8/8/8/8/8/8/4KR1R w HF - 0 1",
            DuplicateCastling {
                right: 'F',
                side: white,
            },
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", BadEnPassant("e9".into())),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            ImpossibleEnPassant {
                square: "e6".parse().unwrap(),
            },
        ),
        (
            "4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1",
            ImpossibleEnPassant {
                square: "e3".parse().unwrap(),
            },
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", HalfmoveClock("x".into())),
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", HalfmoveClock("-1".into())),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 one",
            FullmoveNumber("one".into()),
        ),
        (
            "4k3/8/8/8/8/8/8/4K2r b - - 0 1",
            OpponentInCheck { side: white },
        ),
        (
            "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1",
            OpponentInCheck { side: black },
        ),
    ];
    for (fen, expected) in cases {
        let got = Position::from_fen(fen);
        assert_eq!(got, Err(expected.clone()), "{fen}");
        assert!(!expected.to_string().is_empty());
    }
}

#[test]
fn en_passant_is_kept_only_when_a_pawn_can_take() {
    let capturable = pos("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    assert_eq!(capturable.en_passant(), Some("e6".parse().unwrap()));
    assert!(capturable.to_fen().contains(" e6 "));
    let idle = pos("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1");
    assert_eq!(idle.en_passant(), None);
    assert_eq!(idle, pos("4k3/8/8/4p3/8/8/8/4K3 w - - 0 1"));
    // Black to move: the square is on rank 3, seen from black's side on rank 6.
    let black = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    assert_eq!(black.en_passant(), Some("e6".parse().unwrap()));
    assert!(black.to_fen().contains(" e3 "));
}

#[test]
fn epd_lines_parse_and_write_back() {
    let line = Suite::Standard.text().lines().next().unwrap();
    let epd = Epd::parse(line).unwrap();
    assert_eq!(epd.position, Position::startpos());
    assert_eq!(
        epd.perft_counts().unwrap()[..3],
        [(1, 20), (2, 400), (3, 8902)]
    );
    assert_eq!(epd.to_epd(), line);
    let classic = Epd::parse("4k3/8/8/8/8/8/8/4K2R w K - bm Rh8+; id \"mate\";").unwrap();
    assert_eq!(classic.operations.len(), 2);
    assert_eq!(classic.operations[0].opcode, "bm");
    assert_eq!(classic.operations[0].operands, "Rh8+");
    assert!(classic.perft_counts().unwrap().is_empty());
    let bad = Epd::parse("4k3/8/8/8/8/8/8/4K3 w - - ;D1 x").unwrap();
    assert!(bad.perft_counts().is_err());
    assert!(Epd::parse("4k3/8/8/8/8/8/8/4K3 w -").is_err());
}

/// UCI move text on backend `b`: castling in both notations, refusals, promotions with black
/// to move, Chess960.
fn uci_move_text_on<B: Backend>(b: B) {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let short = p.parse_uci_move(b, "e1g1").unwrap();
    assert!(short.is_castle() && !short.is_capture());
    assert_eq!(
        p.parse_uci_move(b, "e1h1"),
        Ok(short),
        "king takes rook accepted"
    );
    assert_eq!(p.move_to_uci(short, false), "e1g1");
    assert_eq!(p.move_to_uci(short, true), "e1h1");
    // Refused: not a move in UCI notation, or not legal here.
    for text in ["e1e9", "e1g1k", "", "0000"] {
        let refusal = Err(MoveError::Syntax(text.into()));
        assert_eq!(p.parse_uci_move(b, text), refusal, "{text}");
    }
    let refusal = Err(MoveError::Illegal("e1e3".into()));
    assert_eq!(p.parse_uci_move(b, "e1e3"), refusal);
    assert_eq!(p.move_to_uci(Move::NULL, false), "0000");
    // Black to move: text is absolute, the move's squares relative.
    let b_pos = pos("4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 1");
    let promo = b_pos.parse_uci_move(b, "g2g1n").unwrap();
    assert_eq!(promo.promotion(), Some(PieceType::Knight));
    assert_eq!(promo.from(), "g7".parse().unwrap());
    assert_eq!(b_pos.move_to_uci(promo, false), "g2g1n");
    let child = b_pos.make_move(b, promo);
    assert_eq!(child.to_fen(), "4k3/1P6/8/8/8/8/8/4K1n1 w - - 0 2");
    // Chess960: castling written as king takes rook.
    let c = pos("r3k2r/8/8/8/8/8/8/1R2K1R1 w GBha - 0 1");
    let castle = c.parse_uci_move(b, "e1g1").unwrap();
    assert!(castle.is_castle());
    assert_eq!(c.move_to_uci(castle, true), "e1g1");
    let after = c.make_move(b, castle);
    assert_eq!(after.to_fen(), "r3k2r/8/8/8/8/8/8/1R3RK1 b kq - 1 1");
    let long = after.parse_uci_move(b, "e8a8").unwrap();
    assert!(long.is_castle());
    assert_eq!(after.move_to_uci(long, false), "e8c8");
    assert_eq!(
        after.make_move(b, long).to_fen(),
        "2kr3r/8/8/8/8/8/8/1R3RK1 w - - 2 2"
    );
}

#[test]
fn uci_move_text() {
    for kind in available() {
        qbb::with_backend!(kind, |b| uci_move_text_on(b)).unwrap();
    }
}

fn available() -> Vec<BackendKind> {
    BackendKind::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

/// SplitMix64, for reproducible random games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Is the side to move's king attacked? Computed set-wise by the backend's Kogge-Stone routines,
/// a different technique from the engine's per-piece tables.
fn in_check_by_fills<B: Backend>(b: B, p: &Position) -> bool {
    let s = b.piece_sets(p.quad());
    // The quad is relative: the colour plane, the backend's "black", holds the side to move's
    // pieces.
    let (us, them) = (s.black & s.occupied, s.white);
    let orth = (s.rooks | s.queens) & them;
    let diag = (s.bishops | s.queens) & them;
    let pawns = s.pawns & them;
    let kings = s.kings & them;
    let not_a = !0x0101_0101_0101_0101u64;
    let not_h = !0x8080_8080_8080_8080u64;
    let attacked = b.slider_attacks(orth, diag, !s.occupied)
        | b.knight_attacks(s.knights & them)
        | b.slider_attacks(kings, kings, 0)
        | (pawns & not_h) >> 7
        | (pawns & not_a) >> 9;
    attacked & s.kings & us != 0
}

/// Random games from suite positions on backend `b`, checking at every ply what must always
/// hold; the number of positions checked.
fn random_games<B: Backend>(b: B, positions: &[&str], plies: usize) -> usize {
    let mut rng = Rng(0x5EED);
    let mut checked = 0;
    let mut moves = MoveList::new();
    let mut captures = MoveList::new();
    for &fen in positions {
        let mut p = pos(fen);
        for _ in 0..plies {
            checked += 1;
            assert_eq!(p.hash(), p.hash_from_scratch(b), "{}", p.to_fen());
            assert_eq!(Position::from_fen(&p.to_fen()), Ok(p), "{}", p.to_fen());
            assert_eq!(p.in_check(b), in_check_by_fills(b, &p), "{}", p.to_fen());
            p.generate_moves(b, &mut moves);
            assert_eq!(p.count_moves(b), moves.len() as u64);
            p.generate_captures(b, &mut captures);
            let expected: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| match m.promotion() {
                    Some(kind) => kind == PieceType::Queen,
                    None => m.is_capture(),
                })
                .collect();
            assert_eq!(captures.as_slice(), expected, "{}", p.to_fen());
            for &m in &moves {
                let text = p.move_to_uci(m, p.is_chess960());
                assert_eq!(
                    p.parse_uci_move(b, &text),
                    Ok(m),
                    "{text} in {}",
                    p.to_fen()
                );
                let captured = p.piece_on(if m.is_en_passant() {
                    Square::new(m.to().index() as u8 - 8).unwrap()
                } else {
                    m.to()
                });
                assert_eq!(m.piece(), p.piece_on(m.from()), "{text}");
                if !m.is_castle() {
                    assert_eq!(m.captured(), captured, "{text}");
                }
            }
            if !p.in_check(b) {
                let null = p.make_null_move();
                assert_eq!(null.hash(), null.hash_from_scratch(b));
                if p.en_passant().is_none() {
                    assert_eq!(null.make_null_move().hash(), p.hash());
                }
            }
            if moves.is_empty() {
                break;
            }
            p = p.make_move(b, moves[rng.below(moves.len())]);
        }
    }
    checked
}

#[test]
fn random_games_keep_every_invariant() {
    let mut positions: Vec<&str> = Suite::Standard.entries().iter().map(|e| e.fen).collect();
    positions.extend(Suite::Fischer.entries().iter().step_by(16).map(|e| e.fen));
    positions.extend(Suite::Tricky.entries().iter().map(|e| e.fen));
    positions.extend(Suite::Random.entries().iter().step_by(50).map(|e| e.fen));
    for kind in available() {
        let checked = qbb::with_backend!(kind, |b| random_games(b, &positions, 60)).unwrap();
        assert!(checked > 10_000, "{kind}: {checked} positions checked");
    }
}

/// Positions reached by different move orders share a hash, on backend `b`.
fn transpositions_on<B: Backend>(b: B) {
    let play = |p: Position, text: &str| {
        let mv = p.parse_uci_move(b, text).unwrap();
        p.make_move(b, mv)
    };
    let start = Position::startpos();
    let back = ["g1f3", "g8f6", "f3g1", "f6g8"]
        .iter()
        .fold(start, |p, m| play(p, m));
    assert_eq!(back.hash(), start.hash());
    assert_ne!(back, start, "the clocks differ");
    let a = ["e2e4", "e7e6", "d2d4"]
        .iter()
        .fold(start, |p, m| play(p, m));
    let c = ["d2d4", "e7e6", "e2e4"]
        .iter()
        .fold(start, |p, m| play(p, m));
    assert_eq!(a.hash(), c.hash());
    // A double push next to no enemy pawn leaves no en-passant square behind.
    assert_eq!(play(start, "e2e4").en_passant(), None);
}

#[test]
fn transpositions_share_a_hash() {
    for kind in available() {
        qbb::with_backend!(kind, |b| transpositions_on(b)).unwrap();
    }
}

/// FEN-like text: valid FENs with characters replaced, inserted or removed.
fn mutated_fen() -> impl Strategy<Value = String> {
    let fens: Vec<&'static str> = Suite::Standard
        .entries()
        .iter()
        .chain(Suite::Fischer.entries().iter().take(20))
        .map(|e| e.fen)
        .collect();
    let alphabet: Vec<char> = "pnbrqkPNBRQKacdefghw12345678900/ -".chars().collect();
    (
        proptest::sample::select(fens),
        proptest::collection::vec(
            (any::<usize>(), proptest::sample::select(alphabet), 0..3u8),
            1..4,
        ),
    )
        .prop_map(|(fen, edits)| {
            let mut chars: Vec<char> = fen.chars().collect();
            for (at, c, kind) in edits {
                let i = at % (chars.len() + 1);
                match kind {
                    0 if i < chars.len() => chars[i] = c,
                    1 => chars.insert(i, c),
                    _ if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => {}
                }
            }
            chars.into_iter().collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn any_text_is_refused_or_read_without_panic(text in any::<String>()) {
        let _ = Position::from_fen(&text);
        let _ = Epd::parse(&text);
    }

    #[test]
    fn mutated_fens_are_refused_or_playable(text in mutated_fen()) {
        if let Ok(p) = Position::from_fen(&text) {
            prop_assert_eq!(Position::from_fen(&p.to_fen()), Ok(p));
            let b = qbb::Scalar;
            prop_assert_eq!(p.hash(), p.hash_from_scratch(b));
            let counted = |bulk| {
                qbb_engine::perft_on(BackendKind::Scalar, Attacks::Tables, &p, 2, bulk)
                    .expect("scalar runs everywhere")
            };
            prop_assert_eq!(counted(true), counted(false));
        }
    }

    #[test]
    fn move_text_never_panics(text in "[a-h1-9x0-]{0,6}") {
        let p = Position::startpos();
        if let Ok(m) = p.parse_uci_move(qbb::Scalar, &text) {
            prop_assert_eq!(p.move_to_uci(m, false), text);
        }
    }
}

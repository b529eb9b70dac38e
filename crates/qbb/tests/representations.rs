//! Round trips of every representation on every position of the perft suites, and the scalar
//! reference checked against the articles' hand-worked examples.

use qbb::conformance::SplitMix64;
use qbb::{
    Backend, Color, CompactBoard, Direction, MoveAspects, Piece, PieceType, Quad, Scalar, Special,
    Square,
};
use qbb_corpus::Suite;

fn suite_quads() -> impl Iterator<Item = (String, Quad)> {
    [
        Suite::Standard,
        Suite::Random,
        Suite::Tricky,
        Suite::Fischer,
    ]
    .into_iter()
    .flat_map(|s| {
        s.placements()
            .map(|p| (p.to_string(), Quad::from_placement(p).expect("parses")))
    })
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

#[test]
fn every_representation_round_trips_on_the_suites() {
    let s = Scalar;
    let mut n = 0;
    for (placement, q) in suite_quads() {
        assert_eq!(q.to_placement(), placement);
        assert_eq!(s.from_mailbox(&s.to_mailbox(&q)), q, "mailbox {placement}");
        let classical = s.to_classical(&q);
        assert_eq!(s.from_classical(&classical), q, "classical {placement}");
        assert_eq!(
            classical.to_array_form().to_classical(),
            classical,
            "pieceBB[14] {placement}"
        );
        assert_eq!(s.from_dense(&s.to_dense(&q)), q, "dense {placement}");
        let nibbles = s.to_nibble_board(&q);
        assert_eq!(s.from_nibble_board(&nibbles), q, "nibble board {placement}");
        let ccr = CompactBoard::from_nibble_board(&nibbles);
        assert_eq!(
            s.from_nibble_board(&ccr.to_nibble_board()),
            q,
            "CCR {placement}"
        );
        assert_eq!(s.flip(&s.flip(&q)), q, "flip twice {placement}");
        n += 1;
    }
    assert_eq!(n, 128 + 6838 + 19 + 960);
}

#[test]
fn lossless_representations_round_trip_on_random_quads() {
    let s = Scalar;
    let mut rng = SplitMix64(7);
    for _ in 0..20_000 {
        let q = rng.quad();
        assert_eq!(s.from_mailbox(&s.to_mailbox(&q)), q);
        assert_eq!(s.from_nibble_board(&s.to_nibble_board(&q)), q);
        let hex = s.hex_sets(&q);
        assert_eq!(
            hex.0.iter().fold(0, |a, h| a | h),
            !0,
            "the 16 sets cover the board"
        );
        assert_eq!(
            hex.0.iter().map(|h| h.count_ones()).sum::<u32>(),
            64,
            "and are disjoint"
        );
    }
}

#[test]
fn start_position_as_the_articles_draw_it() {
    let s = Scalar;
    let q = Quad::start_position();
    assert_eq!(s.piece_at(&q, Square::E1), 0b1100);
    assert_eq!(s.piece_at(&q, sq("d8")), 0b1011);
    let sets = s.piece_sets(&q);
    assert_eq!(sets.black, 0xFFFF_0000_0000_0000);
    assert_eq!(sets.white, 0x0000_0000_0000_FFFF);
    assert_eq!(sets.pawns, 0x00FF_0000_0000_FF00);
    assert_eq!(sets.knights, 0x4200_0000_0000_0042);
    assert_eq!(sets.bishops, 0x2400_0000_0000_0024);
    assert_eq!(sets.rooks, 0x8100_0000_0000_0081);
    assert_eq!(sets.queens, 0x0800_0000_0000_0008);
    assert_eq!(sets.kings, 0x1000_0000_0000_0010);
    let hex = s.hex_sets(&q);
    assert_eq!(hex.0[0], 0x0000_FFFF_FFFF_0000, "code 0: the empty squares");
    assert_eq!(hex.0[0b1100], Square::E1.bit());
    assert_eq!(hex.0[1] | hex.0[14] | hex.0[15], 0, "codes no piece uses");
    let mailbox = s.to_mailbox(&q);
    assert_eq!(&mailbox.0[..8], &[8, 4, 6, 10, 12, 6, 4, 8]);
    assert_eq!(&mailbox.0[56..], &[9, 5, 7, 11, 13, 7, 5, 9]);
    let dense = s.to_dense(&q);
    assert_eq!(
        dense.pieces(Piece::new(Color::Black, PieceType::Queen)),
        sq("d8").bit()
    );
    // The flip of the start position is the start position.
    assert_eq!(s.flip(&q), q);
}

#[test]
fn make_and_unmake_by_xor() {
    let s = Scalar;
    let start = Quad::start_position();
    let wp = Piece::new(Color::White, PieceType::Pawn).code();
    let e4 = MoveAspects::quiet(sq("e2"), sq("e4"), wp);
    let after = start ^ s.move_delta(&e4);
    assert_eq!(
        after.to_placement(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
    );
    assert_eq!(
        after ^ s.move_delta(&e4),
        start,
        "the same delta unmakes it"
    );

    // Castling king side, as "the king and the rook both move".
    let q = Quad::from_placement("r3k2r/8/8/8/8/8/8/R3K2R").unwrap();
    let wk = Piece::new(Color::White, PieceType::King).code();
    let wr = Piece::new(Color::White, PieceType::Rook).code();
    let castle = MoveAspects {
        special: Special::Castle {
            rook_from: sq("h1"),
            rook_to: sq("f1"),
            rook: wr,
        },
        ..MoveAspects::quiet(Square::E1, sq("g1"), wk)
    };
    assert_eq!(
        (q ^ s.move_delta(&castle)).to_placement(),
        "r3k2r/8/8/8/8/8/8/R4RK1"
    );

    // Chess960: king on f1 takes its own rook on g1 and lands on g1, rook to f1.
    let q = Quad::from_placement("4k3/8/8/8/8/8/8/5KR1").unwrap();
    let castle960 = MoveAspects {
        special: Special::Castle {
            rook_from: sq("g1"),
            rook_to: sq("f1"),
            rook: wr,
        },
        ..MoveAspects::quiet(sq("f1"), sq("g1"), wk)
    };
    assert_eq!(
        (q ^ s.move_delta(&castle960)).to_placement(),
        "4k3/8/8/8/8/8/8/5RK1"
    );

    // En passant and promotion with capture.
    let bp = Piece::new(Color::Black, PieceType::Pawn).code();
    let q = Quad::from_placement("4k3/8/8/3pP3/8/8/8/4K3").unwrap();
    let ep = MoveAspects {
        captured: bp,
        special: Special::EnPassant {
            captured_on: sq("d5"),
        },
        ..MoveAspects::quiet(sq("e5"), sq("d6"), wp)
    };
    assert_eq!(
        (q ^ s.move_delta(&ep)).to_placement(),
        "4k3/8/3P4/8/8/8/8/4K3"
    );
    let q = Quad::from_placement("3rk3/4P3/8/8/8/8/8/4K3").unwrap();
    let promo = MoveAspects {
        captured: Piece::new(Color::Black, PieceType::Rook).code(),
        promotion: Piece::new(Color::White, PieceType::Queen).code(),
        ..MoveAspects::quiet(sq("e7"), sq("d8"), wp)
    };
    assert_eq!(
        (q ^ s.move_delta(&promo)).to_placement(),
        "3Qk3/8/8/8/8/8/8/4K3"
    );
}

#[test]
fn fills_and_attacks_on_known_boards() {
    let s = Scalar;
    // A rook on a1 with a blocker on a4: north fill reaches a3, attacks include a4.
    let empty = !(sq("a1").bit() | sq("a4").bit());
    let fills = s.occluded_fills(&Quad::splat(sq("a1").bit()), empty);
    let north = sq("a1").bit() | sq("a2").bit() | sq("a3").bit();
    assert_eq!(fills[Direction::North.index()].bb, [north; 4]);
    assert_eq!(
        fills[Direction::West.index()].bb[0],
        sq("a1").bit(),
        "no wrap to the h-file"
    );
    let attacks = s.slider_attacks(sq("a1").bit(), 0, empty);
    assert_eq!(attacks, north ^ sq("a1").bit() | sq("a4").bit() | 0xFE);
    // A bishop in the corner of an empty board sees the long diagonal.
    assert_eq!(
        s.slider_attacks(0, sq("a1").bit(), !sq("a1").bit()),
        0x8040_2010_0804_0200
    );
    assert_eq!(
        s.knight_attacks(sq("b1").bit()),
        sq("a3").bit() | sq("c3").bit() | sq("d2").bit()
    );
    assert_eq!(
        s.knight_attacks(sq("h8").bit()),
        sq("f7").bit() | sq("g6").bit()
    );
}

#[test]
fn checks_and_pins_on_known_positions() {
    let s = Scalar;
    let q = Quad::from_placement("4r2k/8/8/8/4N3/8/8/4K2R").unwrap();
    let p = s.piece_sets(&q);
    let pos = qbb::SliderPosition::by_colour(&p);
    let [white, black] = s.checks_and_pins(&pos);
    assert_eq!(
        white.pinned,
        sq("e4").bit(),
        "the knight is pinned by the rook on e8"
    );
    assert_eq!(white.checkers, 0);
    assert_eq!(
        black.checkers,
        sq("h1").bit(),
        "the rook on h1 checks the king on h8"
    );
    let h_file_between = (1..=6)
        .map(|r| Square::from_file_rank(7, r).unwrap().bit())
        .sum::<u64>();
    assert_eq!(black.check_mask, h_file_between | sq("h1").bit());
    // Discoverers are the slider side's own blockers: none stand between a black slider and the
    // white king here.
    assert_eq!(white.discoverers, 0);
    let q = Quad::from_placement("4k3/8/8/8/4N3/8/8/4R1K1").unwrap();
    let p = s.piece_sets(&q);
    let pos = qbb::SliderPosition::by_colour(&p);
    assert_eq!(
        s.checks_and_pins(&pos)[1].discoverers,
        sq("e4").bit(),
        "knight uncovers the rook"
    );
}

#[test]
fn weighted_popcount_and_hashes() {
    let s = Scalar;
    let sets = [0xFF, 0xF, 0, !0, 1, 3, 7, 15];
    let weights = [1, 2, 3, -1, 100, -100, 0, 1];
    assert_eq!(
        s.weighted_popcount(&sets, &weights),
        8 + 8 - 64 + 100 - 200 + 4
    );
    let q = Quad::start_position();
    assert_eq!(s.hash_zobrist(&Quad::EMPTY), 0);
    assert_ne!(
        s.hash_zobrist(&q),
        s.hash_zobrist(&s.flip(&s.flip(&q)).mirrored())
    );
    assert_ne!(s.hash_manino(&q, 0), s.hash_manino(&q, 1));
}

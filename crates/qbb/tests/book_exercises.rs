//! The checks of the book's exercises that are not "write a routine and let the conformance kit
//! judge it". Each test holds the book's answer; a reader replaces it with their own (without
//! reading ours first) and runs `cargo test --release -p qbb --test book_exercises chapter_NN`.

use std::collections::HashSet;

use qbb::conformance::SplitMix64;
use qbb::{
    Backend, BackendKind, Color, KingSafety, MoveAspects, Piece, PieceType, Quad, Scalar,
    SliderPosition, Special, Square,
};
use qbb_corpus::Suite;

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

fn squares(names: &[&str]) -> u64 {
    names.iter().fold(0, |set, name| set | sq(name).bit())
}

fn suite_quads(suite: Suite) -> Vec<Quad> {
    suite
        .placements()
        .map(|p| Quad::from_placement(p).expect("suite placements parse"))
        .collect()
}

/// The backend that run-time selection picks (`QBB_BACKEND` forces one).
fn selected() -> BackendKind {
    BackendKind::selected().expect("QBB_BACKEND names an available backend")
}

// ---- Chapter 7: make and unmake by xor ----------------------------------------------------------

/// Our answer: the delta of Kiwipete's e1g1, plane by plane (king 1100B on e1 and g1, rook 1000B
/// on h1 and f1).
const KIWIPETE_E1G1_DELTA: [u64; 4] = [0, 0, 0x50, 0xF0];

/// Our answer: the delta of the Chess960 castling whose king stands on g1 and rook on f1 already.
const CASTLING_IN_PLACE_DELTA: [u64; 4] = [0, 0, 0, 0];

#[test]
fn chapter_07_castling_deltas() {
    let king = Piece::new(Color::White, PieceType::King).code();
    let rook = Piece::new(Color::White, PieceType::Rook).code();
    let castle = |king_from, king_to, rook_from, rook_to| MoveAspects {
        special: Special::Castle {
            rook_from: sq(rook_from),
            rook_to: sq(rook_to),
            rook,
        },
        ..MoveAspects::quiet(sq(king_from), sq(king_to), king)
    };

    let before = Quad::from_placement("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R")
        .expect("Kiwipete");
    let after = Quad::from_placement("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1")
        .expect("Kiwipete after e1g1");
    let delta = Quad {
        bb: KIWIPETE_E1G1_DELTA,
    };
    assert_eq!(
        Scalar.move_delta(&castle("e1", "g1", "h1", "f1")),
        delta,
        "the delta of e1g1"
    );
    assert_eq!(before ^ delta, after, "xor-ing the delta makes the move");
    assert_eq!(after ^ delta, before, "and xor-ing it again unmakes it");

    let in_place = castle("g1", "g1", "f1", "f1");
    assert_eq!(
        Scalar.move_delta(&in_place),
        Quad {
            bb: CASTLING_IN_PLACE_DELTA
        },
        "the delta of castling with king and rook already on their targets"
    );
}

// ---- Chapter 8: flipping the colours ------------------------------------------------------------

#[test]
fn chapter_08_flip_is_an_involution() {
    let positions: Vec<Quad> = Suite::ALL.iter().flat_map(|&s| suite_quads(s)).collect();
    let counterexample = qbb::with_backend!(selected(), |b| {
        let mut rng = SplitMix64(0x0008);
        let random = (0..100_000).map(|_| rng.quad());
        positions
            .iter()
            .copied()
            .chain(random)
            .find(|q| b.flip(&b.flip(q)) != *q)
    });
    assert_eq!(counterexample.unwrap(), None, "flip(flip(q)) == q");

    // The answer to the question of the chapter: code 0001B keeps its colour bit (the square is
    // not occupied), and only moves to the mirrored square.
    let mut q = Quad::EMPTY;
    Scalar.set_piece(&mut q, sq("c2"), 0b0001);
    assert_eq!(Scalar.flip(&q).nibble(sq("c7")), 0b0001);
}

// ---- Chapter 12: checks and pins ----------------------------------------------------------------

/// Our answer for the chapter's picture, `4k3/8/2N1r3/8/Qb6/2N5/4B3/R3K2R w`: per king (white,
/// black), the checkers, the check mask, the pinned pieces and the discovered checkers.
const PINS_IN_THE_PICTURE: [[&[&str]; 4]; 2] =
    [[&[], &[], &["e2", "c3"], &[]], [&[], &[], &[], &["c6"]]];

#[test]
fn chapter_12_pins_in_the_picture() {
    let q = Quad::from_placement("4k3/8/2N1r3/8/Qb6/2N5/4B3/R3K2R").expect("the picture");
    let s = Scalar.piece_sets(&q);
    let position = SliderPosition::by_colour(&s);
    let got = qbb::with_backend!(selected(), |b| b.checks_and_pins(&position)).unwrap();
    for (color, answer) in ["white", "black"].into_iter().zip(PINS_IN_THE_PICTURE) {
        let k = got[usize::from(color == "black")];
        let want = KingSafety {
            checkers: squares(answer[0]),
            check_mask: squares(answer[1]),
            pinned: squares(answer[2]),
            discoverers: squares(answer[3]),
        };
        assert_eq!(k, want, "the {color} king");
    }
}

// ---- Chapter 14: nibble arithmetic --------------------------------------------------------------

/// Our answer: sixteen saturating nibble sums, `min(x + y, 15)` per lane, in one `u64`.
fn saturating_nibble_add(x: u64, y: u64) -> u64 {
    const H: u64 = 0x8888_8888_8888_8888;
    let sum = ((x & !H) + (y & !H)) ^ ((x ^ y) & H);
    let carries = (x & y | (x | y) & !sum) & H;
    sum | ((carries >> 3) * 15)
}

#[test]
fn chapter_14_saturating_nibble_add() {
    let lanes = |x: u64, y: u64| {
        (0..16).fold(0u64, |acc, i| {
            let (a, b) = (x >> (4 * i) & 15, y >> (4 * i) & 15);
            acc | (a + b).min(15) << (4 * i)
        })
    };
    let mut rng = SplitMix64(0x0014);
    let edges = [0, !0, 0x8888_8888_8888_8888, 0x7777_7777_7777_7777];
    for x in edges {
        for y in edges {
            assert_eq!(saturating_nibble_add(x, y), lanes(x, y), "{x:#x} + {y:#x}");
        }
    }
    for _ in 0..100_000 {
        let (x, y) = (rng.next_u64(), rng.next_u64());
        assert_eq!(saturating_nibble_add(x, y), lanes(x, y), "{x:#x} + {y:#x}");
    }
}

// ---- Chapter 17: hashing from scratch -----------------------------------------------------------

#[test]
fn chapter_17_every_move_changes_both_keys() {
    let positions = suite_quads(Suite::Standard);
    let repeat = qbb::with_backend!(selected(), |b| {
        positions.iter().find_map(|&q| {
            let mut manino = HashSet::new();
            let mut zobrist = HashSet::new();
            let mut neighbours = vec![q];
            let occupied = q.occupied();
            for from in Square::all().filter(|s| occupied & s.bit() != 0) {
                for to in Square::all().filter(|s| occupied & s.bit() == 0) {
                    let m = MoveAspects::quiet(from, to, q.nibble(from));
                    neighbours.push(q ^ b.move_delta(&m));
                }
            }
            neighbours
                .iter()
                .any(|n| !manino.insert(b.hash_manino(n, 0)) || !zobrist.insert(b.hash_zobrist(n)))
                .then(|| format!("a key repeats near {}", q.to_placement()))
        })
    });
    assert_eq!(repeat.unwrap(), None);
}

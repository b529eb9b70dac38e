//! `qbb show --routine R`: the pictures hold the routines' real results, read back from the text.

mod common;

use common::{qbb, stderr, stdout};
use qbb::{BackendKind, Routine, Square};

/// How a grid is drawn: one character per square, spaced (`x . x`) or compact (`x.x`).
#[derive(Copy, Clone)]
enum Grid {
    Spaced,
    Compact,
}

/// Where `token` stands alone in `line` (not as part of a longer word).
fn column_of(line: &str, token: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    line.match_indices(token).map(|(i, _)| i).find(|&i| {
        let before = i == 0 || bytes[i - 1] == b' ';
        let end = i + token.len();
        let after = end == line.len() || bytes[end] == b' ';
        before && after
    })
}

/// The 64 characters of the grid titled `title`, the first one after the line that starts with
/// `section`, indexed by square (a1 = 0). A grid's title line is followed by rank 8, whose line
/// starts with the rank number (every row of grids has the numbers on its left).
fn cells(text: &str, section: &str, title: &str, grid: Grid) -> [char; 64] {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(section))
        .unwrap_or_else(|| panic!("no section `{section}` in\n{text}"));
    let (row, col) = lines[start..]
        .iter()
        .enumerate()
        .find_map(|(i, l)| {
            let below = lines
                .get(start + i + 1)
                .is_some_and(|next| next.starts_with('8'));
            column_of(l, title)
                .filter(|_| below)
                .map(|c| (start + i, c))
        })
        .unwrap_or_else(|| panic!("no grid `{title}` after `{section}` in\n{text}"));
    let step = match grid {
        Grid::Spaced => 2,
        Grid::Compact => 1,
    };
    let mut out = [' '; 64];
    for rank in 0..8 {
        let line: Vec<char> = lines[row + 8 - rank].chars().collect();
        for file in 0..8 {
            out[rank * 8 + file] = line[col + step * file];
        }
    }
    out
}

/// The squares marked `x` (or `1`) in a grid.
fn set(text: &str, section: &str, title: &str, grid: Grid) -> u64 {
    cells(text, section, title, grid)
        .iter()
        .enumerate()
        .filter(|(_, c)| matches!(c, 'x' | '1'))
        .fold(0, |acc, (s, _)| acc | 1 << s)
}

fn squares(names: &str) -> u64 {
    names
        .split_whitespace()
        .map(|n| n.parse::<Square>().expect("a square").bit())
        .fold(0, |a, b| a | b)
}

/// The picture of `routine` with `args` after it, which must succeed.
fn picture(routine: &str, args: &[&str]) -> String {
    let mut all = vec!["show", "--routine", routine];
    all.extend_from_slice(args);
    let out = qbb(&all);
    assert!(out.status.success(), "{all:?}: {}", stderr(&out));
    stdout(&out)
}

#[test]
fn occluded_fills_show_each_plane_in_each_direction() {
    let text = picture("occluded-fills", &[]);
    assert!(text.starts_with("4r1k1/5p2/8/b7/6N1/1BN5/8/4K1R1 w - - 0 1\n"));
    assert!(text.contains("occluded-fills (row 9: occluded fill, 8 directions) on the scalar"));
    let white_king = "bb1 = the white king";
    assert_eq!(
        set(&text, white_king, "N", Grid::Compact),
        squares("e1 e2 e3 e4 e5 e6 e7"),
        "up the e-file to the rook on e8, which is not included"
    );
    assert_eq!(
        set(&text, white_king, "W", Grid::Compact),
        squares("a1 b1 c1 d1 e1")
    );
    assert_eq!(
        set(&text, white_king, "E", Grid::Compact),
        squares("e1 f1"),
        "stops before the rook on g1"
    );
    assert_eq!(
        set(&text, white_king, "NW", Grid::Compact),
        squares("e1 d2"),
        "the knight on c3 blocks"
    );
    let black_rooks = "bb3 = black rooks and queens";
    assert_eq!(
        set(&text, black_rooks, "S", Grid::Compact),
        squares("e8 e7 e6 e5 e4 e3 e2")
    );
    assert_eq!(
        set(&text, "bb2 = the black king", "S", Grid::Compact),
        squares("g8 g7 g6 g5")
    );
    // the inputs: the generator planes and the propagator
    assert_eq!(set(&text, "", "bb0 RQ", Grid::Compact), squares("g1"));
    assert_eq!(set(&text, "", "bb3 rq", Grid::Compact), squares("e8"));
    assert_eq!(
        !set(&text, "", "empty", Grid::Compact),
        squares("e8 g8 f7 a5 g4 b3 c3 e1 g1")
    );
}

#[test]
fn checks_and_pins_show_the_king_safety_of_both_kings() {
    let text = picture("checks-and-pins", &[]);
    let white = "the white king's answer";
    assert_eq!(set(&text, white, "checkers", Grid::Spaced), squares("e8"));
    assert_eq!(
        set(&text, white, "check_mask", Grid::Spaced),
        squares("e2 e3 e4 e5 e6 e7 e8")
    );
    assert_eq!(set(&text, white, "pinned", Grid::Spaced), squares("c3"));
    assert_eq!(set(&text, white, "discoverers", Grid::Spaced), 0);
    let black = "the black king's answer";
    assert_eq!(set(&text, black, "checkers", Grid::Spaced), 0);
    assert_eq!(set(&text, black, "check_mask", Grid::Spaced), 0);
    assert_eq!(set(&text, black, "pinned", Grid::Spaced), squares("f7"));
    assert_eq!(
        set(&text, black, "discoverers", Grid::Spaced),
        squares("g4")
    );
    assert!(text.contains("  pinned      c3\n"), "{text}");
    assert!(text.contains("  discoverers g4\n"), "{text}");
}

#[test]
fn slider_and_knight_attacks_are_the_known_sets() {
    let text = picture("slider-attacks", &[]);
    let rook_d5 = "d6 d7 d8 d4 d3 d2 d1 e5 f5 g5 h5 c5 b5 a5";
    let queen_b1 = "b2 b3 b4 b5 b6 b7 b8 c1 d1 e1 a1 c2 d3 e4 f5 g6 h7 a2";
    assert_eq!(
        set(&text, "", "white attacks", Grid::Spaced),
        squares(&format!("{rook_d5} {queen_b1}"))
    );
    assert_eq!(
        set(&text, "", "black attacks", Grid::Spaced),
        squares("g4 h5 e4 d5 g2 h1 e2 d1"),
        "the bishop on f3, its rays stopping on the rook and the king's neighbours"
    );
    assert_eq!(
        set(&text, "", "white orth R Q", Grid::Spaced),
        squares("d5 b1")
    );

    let text = picture("knight-attacks", &[]);
    assert_eq!(
        set(&text, "", "white knights", Grid::Spaced),
        squares("c3 e5")
    );
    assert_eq!(
        set(&text, "", "their attacks", Grid::Spaced),
        squares("a2 a4 b1 b5 d1 d5 e2 e4 c4 c6 d3 d7 f3 f7 g4 g6")
    );
    assert!(text.contains("black knights: b6 f6"), "{text}");
}

#[test]
fn sets_and_boards_hold_the_pieces_of_kiwipete() {
    let text = picture("piece-sets", &[]);
    assert_eq!(
        set(&text, "", "knights", Grid::Compact),
        squares("c3 e5 b6 f6")
    );
    assert_eq!(set(&text, "", "kings", Grid::Compact), squares("e1 e8"));
    assert_eq!(set(&text, "", "queens", Grid::Compact), squares("f3 e7"));

    let text = picture("hex-sets", &[]);
    assert_eq!(set(&text, "", "C K", Grid::Compact), squares("e1"));
    assert_eq!(set(&text, "", "B q", Grid::Compact), squares("e7"));
    assert_eq!(
        set(&text, "", "6 B", Grid::Compact),
        squares("d2 e2"),
        "white bishops"
    );
    assert_eq!(set(&text, "", "F -", Grid::Compact), 0);

    let text = picture("to-classical", &[]);
    assert_eq!(set(&text, "", "R (8)", Grid::Compact), squares("a1 h1"));
    assert_eq!(set(&text, "", "n (5)", Grid::Compact), squares("b6 f6"));

    let text = picture("to-dense", &[]);
    assert_eq!(
        set(&text, "", "rooks", Grid::Compact),
        squares("a1 h1 a8 h8")
    );
}

#[test]
fn piece_at_and_set_piece_read_and_write_the_square() {
    let text = picture("piece-at", &[]);
    assert!(
        text.contains("e1: bb3 1 bb2 1 bb1 0 bb0 0  ->  piece_at = 1100B = C (K, the white king)"),
        "{text}"
    );
    let every = cells(&text, "", "piece_at, every square", Grid::Spaced);
    assert_eq!(every[0..8], ['8', '4', '6', 'A', 'C', '6', '4', '8']);
    assert_eq!(every[56..64], ['9', '5', '7', 'B', 'D', '7', '5', '9']);

    let text = picture("piece-at", &["--square", "d8"]);
    assert!(
        text.contains("piece_at = 1011B = B (q, the black queen)"),
        "{text}"
    );

    let text = picture("set-piece", &[]);
    let after = cells(&text, "", "after", Grid::Spaced);
    assert_eq!(after[Square::new(57).unwrap().index()], 'Q', "b8 written");
    assert_eq!(after[50], '.', "c7 cleared");
    assert_eq!(
        set(&text, "after set_piece", "bb0 black", Grid::Spaced),
        squares("e8"),
        "the black rook on b8 is gone from the colour plane"
    );
}

#[test]
fn move_delta_shows_the_castling_aspects() {
    let text = picture("move-delta", &[]);
    assert!(
        text.contains("move e1g1: K (C) e1 -> g1, R (8) h1 -> f1"),
        "{text}"
    );
    let delta = "delta = move_delta";
    assert_eq!(
        set(&text, delta, "bb3 RQK", Grid::Spaced),
        squares("e1 f1 g1 h1")
    );
    assert_eq!(
        set(&text, delta, "bb2 NB  K", Grid::Spaced),
        squares("e1 g1")
    );
    assert_eq!(set(&text, delta, "bb1 P B Q", Grid::Spaced), 0);
    let after = cells(&text, "", "after", Grid::Spaced);
    assert_eq!(after[0..8], ['R', '.', '.', '.', '.', 'R', 'K', '.']);

    let text = picture(
        "move-delta",
        &[
            "--move",
            "e5f6",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ],
    );
    assert!(
        text.contains("P (2) e5 -> f6, takes p (3) on f5"),
        "en passant: {text}"
    );
}

#[test]
fn counting_nibbles_mailbox_and_hashes() {
    let text = picture("weighted-popcount", &[]);
    assert!(
        text.contains("800 + 640 + 660 + 1000 - 800 - 640 - 330 - 1000 = 330\n"),
        "{text}"
    );
    assert!(text.contains("weighted_popcount = 330\n"), "{text}");

    let text = picture("nibble-sub", &[]);
    let diff = cells(&text, "", "a - b", Grid::Spaced);
    let at = |name: &str| diff[name.parse::<Square>().unwrap().index()];
    assert_eq!(at("d5"), 'F', "one white knight, two black: -1");
    assert_eq!(at("d7"), 'F');
    assert_eq!(at("e4"), '0', "one each");
    assert_eq!(at("b1"), '1');
    assert_eq!(at("a8"), 'F');
    let sum = cells(&picture("nibble-add", &[]), "", "a + b", Grid::Spaced);
    assert_eq!(sum["d5".parse::<Square>().unwrap().index()], '3');

    let text = picture("to-mailbox", &[]);
    assert!(
        text.contains("\n 0  08 00 00 00 0C 00 00 08  02 02 02 06 06 02 02 02\n"),
        "{text}"
    );
    let text = picture("to-nibble-board", &[]);
    assert!(
        text.contains("rank 1  bytes  0-3   48 A6 6C 84   0x846CA648\n"),
        "{text}"
    );
    for routine in [
        "from-mailbox",
        "from-nibble-board",
        "from-classical",
        "from-dense",
    ] {
        assert!(
            picture(routine, &[]).contains("the planes are the position's quad: yes"),
            "{routine}"
        );
    }
    assert!(picture("hash-zobrist", &[]).contains("the same: yes"));
    assert!(picture("hash-manino", &[]).contains(" of 64 bits differ"));
}

#[test]
fn every_backend_draws_the_same_picture() {
    for &routine in Routine::ALL {
        let scalar = picture(routine.id(), &[]);
        for kind in BackendKind::ALL {
            if kind == BackendKind::Scalar || !kind.is_available() {
                continue;
            }
            let other = picture(routine.id(), &["--backend", kind.name()]);
            let strip = |text: &str| text.lines().skip(2).collect::<Vec<_>>().join("\n");
            assert_eq!(strip(&other), strip(&scalar), "{routine} on {kind}");
            assert!(other.contains(&format!("on the {kind} backend")));
        }
    }
}

#[test]
fn every_picture_fits_a_phone() {
    for &routine in Routine::ALL {
        let text = picture(routine.id(), &[]);
        for line in text.lines() {
            assert!(line.chars().count() <= 74, "{routine}:\n{line}");
        }
    }
}

#[test]
fn show_refuses_bad_routine_input_with_a_reason() {
    for (args, reason) in [
        (
            vec!["show", "--routine", "occluded-fill"],
            "`occluded-fill` is not a routine",
        ),
        (
            vec!["show", "--routine", "occluded-fill"],
            "occluded-fills, slider-attacks",
        ),
        (
            vec!["show", "--routine", "hex-sets", "8/8/8/8/8/8/8/7X"],
            "`X` is not a piece letter",
        ),
        (
            vec!["show", "--routine", "hex-sets", "--square", "e4"],
            "--square is not an input of the hex-sets picture",
        ),
        (vec!["show", "--square", "e4"], "give --routine too"),
        (
            vec!["show", "--routine", "piece-at", "--square", "e9"],
            "`e9` is not a square",
        ),
        (
            vec!["show", "--routine", "move-delta", "--move", "e2e5"],
            "not a legal move",
        ),
        (
            vec!["show", "--routine", "set-piece", "--set", "b8=X"],
            "`X` is not a piece letter",
        ),
        (
            vec!["show", "--routine", "flip", "--relative"],
            "cannot be used with",
        ),
        (
            vec!["show", "--routine", "flip", "--backend", "mmx"],
            "unknown backend `mmx`",
        ),
    ] {
        let out = qbb(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(reason), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

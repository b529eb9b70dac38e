//! The static evaluation: how good the position is for the side to move, in centipawns.
//!
//! Every term is computed for one side, the side whose pieces carry the colour plane, playing up
//! the board; the opponent's terms are the same function applied after the colour flip
//! (catalogue routine 8), which makes the evaluation symmetric by construction. A term is a middle
//! game and an end game value, blended by the game phase (the non-pawn material left on the
//! board), as QBBEngine's two king tables are.
//!
//! - material and piece-square tables, looked up per piece;
//! - sixteen counted terms (mobility, pawn structure, passed pawns by rank, king shelter...): each
//!   is the population count of a set times a weight, so eight sets at a time go through the
//!   weighted population count of the catalogue (routine 13, the SSE2 article's
//!   `popCountWeight8`), with weights tapered once per position;
//! - the bishop pair and a small bonus for having the move.

pub mod nnue;
pub mod score;

use qbb::Direction::{East, NorthEast, NorthWest, SouthEast, SouthWest, West};
use qbb::{Backend, PieceType, Quad, Squares};

use crate::board::Position;
use crate::board::relative_sets::RelativeSets;
use score::Score;

/// The bonus for being the side to move (the evaluation is called at quiet nodes, where having
/// the move is worth something).
pub const TEMPO: Score = 10;

/// The evaluation of `pos` for the side to move.
#[inline(always)]
pub fn evaluate<B: Backend>(backend: B, pos: &Position) -> Score {
    balance(backend, pos.quad()) + TEMPO
}

// ANCHOR: balance
/// The material and positional balance of a relative quad (plane 0 = the side to move's pieces),
/// without the tempo bonus: `balance(flip(q)) == -balance(q)` exactly.
///
/// Always inlined, down to every backend routine, so that it compiles inside the search's feature
/// region.
#[inline(always)]
pub fn balance<B: Backend>(backend: B, quad: &Quad) -> Score {
    let sets = RelativeSets::new(backend, quad);
    let phase = game_phase(backend, &sets);
    // The opponent's pieces seen from its side: after the flip they carry the colour plane.
    let flipped = backend.flip(quad);
    let theirs = RelativeSets::new(backend, &flipped);
    let ours = SideTerms::of(backend, &sets, phase);
    let opponent = SideTerms::of(backend, &theirs, phase);
    taper(ours.mg - opponent.mg, ours.eg - opponent.eg, phase) + ours.tapered - opponent.tapered
}
// ANCHOR_END: balance

/// The game phase: 24 with all pieces on the board, 0 with kings and pawns only.
pub const MAX_PHASE: i32 = 24;

#[inline(always)]
fn game_phase<B: Backend>(backend: B, sets: &RelativeSets) -> i32 {
    const WEIGHTS: [i16; 8] = [1, 1, 2, 4, 0, 0, 0, 0];
    let minors_and_majors = [
        sets.knights,
        sets.bishops,
        sets.rooks,
        sets.queens,
        0,
        0,
        0,
        0,
    ];
    backend
        .weighted_popcount(&minors_and_majors, &WEIGHTS)
        .min(MAX_PHASE)
}

#[inline]
fn taper(mg: i32, eg: i32, phase: i32) -> i32 {
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// One side's terms, seen from that side (it plays up the board).
struct SideTerms {
    /// Material and piece-square sums, middle game and end game.
    mg: i32,
    eg: i32,
    /// The counted terms and the bishop pair, already tapered.
    tapered: i32,
}

impl SideTerms {
    /// The terms of "us" in `sets`: the pieces carrying the colour plane, which marks the side
    /// the quad is seen from.
    #[inline(always)]
    fn of<B: Backend>(backend: B, sets: &RelativeSets, phase: i32) -> SideTerms {
        let own = sets.us;
        let other = sets.them;
        let (mut mg, mut eg) = (0, 0);
        for kind in PieceType::ALL {
            let table = &PIECE_SQUARE[kind.index()];
            for sq in Squares(sets.of_type(kind) & own) {
                mg += i32::from(table.mg[sq.index()]);
                eg += i32::from(table.eg[sq.index()]);
            }
        }

        let pawns = sets.pawns & own;
        let their_pawns = sets.pawns & other;
        let knights = sets.knights & own;
        let bishops = sets.bishops & own;
        let rooks = sets.rooks & own;
        let queens = sets.queens & own;
        let king = sets.kings & own;
        let empty = !sets.occupied;

        // Mobility: squares a piece type reaches that are neither our own nor guarded by an
        // enemy pawn (the union per type: two knights on one square count it once).
        let their_pawn_attacks = SouthEast.shift(their_pawns) | SouthWest.shift(their_pawns);
        let area = !own & !their_pawn_attacks;
        let knight_reach = backend.knight_attacks(knights) & area;
        let bishop_reach = backend.slider_attacks(0, bishops, empty) & area;
        let rook_reach = backend.slider_attacks(rooks, 0, empty) & area;
        let queen_reach = backend.slider_attacks(queens, queens, empty) & area;

        let our_pawn_files = file_fill(pawns);
        let open_file_rooks = rooks & !our_pawn_files;
        let king_zone = king | East.shift(king) | West.shift(king);
        let shield = pawns & ((king_zone << 8) | (king_zone << 16));
        let threatened = (knights | bishops | rooks | queens) & their_pawn_attacks;
        let supported = pawns & (NorthEast.shift(pawns) | NorthWest.shift(pawns));
        let activity = [
            knight_reach,
            bishop_reach,
            rook_reach,
            queen_reach,
            open_file_rooks,
            shield,
            threatened,
            supported,
        ];

        let isolated = pawns & !(East.shift(our_pawn_files) | West.shift(our_pawn_files));
        // A pawn with another of ours ahead on its file: the rear ones of a doubled file.
        let behind_own = pawns & south_fill(pawns >> 8);
        // Passed: no enemy pawn ahead on its own or an adjacent file, and no own pawn ahead.
        let their_span = south_fill(their_pawns >> 8);
        let passed =
            pawns & !(their_span | East.shift(their_span) | West.shift(their_span)) & !behind_own;
        let free_passed = passed & (empty >> 8);
        let pawn_structure = [
            isolated,
            behind_own,
            passed & (RANK_2 | RANK_3),
            passed & RANK_4,
            passed & RANK_5,
            passed & RANK_6,
            passed & RANK_7,
            free_passed,
        ];

        let phase_index = phase as usize;
        let mut tapered = backend.weighted_popcount(&activity, &ACTIVITY_WEIGHTS[phase_index])
            + backend.weighted_popcount(&pawn_structure, &PAWN_WEIGHTS[phase_index]);
        if bishops.count_ones() >= 2 {
            tapered += taper(BISHOP_PAIR.0, BISHOP_PAIR.1, phase);
        }
        SideTerms { mg, eg, tapered }
    }
}

/// Whether neither side can ever mate, whatever is played: bare kings, a single minor piece, or
/// bishops only, all on squares of one colour.
#[inline]
pub fn insufficient_material<B: Backend>(backend: B, pos: &Position) -> bool {
    let sets = RelativeSets::new(backend, pos.quad());
    if sets.pawns | sets.rooks | sets.queens != 0 {
        return false;
    }
    let minors = sets.knights | sets.bishops;
    minors.count_ones() <= 1
        || (sets.knights == 0
            && (sets.bishops & LIGHT_SQUARES == 0 || sets.bishops & !LIGHT_SQUARES == 0))
}

// ---- board geometry -------------------------------------------------------------------------

const RANK_1: u64 = 0xff;
const RANK_2: u64 = RANK_1 << 8;
const RANK_3: u64 = RANK_1 << 16;
const RANK_4: u64 = RANK_1 << 24;
const RANK_5: u64 = RANK_1 << 32;
const RANK_6: u64 = RANK_1 << 40;
const RANK_7: u64 = RANK_1 << 48;
/// b1, d1, ..., a2, c2, ...: the light squares (a1 is dark).
const LIGHT_SQUARES: u64 = 0x55aa_55aa_55aa_55aa;

#[inline]
fn north_fill(mut b: u64) -> u64 {
    b |= b << 8;
    b |= b << 16;
    b | b << 32
}
#[inline]
fn south_fill(mut b: u64) -> u64 {
    b |= b >> 8;
    b |= b >> 16;
    b | b >> 32
}
#[inline]
fn file_fill(b: u64) -> u64 {
    north_fill(b) | south_fill(b)
}

// ---- weights ----------------------------------------------------------------------------------

/// (middle game, end game) per set of the activity group, in the order `SideTerms::of` builds it:
/// knight, bishop, rook and queen mobility (per square), rooks on files without own pawns, pawns
/// sheltering the king, pieces attacked by enemy pawns, pawns defended by pawns.
const ACTIVITY: [(i16, i16); 8] = [
    (4, 4),
    (5, 5),
    (2, 4),
    (1, 2),
    (20, 10),
    (12, 0),
    (-20, -15),
    (6, 8),
];

/// (middle game, end game) per set of the pawn group: isolated, doubled, passed on ranks 2-3, 4,
/// 5, 6, 7, passed with the square ahead free.
const PAWNS: [(i16, i16); 8] = [
    (-10, -15),
    (-8, -20),
    (5, 10),
    (10, 20),
    (20, 40),
    (35, 70),
    (60, 110),
    (5, 20),
];

const BISHOP_PAIR: (i32, i32) = (25, 45);

/// The weights of each group blended for every phase, computed at compile time so that each
/// group costs one weighted population count per side.
const ACTIVITY_WEIGHTS: [[i16; 8]; 25] = tapered_weights(&ACTIVITY);
const PAWN_WEIGHTS: [[i16; 8]; 25] = tapered_weights(&PAWNS);

const fn tapered_weights(pairs: &[(i16, i16); 8]) -> [[i16; 8]; 25] {
    let mut out = [[0; 8]; 25];
    let mut phase = 0;
    while phase <= MAX_PHASE as usize {
        let mut i = 0;
        while i < 8 {
            let (mg, eg) = (pairs[i].0 as i32, pairs[i].1 as i32);
            out[phase][i] =
                ((mg * phase as i32 + eg * (MAX_PHASE - phase as i32)) / MAX_PHASE) as i16;
            i += 1;
        }
        phase += 1;
    }
    out
}

// ---- material and piece-square tables -------------------------------------------------------

/// Piece values, middle game and end game, pawn to king (the king's is never traded).
const MATERIAL: [(i16, i16); 6] = [
    (85, 105),
    (325, 300),
    (335, 320),
    (470, 530),
    (960, 980),
    (0, 0),
];

/// Material plus position for one piece type, indexed by the relative square.
#[derive(Copy, Clone)]
struct PieceSquare {
    mg: [i16; 64],
    eg: [i16; 64],
}

/// Indexed by `PieceType::index()` (pawn = 0). The diagrams are data, kept in a file of their own
/// where they read as boards; they are parsed at compile time.
static PIECE_SQUARE: [PieceSquare; 6] =
    piece_square_tables(&parse_diagrams(include_str!("piece_square.txt")));

/// The material plus the diagrams, pawn to king, each drawn with rank 8 on top as a board is read.
const fn piece_square_tables(diagrams: &[[i16; 64]; 12]) -> [PieceSquare; 6] {
    let mut out = [PieceSquare {
        mg: [0; 64],
        eg: [0; 64],
    }; 6];
    let mut kind = 0;
    while kind < 6 {
        let (value_mg, value_eg) = MATERIAL[kind];
        let mut sq = 0;
        while sq < 64 {
            let drawn = sq ^ 56; // row 0 of the diagram is rank 8
            out[kind].mg[sq] = value_mg + diagrams[2 * kind][drawn];
            out[kind].eg[sq] = value_eg + diagrams[2 * kind + 1][drawn];
            sq += 1;
        }
        kind += 1;
    }
    out
}

/// The twelve diagrams of `piece_square.txt` (middle game then end game, pawn to king), 64
/// numbers each in reading order; a malformed file stops the build with the reason.
const fn parse_diagrams(text: &str) -> [[i16; 64]; 12] {
    let bytes = text.as_bytes();
    let mut out = [[0; 64]; 12];
    let (mut at, mut count) = (0, 0);
    while at < bytes.len() {
        match bytes[at] {
            b'#' => {
                while at < bytes.len() && bytes[at] != b'\n' {
                    at += 1;
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' => at += 1,
            b'-' | b'0'..=b'9' => {
                let negative = bytes[at] == b'-';
                if negative {
                    at += 1;
                }
                let digits_start = at;
                let mut value: i32 = 0;
                while at < bytes.len() && bytes[at].is_ascii_digit() {
                    value = value * 10 + (bytes[at] - b'0') as i32;
                    assert!(
                        value <= i16::MAX as i32,
                        "piece_square.txt: a value is too large"
                    );
                    at += 1;
                }
                assert!(at > digits_start, "piece_square.txt: a '-' without digits");
                assert!(count < 12 * 64, "piece_square.txt: more than 12 diagrams");
                out[count / 64][count % 64] = (if negative { -value } else { value }) as i16;
                count += 1;
            }
            _ => panic!("piece_square.txt: only numbers, white space and '#' comments"),
        }
    }
    assert!(
        count == 12 * 64,
        "piece_square.txt: fewer than 12 diagrams of 64 numbers"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use qbb::{BackendKind, Scalar};
    use qbb_corpus::Suite;

    /// The same position with colours exchanged: ranks reversed, case swapped, the other side to
    /// move, castling rights and the en-passant square mirrored.
    fn colour_flipped_fen(fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let swap_case = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let placement: Vec<String> = fields[0].split('/').rev().map(swap_case).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let castling = if fields[2] == "-" {
            "-".to_string()
        } else {
            swap_case(fields[2])
        };
        let en_passant = match fields[3].as_bytes() {
            [file, rank] => format!("{}{}", *file as char, (b'1' + b'8' - rank) as char),
            _ => "-".to_string(),
        };
        let mut out = vec![placement.join("/"), side.into(), castling, en_passant];
        out.extend(fields[4..].iter().map(|s| s.to_string()));
        out.join(" ")
    }

    /// The same position mirrored between the a and h sides (castling rights dropped: they are
    /// not symmetric).
    fn file_mirrored_fen(fen: &str) -> String {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let placement: Vec<String> = fields[0]
            .split('/')
            .map(|rank| rank.chars().rev().collect())
            .collect();
        let en_passant = match fields[3].as_bytes() {
            [file, rank] => format!("{}{}", (b'a' + b'h' - file) as char, *rank as char),
            _ => "-".to_string(),
        };
        let mut out = vec![
            placement.join("/"),
            fields[1].into(),
            "-".into(),
            en_passant,
        ];
        out.extend(fields[4..].iter().map(|s| s.to_string()));
        out.join(" ")
    }

    fn corpus_positions() -> Vec<Position> {
        Suite::ALL
            .iter()
            .flat_map(|suite| suite.entries())
            .map(|entry| Position::from_fen(entry.fen).expect("the suites' positions parse"))
            .collect()
    }

    fn eval(fen: &str) -> Score {
        evaluate(Scalar, &Position::from_fen(fen).unwrap())
    }

    #[test]
    fn evaluation_is_symmetric_under_the_colour_flip() {
        let mut checked = 0;
        for suite in Suite::ALL {
            for entry in suite.entries() {
                let pos = Position::from_fen(entry.fen).unwrap();
                let flipped = Position::from_fen(&colour_flipped_fen(entry.fen))
                    .unwrap_or_else(|e| panic!("flip of {} does not parse: {e}", entry.fen));
                assert_eq!(
                    evaluate(Scalar, &pos),
                    evaluate(Scalar, &flipped),
                    "{} vs its colour flip",
                    entry.fen
                );
                checked += 1;
            }
        }
        assert!(checked > 7_000);
    }

    #[test]
    fn the_balance_changes_sign_with_the_side_to_move() {
        for pos in corpus_positions() {
            let quad = pos.quad();
            let passed = pos.make_null_move();
            assert_eq!(
                balance(Scalar, passed.quad()),
                -balance(Scalar, quad),
                "{}",
                pos.to_fen()
            );
        }
    }

    #[test]
    fn evaluation_is_symmetric_between_the_wings() {
        for entry in Suite::Standard
            .entries()
            .iter()
            .chain(&Suite::Random.entries())
        {
            let Ok(mirrored) = Position::from_fen(&file_mirrored_fen(entry.fen)) else {
                continue;
            };
            let pos = Position::from_fen(entry.fen).unwrap();
            assert_eq!(
                evaluate(Scalar, &pos),
                evaluate(Scalar, &mirrored),
                "{}",
                entry.fen
            );
        }
    }

    #[test]
    fn every_backend_evaluates_alike() {
        let positions = corpus_positions();
        let evaluate_all = |kind: BackendKind| {
            qbb::with_backend!(kind, |b| {
                positions
                    .iter()
                    .map(|p| evaluate(b, p))
                    .collect::<Vec<Score>>()
            })
            .unwrap()
        };
        let reference = evaluate_all(BackendKind::Scalar);
        for kind in BackendKind::ALL.into_iter().filter(|k| k.is_available()) {
            assert_eq!(evaluate_all(kind), reference, "{kind}");
        }
    }

    #[test]
    fn material_and_development_count() {
        // The start position is balanced: only the tempo remains.
        assert_eq!(evaluate(Scalar, &Position::startpos()), TEMPO);
        // A queen up is worth about a queen.
        let queen_up = eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!((800..1200).contains(&queen_up), "{queen_up}");
        assert_eq!(
            eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"),
            -queen_up + 2 * TEMPO
        );
        // A knight in the centre beats a knight on the rim.
        let centre = eval("4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        let rim = eval("4k3/8/8/8/N7/8/8/4K3 w - - 0 1");
        assert!(centre > rim, "{centre} <= {rim}");
        // A passed pawn on the seventh is worth more than one on the third.
        let far = eval("4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let near = eval("4k3/8/8/8/8/P7/8/4K3 w - - 0 1");
        assert!(far > near + 100, "{far} vs {near}");
        // In the end game the king belongs in the centre.
        let central_king = eval("8/8/8/3k4/8/8/8/1R2K3 w - - 0 1");
        let corner_king = eval("k7/8/8/8/8/8/8/1R2K3 w - - 0 1");
        assert!(
            corner_king > central_king,
            "{corner_king} <= {central_king}"
        );
    }

    #[test]
    fn dead_positions_are_recognised() {
        let dead = |fen: &str| insufficient_material(Scalar, &Position::from_fen(fen).unwrap());
        assert!(dead("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
        assert!(dead("4k3/8/8/8/8/8/8/4KN2 w - - 0 1"));
        assert!(dead("4kb2/8/8/8/8/8/8/4K3 b - - 0 1"));
        // Bishops all on light squares (f1 and c8 are light).
        assert!(dead("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
        // Bishops on both colours, two knights, a pawn, a rook: mate stays possible.
        assert!(!dead("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
        assert!(!dead("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
    }
}

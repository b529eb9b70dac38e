//! `qbb show --routine R`: what one routine of the catalogue computes, drawn on a position chosen
//! to show it.
//!
//! [`compute`] calls the routine (and nothing else of the picture) on the chosen backend, inside
//! its features; [`draw`] lays the inputs and the result out as text, the same for every backend.

use qbb::nnue::{Change, changes};
use qbb::{
    Backend, ClassicalBoard, Color, DenseBoard, Direction, HexSets, KingSafety, Mailbox,
    MoveAspects, NibbleBoard, Piece, PieceSets, PieceType, Quad, Routine, SliderPosition, Square,
};
use qbb_engine::nnue::Accumulators;

use super::draw::{self, Block, PLANES, Style};
use super::inputs;

pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// White in check from the rook on e8, a white knight pinned on c3 and a black pawn on f7; the
/// white knight on g4 stands between the white rook on g1 and the black king.
const LINES: &str = "4r1k1/5p2/8/b7/6N1/1BN5/8/4K1R1 w - - 0 1";
const SLIDERS: &str = "8/2k5/8/3R4/8/5b2/8/1Q2K3 w - - 0 1";
const PROMOTION: &str = "1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1";
const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
/// Kiwipete after 1. Bxa6: one bishop fewer for black.
const BXA6: &str = "r3k2r/p1ppqpb1/Bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPB1PPP/R3K2R b KQkq - 0 1";

/// The position a routine is drawn on when no FEN is given.
pub fn default_fen(routine: Routine) -> &'static str {
    use Routine::*;
    match routine {
        PieceAt | ToNibbleBoard | FromNibbleBoard | HashManino | HashZobrist => START,
        SetPiece => PROMOTION,
        Flip => E4,
        OccludedFills | ChecksAndPins => LINES,
        SliderAttacks => SLIDERS,
        WeightedPopcount => BXA6,
        _ => KIWIPETE,
    }
}

/// The square `piece-at` reads when none is given.
pub const DEFAULT_SQUARE: &str = "e1";
/// What `set-piece` writes when nothing is given: the promotion c7xb8=Q, as two writes.
pub const DEFAULT_WRITES: [&str; 2] = ["b8=Q", "c7=."];

/// The move drawn by `move-delta` and the hashes when none is given.
pub fn default_move(routine: Routine) -> &'static str {
    match routine {
        Routine::MoveDelta => "e1g1",
        // Kiwipete's knight takes on f7: a capture changes two squares.
        Routine::NnueUpdate => "e5f7",
        _ => "e2e4",
    }
}

/// Whether a routine's picture takes `--square`, `--set` or `--move`.
pub fn takes_square(routine: Routine) -> bool {
    routine == Routine::PieceAt
}

pub fn takes_writes(routine: Routine) -> bool {
    routine == Routine::SetPiece
}

pub fn takes_move(routine: Routine) -> bool {
    matches!(
        routine,
        Routine::MoveDelta | Routine::HashManino | Routine::HashZobrist | Routine::NnueUpdate
    )
}

/// What the picture is about: the routine, the position (absolute) and the extra inputs.
#[derive(Debug, Clone)]
pub struct Job {
    pub routine: Routine,
    pub fen: String,
    pub quad: Quad,
    pub square: Square,
    pub writes: Vec<(Square, u8)>,
    pub aspects: MoveAspects,
    pub move_text: String,
}

/// The weights of the weighted-popcount picture: material, white's counted up, black's down.
const WEIGHTS: [i16; 8] = [100, 320, 330, 500, -100, -320, -330, -500];
const WEIGHTED: [&str; 8] = [
    "white P", "white N", "white B", "white R", "black p", "black n", "black b", "black r",
];

/// What the routine returned (with the inputs it was given where they are derived).
#[derive(Debug, Clone)]
pub enum Outcome {
    /// `piece_at` of every square.
    PieceAt([u8; 64]),
    /// The quad after each write.
    SetPiece(Vec<Quad>),
    PieceSets(PieceSets),
    HexSets(HexSets),
    ToMailbox(Mailbox),
    FromMailbox(Mailbox, Quad),
    MoveDelta(Quad),
    Flip(Quad),
    OccludedFills {
        generators: Quad,
        empty: u64,
        fills: [Quad; 8],
    },
    /// Per side: orth, diag, empty, attacks.
    SliderAttacks([[u64; 4]; 2]),
    /// Per side: knights, attacks.
    KnightAttacks([[u64; 2]; 2]),
    ChecksAndPins(SliderPosition, [KingSafety; 2]),
    WeightedPopcount([u64; 8], i32),
    /// The operands and the result.
    Nibbles(NibbleBoard, NibbleBoard, NibbleBoard),
    ToNibbleBoard(NibbleBoard),
    FromNibbleBoard(NibbleBoard, Quad),
    ToClassical(ClassicalBoard),
    FromClassical(ClassicalBoard, Quad),
    ToDense(DenseBoard),
    FromDense(DenseBoard, Quad),
    /// The hash before and after the move.
    Hash(u64, u64),
    Nnue(Box<NnueOutcome>),
}

/// What the NNUE picture shows, on the board relative to the side to move (the network's `us`).
#[derive(Debug, Clone)]
pub struct NnueOutcome {
    pub acc: Accumulators,
    /// The evaluation for the side to move, in centipawns.
    pub eval: i32,
    /// Per square: the evaluation minus the evaluation without the piece there (by an update
    /// that removes it), in the relative board's squares.
    pub worth: [Option<i32>; 64],
    /// The move's changed squares (relative), and after it (before the flip): the evaluation, and
    /// whether the updated accumulators equal a refresh.
    pub changes: Vec<Change>,
    pub eval_after: i32,
    pub update_equals_refresh: bool,
}

/// Calls the routine on `b`. Inputs that are themselves a routine's result (the piece sets a
/// picture starts from, the knight counts) come from the same backend.
#[inline]
pub fn compute<B: Backend>(b: B, job: &Job) -> Outcome {
    use Routine::*;
    let quad = &job.quad;
    match job.routine {
        PieceAt => Outcome::PieceAt(std::array::from_fn(|s| {
            b.piece_at(quad, Square::new(s as u8).expect("below 64"))
        })),
        SetPiece => {
            let mut q = *quad;
            Outcome::SetPiece(
                job.writes
                    .iter()
                    .map(|&(sq, code)| {
                        b.set_piece(&mut q, sq, code);
                        q
                    })
                    .collect(),
            )
        }
        PieceSets => Outcome::PieceSets(b.piece_sets(quad)),
        HexSets => Outcome::HexSets(b.hex_sets(quad)),
        ToMailbox => Outcome::ToMailbox(b.to_mailbox(quad)),
        FromMailbox => {
            let mailbox = b.to_mailbox(quad);
            Outcome::FromMailbox(mailbox, b.from_mailbox(&mailbox))
        }
        MoveDelta => Outcome::MoveDelta(b.move_delta(&job.aspects)),
        Flip => Outcome::Flip(b.flip(quad)),
        OccludedFills => {
            let s = b.piece_sets(quad);
            let orth = s.rooks | s.queens;
            let generators = Quad::new(
                orth & s.white,
                s.kings & s.white,
                s.kings & s.black,
                orth & s.black,
            );
            let empty = !s.occupied;
            Outcome::OccludedFills {
                generators,
                empty,
                fills: b.occluded_fills(&generators, empty),
            }
        }
        SliderAttacks => {
            let s = b.piece_sets(quad);
            Outcome::SliderAttacks([s.white, s.black].map(|side| {
                let orth = (s.rooks | s.queens) & side;
                let diag = (s.bishops | s.queens) & side;
                [
                    orth,
                    diag,
                    !s.occupied,
                    b.slider_attacks(orth, diag, !s.occupied),
                ]
            }))
        }
        KnightAttacks => {
            let s = b.piece_sets(quad);
            Outcome::KnightAttacks([s.white, s.black].map(|side| {
                let knights = s.knights & side;
                [knights, b.knight_attacks(knights)]
            }))
        }
        ChecksAndPins => {
            let position = SliderPosition::by_colour(&b.piece_sets(quad));
            Outcome::ChecksAndPins(position, b.checks_and_pins(&position))
        }
        WeightedPopcount => {
            let s = b.piece_sets(quad);
            let types = [s.pawns, s.knights, s.bishops, s.rooks];
            let sets =
                std::array::from_fn(|i| types[i % 4] & if i < 4 { s.white } else { s.black });
            Outcome::WeightedPopcount(sets, b.weighted_popcount(&sets, &WEIGHTS))
        }
        NibbleAdd | NibbleSub | NibbleAvg => {
            let s = b.piece_sets(quad);
            let counts = |side: u64| {
                qbb::Squares(s.knights & side).fold(NibbleBoard::default(), |sum, knight| {
                    b.nibble_add(&sum, &ones(b.knight_attacks(knight.bit())))
                })
            };
            let (x, y) = (counts(s.white), counts(s.black));
            let result = match job.routine {
                NibbleAdd => b.nibble_add(&x, &y),
                NibbleSub => b.nibble_sub(&x, &y),
                _ => b.nibble_avg(&x, &y),
            };
            Outcome::Nibbles(x, y, result)
        }
        ToNibbleBoard => Outcome::ToNibbleBoard(b.to_nibble_board(quad)),
        FromNibbleBoard => {
            let board = b.to_nibble_board(quad);
            Outcome::FromNibbleBoard(board, b.from_nibble_board(&board))
        }
        ToClassical => Outcome::ToClassical(b.to_classical(quad)),
        FromClassical => {
            let board = b.to_classical(quad);
            Outcome::FromClassical(board, b.from_classical(&board))
        }
        ToDense => Outcome::ToDense(b.to_dense(quad)),
        FromDense => {
            let board = b.to_dense(quad);
            Outcome::FromDense(board, b.from_dense(&board))
        }
        HashManino | HashZobrist => {
            let after = *quad ^ b.move_delta(&job.aspects);
            let hash = |q: &Quad| {
                if job.routine == HashManino {
                    b.hash_manino(q, 0)
                } else {
                    b.hash_zobrist(q)
                }
            };
            Outcome::Hash(hash(quad), hash(&after))
        }
        NnueRefresh | NnueUpdate | NnueEvaluate => Outcome::Nnue(Box::new(nnue(b, job))),
    }
}

/// The three NNUE routines on the relative board, with the engine's embedded network.
#[inline]
fn nnue<B: Backend>(b: B, job: &Job) -> NnueOutcome {
    let net = qbb_engine::nnue::embedded_network();
    let side = side_to_move(&job.fen);
    let board = job.quad.to_relative(side);
    let acc = b.nnue_refresh(&board, &net);
    let eval = b.nnue_evaluate(&acc, &net);
    let worth = std::array::from_fn(|s| {
        let sq = Square::new(s as u8).expect("below 64");
        let code = board.nibble(sq);
        (code > 1).then(|| {
            let mut without = acc;
            b.nnue_update(&mut without, &board, &Quad::nibble_at(sq, code), &net);
            eval - b.nnue_evaluate(&without, &net)
        })
    });
    let after = (job.quad ^ b.move_delta(&job.aspects)).to_relative(side);
    let delta = board ^ after;
    let mut updated = acc;
    b.nnue_update(&mut updated, &board, &delta, &net);
    NnueOutcome {
        acc,
        eval,
        worth,
        changes: changes(&board, &delta).collect(),
        eval_after: b.nnue_evaluate(&updated, &net),
        update_equals_refresh: updated == b.nnue_refresh(&after, &net),
    }
}

/// The side to move of a FEN (white when it does not say).
fn side_to_move(fen: &str) -> Color {
    if fen.split_whitespace().nth(1) == Some("b") {
        Color::Black
    } else {
        Color::White
    }
}

/// A nibble board with 1 on the squares of `set`.
fn ones(set: u64) -> NibbleBoard {
    let mut board = NibbleBoard::default();
    for sq in qbb::Squares(set) {
        board.set(sq, 1);
    }
    board
}

/// The picture: what was asked, the inputs and the result.
pub fn draw(job: &Job, backend: &str, outcome: &Outcome) -> String {
    let r = job.routine;
    let mut out = format!(
        "{}\n{} (row {}: {}) on the {backend} backend\n\n",
        job.fen,
        r.id(),
        r.row(),
        r.title()
    );
    let codes = draw::codes_of(&job.quad);
    let board = |ranks: bool| draw::board("board", ranks, &codes, 0);
    out.push_str(&match outcome {
        Outcome::PieceAt(every) => piece_at(job, &codes, every),
        Outcome::SetPiece(steps) => set_piece(job, &codes, steps),
        Outcome::PieceSets(sets) => piece_sets(board(true), sets),
        Outcome::HexSets(sets) => hex_sets(&codes, sets),
        Outcome::ToMailbox(mailbox) => to_mailbox(&codes, mailbox),
        Outcome::FromMailbox(mailbox, quad) => from_mailbox(job, mailbox, quad),
        Outcome::MoveDelta(delta) => move_delta(job, delta),
        Outcome::Flip(flipped) => flip(job, &codes, flipped),
        Outcome::OccludedFills {
            generators,
            empty,
            fills,
        } => occluded_fills(board(true), generators, *empty, fills),
        Outcome::SliderAttacks(sides) => slider_attacks(board(true), sides),
        Outcome::KnightAttacks(sides) => knight_attacks(board(true), sides),
        Outcome::ChecksAndPins(position, safety) => checks_and_pins(board(true), position, safety),
        Outcome::WeightedPopcount(sets, sum) => weighted_popcount(board(true), sets, *sum),
        Outcome::Nibbles(a, b, result) => nibbles(r, board(true), a, b, result),
        Outcome::ToNibbleBoard(nb) => to_nibble_board(&codes, nb),
        Outcome::FromNibbleBoard(nb, quad) => from_nibble_board(job, nb, quad),
        Outcome::ToClassical(cb) => to_classical(board(true), cb),
        Outcome::FromClassical(cb, quad) => from_classical(job, cb, quad),
        Outcome::ToDense(db) => to_dense(board(true), db),
        Outcome::FromDense(db, quad) => from_dense(job, db, quad),
        Outcome::Hash(before, after) => hash(job, board(true), *before, *after),
        Outcome::Nnue(outcome) => nnue_picture(job, outcome),
    });
    out
}

/// `K, the white king`; `empty`; `no piece`.
fn code_name(code: u8) -> String {
    const TYPES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    match (code, Piece::from_code(code)) {
        (0, _) => "empty".to_string(),
        (_, Some(p)) => format!(
            "{}, the {} {}",
            p.letter(),
            if p.color() == Color::White {
                "white"
            } else {
                "black"
            },
            TYPES[p.kind().index()]
        ),
        _ => "no piece".to_string(),
    }
}

fn yes_no(same: bool) -> &'static str {
    if same { "yes" } else { "NO" }
}

fn piece_at(job: &Job, codes: &[u8; 64], every: &[u8; 64]) -> String {
    let sq = job.square;
    let bit = |p: usize| job.quad.bb[p] >> sq.index() & 1;
    let code = every[sq.index()];
    format!(
        "The bit of {sq} in each plane (bracketed) is one bit of its nibble:\n\
         {sq}: bb3 {} bb2 {} bb1 {} bb0 {}  ->  piece_at = {code:04b}B = {code:X} ({})\n\n{}\n{}",
        bit(3),
        bit(2),
        bit(1),
        bit(0),
        code_name(code),
        draw::planes(&job.quad, PLANES, sq.bit()),
        draw::row(
            &[
                draw::board("board", true, codes, sq.bit()),
                draw::nibbles("piece_at, every square", false, every, sq.bit()),
            ],
            4
        ),
    )
}

fn set_piece(job: &Job, codes: &[u8; 64], steps: &[Quad]) -> String {
    let after = steps.last().copied().unwrap_or(job.quad);
    let marks = job.writes.iter().fold(0, |m, (sq, _)| m | sq.bit());
    let calls: Vec<String> = job
        .writes
        .iter()
        .map(|(sq, code)| format!("set_piece({sq}, {code:04b}B)"))
        .collect();
    format!(
        "set_piece writes a code into the four planes of one square (bracketed):\n\
         each plane's bit becomes the code's bit, the rest of the plane is kept.\n\n\
         before\n{}\nafter {}\n{}\n{}",
        draw::planes(&job.quad, PLANES, marks),
        calls.join(", "),
        draw::planes(&after, PLANES, marks),
        draw::row(
            &[
                draw::board("before", true, codes, marks),
                draw::board("after", false, &draw::codes_of(&after), marks),
            ],
            4
        ),
    )
}

/// Titled sets side by side in the compact style, the rank numbers on the first only.
fn compact_row<T: AsRef<str>>(sets: impl IntoIterator<Item = (T, u64)>, gap: usize) -> String {
    let blocks: Vec<Block> = sets
        .into_iter()
        .enumerate()
        .map(|(i, (title, bits))| draw::set(title.as_ref(), Style::Compact, i == 0, bits))
        .collect();
    draw::row(&blocks, gap)
}

fn piece_sets(board: Block, s: &PieceSets) -> String {
    let sets = [
        ("black", s.black),
        ("white", s.white),
        ("occupied", s.occupied),
        ("odd", s.odd),
        ("pawns", s.pawns),
        ("knights", s.knights),
        ("bishops", s.bishops),
        ("rooks", s.rooks),
        ("queens", s.queens),
        ("kings", s.kings),
    ];
    let (first, second) = sets.split_at(5);
    format!(
        "The disjoint sets (x), each one or two operations on the planes:\n\
         black = bb0             white = bb0 ^ occupied   occupied = bb1|bb2|bb3\n\
         odd = bb1^bb2^bb3       pawns = odd & bb1        knights = odd & bb2\n\
         bishops = bb1 & bb2     rooks = odd & bb3        queens = bb1 & bb3\n\
         kings = bb2 & bb3\n\n{}\n{}\n{}",
        draw::row(&[board], 0),
        compact_row(first.iter().copied(), 3),
        compact_row(second.iter().copied(), 3),
    )
}

/// The name of a code in a set's title: `2 P`, `0 empty`, `1 -`.
fn code_title(code: usize) -> String {
    match (code, Piece::from_code(code as u8)) {
        (0, _) => "0 empty".to_string(),
        (_, Some(p)) => format!("{code:X} {}", p.letter()),
        _ => format!("{code:X} -"),
    }
}

fn hex_sets(codes: &[u8; 64], sets: &HexSets) -> String {
    let half = |from: usize| compact_row((from..from + 8).map(|c| (code_title(c), sets.0[c])), 1);
    format!(
        "Set c holds the squares whose nibble is c: sixteen disjoint sets that\n\
         cover the board (codes 1, E and F name no piece).\n\n{}\n{}\n{}",
        draw::row(
            &[
                draw::board("board", true, codes, 0),
                draw::nibbles("nibbles (hex)", false, codes, 0)
            ],
            4
        ),
        half(0),
        half(8),
    )
}

/// 64 bytes as memory holds them, 16 a line with their offsets.
fn memory(bytes: &[u8]) -> String {
    bytes
        .chunks(16)
        .enumerate()
        .map(|(i, line)| {
            let hex: Vec<String> = line.iter().map(|b| format!("{b:02X}")).collect();
            let (low, high) = hex.split_at(hex.len().min(8));
            format!("{:>2}  {}  {}\n", 16 * i, low.join(" "), high.join(" "))
        })
        .collect()
}

fn to_mailbox(codes: &[u8; 64], mailbox: &Mailbox) -> String {
    format!(
        "to_mailbox: byte s of the mailbox holds the nibble of square s.\n\n{}\n\
         In memory, byte 0 (a1) first, 16 bytes a line (two ranks):\n{}",
        draw::row(
            &[
                draw::board("board", true, codes, 0),
                draw::bytes("mailbox bytes (hex)", true, &mailbox.0),
            ],
            4
        ),
        memory(&mailbox.0),
    )
}

fn from_mailbox(job: &Job, mailbox: &Mailbox, quad: &Quad) -> String {
    format!(
        "from_mailbox: bit p of every byte, gathered into plane p (only the low\n\
         nibble of each byte is read).\n\n{}\nfrom_mailbox(mailbox)\n{}\n\
         the planes are the position's quad: {}\n",
        draw::row(&[draw::bytes("mailbox bytes (hex)", true, &mailbox.0)], 0),
        draw::planes(quad, PLANES, 0),
        yes_no(*quad == job.quad),
    )
}

fn move_delta(job: &Job, delta: &Quad) -> String {
    let after = job.quad ^ *delta;
    let changed = delta.bb.iter().fold(0, |m, p| m | p);
    format!(
        "move {}: {}\n\
         delta = the xor of one-nibble quads; quad ^ delta makes the move, and\n\
         xor-ing it again unmakes it. Changed squares bracketed.\n\n\
         before\n{}\ndelta = move_delta(aspects)\n{}\nafter = before ^ delta\n{}\n{}",
        job.move_text,
        inputs::describe(&job.aspects),
        draw::planes(&job.quad, PLANES, changed),
        draw::planes(delta, PLANES, changed),
        draw::planes(&after, PLANES, changed),
        draw::row(
            &[
                draw::board("before", true, &draw::codes_of(&job.quad), changed),
                draw::board("after", false, &draw::codes_of(&after), changed),
            ],
            4
        ),
    )
}

fn flip(job: &Job, codes: &[u8; 64], flipped: &Quad) -> String {
    format!(
        "flip: every plane mirrored (rank 1 <-> rank 8, a byte swap) and the\n\
         colour bit (bb0) toggled on every occupied square: the same game with\n\
         the colours swapped.\n\n{}\n\
         before\n{}\nafter = flip(before)\n{}",
        draw::row(
            &[
                draw::board("before", true, codes, 0),
                draw::board("after", false, &draw::codes_of(flipped), 0),
            ],
            4
        ),
        draw::planes(&job.quad, PLANES, 0),
        draw::planes(flipped, PLANES, 0),
    )
}

const DIRECTIONS: [&str; 8] = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

fn occluded_fills(board: Block, generators: &Quad, empty: u64, fills: &[Quad; 8]) -> String {
    let names = [
        "bb0 = white rooks and queens",
        "bb1 = the white king",
        "bb2 = the black king",
        "bb3 = black rooks and queens",
    ];
    let titles = ["bb0 RQ", "bb1 K", "bb2 k", "bb3 rq"];
    let mut inputs = vec![board];
    for (p, title) in titles.iter().enumerate() {
        inputs.push(draw::set(title, Style::Compact, false, generators.bb[p]));
    }
    inputs.push(draw::set("empty", Style::Compact, false, empty));
    let mut out = format!(
        "Four generator sets in the four planes (Isenberg's quad), one propagator\n\
         for all four: the empty squares. Each fill (x) holds the generators and\n\
         the empty squares they reach in that direction.\n\n{}",
        draw::row(&inputs, 2)
    );
    for (p, name) in names.iter().enumerate() {
        let blocks: Vec<Block> = Direction::ALL
            .iter()
            .map(|d| {
                let title = DIRECTIONS[d.index()];
                draw::set(
                    title,
                    Style::Compact,
                    d.index() == 0,
                    fills[d.index()].bb[p],
                )
            })
            .collect();
        out.push_str(&format!(
            "\n{name}: out[d].bb[{p}], d = N .. NW\n{}",
            draw::row(&blocks, 1)
        ));
    }
    out
}

fn slider_attacks(board: Block, sides: &[[u64; 4]; 2]) -> String {
    let side = |first: Block, name: &str, s: &[u64; 4]| {
        draw::row(
            &[
                first,
                draw::set(&format!("{name} orth R Q"), Style::Spaced, false, s[0]),
                draw::set(&format!("{name} diag B Q"), Style::Spaced, false, s[1]),
                draw::set(&format!("{name} attacks"), Style::Spaced, false, s[3]),
            ],
            1,
        )
    };
    format!(
        "slider_attacks(orth, diag, empty): the rays of the rook-wise sliders in\n\
         the four orthogonal directions and of the bishop-wise ones in the four\n\
         diagonal directions, each up to and including the first occupied square.\n\n\
         {}\n{}",
        side(board, "white", &sides[0]),
        side(
            draw::set("empty", Style::Spaced, true, sides[1][2]),
            "black",
            &sides[1]
        ),
    )
}

fn knight_attacks(board: Block, sides: &[[u64; 2]; 2]) -> String {
    let notes = [
        "knight_attacks(knights): the squares".to_string(),
        "a knight of the set jumps to, all".to_string(),
        "knights at once (eight shifts, each".to_string(),
        "masked against wrapping).".to_string(),
        String::new(),
        format!("white knights: {}", draw::squares(sides[0][0])),
        format!("black knights: {}", draw::squares(sides[1][0])),
    ];
    format!(
        "{}\n{}",
        draw::row(&[board, draw::text(&notes)], 3),
        draw::row(
            &[
                draw::set("white knights", Style::Spaced, true, sides[0][0]),
                draw::set("their attacks", Style::Spaced, false, sides[0][1]),
                draw::set("black knights", Style::Spaced, false, sides[1][0]),
                draw::set("their attacks", Style::Spaced, false, sides[1][1]),
            ],
            1
        ),
    )
}

fn checks_and_pins(board: Block, p: &SliderPosition, safety: &[KingSafety; 2]) -> String {
    let mut notes = vec![
        "checks_and_pins, answer i for the king".to_string(),
        "of side i (0 = white, 1 = black):".to_string(),
    ];
    for (i, name) in ["white", "black"].iter().enumerate() {
        let s = &safety[i];
        notes.push(String::new());
        notes.push(format!("{name} king {}", draw::squares(p.kings[i])));
        notes.push(format!("  checkers    {}", draw::squares(s.checkers)));
        notes.push(format!("  check_mask  {}", draw::squares(s.check_mask)));
        notes.push(format!("  pinned      {}", draw::squares(s.pinned)));
        notes.push(format!("  discoverers {}", draw::squares(s.discoverers)));
    }
    let mut out = format!(
        "The squares between a king and an enemy slider on the same line: empty,\n\
         the slider gives check (check_mask: where to block it); one piece, it is\n\
         pinned (the king's) or can discover check (the slider's side).\n\n{}",
        draw::row(&[board, draw::text(&notes)], 2)
    );
    for (i, name) in ["white", "black"].iter().enumerate() {
        let s = &safety[i];
        out.push_str(&format!(
            "\nthe {name} king's answer\n{}",
            draw::row(
                &[
                    draw::set("checkers", Style::Spaced, true, s.checkers),
                    draw::set("check_mask", Style::Spaced, false, s.check_mask),
                    draw::set("pinned", Style::Spaced, false, s.pinned),
                    draw::set("discoverers", Style::Spaced, false, s.discoverers),
                ],
                1
            )
        ));
    }
    out
}

fn weighted_popcount(board: Block, sets: &[u64; 8], sum: i32) -> String {
    let mut blocks = Vec::new();
    let mut terms = String::new();
    let mut by_hand = 0i32;
    for (i, (&set, &weight)) in sets.iter().zip(&WEIGHTS).enumerate() {
        let count = set.count_ones() as i32;
        let product = count * i32::from(weight);
        by_hand += product;
        let mut block = draw::set(WEIGHTED[i], Style::Compact, i == 0, set);
        let pad = if i == 0 { "  " } else { "" };
        block.push(format!("{pad}n = {count}"));
        block.push(format!("{pad}w = {weight}"));
        block.push(format!("{pad}{product:+}"));
        blocks.push(block);
        terms.push_str(&if i == 0 {
            product.to_string()
        } else {
            format!(" {} {}", if product < 0 { '-' } else { '+' }, product.abs())
        });
    }
    format!(
        "weighted_popcount(sets, weights) = sum of popcount(sets[i]) * weights[i]:\n\
         the material of eight piece sets, white's weights positive, black's\n\
         negative.\n\n\
         {}\n{}\nn = popcount, w = weight, and their product:\n\
         {terms} = {by_hand}\nweighted_popcount = {sum}\n",
        draw::row(&[board], 0),
        draw::row(&blocks, 1),
    )
}

fn nibbles(
    routine: Routine,
    board: Block,
    a: &NibbleBoard,
    b: &NibbleBoard,
    result: &NibbleBoard,
) -> String {
    let codes = |n: &NibbleBoard| -> [u8; 64] {
        std::array::from_fn(|s| n.get(Square::new(s as u8).expect("below 64")))
    };
    let (what, title, note) = match routine {
        Routine::NibbleAdd => ("a + b mod 16", "a + b", ""),
        Routine::NibbleSub => (
            "a - b mod 16",
            "a - b",
            "Read as signed nibbles, F = -1: black's knights outnumber white's there.\n",
        ),
        _ => (
            "(a + b) / 2",
            "(a + b) / 2",
            "Rounded down, without overflow.\n",
        ),
    };
    format!(
        "{}(a, b): in each of the 64 four-bit lanes, {what}.\n\
         a counts the white knights attacking each square, b the black knights\n\
         (each a sum of one knight's attacks at a time, by nibble_add).\n{note}\n{}",
        routine.method(),
        draw::row(
            &[
                board,
                draw::nibbles("a: white N", false, &codes(a), 0),
                draw::nibbles("b: black N", false, &codes(b), 0),
                draw::nibbles(title, false, &codes(result), 0),
            ],
            1
        ),
    )
}

/// The nibble board by ranks: its four bytes, and the rank as Vučković's 32-bit word.
fn nibble_bytes(nb: &NibbleBoard) -> String {
    (0..8)
        .map(|rank| {
            let bytes = &nb.0[4 * rank..4 * rank + 4];
            let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02X}")).collect();
            let word = u32::from_le_bytes(bytes.try_into().expect("4 bytes"));
            format!(
                "rank {}  bytes {:>2}-{:<2}  {}   0x{word:08X}\n",
                rank + 1,
                4 * rank,
                4 * rank + 3,
                hex.join(" ")
            )
        })
        .collect()
}

fn to_nibble_board(codes: &[u8; 64], nb: &NibbleBoard) -> String {
    format!(
        "to_nibble_board: square s in byte s / 2, the low nibble for even squares,\n\
         the high nibble for odd ones: four bytes a rank.\n\n{}\n\
         The 32 bytes; each rank read as a u32 shows its nibbles right to left:\n{}",
        draw::row(
            &[
                draw::board("board", true, codes, 0),
                draw::nibbles("nibbles (hex)", false, codes, 0),
            ],
            4
        ),
        nibble_bytes(nb),
    )
}

fn from_nibble_board(job: &Job, nb: &NibbleBoard, quad: &Quad) -> String {
    format!(
        "from_nibble_board: the 32 bytes of the nibble board back into four planes.\n\n{}\n\
         from_nibble_board(bytes)\n{}\nthe planes are the position's quad: {}\n",
        nibble_bytes(nb),
        draw::planes(quad, PLANES, 0),
        yes_no(*quad == job.quad),
    )
}

/// The twelve sets of a classical board, white's row above black's.
fn classical_sets(cb: &ClassicalBoard) -> String {
    [Color::White, Color::Black]
        .iter()
        .map(|&color| {
            let sets = PieceType::ALL.iter().map(|&kind| {
                let piece = Piece::new(color, kind);
                let title = format!("{} ({:X})", piece.letter(), piece.code());
                (title, cb.pieces(piece))
            });
            compact_row(sets, 3)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn to_classical(board: Block, cb: &ClassicalBoard) -> String {
    format!(
        "to_classical: one bitboard per coloured piece, the hex sets of the codes\n\
         2 to D (codes 1, E and F name no piece and vanish).\n\n{}\n{}",
        draw::row(&[board], 0),
        classical_sets(cb),
    )
}

fn from_classical(job: &Job, cb: &ClassicalBoard, quad: &Quad) -> String {
    format!(
        "from_classical: plane p = the union of the sets whose code has bit p:\n\
         bb0 = p|n|b|r|q|k      bb1 = P|p|B|b|Q|q\n\
         bb2 = N|n|B|b|K|k      bb3 = R|r|Q|q|K|k\n\n\
         {}\nfrom_classical(sets)\n{}\nthe planes are the position's quad: {}\n",
        classical_sets(cb),
        draw::planes(quad, PLANES, 0),
        yes_no(*quad == job.quad),
    )
}

const DENSE: [&str; 8] = [
    "white", "black", "pawns", "knights", "bishops", "rooks", "queens", "kings",
];

fn dense_sets(db: &DenseBoard) -> String {
    compact_row(DENSE.into_iter().zip(db.bb), 1)
}

fn to_dense(board: Block, db: &DenseBoard) -> String {
    format!(
        "to_dense: two colour sets and six colourless type sets; white rooks are\n\
         rooks & white.\n\n{}\n{}",
        draw::row(&[board], 0),
        dense_sets(db),
    )
}

fn from_dense(job: &Job, db: &DenseBoard, quad: &Quad) -> String {
    format!(
        "from_dense: the type planes are unions of type sets, plane 0 the black\n\
         pieces: bb0 = black & (all types)  bb1 = pawns|bishops|queens\n\
         bb2 = knights|bishops|kings        bb3 = rooks|queens|kings\n\n\
         {}\nfrom_dense(sets)\n{}\nthe planes are the position's quad: {}\n",
        dense_sets(db),
        draw::planes(quad, PLANES, 0),
        yes_no(*quad == job.quad),
    )
}

fn hash(job: &Job, board: Block, before: u64, after: u64) -> String {
    let m = &job.aspects;
    let notes = if job.routine == Routine::HashZobrist {
        // What the move changes, key by key: Zobrist's hash is updatable by xor.
        let mut keys = qbb::hash::ZOBRIST[usize::from(m.piece)][m.from.index()]
            ^ qbb::hash::ZOBRIST[usize::from(m.landing_code())][m.to.index()]
            ^ qbb::hash::ZOBRIST[usize::from(m.captured)][m.capture_square().index()];
        if let qbb::Special::Castle {
            rook_from,
            rook_to,
            rook,
        } = m.special
        {
            keys ^= qbb::hash::ZOBRIST[usize::from(rook)][rook_from.index()]
                ^ qbb::hash::ZOBRIST[usize::from(rook)][rook_to.index()];
        }
        vec![
            "hash_zobrist: the xor of".to_string(),
            "ZOBRIST[nibble][square] over the".to_string(),
            "64 squares (code 0's keys are 0).".to_string(),
            String::new(),
            format!("{:<12}{before:#018X}", "before"),
            format!("{:<12}{after:#018X}", format!("after {}", job.move_text)),
            format!("{:<12}{:#018X}", "xor", before ^ after),
            String::new(),
            "the xor of the move's keys:".to_string(),
            format!("{:<12}{keys:#018X}", ""),
            format!("the same: {}, so a move", yes_no(keys == before ^ after)),
            "updates the hash by xor.".to_string(),
        ]
    } else {
        let mut notes = vec![
            "hash_manino(quad, 0): the xor of".to_string(),
            "lo32(bb[i]) * A[i], hi32(bb[i]) * B[i]".to_string(),
            "(state 0: no castling, en passant".to_string(),
            "or side to move in this picture)".to_string(),
            String::new(),
            "plane  lo32        hi32".to_string(),
        ];
        for p in 0..4 {
            let bb = job.quad.bb[p];
            notes.push(format!(
                "bb{p}    0x{:08X}  0x{:08X}",
                bb & 0xFFFF_FFFF,
                bb >> 32
            ));
        }
        notes.extend([
            String::new(),
            format!("{:<12}{before:#018X}", "before"),
            format!("{:<12}{after:#018X}", format!("after {}", job.move_text)),
            format!(
                "{} of 64 bits differ: no key",
                (before ^ after).count_ones()
            ),
            "per move, recomputed every time.".to_string(),
        ]);
        notes
    };
    draw::row(&[board, draw::text(&notes)], 3)
}

/// The relative board with what the network makes of each piece, then the accumulators, the
/// evaluation and (for `nnue-update`) the move's edits.
fn nnue_picture(job: &Job, o: &NnueOutcome) -> String {
    let side = side_to_move(&job.fen);
    let board = job.quad.to_relative(side);
    let rel_codes = draw::codes_of(&board.to_absolute(Color::White));
    let pieces = draw::board("the side to move's view", true, &rel_codes, 0);
    let mut worth = vec!["what each piece adds (cp)".to_string()];
    for rank in (0..8u8).rev() {
        let cells: String = (0..8u8)
            .map(|file| {
                let sq = Square::from_file_rank(file, rank).expect("on the board");
                o.worth[sq.index()].map_or("    .".to_string(), |v| format!("{v:>5}"))
            })
            .collect();
        worth.push(cells);
    }
    let lanes = |l: &qbb::nnue::Lanes<{ qbb_engine::nnue::HIDDEN }>| {
        l.0[..8]
            .iter()
            .map(|v| format!("{v:>5}"))
            .collect::<Vec<_>>()
            .join("")
    };
    let mut out = draw::row(&[pieces, worth], 2);
    let mover = if side == Color::White {
        "white"
    } else {
        "black"
    };
    out.push_str(&format!(
        "\nThe board as the side to move ({mover}) sees it, playing up, its pieces\n\
         in capitals. Each number: the evaluation minus the evaluation without\n\
         that piece (an update that subtracts the piece's rows).\n\n\
         accumulators (first 8 of {} lanes):\n  us   {}\n  them {}\n\n\
         evaluation for the side to move: {} cp\n",
        qbb_engine::nnue::HIDDEN,
        lanes(&o.acc.us),
        lanes(&o.acc.them),
        o.eval
    ));
    if job.routine == Routine::NnueUpdate {
        out.push_str(&format!(
            "\nthe move {}, squares of the side to move's view:\n",
            job.move_text
        ));
        for c in &o.changes {
            out.push_str(&format!(
                "  {}: {} -> {}\n",
                c.sq,
                relative_name(c.before),
                relative_name(c.after)
            ));
        }
        out.push_str(&format!(
            "each change: the old piece's rows out, the new piece's in.\n\
             after the move, before the flip: {} cp for the mover;\n\
             updated = refreshed: {}\n",
            o.eval_after,
            yes_no(o.update_equals_refresh)
        ));
    }
    out
}

/// A relative code in words: `our knight`, `their pawn`, `empty`.
fn relative_name(code: u8) -> String {
    const TYPES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
    match code >> 1 {
        0 => "empty".to_string(),
        kind @ 1..=6 => format!(
            "{} {}",
            if code & 1 == 1 { "our" } else { "their" },
            TYPES[usize::from(kind) - 1]
        ),
        _ => "no piece".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::show::draw::set_of;

    fn job(routine: Routine) -> Job {
        let fen = default_fen(routine);
        let quad = Quad::from_placement(fen.split(' ').next().unwrap()).unwrap();
        Job {
            routine,
            fen: fen.to_string(),
            quad,
            square: DEFAULT_SQUARE.parse().unwrap(),
            writes: DEFAULT_WRITES
                .iter()
                .map(|w| inputs::parse_write(w).unwrap())
                .collect(),
            aspects: if takes_move(routine) {
                inputs::move_aspects(fen, &quad, default_move(routine)).unwrap()
            } else {
                MoveAspects::quiet(Square::A1, Square::A1, 0)
            },
            move_text: default_move(routine).to_string(),
        }
    }

    #[test]
    fn the_lines_position_has_a_check_a_pin_and_a_discoverer_each() {
        let Outcome::ChecksAndPins(_, [white, black]) =
            compute(qbb::Scalar, &job(Routine::ChecksAndPins))
        else {
            panic!("checks and pins")
        };
        assert_eq!(white.checkers, set_of("e8"));
        assert_eq!(white.check_mask, set_of("e2 e3 e4 e5 e6 e7 e8"));
        assert_eq!(white.pinned, set_of("c3"));
        assert_eq!(white.discoverers, 0);
        assert_eq!(black.checkers, 0);
        assert_eq!(black.pinned, set_of("f7"));
        assert_eq!(black.discoverers, set_of("g4"));
    }

    #[test]
    fn every_default_picture_fits_a_phone() {
        for &routine in Routine::ALL {
            let job = job(routine);
            let text = draw(&job, "scalar", &compute(qbb::Scalar, &job));
            for line in text.lines() {
                assert!(
                    line.chars().count() <= draw::WIDTH,
                    "{routine}: {} columns:\n{line}",
                    line.chars().count()
                );
            }
            assert!(!text.contains(" NO\n"), "{routine}:\n{text}");
        }
    }
}

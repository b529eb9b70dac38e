//! Legal move generation, written once for "us" thanks to the relative orientation: our pawns
//! always move north, we always castle on rank 1.
//!
//! Legality comes from two masks computed once per position, never from making a move and testing
//! it: the check mask (where a piece may go when the king is in check: capture the checker or block
//! its ray) and the pinned pieces with the line each may stay on (the squares in between the king
//! and an enemy slider, Isenberg's in-between sets). Only king moves (and the rare en-passant
//! capture) ask whether a square is attacked.
//!
//! The generator hands sets of targets to a [`Sink`]: one sink writes moves into a list, another
//! only counts them (perft's bulk counting at the last ply: a popcount per piece).
//!
//! Slider attacks, the slider checks and the pins come from an [`AttackSource`]: the engine's
//! tables, or the backend's set-wise routines (see `attack_source.rs`).

use qbb::{Backend, SliderPosition};

use crate::attack_source::{AttackSource, TableAttacks};
use crate::attacks::{Sq, Tables, tables};
use crate::moves::{Move, MoveList, Special};
use crate::position::{NO_EP, Position, RANK_1};

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;
const RANK_3: u64 = 0xFF << 16;
const RANK_8: u64 = 0xFF << 56;

const PAWN: u32 = 1;
const KNIGHT: u32 = 2;
const BISHOP: u32 = 3;
const ROOK: u32 = 4;
const QUEEN: u32 = 5;
const KING: u32 = 6;

/// Where generated moves go.
pub(crate) trait Sink {
    /// A piece of type `piece` on `from` may move to every square of `targets`.
    fn piece_moves(&mut self, piece: u32, from: Sq, targets: u64);
    /// Pawns move to every square of `targets` from `to - offset` (no promotion).
    fn pawn_moves(&mut self, targets: u64, offset: usize, special: Special);
    /// Pawns promote on every square of `targets`, coming from `to - offset`.
    fn promotions(&mut self, targets: u64, offset: usize);
    fn en_passant(&mut self, from: Sq, to: Sq);
    fn castle(&mut self, king: Sq, rook: Sq);
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece_moves(&mut self, _piece: u32, _from: Sq, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: u64, _offset: usize, _special: Special) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, _offset: usize) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn en_passant(&mut self, _from: Sq, _to: Sq) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle(&mut self, _king: Sq, _rook: Sq) {
        self.0 += 1;
    }
}

/// Builds each move and hands it to `visit`; with `QUEEN_ONLY` promotions are only to a queen.
pub(crate) struct Emitter<'a, F: FnMut(Move), const QUEEN_ONLY: bool> {
    pub pos: &'a Position,
    pub visit: F,
}

/// The set bits of a bitboard, lowest first.
#[inline(always)]
fn squares(mut bb: u64) -> impl Iterator<Item = Sq> {
    std::iter::from_fn(move || {
        if bb == 0 {
            return None;
        }
        let sq = bb.trailing_zeros() as Sq & 63;
        bb &= bb - 1;
        Some(sq)
    })
}

impl<F: FnMut(Move), const QUEEN_ONLY: bool> Sink for Emitter<'_, F, QUEEN_ONLY> {
    #[inline(always)]
    fn piece_moves(&mut self, piece: u32, from: Sq, targets: u64) {
        // Captures look up their victim; quiet moves need not.
        let them = self.pos.them();
        for to in squares(targets & them) {
            let captured = self.pos.type_bits_at(to);
            (self.visit)(Move::new(from, to, piece, captured, 0, Special::Normal));
        }
        for to in squares(targets & !them) {
            (self.visit)(Move::new(from, to, piece, 0, 0, Special::Normal));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: u64, offset: usize, special: Special) {
        // Pawns capture diagonally (offsets 7 and 9) and push straight (8 and 16).
        let captures = offset == 7 || offset == 9;
        for to in squares(targets) {
            let captured = if captures {
                self.pos.type_bits_at(to)
            } else {
                0
            };
            (self.visit)(Move::new(to - offset, to, PAWN, captured, 0, special));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, offset: usize) {
        for to in squares(targets) {
            let captured = self.pos.type_bits_at(to);
            let from = to - offset;
            (self.visit)(Move::new(from, to, PAWN, captured, QUEEN, Special::Normal));
            if !QUEEN_ONLY {
                for promotion in [KNIGHT, ROOK, BISHOP] {
                    (self.visit)(Move::new(
                        from,
                        to,
                        PAWN,
                        captured,
                        promotion,
                        Special::Normal,
                    ));
                }
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Sq, to: Sq) {
        (self.visit)(Move::new(from, to, PAWN, PAWN, 0, Special::EnPassant));
    }
    #[inline(always)]
    fn castle(&mut self, king: Sq, rook: Sq) {
        (self.visit)(Move::new(king, rook, KING, 0, 0, Special::Castle));
    }
}

// ANCHOR: relative_sets
/// The piece sets of one position, relative: "us" = the side to move.
struct Board {
    us: u64,
    them: u64,
    occupied: u64,
    pawns: u64,
    knights: u64,
    bishops: u64,
    rooks: u64,
    queens: u64,
    kings: u64,
}

impl Board {
    #[inline(always)]
    fn new<B: Backend>(b: B, pos: &Position) -> Board {
        // In relative orientation the backend's "black" (plane 0) is the side to move.
        let s = b.piece_sets(&pos.quad);
        Board {
            us: s.black & s.occupied,
            them: s.white,
            occupied: s.occupied,
            pawns: s.pawns,
            knights: s.knights,
            bishops: s.bishops,
            rooks: s.rooks,
            queens: s.queens,
            kings: s.kings,
        }
    }
    // ANCHOR_END: relative_sets

    /// Is `sq` attacked by the opponent, with `occupied` blocking the rays?
    #[inline(always)]
    fn attacked<B: Backend, A: AttackSource>(
        &self,
        b: B,
        a: A,
        t: &Tables,
        sq: Sq,
        occupied: u64,
    ) -> bool {
        let them = self.them;
        (t.knight[sq] & self.knights & them) != 0
            || (t.pawn[sq] & self.pawns & them) != 0
            || (t.king[sq] & self.kings & them) != 0
            || (a.rook(b, t, sq, occupied) & (self.rooks | self.queens) & them) != 0
            || (a.bishop(b, t, sq, occupied) & (self.bishops | self.queens) & them) != 0
    }

    /// The sets `checks_and_pins` reads: index 0 = us, 1 = them.
    #[inline(always)]
    fn sliders(&self, king: Sq) -> SliderPosition {
        let orth = self.rooks | self.queens;
        let diag = self.bishops | self.queens;
        SliderPosition {
            kings: [1u64 << king, self.kings & self.them],
            orth: [orth & self.us, orth & self.them],
            diag: [diag & self.us, diag & self.them],
            pieces: [self.us, self.them],
        }
    }
}

/// Generates every legal move of `pos` into `sink`, with attacks, checks and pins from `a`;
/// with `CAPTURES` only captures and promotions (the sink decides which promotions it keeps).
#[inline(always)]
pub(crate) fn generate<B: Backend, A: AttackSource, S: Sink, const CAPTURES: bool>(
    b: B,
    a: A,
    pos: &Position,
    sink: &mut S,
) {
    let t = tables();
    let board = Board::new(b, pos);
    let Board {
        us, them, occupied, ..
    } = board;
    let king = (board.kings & us).trailing_zeros() as Sq & 63;
    let sliders = board.sliders(king);
    let threats = a.threats(b, t, &sliders, king);
    let leapers = (t.knight[king] & board.knights & them) | (t.pawn[king] & board.pawns & them);
    let checkers = leapers | threats.checkers;

    // King moves: any square not attacked once the king has left its square (so that it cannot
    // hide on the ray of a slider that checks it).
    let king_targets = t.king[king] & !us & if CAPTURES { them } else { !0 };
    let without_king = occupied ^ (1u64 << king);
    let mut legal_king = 0;
    for to in squares(king_targets) {
        if !board.attacked(b, a, t, to, without_king) {
            legal_king |= 1u64 << to;
        }
    }
    sink.piece_moves(KING, king, legal_king);

    if checkers & checkers.wrapping_sub(1) != 0 {
        return; // double check: only the king moves
    }
    // One checker: capture it, or block it if it is a slider.
    let check_mask = if checkers == 0 {
        !0
    } else if leapers != 0 {
        leapers
    } else {
        threats.block
    };
    let pinned = threats.pinned;

    let targets = !us & check_mask & if CAPTURES { them } else { !0 };

    for from in squares(board.knights & us & !pinned) {
        sink.piece_moves(KNIGHT, from, t.knight[from] & targets);
    }
    let pin_line = |from: Sq| a.pin_line(b, t, &sliders, king, from, &threats);
    let pin_mask = |from: Sq| {
        if pinned >> from & 1 != 0 {
            pin_line(from)
        } else {
            !0
        }
    };
    for from in squares(board.bishops & us) {
        sink.piece_moves(
            BISHOP,
            from,
            a.bishop(b, t, from, occupied) & targets & pin_mask(from),
        );
    }
    for from in squares(board.rooks & us) {
        sink.piece_moves(
            ROOK,
            from,
            a.rook(b, t, from, occupied) & targets & pin_mask(from),
        );
    }
    for from in squares(board.queens & us) {
        let attacks = a.rook(b, t, from, occupied) | a.bishop(b, t, from, occupied);
        sink.piece_moves(QUEEN, from, attacks & targets & pin_mask(from));
    }

    // Pawns: the unpinned ones set-wise, each pinned one with its line as an extra mask.
    let pawns = board.pawns & us;
    pawn_moves::<S, CAPTURES>(sink, pawns & !pinned, board.them, !occupied, check_mask);
    for from in squares(pawns & pinned) {
        pawn_moves::<S, CAPTURES>(
            sink,
            1u64 << from,
            board.them,
            !occupied,
            check_mask & pin_line(from),
        );
    }

    if pos.ep_file != NO_EP {
        en_passant(b, a, t, &board, pos.ep_file as Sq, king, sink);
    }

    if !CAPTURES && checkers == 0 {
        for rook in squares(pos.castle_rooks & RANK_1) {
            castle(b, a, t, &board, king, rook, sink);
        }
    }
}

/// Pushes, double pushes, captures and promotions of `pawns`, targets limited to `mask`.
#[inline(always)]
fn pawn_moves<S: Sink, const CAPTURES: bool>(
    sink: &mut S,
    pawns: u64,
    them: u64,
    empty: u64,
    mask: u64,
) {
    let push = (pawns << 8) & empty;
    let double = ((push & RANK_3) << 8) & empty & mask;
    let push = push & mask;
    let west = (pawns & !FILE_A) << 7 & them & mask;
    let east = (pawns & !FILE_H) << 9 & them & mask;
    if !CAPTURES {
        sink.pawn_moves(push & !RANK_8, 8, Special::Normal);
        sink.pawn_moves(double, 16, Special::DoublePush);
    }
    sink.pawn_moves(west & !RANK_8, 7, Special::Normal);
    sink.pawn_moves(east & !RANK_8, 9, Special::Normal);
    sink.promotions(push & RANK_8, 8);
    sink.promotions(west & RANK_8, 7);
    sink.promotions(east & RANK_8, 9);
}

/// En passant, tested in full on the board after the capture: it removes two pawns from one
/// rank, which can uncover the king along that rank, and it may capture a checking pawn.
#[inline(always)]
fn en_passant<B: Backend, A: AttackSource, S: Sink>(
    b: B,
    a: A,
    t: &Tables,
    board: &Board,
    file: Sq,
    king: Sq,
    sink: &mut S,
) {
    let to = 40 + file;
    let victim = to - 8;
    let capturers =
        (((1u64 << to) >> 9) & !FILE_H | ((1u64 << to) >> 7) & !FILE_A) & board.pawns & board.us;
    for from in squares(capturers) {
        let after = Board {
            occupied: board.occupied ^ (1u64 << from) ^ (1u64 << victim) ^ (1u64 << to),
            them: board.them ^ (1u64 << victim),
            ..*board
        };
        if !after.attacked(b, a, t, king, after.occupied) {
            sink.en_passant(from, to);
        }
    }
}

/// Castling as king takes own rook: every square the king and the rook pass over or land on must
/// be empty (but for themselves), and no square the king stands on, passes or reaches attacked
/// (tested without the castling rook, which could otherwise hide an attack on the king's target).
#[inline(always)]
fn castle<B: Backend, A: AttackSource, S: Sink>(
    b: B,
    a: A,
    t: &Tables,
    board: &Board,
    king: Sq,
    rook: Sq,
    sink: &mut S,
) {
    let path = t.castling[king & 7][rook & 7];
    if path.must_be_empty & board.occupied != 0 {
        return;
    }
    let occupied = board.occupied ^ (1u64 << king) ^ (1u64 << rook);
    if squares(path.king_path).any(|sq| board.attacked(b, a, t, sq, occupied)) {
        return;
    }
    sink.castle(king, rook);
}

impl Position {
    /// Every legal move, appended to `moves` (which is cleared first).
    #[inline(always)]
    pub fn generate_moves<B: Backend>(&self, b: B, moves: &mut MoveList) {
        self.generate_moves_by(b, TableAttacks, moves);
    }

    /// [`Position::generate_moves`] with attacks, checks and pins from `a`.
    #[inline(always)]
    pub(crate) fn generate_moves_by<B: Backend, A: AttackSource>(
        &self,
        b: B,
        a: A,
        moves: &mut MoveList,
    ) {
        self.list_by::<B, A, false>(b, a, moves);
    }

    /// Calls `visit` with every legal move, in the order of [`Position::generate_moves`], without
    /// storing them.
    #[inline(always)]
    pub fn for_each_move<B: Backend>(&self, b: B, visit: impl FnMut(Move)) {
        let mut emitter = Emitter::<_, false> { pos: self, visit };
        generate::<B, _, _, false>(b, TableAttacks, self, &mut emitter);
    }

    /// The legal captures (en passant included) and promotions to a queen, appended to `moves`
    /// (which is cleared first). Under-promotions are left out, also when they capture.
    #[inline(always)]
    pub fn generate_captures<B: Backend>(&self, b: B, moves: &mut MoveList) {
        self.generate_captures_by(b, TableAttacks, moves);
    }

    /// [`Position::generate_captures`] with attacks, checks and pins from `a`.
    #[inline(always)]
    pub(crate) fn generate_captures_by<B: Backend, A: AttackSource>(
        &self,
        b: B,
        a: A,
        moves: &mut MoveList,
    ) {
        self.list_by::<B, A, true>(b, a, moves);
    }

    /// Every legal move, or with `CAPTURES` the captures and queen promotions, into `moves`.
    #[inline(always)]
    fn list_by<B: Backend, A: AttackSource, const CAPTURES: bool>(
        &self,
        b: B,
        a: A,
        moves: &mut MoveList,
    ) {
        moves.fill(|list| {
            let mut emitter = Emitter::<_, CAPTURES> {
                pos: self,
                visit: |mv| list.push(mv),
            };
            generate::<B, A, _, CAPTURES>(b, a, self, &mut emitter);
        });
    }

    /// The number of legal moves, without listing them (perft's bulk count).
    #[inline(always)]
    pub fn count_moves<B: Backend>(&self, b: B) -> u64 {
        self.count_moves_by(b, TableAttacks)
    }

    /// [`Position::count_moves`] with attacks, checks and pins from `a`.
    #[inline(always)]
    pub(crate) fn count_moves_by<B: Backend, A: AttackSource>(&self, b: B, a: A) -> u64 {
        let mut counter = Counter(0);
        generate::<B, A, _, false>(b, a, self, &mut counter);
        counter.0
    }
}

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
//! only counts them (perft's bulk counting at the last ply: a popcount per piece). It is two
//! halves, [`Generator::king_moves`] and [`Generator::other_moves`], so that `lanes.rs` can count the other pieces of
//! a batch of children at once and leave the rest to them.
//!
//! Slider attacks, the slider checks and the pins come from an [`AttackSource`]: the engine's
//! tables, or the backend's set-wise routines (see `attack_source.rs`).

use qbb::direction::{FILE_A, FILE_H};
use qbb::{Backend, Bitboard, Direction, PieceType, SliderPosition, Square, Squares};

use crate::board::attack_source::{AttackSource, KingLines, SliderThreats, TableAttacks};
use crate::board::attacks::{Reach, Tables, tables};
use crate::board::moves::{Move, MoveKind, MoveList};
use crate::board::position::{Position, RANK_1, TypeBits, behind};
use crate::board::relative_sets::RelativeSets;

pub(crate) const RANK_3: u64 = 0xFF << 16;
pub(crate) const RANK_7: u64 = 0xFF << 48;

/// Where generated moves go.
pub(crate) trait Sink {
    /// A piece of type `piece` on `from` may move to every square of `targets`.
    fn piece_moves(&mut self, piece: PieceType, from: Square, targets: u64);
    /// Pawns move to every square of `targets` from `offset` squares behind it (no promotion).
    fn pawn_moves(&mut self, targets: u64, offset: u32, kind: MoveKind);
    /// Pawns promote on every square of `targets`, coming from `offset` squares behind it.
    fn promotions(&mut self, targets: u64, offset: u32);
    fn en_passant(&mut self, from: Square, to: Square);
    fn castle(&mut self, king: Square, rook: Square);
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece_moves(&mut self, _piece: PieceType, _from: Square, targets: u64) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: u64, _offset: u32, _kind: MoveKind) {
        self.0 += u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, _offset: u32) {
        self.0 += 4 * u64::from(targets.count_ones());
    }
    #[inline(always)]
    fn en_passant(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }
    #[inline(always)]
    fn castle(&mut self, _king: Square, _rook: Square) {
        self.0 += 1;
    }
}

/// Builds each move and hands it to `visit`; with `QUEEN_ONLY` promotions are only to a queen.
pub(crate) struct Emitter<'a, F: FnMut(Move), const QUEEN_ONLY: bool> {
    pub pos: &'a Position,
    pub visit: F,
}

const NONE: TypeBits = TypeBits::NONE;

impl<F: FnMut(Move), const QUEEN_ONLY: bool> Sink for Emitter<'_, F, QUEEN_ONLY> {
    #[inline(always)]
    fn piece_moves(&mut self, piece: PieceType, from: Square, targets: u64) {
        // Captures look up their victim; quiet moves need not.
        let them = self.pos.them();
        for to in Squares(targets & them) {
            let captured = self.pos.type_bits_at(to);
            (self.visit)(Move::new(from, to, piece, captured, NONE, MoveKind::Normal));
        }
        for to in Squares(targets & !them) {
            (self.visit)(Move::new(from, to, piece, NONE, NONE, MoveKind::Normal));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: u64, offset: u32, kind: MoveKind) {
        // Pawns capture diagonally (offsets 7 and 9) and push straight (8 and 16).
        let captures = offset == 7 || offset == 9;
        for to in Squares(targets) {
            let captured = if captures {
                self.pos.type_bits_at(to)
            } else {
                NONE
            };
            let from = behind(to, offset);
            (self.visit)(Move::new(from, to, PieceType::Pawn, captured, NONE, kind));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, targets: u64, offset: u32) {
        for to in Squares(targets) {
            let captured = self.pos.type_bits_at(to);
            let from = behind(to, offset);
            let promote = |kind: PieceType| {
                Move::new(
                    from,
                    to,
                    PieceType::Pawn,
                    captured,
                    kind.into(),
                    MoveKind::Normal,
                )
            };
            (self.visit)(promote(PieceType::Queen));
            if !QUEEN_ONLY {
                for kind in [PieceType::Knight, PieceType::Rook, PieceType::Bishop] {
                    (self.visit)(promote(kind));
                }
            }
        }
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        let pawn = TypeBits::of(PieceType::Pawn);
        (self.visit)(Move::new(
            from,
            to,
            PieceType::Pawn,
            pawn,
            NONE,
            MoveKind::EnPassant,
        ));
    }
    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        (self.visit)(Move::new(
            king,
            rook,
            PieceType::King,
            NONE,
            NONE,
            MoveKind::Castle,
        ));
    }
}

/// What every step of move generation works with besides the board: the backend, where slider
/// attacks, checks and pins come from, and the engine's tables. One value, passed along instead
/// of three; the backend and the attack source are zero-sized, so it is one pointer.
#[derive(Clone, Copy)]
pub(crate) struct Generator<'t, B, A> {
    pub b: B,
    pub a: A,
    pub t: &'t Tables,
}

impl<B: Backend, A: AttackSource> Generator<'static, B, A> {
    #[inline(always)]
    pub(crate) fn new(b: B, a: A) -> Self {
        Generator { b, a, t: tables() }
    }
}

impl<B: Backend, A: AttackSource> Generator<'_, B, A> {
    /// Is `sq` attacked by the opponent on `board`, with `occupied` blocking the rays?
    #[inline(always)]
    fn is_attacked(self, board: &RelativeSets, sq: Square, occupied: u64) -> bool {
        let Generator { b, a, t } = self;
        let them = board.them;
        (t.knight[sq] & board.knights & them) != 0
            || (t.pawn[sq] & board.pawns & them) != 0
            || (t.king[sq] & board.kings & them) != 0
            || (a.rook(b, t, sq, occupied) & (board.rooks | board.queens) & them) != 0
            || (a.bishop(b, t, sq, occupied) & (board.bishops | board.queens) & them) != 0
    }

    /// The squares the opponent attacks on `board`, with `occupied` blocking the rays: its
    /// sliders from `a`, its knights, pawns and king from the tables. Only the sliders on the
    /// lines of `reach` are asked: the answer is exact on the squares the reach was made of (the
    /// king's, the castling paths'), and may miss attacks elsewhere.
    #[inline(always)]
    fn attacked_set(self, board: &RelativeSets, occupied: u64, reach: Reach) -> u64 {
        let Generator { b, a, t } = self;
        let them = board.them;
        let orth = (board.rooks | board.queens) & them & reach.orth;
        let diag = (board.bishops | board.queens) & them & reach.diag;
        let mut attacked = a.sliders(b, t, orth, diag, occupied);
        for sq in Squares(board.knights & them) {
            attacked |= t.knight[sq];
        }
        // Their pawns take down the board.
        let pawns = board.pawns & them;
        attacked |= Direction::SouthEast.shift(pawns) | Direction::SouthWest.shift(pawns);
        attacked | t.king[Square::from_index_masked((board.kings & them).trailing_zeros())]
    }
}

impl RelativeSets {
    /// Our bishops, rooks and queens, each set with its type.
    #[inline(always)]
    fn our_sliders(&self) -> [(PieceType, u64); 3] {
        [
            (PieceType::Bishop, self.bishops & self.us),
            (PieceType::Rook, self.rooks & self.us),
            (PieceType::Queen, self.queens & self.us),
        ]
    }

    /// Our king and the sliders as `checks_and_pins` reads them: index 0 = us, 1 = them.
    #[inline(always)]
    fn king_lines(&self, king: Square) -> KingLines {
        let orth = self.rooks | self.queens;
        let diag = self.bishops | self.queens;
        KingLines {
            king,
            sliders: SliderPosition {
                kings: [king.bit(), self.kings & self.them],
                orth: [orth & self.us, orth & self.them],
                diag: [diag & self.us, diag & self.them],
                pieces: [self.us, self.them],
            },
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
    let g = Generator::new(b, a);
    let board = RelativeSets::new(b, &pos.quad);
    let node = g.king_moves::<S, CAPTURES>(pos, &board, sink);
    g.other_moves::<S, CAPTURES>(pos, &board, &node, sink);
}

/// What the king's moves find out about a node, which the other pieces' moves need.
pub(crate) struct KingNode {
    king: Square,
    threats: SliderThreats,
    /// The enemy knights and pawns that give check.
    leapers: u64,
    checkers: u64,
}

impl KingNode {
    /// In no check and with no piece pinned: every other piece may go wherever it attacks.
    #[inline(always)]
    pub(crate) fn is_free(&self) -> bool {
        self.checkers == 0 && self.threats.pinned == 0
    }
}

impl<B: Backend, A: AttackSource> Generator<'_, B, A> {
    /// The king's moves and castling into `sink`; the checks and pins they found. Of `pos` only
    /// the castling rights are read (the board is `board`).
    #[inline(always)]
    pub(crate) fn king_moves<S: Sink, const CAPTURES: bool>(
        self,
        pos: &Position,
        board: &RelativeSets,
        sink: &mut S,
    ) -> KingNode {
        let Generator { b, a, t } = self;
        let (us, them, occupied) = (board.us, board.them, board.occupied);
        let king = Square::from_index_masked((board.kings & us).trailing_zeros());
        let threats = a.threats(b, t, board.king_lines(king));
        let leapers = (t.knight[king] & board.knights & them) | (t.pawn[king] & board.pawns & them);
        let checkers = leapers | threats.checkers;

        // King moves: any square not attacked once the king has left its square (so that it
        // cannot hide on the ray of a slider that checks it). Castling: the castling rooks whose
        // paths are empty, one lookup by the king's file and rank 1's occupancy
        // (`Tables::castling_clear`). Castling's paths, or more than two king squares, take one
        // map of the squares the opponent attacks; fewer are asked about one by one (a map for
        // every king move made the start position's perft run more instructions than it saved).
        // The map asks only the sliders on a line through the squares it is read on (`Reach`):
        // the king's and the castling paths'.
        let king_targets = t.king[king] & !us & if CAPTURES { them } else { !0 };
        let castling = if CAPTURES || checkers != 0 {
            0
        } else {
            pos.castle_rooks & t.castling_clear(king, occupied)
        };
        let without_king = occupied ^ king.bit();
        let attacked = if castling != 0 || king_targets.count_ones() > 2 {
            let reach = if castling != 0 {
                t.castle_reach(king)
            } else {
                t.king_reach[king]
            };
            self.attacked_set(board, without_king, reach)
        } else {
            Squares(king_targets)
                .filter(|&to| self.is_attacked(board, to, without_king))
                .fold(0, |set, to| set | to.bit())
        };
        sink.piece_moves(PieceType::King, king, king_targets & !attacked);
        // Castling next, while the map is at hand: left to the end of the generator, the map had
        // to stay live across all of it.
        for rook in Squares(castling) {
            self.castle(board, king, rook, attacked, sink);
        }
        KingNode {
            king,
            threats,
            leapers,
            checkers,
        }
    }

    /// The moves of every piece but the king, en passant included, into `sink`, after
    /// [`Generator::king_moves`] found `node`. Of `pos` only the en-passant square is read (the
    /// board is `board`).
    #[inline(always)]
    pub(crate) fn other_moves<S: Sink, const CAPTURES: bool>(
        self,
        pos: &Position,
        board: &RelativeSets,
        node: &KingNode,
        sink: &mut S,
    ) {
        let KingNode {
            king,
            ref threats,
            leapers,
            checkers,
        } = *node;
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
        // The usual node, in no check and with no piece pinned, has a copy of its own in which
        // the check mask (every square) and the pinned set (none) are constants: the compiler
        // drops their masks and the pinned pieces' code from it.
        if node.is_free() {
            self.non_king_moves::<S, CAPTURES>(board, threats, sink, !0, 0);
        } else {
            self.non_king_moves::<S, CAPTURES>(board, threats, sink, check_mask, threats.pinned);
        }

        if let Some(to) = pos.en_passant() {
            self.en_passant(board, to, king, sink);
        }
    }

    /// The moves of every piece but the king, targets limited to `check_mask`, the `pinned`
    /// pieces along their pin lines.
    #[inline(always)]
    fn non_king_moves<S: Sink, const CAPTURES: bool>(
        self,
        board: &RelativeSets,
        threats: &SliderThreats,
        sink: &mut S,
        check_mask: u64,
        pinned: u64,
    ) {
        let Generator { b, a, t } = self;
        let (us, them, occupied) = (board.us, board.them, board.occupied);

        let targets = !us & check_mask & if CAPTURES { them } else { !0 };

        knight_moves(t, board.knights & us & !pinned, targets, sink);
        // Sliders: the free ones without a test per piece; the pinned ones come last.
        self.slider_moves(board, !pinned, targets, sink);

        // Pawns: the unpinned ones set-wise.
        let pawns = board.pawns & us;
        pawn_moves::<S, CAPTURES>(sink, pawns & !pinned, them, !occupied, check_mask);

        // The pinned sliders and pawns, each along its pin line; one test skips them all when
        // nothing is pinned.
        if pinned != 0 {
            for (kind, set) in board.our_sliders() {
                for from in Squares(set & pinned) {
                    let line = a.pin_line(b, t, threats, from);
                    let attacks = self.slider_attacks(kind, from, occupied);
                    sink.piece_moves(kind, from, attacks & targets & line);
                }
            }
            for from in Squares(pawns & pinned) {
                let mask = check_mask & a.pin_line(b, t, threats, from);
                pawn_moves::<S, CAPTURES>(sink, from.bit(), them, !occupied, mask);
            }
        }
    }

    /// The moves of our sliders on the squares of `among` to `targets`, with no pin line.
    #[inline(always)]
    pub(crate) fn slider_moves<S: Sink>(
        self,
        board: &RelativeSets,
        among: u64,
        targets: u64,
        sink: &mut S,
    ) {
        for (kind, set) in board.our_sliders() {
            for from in Squares(set & among) {
                let attacks = self.slider_attacks(kind, from, board.occupied);
                sink.piece_moves(kind, from, attacks & targets);
            }
        }
    }

    /// The squares a slider of type `kind` on `from` attacks, `occupied` blocking.
    #[inline(always)]
    fn slider_attacks(self, kind: PieceType, from: Square, occupied: u64) -> u64 {
        let Generator { b, a, t } = self;
        match kind {
            PieceType::Bishop => a.bishop(b, t, from, occupied),
            PieceType::Rook => a.rook(b, t, from, occupied),
            _ => a.rook(b, t, from, occupied) | a.bishop(b, t, from, occupied),
        }
    }

    /// En passant onto `to`, tested in full on the board after the capture: it removes two
    /// pawns from one rank, which can uncover the king along that rank, and it may capture a
    /// checking pawn.
    #[inline(always)]
    fn en_passant<S: Sink>(self, board: &RelativeSets, to: Square, king: Square, sink: &mut S) {
        let victim = behind(to, 8);
        let capturers =
            ((to.bit() >> 9) & !FILE_H | (to.bit() >> 7) & !FILE_A) & board.pawns & board.us;
        for from in Squares(capturers) {
            let mut after = board.with_occupancy_flipped(from.bit() ^ victim.bit() ^ to.bit());
            after.them ^= victim.bit();
            if !self.is_attacked(&after, king, after.occupied) {
                sink.en_passant(from, to);
            }
        }
    }

    /// Castling as king takes own rook, its paths already clear: no square the king stands on,
    /// passes or reaches may be attacked, tested without the castling rook, which could
    /// otherwise hide an attack on the king's path. A rook in the corner hides nothing (no
    /// square lies beyond it on the rank), so there `attacked`, the opponent's attacks without
    /// our king, answers; with the king in no check, taking the king away uncovers no square of
    /// its path. Other rooks (Chess960) are tested square by square.
    #[inline(always)]
    fn castle<S: Sink>(
        self,
        board: &RelativeSets,
        king: Square,
        rook: Square,
        attacked: u64,
        sink: &mut S,
    ) {
        const CORNERS: u64 = (FILE_A | FILE_H) & RANK_1;
        let path = self.t.castling(king, rook).king_path;
        let safe = if rook.bit() & CORNERS != 0 {
            path & attacked == 0
        } else {
            let occupied = board.occupied ^ king.bit() ^ rook.bit();
            !Squares(path).any(|sq| self.is_attacked(board, sq, occupied))
        };
        if safe {
            sink.castle(king, rook);
        }
    }
}

/// The moves of our `knights` to `targets`.
#[inline(always)]
pub(crate) fn knight_moves<S: Sink>(t: &Tables, knights: u64, targets: u64, sink: &mut S) {
    for from in Squares(knights) {
        sink.piece_moves(PieceType::Knight, from, t.knight[from] & targets);
    }
}

/// Pushes, double pushes, captures and promotions of `pawns`, targets limited to `mask`.
#[inline(always)]
pub(crate) fn pawn_moves<S: Sink, const CAPTURES: bool>(
    sink: &mut S,
    pawns: u64,
    them: u64,
    empty: u64,
    mask: u64,
) {
    // The pawns on the seventh rank promote, the others cannot reach the eighth: split once,
    // and neither group's targets need a rank mask. Most positions have no pawn on the seventh
    // rank, and one test skips the three promotion sets.
    let (pawns, promoting) = (pawns & !RANK_7, pawns & RANK_7);
    let (west, east) = pawn_captures(pawns, them & mask);
    if !CAPTURES {
        let (push, double) = pawn_pushes(pawns, empty);
        sink.pawn_moves(push & mask, 8, MoveKind::Normal);
        sink.pawn_moves(double & mask, 16, MoveKind::DoublePush);
    }
    sink.pawn_moves(west, 7, MoveKind::Normal);
    sink.pawn_moves(east, 9, MoveKind::Normal);
    if promoting != 0 {
        let (push, _) = pawn_pushes(promoting, empty);
        let (west, east) = pawn_captures(promoting, them & mask);
        sink.promotions(push & mask, 8);
        sink.promotions(west, 7);
        sink.promotions(east, 9);
    }
}

/// Where `pawns` push to on `empty` squares: one square up, and two from the second rank when
/// both squares are empty. On one bitboard, or on one per lane of a batch (`lanes.rs`).
#[inline(always)]
pub(crate) fn pawn_pushes<T: Bitboard>(pawns: T, empty: T) -> (T, T) {
    let push = (pawns << 8) & empty;
    (push, ((push & T::from(RANK_3)) << 8) & empty)
}

/// Where `pawns` capture pieces of `them`: up and towards the a-file, up and towards the h-file.
#[inline(always)]
pub(crate) fn pawn_captures<T: Bitboard>(pawns: T, them: T) -> (T, T) {
    let west = (pawns & T::from(!FILE_A)) << 7;
    let east = (pawns & T::from(!FILE_H)) << 9;
    (west & them, east & them)
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

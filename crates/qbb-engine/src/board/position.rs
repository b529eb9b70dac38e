//! The position: a quad-bitboard in relative orientation, as QBBEngine keeps it.
//!
//! Plane 0 holds the pieces of the side to move and the board is seen from its side: it always
//! plays up the board, castles on rank 1, promotes on rank 8. Making a move xors the move's delta
//! quad into the board and then flips it (mirror the ranks, swap the colours), so the opponent
//! finds itself at the bottom, to move. Move generation is therefore written once, for "us".

use qbb::{Backend, Color, MoveAspects, PieceType, Quad, Special, Square};

use crate::board::attacks::tables;
use crate::board::moves::{Move, MoveKind};
use crate::board::relative_sets::RelativeSets;
use crate::board::zobrist;

/// No en-passant square.
pub(crate) const NO_EP: u8 = 8;

/// The first rank, where the side to move castles.
pub(crate) const RANK_1: u64 = 0xFF;

/// A piece type or none, as the three type bits of a nibble (0 = none): what stands on a square,
/// what a move captures, what it promotes to. Kept as bits so that the board's bits flow into a
/// move, and from the move into its delta quad, without a conversion.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub(crate) struct TypeBits(u8);

impl TypeBits {
    pub(crate) const NONE: TypeBits = TypeBits(0);

    #[inline(always)]
    pub(crate) const fn of(kind: PieceType) -> TypeBits {
        TypeBits(kind as u8)
    }

    /// The low three bits of `bits`.
    #[inline(always)]
    pub(crate) const fn masked(bits: u32) -> TypeBits {
        TypeBits((bits & 7) as u8)
    }

    #[inline(always)]
    pub(crate) const fn bits(self) -> u32 {
        self.0 as u32
    }

    /// The piece type, if the bits name one.
    #[inline(always)]
    pub(crate) const fn kind(self) -> Option<PieceType> {
        PieceType::from_bits(self.0)
    }

    #[inline(always)]
    pub(crate) const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The relative nibble code of a piece of this type of the side to move: the colour bit is
    /// set, because the colour plane (plane 0) holds the side to move's pieces.
    #[inline(always)]
    pub(crate) const fn ours(self) -> u8 {
        self.0 << 1 | 1
    }

    /// The relative code of an opponent's piece of this type: the colour bit is clear (and the
    /// code of none is 0, the empty square's).
    #[inline(always)]
    pub(crate) const fn theirs(self) -> u8 {
        self.0 << 1
    }
}

impl From<PieceType> for TypeBits {
    #[inline(always)]
    fn from(kind: PieceType) -> TypeBits {
        TypeBits::of(kind)
    }
}

/// The square `by` indices below `sq`: where a piece of the side to move that went up the board
/// by `by` came from (a pawn's push, double push or capture), or the pawn an en-passant capture
/// takes (`by` = 8).
#[inline(always)]
pub(crate) const fn behind(sq: Square, by: u32) -> Square {
    Square::from_index_masked((sq.index() as u32).wrapping_sub(by))
}

/// Where the king lands when it castles with the rook on `rook` (both on rank 1): the g-file
/// when the rook stands on the h side of the king, else the c-file.
#[inline(always)]
pub(crate) const fn castled_king(king: Square, rook: Square) -> Square {
    Square::from_index_masked(if rook.index() > king.index() { 6 } else { 2 })
}

/// Where the rook lands when it castles: the f-file on the h side, else the d-file.
#[inline(always)]
pub(crate) const fn castled_rook(king: Square, rook: Square) -> Square {
    Square::from_index_masked(if rook.index() > king.index() { 5 } else { 3 })
}

/// A chess position (standard or Chess960), small enough to copy at every move.
///
/// Two positions are equal when the board, the rights, the side to move and the clocks are: the
/// Chess960 flag only says how the position was written (a Chess960 game whose castling rights are
/// gone cannot be told from standard chess, and its FEN does not tell).
#[derive(Copy, Clone, Debug)]
pub struct Position {
    /// Relative orientation: plane 0 = the side to move's pieces, its first rank at the bottom.
    pub(crate) quad: Quad,
    pub(crate) hash: u64,
    /// The rooks that may still castle, relative like the quad: ours on rank 1, theirs on
    /// rank 8. A right is the rook's square, as in Chess960; it goes when the rook leaves or is
    /// taken, or when its king moves.
    pub(crate) castle_rooks: u64,
    /// The file of the en-passant target square (on relative rank 6), or [`NO_EP`]. Set only when
    /// a pawn of the side to move stands next to the pawn that just advanced two squares.
    pub(crate) ep_file: u8,
    pub(crate) side: Color,
    pub(crate) chess960: bool,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        let Position {
            quad,
            hash,
            castle_rooks,
            ep_file,
            side,
            chess960: _,
            halfmove,
            fullmove,
        } = *self;
        quad == other.quad
            && hash == other.hash
            && castle_rooks == other.castle_rooks
            && ep_file == other.ep_file
            && side == other.side
            && halfmove == other.halfmove
            && fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("the start position parses")
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist key of the pieces, castling rights, en-passant file and side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// True when the position came from a Chess960 FEN (file-letter castling rights, or king and
    /// rooks off their standard squares).
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// The board in relative orientation: plane 0 = the side to move, its first rank at the bottom.
    #[inline(always)]
    pub fn quad(&self) -> &Quad {
        &self.quad
    }

    /// The board as white sees it (plane 0 = black), the article's absolute orientation.
    pub fn absolute_quad(&self) -> Quad {
        self.quad.to_absolute(self.side)
    }

    /// The en-passant target square, relative (on rank 6), if a capture there may be possible.
    pub fn en_passant(&self) -> Option<Square> {
        (self.ep_file != NO_EP).then(|| Square::from_index_masked(40 + self.ep_file as u32))
    }

    /// The squares of the side to move's pieces.
    #[inline(always)]
    pub(crate) fn us(&self) -> u64 {
        self.quad.bb[0] & self.quad.occupied()
    }

    /// The squares of the opponent's pieces.
    #[inline(always)]
    pub(crate) fn them(&self) -> u64 {
        !self.quad.bb[0] & self.quad.occupied()
    }

    /// The squares holding pieces of `kind`, both colours.
    #[inline(always)]
    pub(crate) fn of_type(&self, kind: PieceType) -> u64 {
        let [_, b1, b2, b3] = self.quad.bb;
        let bits = kind as u8;
        let plane = |p: usize, b: u64| if bits >> p & 1 != 0 { b } else { !b };
        plane(0, b1) & plane(1, b2) & plane(2, b3)
    }

    /// The relative square of the side to move's king (a1 if there is none, which a position
    /// built by `from_fen` never lacks).
    #[inline(always)]
    pub(crate) fn king_square(&self) -> Square {
        let [_, _, b2, b3] = self.quad.bb;
        Square::from_index_masked((b2 & b3 & self.quad.bb[0]).trailing_zeros())
    }

    /// The type bits (none = empty) of relative square `sq`.
    #[inline(always)]
    pub(crate) fn type_bits_at(&self, sq: Square) -> TypeBits {
        let [_, b1, b2, b3] = self.quad.bb;
        let i = sq.index();
        TypeBits::masked(((b1 >> i & 1) | (b2 >> i & 1) << 1 | (b3 >> i & 1) << 2) as u32)
    }

    /// The type of the piece on relative square `sq`, of either colour.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Option<PieceType> {
        self.type_bits_at(sq).kind()
    }

    /// True if relative square `sq` holds a piece of the side to move.
    #[inline(always)]
    pub fn is_ours(&self, sq: Square) -> bool {
        self.us() & sq.bit() != 0
    }

    /// True if the side to move has a piece other than pawns and the king (null-move safety).
    #[inline(always)]
    pub fn has_non_pawn_material(&self) -> bool {
        let [b0, _, b2, b3] = self.quad.bb;
        // Type bits: knight 010, bishop 011, rook 100, queen 101; pawn 001 and king 110 are
        // exactly the types whose two high bits are equal.
        (b2 ^ b3) & b0 != 0
    }

    /// Is the side to move in check? Computed with `b`'s routines: called with the backend a
    /// search runs on, it inlines into that backend's feature region.
    #[inline(always)]
    pub fn in_check<B: Backend>(&self, b: B) -> bool {
        self.attackers_of_king(b) != 0
    }

    /// The opponent's pieces that attack the side to move's king.
    #[inline(always)]
    pub(crate) fn attackers_of_king<B: Backend>(&self, b: B) -> u64 {
        let k = self.king_square();
        self.attackers_of(b, k, self.quad.occupied())
    }

    /// The opponent's pieces that attack relative square `sq` with `occupied` blocking the rays.
    #[inline(always)]
    pub(crate) fn attackers_of<B: Backend>(&self, b: B, sq: Square, occupied: u64) -> u64 {
        let t = tables();
        let sets = RelativeSets::new(b, &self.quad);
        let them = sets.them;
        let orth = (sets.rooks | sets.queens) & them;
        let diag = (sets.bishops | sets.queens) & them;
        (t.knight[sq] & sets.knights & them)
            | (t.pawn[sq] & sets.pawns & them)
            | (t.king[sq] & sets.kings & them)
            | (t.rook(b, sq, occupied) & orth)
            | (t.bishop(b, sq, occupied) & diag)
    }

    /// Plays `mv`, which must be legal here (a move from [`Position::generate_moves`] or
    /// [`Position::parse_uci_move`]): the move's delta quad is xor-ed into the board, then the
    /// board is flipped for the opponent.
    #[inline(always)]
    pub fn make_move<B: Backend>(&self, b: B, mv: Move) -> Position {
        self.play::<B, true>(b, mv)
    }

    /// [`Position::make_move`] for perft, which asks a position for nothing but its moves: the
    /// child's Zobrist key and move clocks are the parent's, not updated. Nothing else may read
    /// them, and the child is no position to compare or to search.
    #[inline(always)]
    pub(crate) fn make_move_unkeyed<B: Backend>(&self, b: B, mv: Move) -> Position {
        self.play::<B, false>(b, mv)
    }

    /// What every unkeyed child of this position shares (the key, the clocks and the Chess960
    /// flag are this position's, the side to move is the other), with this board and these
    /// rights as placeholders: a slot for [`Position::make_move_unkeyed_into`].
    #[inline(always)]
    pub(crate) fn unkeyed_child_slot(&self) -> Position {
        Position {
            side: self.side.other(),
            ..*self
        }
    }

    /// [`Position::make_move_unkeyed`] into `child`, a slot of this position
    /// ([`Position::unkeyed_child_slot`], or an unkeyed child made before): only what differs
    /// between siblings is written, the board, the castling rights and the en-passant file.
    #[inline(always)]
    pub(crate) fn make_move_unkeyed_into<B: Backend>(&self, b: B, mv: Move, child: &mut Position) {
        debug_assert!(
            child.side != self.side
                && (child.hash, child.halfmove, child.fullmove)
                    == (self.hash, self.halfmove, self.fullmove)
                && child.chess960 == self.chess960,
            "not a slot of this position"
        );
        let made = self.play::<B, false>(b, mv);
        child.quad = made.quad;
        child.castle_rooks = made.castle_rooks;
        child.ep_file = made.ep_file;
    }

    /// This position with the move passed to the opponent, unkeyed (the key and the clocks are
    /// this position's): the board flipped by the backend, no en-passant square. A quiet move's
    /// child differs from it by the moved piece alone (`siblings.rs`).
    #[inline(always)]
    pub(crate) fn passed_unkeyed<B: Backend>(&self, b: B) -> Position {
        Position {
            quad: b.flip(&self.quad),
            castle_rooks: self.castle_rooks.swap_bytes(),
            ep_file: NO_EP,
            ..self.unkeyed_child_slot()
        }
    }

    /// Whether our pawn that advanced two squares to `to` gives the opponent an en-passant
    /// capture: one of its pawns stands beside it.
    #[inline(always)]
    pub(crate) fn double_push_gives_en_passant(&self, to: Square) -> bool {
        let bit = to.bit();
        let beside = ((bit << 1) & !0x0101_0101_0101_0101) | ((bit >> 1) & !0x8080_8080_8080_8080);
        beside & self.them() & self.of_type(PieceType::Pawn) != 0
    }

    /// Plays `mv`, updating the Zobrist key and the move clocks if `KEYED`.
    #[inline(always)]
    fn play<B: Backend, const KEYED: bool>(&self, b: B, mv: Move) -> Position {
        let (from, to) = (mv.from(), mv.to());
        let piece = mv.piece_bits();
        let captured = mv.captured_bits();
        let side = self.side;
        let mut hash = self.hash ^ zobrist::SIDE;

        let mut aspects = MoveAspects::quiet(from, to, piece.ours());
        hash ^= zobrist::piece(side, piece.ours(), from);
        // Rare moves first, each tested by one compare, the common case last.
        if mv.is(MoveKind::Castle) {
            // King takes own rook: `to` holds the rook; king and rook land on the g/c and f/d
            // files. In Chess960 any of these squares may coincide, which the xor absorbs.
            let king_to = castled_king(from, to);
            let rook_to = castled_rook(from, to);
            let rook = TypeBits::of(PieceType::Rook).ours();
            aspects.to = king_to;
            aspects.special = Special::Castle {
                rook_from: to,
                rook_to,
                rook,
            };
            hash ^= zobrist::piece(side, piece.ours(), king_to)
                ^ zobrist::piece(side, rook, to)
                ^ zobrist::piece(side, rook, rook_to);
        } else if mv.is(MoveKind::EnPassant) {
            let captured_on = behind(to, 8);
            aspects.captured = captured.theirs();
            aspects.special = Special::EnPassant { captured_on };
            hash ^= zobrist::piece(side, piece.ours(), to)
                ^ zobrist::piece(side, captured.theirs(), captured_on);
        } else {
            aspects.captured = captured.theirs();
            let promotion = mv.promotion_bits();
            let landing = if promotion.is_none() {
                piece
            } else {
                aspects.promotion = promotion.ours();
                promotion
            };
            // The captured piece's key, masked away when nothing is captured (no branch).
            let taken = zobrist::piece(side, captured.theirs(), to)
                & (!captured.is_none() as u64).wrapping_neg();
            hash ^= zobrist::piece(side, landing.ours(), to) ^ taken;
        }
        // ANCHOR: xor_and_flip
        let delta = b.move_delta(&aspects);
        let quad = b.flip(&(self.quad ^ delta));
        // ANCHOR_END: xor_and_flip

        // Castling rights: a rook that moves or is taken loses its right, a king that moves
        // loses both of its side's.
        let mut castle_rooks = self.castle_rooks & !(from.bit() | to.bit());
        if piece == TypeBits::of(PieceType::King) {
            castle_rooks &= !RANK_1;
        }
        let lost = self.castle_rooks ^ castle_rooks;
        // Tested for `KEYED` here and not left to dead-code elimination like the other keys: the
        // compiler keeps a loop it cannot prove finite, and `castling_of` loops over the rooks.
        if KEYED && lost != 0 {
            hash ^= zobrist::castling_of(side, lost);
        }

        // En passant: possible next move only if an enemy pawn stands beside the advanced pawn.
        if self.ep_file != NO_EP {
            hash ^= zobrist::en_passant(self.ep_file);
        }
        let mut ep_file = NO_EP;
        if mv.is(MoveKind::DoublePush) && self.double_push_gives_en_passant(to) {
            ep_file = to.file();
            hash ^= zobrist::en_passant(to.file());
        }

        // Unkeyed, the key and the clocks stay the parent's: the key's table lookups above are
        // then dead code, which the compiler drops.
        let (hash, halfmove, fullmove) = if KEYED {
            let resets = piece == TypeBits::of(PieceType::Pawn) || !captured.is_none();
            let halfmove = if resets {
                0
            } else {
                self.halfmove.saturating_add(1)
            };
            let fullmove = self.fullmove.saturating_add((side == Color::Black) as u32);
            (hash, halfmove, fullmove)
        } else {
            (self.hash, self.halfmove, self.fullmove)
        };
        Position {
            quad,
            hash,
            castle_rooks: castle_rooks.swap_bytes(),
            ep_file,
            side: side.other(),
            chess960: self.chess960,
            halfmove,
            fullmove,
        }
    }

    /// Passes the move to the opponent (for null-move pruning). Not legal when in check.
    #[inline]
    pub fn make_null_move(&self) -> Position {
        let mut hash = self.hash ^ zobrist::SIDE;
        if self.ep_file != NO_EP {
            hash ^= zobrist::en_passant(self.ep_file);
        }
        Position {
            quad: self.quad.mirrored().colors_swapped(),
            hash,
            castle_rooks: self.castle_rooks.swap_bytes(),
            ep_file: NO_EP,
            side: self.side.other(),
            chess960: self.chess960,
            halfmove: self.halfmove.saturating_add(1),
            fullmove: self
                .fullmove
                .saturating_add((self.side == Color::Black) as u32),
        }
    }

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn hash_from_scratch<B: Backend>(&self, b: B) -> u64 {
        let mut hash = b.hash_zobrist(&self.absolute_quad());
        hash ^= zobrist::castling_of(self.side, self.castle_rooks);
        if self.ep_file != NO_EP {
            hash ^= zobrist::en_passant(self.ep_file);
        }
        if self.side == Color::Black {
            hash ^= zobrist::SIDE;
        }
        hash
    }
}

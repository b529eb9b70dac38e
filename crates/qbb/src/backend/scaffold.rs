//! Temporary scaffolding while a backend is being written: every routine taken from the scalar
//! reference and declared as inherited, so that the backend matrix tells the truth meanwhile.

macro_rules! all_inherited_from_scalar {
    () => {
        &[
            (Routine::PieceAt, BackendKind::Scalar, "not written yet"),
            (Routine::SetPiece, BackendKind::Scalar, "not written yet"),
            (Routine::PieceSets, BackendKind::Scalar, "not written yet"),
            (Routine::HexSets, BackendKind::Scalar, "not written yet"),
            (Routine::ToMailbox, BackendKind::Scalar, "not written yet"),
            (Routine::FromMailbox, BackendKind::Scalar, "not written yet"),
            (Routine::MoveDelta, BackendKind::Scalar, "not written yet"),
            (Routine::Flip, BackendKind::Scalar, "not written yet"),
            (
                Routine::OccludedFills,
                BackendKind::Scalar,
                "not written yet",
            ),
            (
                Routine::SliderAttacks,
                BackendKind::Scalar,
                "not written yet",
            ),
            (
                Routine::KnightAttacks,
                BackendKind::Scalar,
                "not written yet",
            ),
            (
                Routine::ChecksAndPins,
                BackendKind::Scalar,
                "not written yet",
            ),
            (
                Routine::WeightedPopcount,
                BackendKind::Scalar,
                "not written yet",
            ),
            (Routine::NibbleAdd, BackendKind::Scalar, "not written yet"),
            (Routine::NibbleSub, BackendKind::Scalar, "not written yet"),
            (Routine::NibbleAvg, BackendKind::Scalar, "not written yet"),
            (
                Routine::ToNibbleBoard,
                BackendKind::Scalar,
                "not written yet",
            ),
            (
                Routine::FromNibbleBoard,
                BackendKind::Scalar,
                "not written yet",
            ),
            (Routine::ToClassical, BackendKind::Scalar, "not written yet"),
            (
                Routine::FromClassical,
                BackendKind::Scalar,
                "not written yet",
            ),
            (Routine::ToDense, BackendKind::Scalar, "not written yet"),
            (Routine::FromDense, BackendKind::Scalar, "not written yet"),
            (Routine::HashManino, BackendKind::Scalar, "not written yet"),
            (Routine::HashZobrist, BackendKind::Scalar, "not written yet"),
        ]
    };
}
pub(crate) use all_inherited_from_scalar;

macro_rules! scalar_routines {
    () => {
        #[inline]
        fn piece_at(self, q: &Quad, sq: Square) -> u8 {
            Scalar.piece_at(q, sq)
        }
        #[inline]
        fn set_piece(self, q: &mut Quad, sq: Square, code: u8) {
            Scalar.set_piece(q, sq, code)
        }
        #[inline]
        fn piece_sets(self, q: &Quad) -> PieceSets {
            Scalar.piece_sets(q)
        }
        #[inline]
        fn hex_sets(self, q: &Quad) -> HexSets {
            Scalar.hex_sets(q)
        }
        #[inline]
        fn to_mailbox(self, q: &Quad) -> Mailbox {
            Scalar.to_mailbox(q)
        }
        #[inline]
        fn from_mailbox(self, m: &Mailbox) -> Quad {
            Scalar.from_mailbox(m)
        }
        #[inline]
        fn move_delta(self, m: &MoveAspects) -> Quad {
            Scalar.move_delta(m)
        }
        #[inline]
        fn flip(self, q: &Quad) -> Quad {
            Scalar.flip(q)
        }
        #[inline]
        fn occluded_fills(self, g: &Quad, e: u64) -> [Quad; 8] {
            Scalar.occluded_fills(g, e)
        }
        #[inline]
        fn slider_attacks(self, o: u64, d: u64, e: u64) -> u64 {
            Scalar.slider_attacks(o, d, e)
        }
        #[inline]
        fn knight_attacks(self, n: u64) -> u64 {
            Scalar.knight_attacks(n)
        }
        #[inline]
        fn checks_and_pins(self, p: &SliderPosition) -> [KingSafety; 2] {
            Scalar.checks_and_pins(p)
        }
        #[inline]
        fn weighted_popcount(self, s: &[u64; 8], w: &[i16; 8]) -> i32 {
            Scalar.weighted_popcount(s, w)
        }
        #[inline]
        fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
            Scalar.nibble_add(a, b)
        }
        #[inline]
        fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
            Scalar.nibble_sub(a, b)
        }
        #[inline]
        fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard {
            Scalar.nibble_avg(a, b)
        }
        #[inline]
        fn to_nibble_board(self, q: &Quad) -> NibbleBoard {
            Scalar.to_nibble_board(q)
        }
        #[inline]
        fn from_nibble_board(self, b: &NibbleBoard) -> Quad {
            Scalar.from_nibble_board(b)
        }
        #[inline]
        fn to_classical(self, q: &Quad) -> ClassicalBoard {
            Scalar.to_classical(q)
        }
        #[inline]
        fn from_classical(self, b: &ClassicalBoard) -> Quad {
            Scalar.from_classical(b)
        }
        #[inline]
        fn to_dense(self, q: &Quad) -> DenseBoard {
            Scalar.to_dense(q)
        }
        #[inline]
        fn from_dense(self, b: &DenseBoard) -> Quad {
            Scalar.from_dense(b)
        }
        #[inline]
        fn hash_manino(self, q: &Quad, s: u64) -> u64 {
            Scalar.hash_manino(q, s)
        }
        #[inline]
        fn hash_zobrist(self, q: &Quad) -> u64 {
            Scalar.hash_zobrist(q)
        }
    };
}
pub(crate) use scalar_routines;

//! The fixed corpus every benchmark runs over: 1024 real positions and, for each one, the input of
//! every routine derived from it, so that the timed loops only read prepared inputs.
//!
//! The positions come from the perft suites (standard and tricky whole, a fixed-seed draw from the
//! random suite, itself positions of random games) and from random legal games played with the
//! engine's move generator from a fixed seed (see [`standard_positions`]). Every run on every
//! machine measures the same inputs.

use std::collections::HashSet;

use qbb::conformance::SplitMix64;
use qbb::nnue::{Accumulators, Network};
use qbb::{
    Backend, ClassicalBoard, DenseBoard, Mailbox, MoveAspects, NibbleBoard, PieceType, Quad,
    Scalar, SliderPosition, Special, Square, Squares,
};
use qbb_corpus::Suite;
use qbb_engine::{MoveList, Position};

/// How many positions a batch holds.
pub const POSITIONS: usize = 1024;

/// The seed of every random choice made while building the corpus.
pub const SEED: u64 = 0x5142_4220_4245_4e43;

/// The material weights of the weighted popcount: pawns .. kings, then the two colour sets.
pub const WEIGHTS: [i16; 8] = [100, 320, 330, 500, 900, 0, 1, -1];

/// The inputs of every routine, one per position, in the order of [`Corpus::positions`].
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The positions in absolute orientation.
    pub positions: Vec<Quad>,
    /// A random square per position (piece at square, set a square).
    pub squares: Vec<Square>,
    /// A random piece code per position, empty included (set a square).
    pub codes: Vec<u8>,
    /// The mailbox of each position.
    pub mailboxes: Vec<Mailbox>,
    /// A move-shaped set of aspects drawn from each position (see [`draw_move`]).
    pub moves: Vec<MoveAspects>,
    /// The empty squares of each position.
    pub empties: Vec<u64>,
    /// Rook-wise sliders (rooks and queens, both colours) of each position.
    pub orth: Vec<u64>,
    /// Bishop-wise sliders (bishops and queens, both colours) of each position.
    pub diag: Vec<u64>,
    /// The knights of both colours.
    pub knights: Vec<u64>,
    /// Isenberg's inputs of each position.
    pub sliders: Vec<SliderPosition>,
    /// The eight sets of the weighted popcount: pawns .. kings, white, black.
    pub weighted_sets: Vec<[u64; 8]>,
    /// Each position as a nibble board.
    pub nibble_boards: Vec<NibbleBoard>,
    /// The nibble board of another position (the second operand of the nibble arithmetic).
    pub nibble_partners: Vec<NibbleBoard>,
    /// Each position as twelve classical bitboards.
    pub classical: Vec<ClassicalBoard>,
    /// Each position as two colour and six type bitboards.
    pub dense: Vec<DenseBoard>,
    /// A hash state per position (the Manino hash chains a state).
    pub hash_states: Vec<u64>,
    /// The NNUE network every NNUE call uses: random weights in the range training keeps them in
    /// (the time of integer arithmetic does not depend on the values).
    pub network: Box<Network>,
    /// Per position, the delta quad of its move of `moves`.
    pub nnue_deltas: Vec<Quad>,
    /// Per position, its accumulators under `network`.
    pub accumulators: Vec<Accumulators>,
}

impl Corpus {
    /// The corpus of [`POSITIONS`] positions.
    pub fn standard() -> Corpus {
        Corpus::from_positions(&standard_positions())
    }

    /// The inputs derived from `positions` with the reference backend.
    pub fn from_positions(positions: &[Quad]) -> Corpus {
        let s = Scalar;
        let mut rng = SplitMix64(SEED ^ 0x1);
        let sets: Vec<_> = positions.iter().map(|q| s.piece_sets(q)).collect();
        let nibble_boards: Vec<NibbleBoard> =
            positions.iter().map(|q| s.to_nibble_board(q)).collect();
        let n = positions.len();
        let mut weights = SplitMix64(SEED ^ 0x2);
        let network = Network::random(&mut || weights.below(256) as i16 - 128);
        let mut corpus = Corpus {
            positions: positions.to_vec(),
            squares: (0..n).map(|_| rng.square()).collect(),
            codes: (0..n).map(|_| rng.below(16) as u8).collect(),
            mailboxes: positions.iter().map(|q| s.to_mailbox(q)).collect(),
            moves: positions.iter().map(|q| draw_move(q, &mut rng)).collect(),
            empties: positions.iter().map(|q| !q.occupied()).collect(),
            orth: sets.iter().map(|p| p.rooks | p.queens).collect(),
            diag: sets.iter().map(|p| p.bishops | p.queens).collect(),
            knights: sets.iter().map(|p| p.knights).collect(),
            sliders: sets.iter().map(SliderPosition::by_colour).collect(),
            weighted_sets: sets
                .iter()
                .map(|p| {
                    [
                        p.pawns, p.knights, p.bishops, p.rooks, p.queens, p.kings, p.white, p.black,
                    ]
                })
                .collect(),
            nibble_partners: (0..n).map(|i| nibble_boards[(i * 7 + 1) % n]).collect(),
            nibble_boards,
            classical: positions.iter().map(|q| s.to_classical(q)).collect(),
            dense: positions.iter().map(|q| s.to_dense(q)).collect(),
            hash_states: (0..n).map(|_| rng.next_u64()).collect(),
            nnue_deltas: Vec::new(),
            accumulators: positions
                .iter()
                .map(|q| s.nnue_refresh(q, &network))
                .collect(),
            network,
        };
        corpus.nnue_deltas = corpus.moves.iter().map(|m| s.move_delta(m)).collect();
        corpus
    }

    /// The number of positions (every input vector has this length).
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
}

/// The 1024 positions, all different: the standard and tricky suites whole, positions drawn
/// with the fixed seed from the random suite up to 512, then positions of random legal games
/// played out with the engine's move generator (fixed seed) up to 1024. (The suites list some
/// boards twice, with other castling rights or another side to move; each board is kept once.)
pub fn standard_positions() -> Vec<Quad> {
    let parse = |p: &str| Quad::from_placement(p).expect("embedded suites parse");
    let mut seen = HashSet::new();
    let mut positions: Vec<Quad> = [Suite::Standard, Suite::Tricky]
        .iter()
        .flat_map(|s| s.placements())
        .map(parse)
        .filter(|q| seen.insert(*q))
        .collect();
    let mut random: Vec<&str> = Suite::Random.placements().collect();
    let mut rng = SplitMix64(SEED);
    while positions.len() < POSITIONS / 2 {
        let pick = rng.below(random.len() as u64) as usize;
        let quad = parse(random.swap_remove(pick));
        if seen.insert(quad) {
            positions.push(quad);
        }
    }
    let mut games = RandomGames::new(SEED ^ 0x2);
    while positions.len() < POSITIONS {
        let quad = games.next_position();
        if seen.insert(quad) {
            positions.push(quad);
        }
    }
    positions
}

/// Random legal games from the start position: every third position from the tenth ply on, until
/// mate, stalemate or ply 200, then a new game.
#[derive(Debug)]
pub struct RandomGames {
    rng: SplitMix64,
    position: Position,
    ply: u32,
}

impl RandomGames {
    const FIRST_PLY: u32 = 10;
    const EVERY: u32 = 3;
    const LAST_PLY: u32 = 200;

    pub fn new(seed: u64) -> RandomGames {
        RandomGames {
            rng: SplitMix64(seed),
            position: Position::startpos(),
            ply: 0,
        }
    }

    /// The next kept position, in absolute orientation.
    pub fn next_position(&mut self) -> Quad {
        let mut moves = MoveList::default();
        loop {
            moves.clear();
            self.position.generate_moves(Scalar, &mut moves);
            if moves.is_empty() || self.ply >= Self::LAST_PLY {
                self.position = Position::startpos();
                self.ply = 0;
                continue;
            }
            let pick = moves[self.rng.below(moves.len() as u64) as usize];
            self.position = self.position.make_move(Scalar, pick);
            self.ply += 1;
            if self.ply >= Self::FIRST_PLY && self.ply.is_multiple_of(Self::EVERY) {
                return self.position.absolute_quad();
            }
        }
    }
}

/// A move-shaped set of aspects in `quad`: a piece of a random colour goes to a square its side
/// does not hold, capturing what stands there; a pawn reaching the last rank promotes to a queen;
/// one draw in sixteen is a castling of the king with a rook, and one in thirty-two an en passant
/// capture shape. An empty side moves the piece of the other one.
pub fn draw_move(quad: &Quad, rng: &mut SplitMix64) -> MoveAspects {
    let sets = Scalar.piece_sets(quad);
    let black = rng.below(2) == 1;
    let (own, other) = if black {
        (sets.black, sets.white)
    } else {
        (sets.white, sets.black)
    };
    let own = if own & sets.occupied == 0 { other } else { own };
    let from = nth_square(own & sets.occupied, rng).unwrap_or(Square::E1);
    let to = nth_square(!own, rng).unwrap_or(Square::E8);
    let piece = quad.nibble(from);
    let captured = quad.nibble(to);
    let colour = piece & 1;
    let last_rank = if colour == 1 { 0 } else { 7 };
    let is_pawn = piece >> 1 == PieceType::Pawn as u8;
    let promotion = if is_pawn && to.rank() == last_rank {
        (PieceType::Queen as u8) << 1 | colour
    } else {
        0
    };
    let special = match rng.below(32) {
        0 | 1 => {
            let rank = if colour == 1 { 7 } else { 0 };
            let sq = |file| Square::from_file_rank(file, rank).expect("file and rank below 8");
            Special::Castle {
                rook_from: sq(7),
                rook_to: sq(5),
                rook: (PieceType::Rook as u8) << 1 | colour,
            }
        }
        2 => Special::EnPassant {
            captured_on: Square::from_index_masked(to.index() as u32 ^ 8),
        },
        _ => Special::None,
    };
    MoveAspects {
        from,
        to,
        piece,
        captured,
        promotion,
        special,
    }
}

/// A square of `set` chosen uniformly, or `None` for the empty set.
fn nth_square(set: u64, rng: &mut SplitMix64) -> Option<Square> {
    let count = set.count_ones();
    if count == 0 {
        return None;
    }
    Squares(set).nth(rng.below(u64::from(count)) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_holds_1024_distinct_real_positions() {
        let corpus = Corpus::standard();
        assert_eq!(corpus.len(), POSITIONS);
        let mut distinct = corpus.positions.clone();
        distinct.sort_by_key(|q| q.bb);
        distinct.dedup();
        assert_eq!(distinct.len(), POSITIONS);
        assert_eq!(corpus.positions[0], Quad::start_position());
        for q in &corpus.positions {
            let kings = Scalar.piece_sets(q).kings;
            assert_eq!(kings.count_ones(), 2, "{}", q.to_placement());
        }
    }

    #[test]
    fn the_corpus_is_the_same_on_every_run() {
        assert_eq!(standard_positions(), standard_positions());
        let (a, b) = (Corpus::standard(), Corpus::standard());
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.squares, b.squares);
    }

    #[test]
    fn drawn_moves_lift_a_piece_and_never_capture_their_own_side() {
        let corpus = Corpus::standard();
        for (q, m) in corpus.positions.iter().zip(&corpus.moves) {
            assert_ne!(m.piece >> 1, 0, "a piece moves in {}", q.to_placement());
            assert_eq!(q.nibble(m.from), m.piece);
            assert_eq!(q.nibble(m.to), m.captured);
            if m.captured >> 1 != 0 {
                assert_ne!(m.captured & 1, m.piece & 1, "captures change colour");
            }
            if m.special == Special::None {
                // The aspects describe the position: making the move empties `from` and leaves
                // exactly the landing piece on `to`.
                let made = *q ^ Scalar.move_delta(m);
                assert_eq!(made.nibble(m.from), 0);
                assert_eq!(made.nibble(m.to), m.landing_code());
            }
        }
        let castles = corpus
            .moves
            .iter()
            .filter(|m| matches!(m.special, Special::Castle { .. }))
            .count();
        assert!((20..=110).contains(&castles), "{castles} castlings");
    }

    #[test]
    fn derived_inputs_match_their_positions() {
        let corpus = Corpus::standard();
        for i in [0, 1, 500, POSITIONS - 1] {
            let q = &corpus.positions[i];
            assert_eq!(Scalar.from_mailbox(&corpus.mailboxes[i]), *q);
            assert_eq!(Scalar.from_nibble_board(&corpus.nibble_boards[i]), *q);
            assert_eq!(Scalar.from_dense(&corpus.dense[i]), *q);
            assert_eq!(corpus.empties[i], !q.occupied());
        }
    }
}

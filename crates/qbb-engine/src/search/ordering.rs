//! Move ordering: alpha-beta cuts off sooner the sooner it tries the best move.
//!
//! The order: the transposition table's move (the best of an earlier search of this position),
//! captures and queen promotions by MVV-LVA (most valuable victim first, least valuable attacker
//! among equals), the two killer moves of this ply (quiet moves that cut off at a sibling node),
//! the counter move (the quiet move that last cut off after the move just played), then the
//! other quiet moves by their history (how often they cut off anywhere), captures that
//! lose material once the recaptures are played out (the static exchange evaluation,
//! [`loses_material`]), and under-promotions last. Moves are picked one at a time (a selection
//! sort step), because a cut usually comes before the list is half done.
//!
//! The quiescence search orders by MVV-LVA alone: it skips the captures that lose material.

use qbb::{Backend, Color, PieceType};

use crate::board::{MAX_MOVES, Move, MoveList, Position};
use crate::eval::score::MAX_PLY;
use crate::search::see::{self, PIECE_VALUE, victim};

const TT_MOVE: i32 = 4_000_000;
const GOOD_TACTICAL: i32 = 2_000_000;
const KILLER_FIRST: i32 = 1_000_001;
const KILLER_SECOND: i32 = 1_000_000;
const COUNTER: i32 = 999_999;
/// History scores stay within plus or minus this.
pub const HISTORY_MAX: i32 = 16_384;
/// Below every quiet move, whatever its history; losing captures among themselves by MVV-LVA
/// (which stays under `HISTORY_MAX`).
const LOSING_CAPTURE: i32 = -3 * HISTORY_MAX;
const UNDERPROMOTION: i32 = -5 * HISTORY_MAX;

/// Whether a move changes the material (capture or promotion): such moves are ordered by
/// MVV-LVA and never reduced or pruned as quiet moves are.
#[inline]
pub fn is_tactical(mv: Move) -> bool {
    mv.is_capture() || mv.promotion().is_some()
}

/// Whether a capture or promotion loses material once the recaptures are played out. A capture
/// by a piece worth no more than its victim never does, and needs no exchange evaluation.
#[inline(always)]
pub fn loses_material<B: Backend>(b: B, pos: &Position, mv: Move) -> bool {
    let attacker = pos
        .piece_on(mv.from())
        .map_or(0, |a| PIECE_VALUE[a.index()]);
    let victim = victim(pos, mv).map_or(0, |v| PIECE_VALUE[v.index()]);
    attacker > victim && see::exchange(b, pos, mv) < 0
}

/// MVV-LVA: ten times the victim's value less the attacker's rank, plus a promotion's gain.
#[inline]
pub fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = victim(pos, mv).map_or(0, |v| PIECE_VALUE[v.index()]);
    let attacker = pos.piece_on(mv.from()).map_or(0, |a| a.index() as i32);
    let promotion = mv
        .promotion()
        .map_or(0, |p| PIECE_VALUE[p.index()] - PIECE_VALUE[0]);
    10 * (victim + promotion) - attacker
}

/// Killer moves per ply, history per side and from/to square, and counter moves by the from/to
/// square of the move they answer, kept across the nodes of one search (history and counter
/// moves also across searches of one game, history aged at each new search).
#[derive(Debug)]
pub struct OrderingTables {
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Box<[[[i32; 64]; 64]; 2]>,
    counters: Box<[[Move; 64]; 64]>,
}

impl Default for OrderingTables {
    fn default() -> OrderingTables {
        OrderingTables {
            killers: [[Move::NULL; 2]; MAX_PLY + 1],
            history: Box::new([[[0; 64]; 64]; 2]),
            counters: Box::new([[Move::NULL; 64]; 64]),
        }
    }
}

impl OrderingTables {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = OrderingTables::default();
    }

    /// Prepares for a new search: killers belong to the old tree; history is halved.
    pub fn new_search(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 1];
        for value in self.history.iter_mut().flatten().flatten() {
            *value /= 2;
        }
    }

    /// Clears the killers of the next ply, so a node's children start with fresh ones.
    #[inline]
    pub fn clear_killers(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.killers[ply] = [Move::NULL; 2];
        }
    }

    /// The ordering score of `mv` at this node.
    #[inline(always)]
    pub fn score(&self, pos: &Position, mv: Move, tt_move: Move, ply: usize) -> i32 {
        if mv == tt_move {
            TT_MOVE
        } else if mv.promotion().is_some_and(|p| p != PieceType::Queen) {
            UNDERPROMOTION
        } else if is_tactical(mv) {
            GOOD_TACTICAL + mvv_lva(pos, mv)
        } else if mv == self.killers[ply][0] {
            KILLER_FIRST
        } else if mv == self.killers[ply][1] {
            KILLER_SECOND
        } else {
            self.history_of(pos.side_to_move(), mv)
        }
    }

    /// The counter move to `previous`, the move that led to the node (none after a null move
    /// or at the root, where `previous` is `Move::NULL`).
    #[inline(always)]
    pub fn counter_to(&self, previous: Move) -> Move {
        if previous == Move::NULL {
            Move::NULL
        } else {
            self.counters[previous.from().index()][previous.to().index()]
        }
    }

    /// The ordering score of `mv` at a node of the main search whose counter move is `counter`:
    /// as [`Self::score`], with the counter move after the killers and the captures that lose
    /// material after the quiet moves.
    #[inline(always)]
    pub fn score_with_exchange<B: Backend>(
        &self,
        b: B,
        pos: &Position,
        mv: Move,
        (tt_move, counter): (Move, Move),
        ply: usize,
    ) -> i32 {
        let score = self.score(pos, mv, tt_move, ply);
        if mv == counter && score < KILLER_SECOND && !is_tactical(mv) {
            COUNTER
        } else if mv != tt_move
            && mv.is_capture()
            && mv.promotion().is_none()
            && loses_material(b, pos, mv)
        {
            LOSING_CAPTURE + mvv_lva(pos, mv)
        } else {
            score
        }
    }

    #[inline]
    fn history_of(&self, side: Color, mv: Move) -> i32 {
        self.history[side.index()][mv.from().index()][mv.to().index()]
    }

    /// A quiet move cut off at `ply` with `depth` left, after `previous`: make it a killer and
    /// the counter move to `previous`, and reward its history; the quiet moves tried before it
    /// (among `tried`, which ends with `mv`) did not cut off and lose as much.
    pub fn reward_cutoff(
        &mut self,
        side: Color,
        (previous, mv): (Move, Move),
        tried: &[Move],
        depth: i32,
        ply: usize,
    ) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        if previous != Move::NULL {
            self.counters[previous.from().index()][previous.to().index()] = mv;
        }
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.nudge(side, mv, bonus);
        for &other in tried.iter().filter(|&&m| m != mv && !is_tactical(m)) {
            self.nudge(side, other, -bonus);
        }
    }

    /// Moves a history score towards plus or minus `HISTORY_MAX` by `bonus`, less the further it
    /// already is (so scores stay bounded and recent results weigh more).
    #[inline]
    fn nudge(&mut self, side: Color, mv: Move, bonus: i32) {
        let entry = &mut self.history[side.index()][mv.from().index()][mv.to().index()];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }
}

/// A node's moves with their ordering scores, handed out best first. The searcher keeps one per
/// ply and reuses it, so a node neither clears nor copies a 256-move array.
#[derive(Debug)]
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    next: usize,
}

impl Default for MovePicker {
    fn default() -> MovePicker {
        MovePicker {
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            next: 0,
        }
    }
}

impl MovePicker {
    /// The list to generate into; the picker starts over.
    #[inline(always)]
    pub fn list(&mut self) -> &mut MoveList {
        self.next = 0;
        &mut self.moves
    }

    /// Scores every generated move (each score within plus or minus `1 << 23`, so that
    /// [`Self::next_best`] can pack it with a place).
    #[inline(always)]
    pub fn score_with(&mut self, mut score: impl FnMut(Move) -> i32) {
        for (i, &mv) in self.moves.iter().enumerate() {
            self.scores[i] = score(mv);
            debug_assert!(self.scores[i].abs() < 1 << 23, "{}", self.scores[i]);
        }
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves handed out so far, in the order they were.
    #[inline(always)]
    pub fn handed_out(&self) -> &[Move] {
        &self.moves.as_slice()[..self.next]
    }

    /// The best move not handed out yet, the first of the best when several tie (one step of a
    /// selection sort). Each score is packed with its place into one key, the score in the high
    /// bits and 255 less the place in the low eight (`MAX_MOVES` is 256), so that the greatest
    /// key is that move: a maximum, which the compiler turns into vector instructions, where a
    /// scan for the best score and its place would compare and branch move by move.
    #[inline(always)]
    pub fn next_best(&mut self) -> Option<Move> {
        let len = self.moves.len();
        let first = self.next;
        let key = self.scores[first..len]
            .iter()
            .zip(first as i32..)
            .map(|(&score, place)| (score << 8) | (255 - place))
            .max()?;
        let best = (255 - (key & 255)) as usize;
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }
}

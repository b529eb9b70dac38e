//! A node of the principal variation search: what settles it before a move is tried, the moves
//! in order, which are pruned, extended or reduced, and what the node leaves in the table.

use qbb::Backend;

use super::Searcher;
use super::deepen::keep_root_moves;
use super::ordering::is_tactical;
use super::pruning::Singularity;
use super::see;
use super::tt::{Bound, Entry};
use crate::board::attack_source::AttackSource;
use crate::board::{Move, MoveList, Position};
use crate::eval::insufficient_material;
use crate::eval::score::{DRAW, INFINITY, MAX_PLY, Score, is_mate, mate_in, mated_in};

impl Searcher {
    /// Whether the node's position is drawn by the fifty-move rule, by repetition (one repetition
    /// is enough inside the search: what can be repeated once can be repeated twice), or for
    /// lack of mating material.
    #[inline]
    pub(super) fn is_draw<B: Backend>(&self, backend: B, pos: &Position) -> bool {
        let clock = pos.halfmove_clock() as usize;
        if clock >= 100 {
            // Unless this very move mated.
            if !pos.in_check(backend) {
                return true;
            }
            let mut moves = MoveList::new();
            pos.generate_moves(backend, &mut moves);
            return !moves.is_empty();
        }
        let hash = pos.hash();
        // Same side to move: every second position back, no further than the last irreversible
        // move.
        let repeated = self
            .path
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .take(clock / 2)
            .any(|&h| h == hash);
        repeated || insufficient_material(backend, pos)
    }

    /// The entry of the recursion: runs the node inside the backend's features. `cut_node`: a
    /// node of the null window expected to fail high (the reduced search of a late move, and
    /// every other ply below it while the expectations hold).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        alpha: Score,
        beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        // The closure must inline into the feature region, or the recursive body stays out of
        // line, compiled without the backend's features (and every routine becomes a call).
        backend.with_features(
            #[inline(always)]
            |b| self.search_node(b, attacks, pos, alpha, beta, depth, ply, cut_node),
        )
    }

    /// A node of the principal variation search.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_node<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        self.pv_len[ply] = 0;
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(backend, attacks, pos, alpha, beta, ply);
        }
        // Checked before counting the node, so that a node limit is never exceeded (a re-search
        // may still start after its child was cut off by the stop).
        if self.should_abort() {
            return 0;
        }
        self.nodes += 1;
        let is_root = ply == 0;
        let is_pv = beta - alpha > 1;
        if !is_root
            && let Some(score) = self.decided_at_once(backend, pos, ply, &mut alpha, &mut beta)
        {
            return score;
        }

        // Set while the node is searched without its table move (a singular extension's test):
        // such a search neither takes nor leaves a result in the table, nor prunes the node.
        let excluded = self.singular_excluded[ply];
        let hash = pos.hash();
        let tt_entry = self.tt.probe(hash, ply);
        let tt_move = tt_entry.map_or(Move::NULL, |e| e.best_move);
        if let Some(entry) = tt_entry
            && !is_pv
            && excluded == Move::NULL
            && settles(&entry, depth, alpha, beta)
        {
            return entry.score;
        }

        let in_check = pos.in_check(backend);
        let (raw_eval, eval) = self.evaluations(backend, pos, ply, in_check, tt_entry);
        let improving = self.improving(ply);

        let node = (beta, depth, ply);
        if !is_pv
            && let Some(score) =
                self.fail_high_unsearched(backend, attacks, pos, node, eval, cut_node)
        {
            return score;
        }

        let tt_extension =
            match self.singularity(backend, attacks, pos, tt_entry, node, is_pv, cut_node) {
                Singularity::Singular { twice } => 1 + i32::from(twice),
                Singularity::Cut(score) => return score,
                Singularity::Shared => -1,
                Singularity::Neither => 0,
            };
        if self.aborted {
            return 0;
        }

        // Internal iterative reduction: a node no earlier search left a move for is searched a
        // ply shallower, its moves being ordered blind; the next iteration comes back to it
        // with the move this one stores.
        let depth = depth - i32::from(depth >= 4 && tt_move == Move::NULL);

        if !self.order_moves(backend, attacks, pos, tt_move, ply) {
            return if in_check { mated_in(ply) } else { DRAW };
        }

        let mut best_score = -INFINITY;
        let mut best_move = Move::NULL;
        self.path.push(hash);
        for index in 0.. {
            let Some(mv) = self.pickers[ply].next_best() else {
                break;
            };
            if mv == excluded {
                continue;
            }
            let tactical = is_tactical(mv);
            if !is_root
                && !in_check
                && index > 0
                && !is_mate(alpha)
                && loses_too_much(backend, pos, mv, tactical, depth)
            {
                continue;
            }
            let child = pos.make_move(backend, mv);
            let gives_check = child.in_check(backend);
            let quiet = !tactical && !in_check && !gives_check;
            if !is_pv
                && quiet
                && index > 0
                && !is_mate(alpha)
                && prunes_quiet(depth, index, improving, eval, alpha)
            {
                continue;
            }

            self.enter_child(backend, ply, pos, mv, &child);
            let extension = self.extension(ply, mv == tt_move, tt_extension, gives_check);
            let new_depth = depth - 1 + extension;
            let window = (alpha, beta);
            let score = if index == 0 {
                let child_cut = !is_pv && !cut_node;
                self.child_score(backend, attacks, &child, window, new_depth, ply, child_cut)
            } else {
                // Late quiet moves are searched shallower first; any surprise is re-searched.
                let counts = (depth, index, new_depth);
                let reduction = self.reduction(quiet, counts, is_pv, improving, cut_node);
                let plies = (new_depth, reduction, ply);
                self.later_move_score(backend, attacks, &child, window, plies, cut_node)
            };
            if self.aborted {
                self.path.pop();
                return 0;
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet_cutoff(pos, mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if excluded == Move::NULL {
            self.remember(hash, ply, depth, beta, best_move, best_score);
            self.learn_correction(pos, depth, raw_eval, beta, best_move, best_score);
        }
        best_score
    }

    /// Readies the search of `child`, which `mv` makes of the node at `ply`: the child probes
    /// the table first, so its bucket is fetched while the network's accumulators are updated.
    #[inline(always)]
    pub(super) fn enter_child<B: Backend>(
        &mut self,
        backend: B,
        ply: usize,
        pos: &Position,
        mv: Move,
        child: &Position,
    ) {
        self.tt.prefetch(child.hash());
        self.played[ply] = mv;
        self.evaluator.make_move(backend, ply, pos, child);
    }

    /// The evaluations of the node at `ply`: the static one as the network or the hand-written
    /// evaluation gives it, and the one the node prunes by, the static one moved by its pawn
    /// structure's correction and then [`sharpened`] by the table's entry (both `-INFINITY` in
    /// check, where a position has none). The corrected static evaluation is kept for
    /// `improving`.
    #[inline(always)]
    fn evaluations<B: Backend>(
        &mut self,
        backend: B,
        pos: &Position,
        ply: usize,
        in_check: bool,
        tt_entry: Option<Entry>,
    ) -> (Score, Score) {
        let (raw, corrected) = if in_check {
            (-INFINITY, -INFINITY)
        } else {
            let raw = self.evaluator.evaluate(backend, ply, pos);
            (raw, self.correction.correct(pos, raw))
        };
        self.static_evals[ply] = corrected;
        let eval = tt_entry.map_or(corrected, |entry| sharpened(corrected, &entry));
        (raw, eval)
    }

    /// A quiet move `mv` cut off at `ply` with `depth` left: the ordering tables learn it.
    #[inline(always)]
    fn reward_quiet_cutoff(&mut self, pos: &Position, mv: Move, depth: i32, ply: usize) {
        let tried = self.pickers[ply].handed_out();
        let moves = (self.previous_move(ply), mv);
        self.ordering
            .reward_cutoff(pos.side_to_move(), moves, tried, depth, ply);
    }

    /// Blends a searched node's score into its pawn structure's correction (not in check: no
    /// evaluation to correct).
    #[inline(always)]
    fn learn_correction(
        &mut self,
        pos: &Position,
        depth: i32,
        raw_eval: Score,
        beta: Score,
        best_move: Move,
        best_score: Score,
    ) {
        if raw_eval != -INFINITY {
            let found_best = best_move != Move::NULL;
            let tactical = found_best && is_tactical(best_move);
            self.correction
                .learn(pos, depth, raw_eval, best_score, beta, found_best, tactical);
        }
    }

    /// The score of a node below the root that needs no search: a draw by the rules, or a window
    /// that mate distance closes (no line from here can beat a mate already found nearer the
    /// root; the window is narrowed to what it can).
    #[inline(always)]
    fn decided_at_once<B: Backend>(
        &self,
        backend: B,
        pos: &Position,
        ply: usize,
        alpha: &mut Score,
        beta: &mut Score,
    ) -> Option<Score> {
        if self.is_draw(backend, pos) {
            return Some(DRAW);
        }
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(mate_in(ply + 1));
        (*alpha >= *beta).then_some(*alpha)
    }

    /// How many plies deeper than the others a move of the node at `ply` is searched: the table
    /// move by what its singularity says (from two plies deeper to one shallower), a check at
    /// least one. A two-ply extension is counted on the child's line.
    #[inline(always)]
    fn extension(&mut self, ply: usize, is_tt_move: bool, tt_extension: i32, check: bool) -> i32 {
        let by_table = if is_tt_move { tt_extension } else { 0 };
        let extension = if check { by_table.max(1) } else { by_table };
        self.double_extensions[ply + 1] = self.double_extensions[ply] + u8::from(extension == 2);
        extension
    }

    /// Whether the side to move at `ply` stands better than at its turn before, by their static
    /// evaluations: never in check; always near the root, or when that turn was in check and
    /// had no evaluation.
    #[inline(always)]
    fn improving(&self, ply: usize) -> bool {
        let now = self.static_evals[ply];
        now != -INFINITY
            && (ply < 2
                || self.static_evals[ply - 2] == -INFINITY
                || now > self.static_evals[ply - 2])
    }

    /// The move that led to the node at `ply`: `Move::NULL` at the root and after a null move.
    #[inline(always)]
    fn previous_move(&self, ply: usize) -> Move {
        if ply == 0 {
            Move::NULL
        } else {
            self.played[ply - 1]
        }
    }

    /// Generates the moves of the node at `ply` into its picker (at the root only those the
    /// search may play) and scores them for ordering; false when there are none.
    #[inline(always)]
    fn order_moves<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        tt_move: Move,
        ply: usize,
    ) -> bool {
        let previous = self.previous_move(ply);
        let picker = &mut self.pickers[ply];
        pos.generate_moves_by(backend, attacks, picker.list());
        if ply == 0 {
            keep_root_moves(&self.root_moves, &self.excluded, picker.list());
        }
        if picker.is_empty() {
            return false;
        }
        let ordering = &self.ordering;
        let refutations = (tt_move, ordering.counter_to(previous));
        picker.score_with(|mv| ordering.score_with_exchange(backend, pos, mv, refutations, ply));
        self.ordering.clear_killers(ply + 1);
        true
    }

    /// How many plies shallower a late move is searched first (the `index`th move of a node
    /// `depth` deep, whose children are searched `new_depth` deep): none unless it is quiet;
    /// less in the principal variation, more when the side to move is not improving, and more
    /// at a node expected to fail high, where a late move matters only if the earlier ones
    /// failed.
    #[inline(always)]
    fn reduction(
        &self,
        quiet: bool,
        (depth, index, new_depth): (i32, usize, i32),
        is_pv: bool,
        improving: bool,
        cut_node: bool,
    ) -> i32 {
        if !quiet || depth < 3 || index < 3 {
            return 0;
        }
        let r = i32::from(self.lmr[depth.min(63) as usize][index.min(63)]);
        (r - i32::from(is_pv) + i32::from(!improving) + i32::from(cut_node))
            .min(new_depth - 1)
            .max(0)
    }

    /// Stores a node's result in the transposition table: its best score (at least `beta`: a
    /// lower bound; with a best move below it: exact; else an upper bound) and best move.
    #[inline(always)]
    pub(super) fn remember(
        &self,
        hash: u64,
        ply: usize,
        depth: i32,
        beta: Score,
        best_move: Move,
        score: Score,
    ) {
        let bound = if score >= beta {
            Bound::Lower
        } else if best_move != Move::NULL {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
        let entry = Entry {
            best_move,
            score,
            depth,
            bound,
        };
        self.tt.store(hash, ply, entry);
    }

    /// The score of a move after the first, from a node at `ply` (a cut node or not): searched
    /// with a null window at alpha, `reduction` plies shallower than `depth` first, where it is
    /// expected to fail high; a reduced search that beats alpha is searched again at full depth,
    /// and one that lands inside the window with the whole window.
    #[inline(always)]
    fn later_move_score<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        child: &Position,
        (alpha, beta): (Score, Score),
        (depth, reduction, ply): (i32, i32, usize),
        cut_node: bool,
    ) -> Score {
        let null_window = (alpha, alpha + 1);
        // A reduced search expects the fail high; an unreduced one alternates as the first move.
        let (reduced, reduced_cut) = (depth - reduction, reduction > 0 || !cut_node);
        let mut score = self.child_score(
            backend,
            attacks,
            child,
            null_window,
            reduced,
            ply,
            reduced_cut,
        );
        if score > alpha && reduction > 0 {
            score = self.child_score(backend, attacks, child, null_window, depth, ply, !cut_node);
        }
        if score > alpha && score < beta {
            score = self.child_score(backend, attacks, child, (alpha, beta), depth, ply, false);
        }
        score
    }

    /// The score of `child`, a child of the node at `ply`, for that node's side: the child
    /// searched `depth` deep with the window (`alpha`, `beta`) seen from the node (expected to
    /// fail high, or not: `cut_node`), its score negated back.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child_score<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        child: &Position,
        (alpha, beta): (Score, Score),
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        -self.search(
            backend,
            attacks,
            child,
            -beta,
            -alpha,
            depth,
            ply + 1,
            cut_node,
        )
    }

    /// Makes `mv` followed by the child's principal variation this node's.
    #[inline]
    pub(super) fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = mv;
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }
}

/// The evaluation a node prunes by: its static evaluation, or the table's score where the
/// stored bound says the true value lies beyond the static evaluation on the score's side (not
/// in check, where there is no evaluation, nor for a mate score).
#[inline(always)]
fn sharpened(static_eval: Score, entry: &Entry) -> Score {
    let nearer = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => entry.score > static_eval,
        Bound::Upper => entry.score < static_eval,
    };
    if static_eval != -INFINITY && !is_mate(entry.score) && nearer {
        entry.score
    } else {
        static_eval
    }
}

/// Whether a quiet move of a node `depth` deep, the `index`th tried, is pruned unsearched, at a
/// node of the null window that is not in check and where the move gives none.
#[inline(always)]
fn prunes_quiet(depth: i32, index: usize, improving: bool, eval: Score, alpha: Score) -> bool {
    // Futility: near the leaves, a quiet move cannot lift a hopeless score to alpha.
    (depth <= 3 && eval + 100 + 120 * depth <= alpha)
        // Late move pruning: near the leaves, the quiet moves ordered last are not searched at
        // all (fewer when the side to move is not improving).
        || (depth <= 7 && index >= late_move_limit(depth, improving))
}

/// Whether `mv`, not the first move of a node `depth` deep, is pruned unsearched because the
/// exchange on its square loses more than a shallow search could win back: near the leaves, a
/// capture that loses more than a pawn a ply, or a quiet move that hangs its piece (either may
/// give check).
#[inline(always)]
fn loses_too_much<B: Backend>(b: B, pos: &Position, mv: Move, tactical: bool, depth: i32) -> bool {
    let margin = if tactical { 100 * depth } else { 60 * depth };
    depth <= 6 && see::exchange(b, pos, mv) < -margin
}

/// How many moves of a node `depth` deep are tried before its remaining quiet moves are pruned:
/// the count grows with the square of the depth, and is halved when the side to move is not
/// improving.
#[inline(always)]
fn late_move_limit(depth: i32, improving: bool) -> usize {
    ((3 + depth * depth) / if improving { 1 } else { 2 }) as usize
}

/// Whether a stored result settles a node searched `depth` deep with the window (`alpha`, `beta`)
/// without a search: deep enough, and its bound on the value decides the window.
#[inline(always)]
fn settles(entry: &Entry, depth: i32, alpha: Score, beta: Score) -> bool {
    i32::from(entry.depth) >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => entry.score >= beta,
            Bound::Upper => entry.score <= alpha,
        }
}

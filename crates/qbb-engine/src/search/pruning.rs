//! What lets a node skip its own search: reverse futility and the null move (it fails high
//! anyway), ProbCut (a capture's shallower search says it would), and the singular extension's
//! test, which also says how deep the table's move is searched.

use qbb::Backend;

use super::Searcher;
use super::see;
use super::tt::{Bound, Entry};
use crate::board::attack_source::AttackSource;
use crate::board::{Move, Position};
use crate::eval::score::{INFINITY, MAX_PLY, Score, is_mate};

/// The shallowest node whose table move is tested for a singular extension: the test is a
/// search of its own.
const SINGULAR_DEPTH: i32 = 6;

/// How far below the test's bound a node outside the principal variation must fall for its
/// table move to be searched two plies deeper instead of one.
const DOUBLE_EXTENSION_MARGIN: Score = 20;

/// The most two-ply extensions on one line: each lengthens the line, and without a cap a
/// search of forcing lines would not end.
const MAX_DOUBLE_EXTENSIONS: u8 = 6;

/// The shallowest node that tries ProbCut.
const PROBCUT_DEPTH: i32 = 5;

/// How many plies shallower than its node ProbCut searches a capture's child.
const PROBCUT_REDUCTION: i32 = 4;

/// How far above beta a capture's shallow search must land for ProbCut to trust it.
const PROBCUT_MARGIN: Score = 200;

/// What searching a node without its table move says of that move.
pub(super) enum Singularity {
    /// The move is much better than every other: it is searched a ply deeper, or two when the
    /// others fall far short.
    Singular {
        twice: bool,
    },
    /// Another move beats beta as well: the node fails high with this score.
    Cut(Score),
    /// The table's score beats beta, but other moves come close: the move is searched a ply
    /// shallower.
    Shared,
    Neither,
}

impl Searcher {
    /// The score a node outside the principal variation returns before trying a move when its
    /// evaluation `eval` (the static one, or the table's score where its bound says that is
    /// nearer the truth) or a shallow search says it fails high anyway (none when it may not: in
    /// check, with a mate at beta, or while a singular extension is tested).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn fail_high_unsearched<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        (beta, depth, ply): (Score, i32, usize),
        eval: Score,
        cut_node: bool,
    ) -> Option<Score> {
        let in_check = eval == -INFINITY;
        if in_check || is_mate(beta) || self.singular_excluded[ply] != Move::NULL {
            return None;
        }
        // Reverse futility: so far above beta that a shallow search will not come back down.
        if depth <= 6 && eval - 90 * depth >= beta {
            return Some(eval);
        }
        // Null move: if passing still fails high, a real move would too (not in pawn endings,
        // where passing can be the only bad option: zugzwang; nor right after a pass, where
        // two passes would search the node itself, shallower).
        let after_pass = ply > 0 && self.played[ply - 1] == Move::NULL;
        if !after_pass && depth >= 3 && eval >= beta && pos.has_non_pawn_material() {
            let node = (beta, depth, ply);
            let score = self.null_move_score(backend, attacks, pos, node, eval, cut_node);
            if self.aborted {
                return Some(0);
            }
            if score >= beta {
                return Some(if is_mate(score) { beta } else { score });
            }
        }
        if depth >= PROBCUT_DEPTH {
            let score = self.probcut(backend, attacks, pos, (beta, depth, ply), eval, cut_node);
            if self.aborted {
                return Some(0);
            }
            return score;
        }
        None
    }

    /// ProbCut: a capture whose search a few plies shallower beats beta by `PROBCUT_MARGIN`
    /// would, searched to the full depth, almost surely beat beta too; the node fails high with
    /// that score, stored as a bound of the shallower depth. Only captures whose exchange alone
    /// lifts the node's evaluation that far are tried, each first by the quiescence search.
    #[inline(always)]
    fn probcut<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        (beta, depth, ply): (Score, i32, usize),
        eval: Score,
        cut_node: bool,
    ) -> Option<Score> {
        let probcut_beta = beta + PROBCUT_MARGIN;
        let needed = probcut_beta - eval;
        let picker = &mut self.pickers[ply];
        pos.generate_captures_by(backend, attacks, picker.list());
        let ordering = &self.ordering;
        picker.score_with(|mv| ordering.score(pos, mv, Move::NULL, MAX_PLY));
        self.path.push(pos.hash());
        let mut found = None;
        while let Some(mv) = self.pickers[ply].next_best() {
            if see::exchange(backend, pos, mv) < needed {
                continue;
            }
            let child = pos.make_move(backend, mv);
            self.enter_child(backend, ply, pos, mv, &child);
            self.double_extensions[ply + 1] = self.double_extensions[ply];
            let window = (probcut_beta - 1, probcut_beta);
            // Depth 0: the quiescence search.
            let mut score = self.child_score(backend, attacks, &child, window, 0, ply, !cut_node);
            if score >= probcut_beta {
                let shallow = depth - PROBCUT_REDUCTION;
                score = self.child_score(backend, attacks, &child, window, shallow, ply, !cut_node);
            }
            if self.aborted {
                break;
            }
            if score >= probcut_beta {
                // The node's result: its child's search and the capture, a ply more.
                let searched = depth - PROBCUT_REDUCTION + 1;
                self.remember(pos.hash(), ply, searched, probcut_beta, mv, score);
                found = Some(score);
                break;
            }
        }
        self.path.pop();
        found
    }

    /// Whether the table's move of the node at `ply` is singular: the node searched without it,
    /// half as deep, falls short of the move's score by a margin. Then the move is extended a
    /// ply, or two outside the principal variation when the node falls far short, while the line
    /// has room for them. When even without it the node beats beta, more than one move does, and
    /// the node fails high at once; when only the stored score does, the move is searched a ply
    /// shallower. Tested below the root, from `SINGULAR_DEPTH` on, when the table's entry is a
    /// search at least nearly as deep that did not fail low.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singularity<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        entry: Option<Entry>,
        (beta, depth, ply): (Score, i32, usize),
        is_pv: bool,
        cut_node: bool,
    ) -> Singularity {
        let Some(entry) = entry else {
            return Singularity::Neither;
        };
        if ply == 0
            || depth < SINGULAR_DEPTH
            || self.singular_excluded[ply] != Move::NULL
            || entry.best_move == Move::NULL
            || entry.bound == Bound::Upper
            || i32::from(entry.depth) < depth - 3
            || is_mate(entry.score)
        {
            return Singularity::Neither;
        }
        let singular_beta = entry.score - 2 * depth;
        self.singular_excluded[ply] = entry.best_move;
        let score = self.search(
            backend,
            attacks,
            pos,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            cut_node,
        );
        self.singular_excluded[ply] = Move::NULL;
        // The test's line is no line of this node's.
        self.pv_len[ply] = 0;
        if score < singular_beta {
            let twice = !is_pv
                && score < singular_beta - DOUBLE_EXTENSION_MARGIN
                && self.double_extensions[ply] < MAX_DOUBLE_EXTENSIONS;
            Singularity::Singular { twice }
        } else if singular_beta >= beta {
            Singularity::Cut(singular_beta)
        } else if entry.score >= beta {
            Singularity::Shared
        } else {
            Singularity::Neither
        }
    }

    /// The score of passing at the node at `ply` (a null move), searched with a null window at
    /// `beta` and a reduced depth, for the node's side: a ply shallower for every two pawns its
    /// evaluation stands above beta, up to three.
    #[inline(always)]
    fn null_move_score<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        (beta, depth, ply): (Score, i32, usize),
        eval: Score,
        cut_node: bool,
    ) -> Score {
        let reduction = 3 + depth / 6 + ((eval - beta) / 200).min(3);
        let child = pos.make_null_move();
        self.evaluator.make_null_move(ply);
        self.played[ply] = Move::NULL;
        self.double_extensions[ply + 1] = self.double_extensions[ply];
        self.path.push(pos.hash());
        let child_depth = depth - 1 - reduction;
        let score = -self.search(
            backend,
            attacks,
            &child,
            -beta,
            -beta + 1,
            child_depth,
            ply + 1,
            !cut_node,
        );
        self.path.pop();
        score
    }
}

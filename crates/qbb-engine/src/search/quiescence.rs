//! The quiescence search at the leaves: captures and queen promotions until the position is
//! quiet, so that no leaf is scored in the middle of an exchange.

use qbb::Backend;

use super::Searcher;
use super::ordering::loses_material;
use super::see::{PIECE_VALUE, victim};
use crate::board::attack_source::AttackSource;
use crate::board::{Move, Position};
use crate::eval::score::{DRAW, INFINITY, MAX_PLY, Score, mated_in};

impl Searcher {
    /// The entry of the quiescence recursion, inside the backend's features.
    #[inline(always)]
    pub(super) fn quiescence<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        backend.with_features(
            #[inline(always)]
            |b| self.quiescence_node(b, attacks, pos, alpha, beta, ply),
        )
    }

    /// Captures and queen promotions only, until the position is quiet; every move when in
    /// check (so mates are seen).
    #[inline(always)]
    fn quiescence_node<B: Backend, A: AttackSource>(
        &mut self,
        backend: B,
        attacks: A,
        pos: &Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        if self.should_abort() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if ply < MAX_PLY {
            self.pv_len[ply] = 0;
        }
        let in_check = pos.in_check(backend);
        if ply >= MAX_PLY {
            return if in_check {
                DRAW
            } else {
                self.evaluator.evaluate(backend, ply, pos)
            };
        }

        let picker = &mut self.pickers[ply];
        let stand_pat;
        let mut best_score;
        if in_check {
            pos.generate_moves_by(backend, attacks, picker.list());
            if picker.is_empty() {
                return mated_in(ply);
            }
            stand_pat = -INFINITY;
            best_score = -INFINITY;
        } else {
            let raw = self.evaluator.evaluate(backend, ply, pos);
            stand_pat = self.correction.correct(pos, raw);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
            pos.generate_captures_by(backend, attacks, picker.list());
        }

        let ordering = &self.ordering;
        picker.score_with(|mv| ordering.score(pos, mv, Move::NULL, MAX_PLY));
        while let Some(mv) = self.pickers[ply].next_best() {
            if !in_check && mv.promotion().is_none() {
                // Delta pruning: even winning this piece for free would not reach alpha.
                let gain = victim(pos, mv).map_or(0, |v| PIECE_VALUE[v.index()]);
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                // A capture that loses material cannot help a side that may stand pat.
                if loses_material(backend, pos, mv) {
                    continue;
                }
            }
            let child = pos.make_move(backend, mv);
            self.evaluator.make_move(backend, ply, pos, &child);
            let score = -self.quiescence(backend, attacks, &child, -beta, -alpha, ply + 1);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best_score
    }
}

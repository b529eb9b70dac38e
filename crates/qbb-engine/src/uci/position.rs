//! `position`: the board a FEN or the start position sets, and the game's moves after it, played
//! until the first that is not legal.

use qbb::Backend;

use super::{Uci, printable};
use crate::board::Position;

impl Uci {
    /// `position startpos|fen <fen> [moves ...]`.
    pub(super) fn set_position(&mut self, args: &[&str]) {
        if self.busy("position") {
            return;
        }
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let start = match setup.split_first() {
            Some((&"startpos", [])) => Position::startpos(),
            Some((&"fen", fen)) if !fen.is_empty() => match Position::from_fen(&fen.join(" ")) {
                Ok(pos) => pos,
                Err(e) => {
                    self.explain(&format!("position ignored: bad FEN: {e}"));
                    return;
                }
            },
            _ => {
                self.explain(
                    "position ignored: expected `position startpos|fen <fen> [moves ...]`",
                );
                return;
            }
        };
        let played = qbb::with_backend!(self.backend, |b| play_moves(b, start, moves));
        match played {
            Ok(played) => {
                if let Some(why) = played.stopped_at {
                    self.explain(&why);
                }
                self.position = played.position;
                self.history = played.history;
            }
            Err(e) => self.explain(&format!("position ignored: {e}")),
        }
    }
}

/// A position reached by the moves of a `position` command.
struct Played {
    position: Position,
    history: Vec<u64>,
    /// Why the move list was cut short, if it was.
    stopped_at: Option<String>,
}

/// The moves of a `position` command played from `start`, up to the first that is not legal.
#[inline(always)]
fn play_moves<B: Backend>(backend: B, start: Position, moves: &[&str]) -> Played {
    let mut position = start;
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        match position.parse_uci_move(backend, text) {
            Ok(mv) => {
                history.push(position.hash());
                position = position.make_move(backend, mv);
            }
            Err(e) => {
                return Played {
                    position,
                    history,
                    stopped_at: Some(format!(
                        "move {} `{}` refused ({e}); position set after the {i} move(s) before it: {}",
                        i + 1,
                        printable(text),
                        position.to_fen()
                    )),
                };
            }
        }
    }
    Played {
        position,
        history,
        stopped_at: None,
    }
}

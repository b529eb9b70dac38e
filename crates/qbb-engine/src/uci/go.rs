//! `go`: its parameters read into the search's limits (or a perft's depth), and the search
//! handed to the search thread.

use super::search_thread::Work;
use super::{Uci, printable};
use crate::board::{Move, MoveError};
use crate::search::time::Limits;

impl Uci {
    /// `go`: a search within the limits its parameters set, or `go perft <depth>`.
    pub(super) fn go(&mut self, args: &[&str]) {
        if self.busy("go") {
            return;
        }
        if let Some((&"perft", rest)) = args.split_first() {
            match rest {
                [depth] => match depth.parse::<u32>() {
                    Ok(depth) if depth <= 20 => self.start(Work::Perft(depth)),
                    _ => self.explain(&format!(
                        "go perft ignored: `{}` is not a depth from 0 to 20",
                        printable(depth)
                    )),
                },
                _ => self.explain("go perft ignored: expected `go perft <depth>`"),
            }
            return;
        }
        match parse_go(args) {
            Ok(go) => {
                for note in &go.notes {
                    self.explain(note);
                }
                let root_moves = self.root_moves(&go.searchmoves);
                self.start(Work::Search(go.limits, root_moves));
            }
            Err(why) => self.explain(&format!("go ignored: {why}")),
        }
    }

    /// The legal moves of `searchmoves` in the current position; each other one is named and
    /// left out.
    fn root_moves(&self, searchmoves: &[String]) -> Vec<Move> {
        let position = self.position;
        let parsed = qbb::with_backend!(self.backend, |b| {
            searchmoves
                .iter()
                .map(|text| position.parse_uci_move(b, text))
                .collect::<Vec<_>>()
        });
        let Ok(parsed) = parsed else {
            self.explain("searchmoves: the backend is not available: searching every move");
            return Vec::new();
        };
        let mut moves = Vec::new();
        for (text, result) in searchmoves.iter().zip(parsed) {
            let why = match result {
                Ok(mv) => {
                    moves.push(mv);
                    continue;
                }
                Err(MoveError::Syntax(_)) => "not a move in UCI notation",
                Err(MoveError::Illegal(_)) => "not a legal move here",
            };
            self.explain(&format!(
                "searchmoves: `{}` left out: {why}",
                printable(text)
            ));
        }
        if moves.is_empty() && !searchmoves.is_empty() {
            self.explain("searchmoves: no legal move in the list: searching every move");
        }
        moves
    }
}

/// The arguments of `go` (all but perft).
#[derive(Debug, Default)]
pub(super) struct Go {
    pub(super) limits: Limits,
    /// The moves after `searchmoves`, as written.
    pub(super) searchmoves: Vec<String>,
    /// What was skipped, and why.
    pub(super) notes: Vec<String>,
}

/// Parses the arguments of `go` (all but perft).
pub(super) fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let (limits, notes) = (&mut go.limits, &mut go.notes);
    let mut tokens = args.iter().copied().peekable();
    fn number<T: std::str::FromStr>(name: &str, value: Option<&str>) -> Result<T, String> {
        let value = value.ok_or_else(|| format!("`{name}` needs a value"))?;
        value
            .parse()
            .map_err(|_| format!("`{name} {}` is not a valid number", printable(value)))
    }
    /// Clock values may be negative when a GUI is late: treat those as zero.
    fn millis(name: &str, value: Option<&str>) -> Result<u64, String> {
        number::<i64>(name, value).map(|v| v.max(0) as u64)
    }
    while let Some(token) = tokens.next() {
        match token {
            "depth" => limits.depth = Some(number("depth", tokens.next())?),
            "nodes" => limits.nodes = Some(number("nodes", tokens.next())?),
            "movetime" => limits.movetime = Some(millis("movetime", tokens.next())?),
            "wtime" => limits.time[0] = Some(millis("wtime", tokens.next())?),
            "btime" => limits.time[1] = Some(millis("btime", tokens.next())?),
            "winc" => limits.increment[0] = millis("winc", tokens.next())?,
            "binc" => limits.increment[1] = millis("binc", tokens.next())?,
            "movestogo" => limits.movestogo = Some(number("movestogo", tokens.next())?),
            "mate" => {
                // A mate in N moves lies within 2N - 1 plies: search that deep.
                let moves: u32 = number("mate", tokens.next())?;
                limits.depth = Some(moves.saturating_mul(2).saturating_sub(1).max(1));
            }
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                // The moves run up to the next keyword.
                while let Some(mv) = tokens.next_if(|t| !is_go_keyword(t)) {
                    go.searchmoves.push(mv.to_string());
                }
            }
            other => notes.push(format!(
                "unknown go parameter `{}` skipped",
                printable(other)
            )),
        }
    }
    Ok(go)
}

fn is_go_keyword(token: &str) -> bool {
    matches!(
        token,
        "depth"
            | "nodes"
            | "movetime"
            | "wtime"
            | "btime"
            | "winc"
            | "binc"
            | "movestogo"
            | "mate"
            | "infinite"
            | "ponder"
    )
}

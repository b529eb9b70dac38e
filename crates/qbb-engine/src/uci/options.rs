//! The engine's options: the list the handshake (`uci`) gives, and `setoption`, which changes
//! one or refuses the value with the reason and keeps what it had.

use std::time::Duration;

use qbb::BackendKind;

use super::{Uci, printable};
use crate::board::{Attacks, MAX_MOVES};
use crate::eval::nnue;
use crate::search::MAX_THREADS;
use crate::search::tt::{DEFAULT_HASH_MB, MAX_HASH_MB, MIN_HASH_MB};

/// The Move Overhead option's default and its maximum, in milliseconds.
pub(super) const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The `EvalFile` value that names the network built into the binary.
const EMBEDDED_NETWORK: &str = "<embedded>";

impl Uci {
    /// `uci`: the engine's name and its options, then `uciok`.
    pub(super) fn identify(&self) {
        self.say(concat!("id name qbb-engine ", env!("CARGO_PKG_VERSION")));
        self.say("id author the qbb-lab authors");
        self.say(&format!(
            "option name Hash type spin default {DEFAULT_HASH_MB} min {MIN_HASH_MB} max {MAX_HASH_MB}"
        ));
        self.say("option name Clear Hash type button");
        self.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        let backends = combo_vars(BackendKind::ALL.map(BackendKind::name));
        self.say(&format!(
            "option name Backend type combo default auto var auto{backends}"
        ));
        self.say(&format!(
            "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
        ));
        self.say(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MOVES}"
        ));
        self.say("option name Ponder type check default false");
        self.say("option name UCI_Chess960 type check default false");
        self.say("option name Use NNUE type check default true");
        self.say(&format!(
            "option name EvalFile type string default {EMBEDDED_NETWORK}"
        ));
        let sources = combo_vars(Attacks::ALL.map(Attacks::name));
        self.say(&format!(
            "option name Attacks type combo default {}{sources}",
            Attacks::default()
        ));
        self.explain(&format!("searching on the {} backend", self.backend));
        self.say("uciok");
    }

    /// `setoption name <name> [value <value>]`.
    pub(super) fn set_option(&mut self, args: &[&str]) {
        if self.busy("setoption") {
            return;
        }
        let Some(("name", rest)) = args.split_first().map(|(a, r)| (*a, r)) else {
            self.explain("setoption ignored: expected `setoption name <name> [value <value>]`");
            return;
        };
        let split = rest.iter().position(|&t| t == "value");
        let name = rest[..split.unwrap_or(rest.len())].join(" ");
        let value = split.map(|i| rest[i + 1..].join(" "));
        let value = value.as_deref().map(str::trim);
        let lower = name.to_ascii_lowercase();
        match (lower.as_str(), value) {
            ("hash", Some(v)) => match v.parse::<usize>() {
                Ok(mb) if (MIN_HASH_MB..=MAX_HASH_MB).contains(&mb) => {
                    if let Err(e) = self.lock_searcher().set_hash(mb) {
                        self.explain(&format!("Hash {mb} refused: {e}; table unchanged"));
                    }
                }
                _ => self.explain(&format!(
                    "Hash `{}` ignored: expected a number of MiB from {MIN_HASH_MB} to {MAX_HASH_MB}",
                    printable(v)
                )),
            },
            ("clear hash", _) => self.lock_searcher().new_game(),
            ("threads", Some(v)) => match v.parse::<usize>() {
                Ok(threads) if (1..=MAX_THREADS).contains(&threads) => {
                    self.lock_searcher().set_threads(threads);
                }
                _ => self.explain(&format!(
                    "Threads `{}` ignored: expected a number of threads from 1 to {MAX_THREADS}",
                    printable(v)
                )),
            },
            ("backend", Some(v)) => self.set_backend(v),
            ("move overhead", Some(v)) => match v.parse::<u64>() {
                Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => {
                    self.move_overhead = Duration::from_millis(ms);
                }
                _ => self.explain(&format!(
                    "Move Overhead `{}` ignored: expected milliseconds from 0 to {MAX_MOVE_OVERHEAD_MS}",
                    printable(v)
                )),
            },
            ("multipv", Some(v)) => match v.parse::<usize>() {
                Ok(lines) if (1..=MAX_MOVES).contains(&lines) => {
                    self.lock_searcher().set_multi_pv(lines);
                }
                _ => self.explain(&format!(
                    "MultiPV `{}` ignored: expected a number of lines from 1 to {MAX_MOVES}",
                    printable(v)
                )),
            },
            // The GUI says whether it will send `go ponder`: nothing to prepare.
            ("ponder", Some(v)) => {
                if !matches!(v.to_ascii_lowercase().as_str(), "true" | "false") {
                    self.explain(&format!(
                        "Ponder `{}` ignored: expected true or false",
                        printable(v)
                    ));
                }
            }
            ("uci_chess960", Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => self.chess960 = true,
                "false" => self.chess960 = false,
                _ => self.explain(&format!(
                    "UCI_Chess960 `{}` ignored: expected true or false",
                    printable(v)
                )),
            },
            ("attacks", Some(v)) => match v.parse::<Attacks>() {
                Ok(attacks) => self.attacks = attacks,
                Err(e) => self.explain(&format!(
                    "Attacks ignored: {}",
                    printable(&e.to_string())
                )),
            },
            ("use nnue", Some(v)) => match v.to_ascii_lowercase().as_str() {
                "true" => self.lock_searcher().evaluator_mut().set_use_nnue(true),
                "false" => self.lock_searcher().evaluator_mut().set_use_nnue(false),
                _ => self.explain(&format!(
                    "Use NNUE `{}` ignored: expected true or false",
                    printable(v)
                )),
            },
            ("evalfile", Some(v)) => self.set_eval_file(v),
            (
                "hash" | "threads" | "backend" | "move overhead" | "multipv" | "ponder"
                | "uci_chess960" | "attacks" | "use nnue" | "evalfile",
                None,
            ) => {
                self.explain(&format!("option `{name}` ignored: it needs a value"));
            }
            _ => self.explain(&format!("unknown option `{}` ignored", printable(&name))),
        }
    }

    /// Loads a network; a file that cannot be read or is not a network of this engine's shape is
    /// refused with the reason, and the network in use stays.
    fn set_eval_file(&mut self, path: &str) {
        let loaded = if path == EMBEDDED_NETWORK {
            Ok(nnue::embedded_network())
        } else {
            nnue::load_network(path)
        };
        match loaded {
            Ok(network) => {
                self.lock_searcher().evaluator_mut().set_network(network);
                self.explain(&format!("evaluating with the network {}", printable(path)));
            }
            Err(e) => self.explain(&format!(
                "EvalFile `{}` refused: {}; the network in use stays",
                printable(path),
                printable(&e.to_string())
            )),
        }
    }

    fn set_backend(&mut self, value: &str) {
        let wanted = if value.eq_ignore_ascii_case("auto") {
            BackendKind::selected().unwrap_or_else(|_| BackendKind::detect_best())
        } else {
            match value.parse::<BackendKind>() {
                Ok(kind) => kind,
                Err(e) => {
                    self.explain(&format!("{e}; backend stays {}", self.backend));
                    return;
                }
            }
        };
        match wanted.check_available() {
            Ok(()) => {
                self.backend = wanted;
                self.explain(&format!("searching on the {wanted} backend"));
            }
            Err(e) => self.explain(&format!("{e}; backend stays {}", self.backend)),
        }
    }
}

/// The ` var <name>` list of a UCI combo option.
fn combo_vars(names: impl IntoIterator<Item = &'static str>) -> String {
    names
        .into_iter()
        .map(|name| format!(" var {name}"))
        .collect()
}

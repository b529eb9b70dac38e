//! The UCI loop fed a sequence of lines (positions with move lists, `go` with every limit,
//! `setoption` for every option, `stop`, `ucinewgame`, garbage): no line panics it, a search with
//! limits answers within them, and after the sequence the engine answers `isready`.
//!
//! Each line is the input's, except that a `go`'s limits are made tiny (an execution stays
//! fast), `Hash` stays small and `EvalFile` names one of a few files (any path could block the
//! reader, as a terminal or a pipe would).
#![no_main]

use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use qbb_engine::uci::{Flow, Output, Uci};

/// The largest limits a `go` keeps, and the largest `Hash`.
const CLAMPS: [(&str, u64); 11] = [
    ("depth", 4),
    ("nodes", 3000),
    ("movetime", 10),
    ("wtime", 60),
    ("btime", 60),
    ("winc", 5),
    ("binc", 5),
    ("movestogo", 40),
    ("mate", 2),
    ("perft", 3),
    ("hash", 4),
];

/// A search given finite limits answers within them; this is the slack a loaded machine gets.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

/// Lines that put the engine back to its defaults before each input (one engine serves every
/// execution: a new one would allocate its table each time).
const RESET: [&str; 10] = [
    "stop",
    "ucinewgame",
    "setoption name Hash value 1",
    "setoption name Backend value auto",
    "setoption name Use NNUE value true",
    "setoption name EvalFile value <embedded>",
    "setoption name MultiPV value 1",
    "setoption name UCI_Chess960 value false",
    "setoption name Move Overhead value 10",
    "setoption name Attacks value tables",
];

struct Engine {
    uci: Uci,
    said: Arc<Mutex<Vec<String>>>,
    /// Network files for `EvalFile`: none, a valid one, and damaged ones.
    eval_files: Vec<String>,
}

thread_local! {
    static ENGINE: RefCell<Option<Engine>> = const { RefCell::new(None) };
}

fn engine() -> Engine {
    let said = Arc::new(Mutex::new(Vec::new()));
    let sink = Arc::clone(&said);
    let out: Output = Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string()));
    let dir = std::env::temp_dir().join(format!("qbb-fuzz-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let good = qbb_engine::nnue::embedded_network().to_bytes();
    let mut bad_sum = good.clone();
    *bad_sum.last_mut().unwrap() ^= 1;
    let files = [
        ("good.nnue", good.clone()),
        ("truncated.nnue", good[..good.len() / 2].to_vec()),
        ("checksum.nnue", bad_sum),
        ("empty.nnue", Vec::new()),
    ];
    let mut eval_files = vec![
        "<embedded>".to_string(),
        "/nonexistent/net.nnue".to_string(),
        "/dev/null".to_string(),
        "/dev/zero".to_string(),
    ];
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("a temporary file");
        eval_files.push(path.display().to_string());
    }
    Engine {
        uci: Uci::new(out).expect("the engine starts"),
        said,
        eval_files,
    }
}

/// The line with `go`'s limits and `Hash` clamped and `EvalFile` mapped to a known file.
fn tame(line: &str, eval_files: &[String]) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let lower: Vec<String> = tokens.iter().map(|t| t.to_ascii_lowercase()).collect();
    if let Some(at) = lower.iter().position(|t| t == "evalfile") {
        let choice = line.len() % eval_files.len();
        let head = tokens[..=at].join(" ");
        return format!("{head} value {}", eval_files[choice]);
    }
    let mut out = Vec::with_capacity(tokens.len());
    let mut limit = None;
    for (token, low) in tokens.iter().zip(&lower) {
        match (limit.take(), token.parse::<u64>()) {
            (Some(max), Ok(n)) => out.push(n.min(max).to_string()),
            _ => out.push(token.to_string()),
        }
        limit = CLAMPS.iter().find(|(k, _)| k == low).map(|&(_, max)| max);
    }
    out.join(" ")
}

/// The line's command: its first word that is one (the engine skips unknown words before it).
fn command_of(line: &str) -> Option<&str> {
    line.split_whitespace()
        .find(|w| qbb_engine::uci::COMMANDS.contains(w))
}

/// Whether a `go` line gives limits the search must end by itself within.
fn finite(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if command_of(line) != Some("go") {
        return false;
    }
    let Some(go) = words.iter().position(|&w| w == "go") else {
        return false;
    };
    let args = &words[go + 1..];
    if args.first() == Some(&"perft") {
        return true;
    }
    let has = |w: &str| args.contains(&w);
    // A limit counts when a number follows it; anything else the engine skips, and a `go` left
    // without limits searches until `stop`.
    let limit = |w: &str| {
        args.windows(2)
            .any(|pair| pair[0] == w && pair[1].parse::<u64>().is_ok())
    };
    !has("infinite")
        && !has("ponder")
        && (["depth", "nodes", "movetime", "mate"]
            .into_iter()
            .any(limit)
            || limit("wtime") && limit("btime"))
}

fuzz_target!(|data: &[u8]| {
    let text = qbb_fuzz::text(data);
    ENGINE.with_borrow_mut(|slot| {
        let engine = slot.get_or_insert_with(engine);
        for line in RESET {
            engine.uci.handle(line);
        }
        engine.said.lock().unwrap().clear();
        // A search without limits may be running: a `go` after it is refused, and waiting for
        // its answer would wait for that search.
        let mut unbounded = false;
        for line in text.lines().take(64) {
            let line = tame(line, &engine.eval_files);
            if engine.uci.handle(&line) == Flow::Quit {
                break;
            }
            match command_of(&line) {
                Some("stop") => unbounded = false,
                Some("go") if !finite(&line) => unbounded = true,
                _ => {}
            }
            if finite(&line) && !unbounded {
                let asked = Instant::now();
                engine.uci.wait_for_search();
                assert!(
                    asked.elapsed() < ANSWER_WITHIN,
                    "`{line}` took {:?}",
                    asked.elapsed()
                );
            }
        }
        let asked = Instant::now();
        engine.uci.handle("stop");
        engine.uci.handle("isready");
        assert!(
            asked.elapsed() < ANSWER_WITHIN,
            "stop took {:?}",
            asked.elapsed()
        );
        let said = std::mem::take(&mut *engine.said.lock().unwrap());
        assert_eq!(said.last().map(String::as_str), Some("readyok"), "{said:?}");
        assert!(said.iter().all(|l| !l.contains('\n')), "{said:?}");
        assert!(
            // The engine's own report of a search that panicked (an echo of the input may hold
            // the same words).
            !said
                .iter()
                .any(|l| l.starts_with("info string internal error")),
            "{said:?}"
        );
    });
});

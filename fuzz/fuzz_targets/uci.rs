//! The UCI loop fed a sequence of lines (positions with move lists, `go` with every limit,
//! `setoption` for every option, `stop`, `ucinewgame`, garbage): no line panics it, a search with
//! limits answers within them, and after the sequence the engine answers `isready`.
//!
//! Each line is the input's, except that a `go`'s limits are made tiny and only the first few
//! `go`s are sent (an execution stays fast), `Hash`, `Threads` and `MultiPV` stay small, and
//! `EvalFile` names one of a few files (any path could block the reader, as a terminal or a pipe
//! would).
#![no_main]

use std::cell::RefCell;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use qbb_engine::uci::{Flow, Output, Uci};

/// The largest limits a `go` keeps (the number after the word).
const GO_CLAMPS: [(&str, u64); 10] = [
    ("depth", 2),
    ("nodes", 200),
    ("movetime", 1),
    ("wtime", 20),
    ("btime", 20),
    ("winc", 1),
    ("binc", 1),
    ("movestogo", 40),
    ("mate", 1),
    ("perft", 2),
];

/// The largest values of the options that cost memory or threads (`setoption name N value V`).
const OPTION_CLAMPS: [(&str, u64); 3] = [("hash", 2), ("threads", 2), ("multipv", 4)];

/// The `go`s of an input that are sent; the later ones are left out. The second meets the first's
/// search still running or answered, and whatever the lines between changed; a third would only
/// repeat that, and a `go` (a millisecond at least) is most of an execution's time.
const MAX_GOS: usize = 2;

/// A search given finite limits answers within them; this is the slack a loaded machine gets.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

/// Lines that put the engine back to its defaults before each input (one engine serves every
/// execution: a new one would allocate its table each time). `Hash` is put back only when the
/// input before named it ([`HASH_RESET`]): a new table costs more than the rest of the reset.
const RESET: [&str; 11] = [
    "stop",
    "ucinewgame",
    "setoption name Threads value 1",
    "setoption name Backend value auto",
    "setoption name Use NNUE value true",
    "setoption name EvalFile value <embedded>",
    "setoption name MultiPV value 1",
    "setoption name UCI_Chess960 value false",
    "setoption name Move Overhead value 10",
    "setoption name Attacks value tables",
    "setoption name Ponder value false",
];

const HASH_RESET: &str = "setoption name Hash value 1";

struct Engine {
    uci: Uci,
    said: Arc<Mutex<Vec<String>>>,
    /// Network files for `EvalFile`: none, a valid one, and damaged ones.
    eval_files: Vec<String>,
    /// Whether the last input may have changed `Hash`.
    hash_touched: bool,
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
        // The default table (16 MiB) would be cleared by every input's `ucinewgame`.
        hash_touched: true,
    }
}

/// The line with `go`'s limits and the costly options clamped and `EvalFile` mapped to a known
/// file.
fn tame(line: &str, eval_files: &[String]) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let lower: Vec<String> = tokens.iter().map(|t| t.to_ascii_lowercase()).collect();
    let mut out: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    let clamp = |token: &mut String, max: u64| {
        if let Ok(n) = token.parse::<u64>() {
            *token = n.min(max).to_string();
        }
    };
    let command = tokens
        .iter()
        .position(|t| qbb_engine::uci::COMMANDS.contains(t));
    if let Some(at) = command.filter(|&at| tokens[at] == "setoption") {
        // Only a `setoption` reads a file: the word on another command's line (a `go`'s, say)
        // must not spare it the clamps.
        if let Some(at) = lower.iter().position(|t| t == "evalfile") {
            let choice = line.len() % eval_files.len();
            let head = tokens[..=at].join(" ");
            return format!("{head} value {}", eval_files[choice]);
        }
        // The option's name is the words between `name` and the first `value`, as the engine
        // reads them; the value is the word after.
        let args = &tokens[at + 1..];
        if let (Some(&"name"), Some(value)) =
            (args.first(), args.iter().position(|&t| t == "value"))
            && at + 2 + value < out.len()
        {
            let option = args[1..value].join(" ").to_ascii_lowercase();
            if let Some(&(_, max)) = OPTION_CLAMPS.iter().find(|(k, _)| *k == option) {
                clamp(&mut out[at + 2 + value], max);
            }
        }
        return out.join(" ");
    }
    for at in 1..out.len() {
        if let Some(&(_, max)) = GO_CLAMPS.iter().find(|(k, _)| *k == lower[at - 1]) {
            clamp(&mut out[at], max);
        }
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
        if std::mem::take(&mut engine.hash_touched) {
            engine.uci.handle(HASH_RESET);
        }
        engine.said.lock().unwrap().clear();
        // A search without limits may be running: a `go` after it is refused, and waiting for
        // its answer would wait for that search.
        let mut unbounded = false;
        let mut gos = 0;
        for line in text.lines().take(64) {
            let line = tame(line, &engine.eval_files);
            match command_of(&line) {
                Some("go") if gos == MAX_GOS => continue,
                Some("go") => gos += 1,
                Some("setoption") => {
                    engine.hash_touched |= line.to_ascii_lowercase().contains("hash")
                }
                _ => {}
            }
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

use super::go::parse_go;
use super::*;
use std::thread;
use std::time::Instant;

/// An engine whose output lines are collected.
struct Session {
    uci: Uci,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Session {
    fn new() -> Session {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&lines);
        let out: Output = Arc::new(move |line: &str| sink.lock().unwrap().push(line.to_string()));
        Session {
            uci: Uci::new(out).unwrap(),
            lines,
        }
    }

    /// Sends the lines and returns what the engine answered, searches included.
    fn talk(&mut self, input: &[&str]) -> Vec<String> {
        for line in input {
            assert_eq!(self.uci.handle(line), Flow::Continue, "{line}");
        }
        self.uci.wait_for_search();
        self.said()
    }

    /// What the engine wrote since the last look.
    fn said(&self) -> Vec<String> {
        std::mem::take(&mut *self.lines.lock().unwrap())
    }
}

fn bestmove(answer: &[String]) -> &str {
    let last = answer.last().expect("an answer");
    last.strip_prefix("bestmove ").expect("bestmove last")
}

#[test]
fn handshake_lists_the_options() {
    let mut s = Session::new();
    let answer = s.talk(&["uci"]);
    assert!(answer[0].starts_with("id name qbb-engine"));
    for option in [
        "Hash",
        "Threads",
        "Backend",
        "Move Overhead",
        "MultiPV",
        "Ponder",
        "UCI_Chess960",
        "Attacks",
        "Use NNUE",
        "EvalFile",
    ] {
        assert!(
            answer
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}"
        );
    }
    assert_eq!(answer.last().unwrap(), "uciok");
    assert_eq!(s.talk(&["isready"]), ["readyok"]);
}

#[test]
fn searches_the_position_after_the_moves() {
    let mut s = Session::new();
    // After 1. e4 f6 2. d4 g5, Qh5 mates.
    let answer = s.talk(&["position startpos moves e2e4 f7f6 d2d4 g7g5", "go depth 3"]);
    assert_eq!(bestmove(&answer), "d1h5");
    let info = answer
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    for field in [
        " seldepth ",
        " score mate 1 ",
        " nodes ",
        " nps ",
        " hashfull ",
        " time ",
        " pv d1h5",
    ] {
        assert!(info.contains(field), "{field} in {info}");
    }
}

#[test]
fn an_illegal_move_ends_the_move_list() {
    let mut s = Session::new();
    let answer = s.talk(&["position startpos moves e2e4 e7e5 e1e3 d7d5"]);
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].starts_with("info string move 3 `e1e3` refused"),
        "{answer:?}"
    );
    assert_eq!(
        s.uci.position.to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(s.uci.history.len(), 2);
}

#[test]
fn garbage_is_explained_and_survived() {
    let mut s = Session::new();
    let garbage = [
        "hello",
        "position",
        "position fen",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position startpos moves zz9",
        "go depth",
        "go depth x",
        "go movetime -",
        "go perft",
        "go perft 99",
        "setoption",
        "setoption name",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name Threads value 0",
        "setoption name Threads value 257",
        "setoption name Backend value turbo",
        "setoption name Move Overhead value -5",
        "setoption name UCI_Chess960 value maybe",
        "setoption name Attacks value magic",
        "setoption name Use NNUE value sometimes",
        "setoption name EvalFile value /nonexistent/net.nnue",
        "setoption name EvalFile value Cargo.toml",
        "setoption name Colour value blue",
        "\u{1b}[2J\u{0}\u{7f}",
        &"x".repeat(10_000),
    ];
    let answer = s.talk(&garbage);
    assert!(
        answer.iter().all(|l| l.starts_with("info string ")),
        "{answer:?}"
    );
    assert!(answer.len() >= garbage.len() - 1, "{answer:?}");
    assert!(answer.iter().all(|l| l.len() < 300));
    assert_eq!(s.uci.position, Position::startpos());
    assert_eq!(s.talk(&["isready"]), ["readyok"]);
}

#[test]
fn an_unknown_command_is_quoted_as_sent() {
    let mut s = Session::new();
    for sent in ["frobnicate now\n", "frobnicate now\r\n", "frobnicate now"] {
        let answer = s.talk(&[without_line_ending(sent)]);
        assert_eq!(
            answer,
            ["info string unknown command `frobnicate now`, ignored"],
            "{sent:?}"
        );
    }
}

#[test]
fn unknown_words_before_a_command_are_skipped() {
    let mut s = Session::new();
    let answer = s.talk(&["joho isready"]);
    assert_eq!(answer.len(), 2);
    assert!(answer[0].starts_with("info string skipped unknown `joho`"));
    assert_eq!(answer[1], "readyok");
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let mut s = Session::new();
    s.uci.handle("position startpos moves e2e4");
    s.uci.handle("go infinite");
    assert_eq!(s.uci.handle("isready"), Flow::Continue);
    // Commands that would change the search are refused while it runs.
    s.uci.handle("position startpos");
    s.uci.handle("stop");
    let answer = s.said();
    assert!(answer.contains(&"readyok".to_string()));
    assert!(
        answer
            .iter()
            .any(|l| l.contains("`position` ignored: a search is running"))
    );
    let mv = bestmove(&answer).split(' ').next().unwrap();
    let after_e4 = Position::startpos().make_move(
        qbb::Scalar,
        Position::startpos()
            .parse_uci_move(qbb::Scalar, "e2e4")
            .unwrap(),
    );
    assert!(after_e4.parse_uci_move(qbb::Scalar, mv).is_ok(), "{mv}");
}

#[test]
fn two_threads_answer_once_with_the_main_threads_line() {
    let mut s = Session::new();
    assert!(s.talk(&["setoption name Threads value 2"]).is_empty());
    assert_eq!(s.uci.lock_searcher().threads(), 2);
    let answer = s.talk(&["position startpos", "go depth 6"]);
    let (last, infos) = answer.split_last().expect("an answer");
    assert!(last.starts_with("bestmove "), "{answer:?}");
    assert_eq!(
        answer.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    // One report per depth, in order, from the main thread alone.
    let depths: Vec<&str> = infos
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split(' ').next().expect("a depth"))
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4", "5", "6"], "{answer:?}");
    let mv = bestmove(&answer).split(' ').next().expect("a move");
    assert!(
        Position::startpos().parse_uci_move(qbb::Scalar, mv).is_ok(),
        "{mv}"
    );
    assert_eq!(
        s.talk(&["setoption name Threads value 1", "isready"]),
        ["readyok"]
    );
    assert_eq!(s.uci.lock_searcher().threads(), 1);
}

#[test]
fn options_change_the_engine() {
    let mut s = Session::new();
    let answer = s.talk(&[
        "setoption name Hash value 2",
        "setoption name Move Overhead value 50",
        "setoption name Backend value scalar",
        "setoption name UCI_Chess960 value true",
    ]);
    assert_eq!(answer, ["info string searching on the scalar backend"]);
    assert_eq!(s.uci.lock_searcher().hash_megabytes(), 2);
    assert_eq!(s.uci.move_overhead, Duration::from_millis(50));
    assert_eq!(s.uci.backend(), BackendKind::Scalar);
    assert_eq!(s.uci.lock_searcher().threads(), 1);
    // Chess960 castling is written king-takes-rook.
    let answer = s.talk(&[
        "position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1 moves e1h1",
        "go depth 1",
    ]);
    assert!(answer.iter().all(|l| !l.contains("refused")), "{answer:?}");
    for kind in BackendKind::ALL.into_iter().filter(|k| !k.is_available()) {
        let answer = s.talk(&[&format!("setoption name Backend value {kind}")]);
        assert!(answer[0].contains("is not available"), "{answer:?}");
        assert_eq!(s.uci.backend(), BackendKind::Scalar);
    }
}

#[test]
fn a_refused_eval_file_keeps_the_network() {
    let mut s = Session::new();
    let answer = s.talk(&["setoption name EvalFile value Cargo.toml"]);
    assert_eq!(answer.len(), 1);
    assert!(answer[0].contains("not a qbb network file"), "{answer:?}");
    assert!(answer[0].contains("the network in use stays"), "{answer:?}");
    let answer = s.talk(&["setoption name EvalFile value <embedded>"]);
    assert!(
        answer[0].contains("evaluating with the network <embedded>"),
        "{answer:?}"
    );
    // Both evaluations search: the hand-written one and the network.
    for on in ["false", "true"] {
        let answer = s.talk(&[
            &format!("setoption name Use NNUE value {on}"),
            "position startpos",
            "go depth 4",
        ]);
        assert!(bestmove(&answer).len() >= 4, "{answer:?}");
    }
}

#[test]
fn go_perft_divides() {
    let mut s = Session::new();
    let answer = s.talk(&["go perft 3"]);
    assert_eq!(answer.len(), 20 + 2);
    assert!(answer.contains(&"e2e4: 600".to_string()));
    assert_eq!(answer.last().unwrap(), "Nodes searched: 8902");
}

#[test]
fn attacks_from_the_backend_give_the_same_answers() {
    let mut s = Session::new();
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    // Everything but the times (and perft's line about its speed).
    let untimed = |line: &String| {
        let mut words = line.split(' ');
        let mut kept = Vec::new();
        while let Some(word) = words.next() {
            kept.push(word);
            if word == "nps" || word == "time" {
                words.next();
            }
        }
        kept.join(" ")
    };
    let mut answers = Vec::new();
    for attacks in Attacks::ALL {
        let option = format!("setoption name Attacks value {attacks}");
        let position = format!("position fen {kiwipete}");
        let setup = [option.as_str(), "ucinewgame", position.as_str()];
        assert!(s.talk(&setup).is_empty());
        assert_eq!(s.uci.attacks, attacks);
        let perft = s.talk(&["go perft 3"]);
        assert_eq!(perft.last().unwrap(), "Nodes searched: 97862");
        let search = s.talk(&["go depth 5"]);
        let answer: Vec<String> = perft
            .iter()
            .chain(&search)
            .filter(|l| !l.starts_with("info string perft"))
            .map(untimed)
            .collect();
        answers.push(answer);
    }
    assert_eq!(answers[0], answers[1]);
}

#[test]
fn go_parameters_parse() {
    let go = parse_go(&[
        "wtime",
        "60000",
        "btime",
        "-20",
        "winc",
        "500",
        "binc",
        "500",
        "movestogo",
        "12",
    ])
    .unwrap();
    assert_eq!(go.limits.time, [Some(60_000), Some(0)]);
    assert_eq!(go.limits.increment, [500, 500]);
    assert_eq!(go.limits.movestogo, Some(12));
    assert!(go.notes.is_empty() && go.searchmoves.is_empty());
    let go = parse_go(&["searchmoves", "e2e4", "d2d4", "depth", "7", "whatever"]).unwrap();
    assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
    assert_eq!(go.limits.depth, Some(7));
    assert_eq!(go.notes.len(), 1, "{:?}", go.notes);
    assert_eq!(parse_go(&["mate", "2"]).unwrap().limits.depth, Some(3));
    assert!(parse_go(&["nodes", "1e6"]).is_err());
    assert!(parse_go(&["movetime"]).is_err());
}

#[test]
fn searchmoves_limits_the_root() {
    let mut s = Session::new();
    let answer = s.talk(&["position startpos", "go depth 4 searchmoves a2a3 h2h3"]);
    let best = bestmove(&answer).split_whitespace().next().unwrap();
    assert!(["a2a3", "h2h3"].contains(&best), "{answer:?}");
    // An illegal move is named and left out; the legal ones are still the only choice.
    let answer = s.talk(&["go depth 3 searchmoves e2e5 b1a3"]);
    assert!(answer.iter().any(|l| l.contains("e2e5")), "{answer:?}");
    assert!(bestmove(&answer).starts_with("b1a3"), "{answer:?}");
    // With no legal move in the list, every move is searched.
    let answer = s.talk(&["go depth 3 searchmoves e2e5"]);
    assert!(
        answer
            .iter()
            .any(|l| l.contains("no legal move in the list")),
        "{answer:?}"
    );
    assert!(!bestmove(&answer).starts_with("(none)"), "{answer:?}");
    // The list holds for one search only: a queen left to be taken is taken by the next.
    let hanging = "position fen 4k3/8/8/8/8/8/3q4/3QK3 w - - 0 1";
    let answer = s.talk(&[hanging, "go depth 3 searchmoves e1f1"]);
    assert!(bestmove(&answer).starts_with("e1f1"), "{answer:?}");
    let answer = s.talk(&["go depth 3"]);
    let best = bestmove(&answer).split_whitespace().next().unwrap();
    assert!(best.ends_with("d2"), "{answer:?}");
}

/// The `info` lines of `depth` in `answer`, each as (multipv index, score, first move).
fn lines_at(answer: &[String], depth: u32) -> Vec<(Option<usize>, String, String)> {
    let prefix = format!("info depth {depth} ");
    answer
        .iter()
        .filter(|l| l.starts_with(&prefix))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let after = |key: &str| {
                let at = words.iter().position(|w| *w == key).unwrap();
                words[at + 1..].to_vec()
            };
            let multipv = words
                .iter()
                .position(|w| *w == "multipv")
                .map(|at| words[at + 1].parse().unwrap());
            let score = after("score")[..2].join(" ");
            (multipv, score, after("pv")[0].to_string())
        })
        .collect()
}

#[test]
fn multipv_reports_the_best_lines_each_with_its_own_first_move() {
    let mut s = Session::new();
    let answer = s.talk(&[
        "setoption name MultiPV value 3",
        "position startpos",
        "go depth 5",
    ]);
    let lines = lines_at(&answer, 5);
    assert_eq!(lines.len(), 3, "{answer:?}");
    let indices: Vec<_> = lines.iter().map(|l| l.0).collect();
    assert_eq!(indices, [Some(1), Some(2), Some(3)], "{answer:?}");
    let firsts: std::collections::HashSet<_> = lines.iter().map(|l| &l.2).collect();
    assert_eq!(firsts.len(), 3, "three different first moves: {answer:?}");
    let cp = |l: &(Option<usize>, String, String)| -> i32 {
        l.1.strip_prefix("cp ").unwrap().parse().unwrap()
    };
    assert!(cp(&lines[0]) >= cp(&lines[1]) && cp(&lines[1]) >= cp(&lines[2]));
    assert!(bestmove(&answer).starts_with(&lines[0].2), "{answer:?}");
    // A lone king on a1 has three moves: three lines, however many are asked for; and
    // searchmoves leaves fewer still.
    let king = "position fen 7k/8/8/8/8/8/8/K7 w - - 0 1";
    let answer = s.talk(&["setoption name MultiPV value 5", king, "go depth 4"]);
    assert_eq!(lines_at(&answer, 4).len(), 3, "{answer:?}");
    let answer = s.talk(&["go depth 4 searchmoves a1a2 a1b1"]);
    let firsts: Vec<_> = lines_at(&answer, 4).into_iter().map(|l| l.2).collect();
    assert_eq!(firsts.len(), 2, "{answer:?}");
    assert!(
        firsts.iter().all(|m| m == "a1a2" || m == "a1b1"),
        "{answer:?}"
    );
    // One line again: no multipv field.
    let answer = s.talk(&["setoption name MultiPV value 1", "go depth 3"]);
    let one = lines_at(&answer, 3);
    assert!(one.len() == 1 && one[0].0.is_none(), "{answer:?}");
    let answer = s.talk(&["setoption name MultiPV value 0"]);
    assert!(
        answer.iter().any(|l| l.contains("MultiPV `0` ignored")),
        "{answer:?}"
    );
}

/// Whether the engine has answered `bestmove` since the last look at its output.
fn answered(s: &Session) -> bool {
    s.lines
        .lock()
        .unwrap()
        .iter()
        .any(|l| l.starts_with("bestmove"))
}

#[test]
fn a_ponder_search_answers_after_ponderhit_on_its_clock() {
    let mut s = Session::new();
    // Finished long before: the answer waits for ponderhit, then comes at once.
    s.uci.handle("position startpos moves e2e4");
    s.uci.handle("go ponder depth 2");
    thread::sleep(Duration::from_millis(300));
    assert!(!answered(&s), "no answer while pondering: {:?}", s.said());
    let answer = s.talk(&["ponderhit"]);
    assert!(!bestmove(&answer).starts_with("(none)"), "{answer:?}");
    // No depth: pondering goes on past any clock, which starts at ponderhit (a second of
    // three left for the move at most), and the search then answers by itself.
    s.uci.handle("go ponder wtime 3000 btime 3000");
    thread::sleep(Duration::from_millis(1500));
    assert!(
        !answered(&s),
        "the clock waits for ponderhit: {:?}",
        s.said()
    );
    s.uci.handle("ponderhit");
    let asked = Instant::now();
    while !answered(&s) && asked.elapsed() < Duration::from_secs(30) {
        thread::sleep(Duration::from_millis(5));
    }
    assert!(answered(&s), "no answer on the clock after ponderhit");
    s.uci.wait_for_search();
    s.said();
    // `ponderhit` is no `stop`: a search on the clock takes no notice of one.
    let answer = s.talk(&["go depth 9", "ponderhit"]);
    assert!(
        answer.iter().any(|l| l.starts_with("info depth 9")),
        "{answer:?}"
    );
}

#[test]
fn the_next_go_is_served_as_soon_as_bestmove_is_out() {
    let mut s = Session::new();
    for round in 0..20 {
        s.uci.handle("position startpos");
        s.uci.handle("go depth 1");
        // Answer the moment the bestmove appears, as a GUI does (the thread may still be
        // ending).
        while !s
            .lines
            .lock()
            .unwrap()
            .iter()
            .any(|l| l.starts_with("bestmove"))
        {
            thread::yield_now();
        }
        s.lines.lock().unwrap().clear();
        s.uci.handle("position startpos moves e2e4");
        assert_eq!(s.uci.position.fullmove_number(), 1, "round {round}");
        assert_eq!(
            s.uci.position.side_to_move(),
            qbb::Color::Black,
            "round {round}"
        );
    }
    s.uci.wait_for_search();
    assert!(s.said().iter().all(|l| !l.contains("ignored")));
}

#[test]
fn quit_stops_a_running_search() {
    let mut s = Session::new();
    s.uci.handle("go infinite");
    assert_eq!(s.uci.handle("quit"), Flow::Quit);
    assert!(s.uci.running.is_none());
    assert!(s.said().last().unwrap().starts_with("bestmove "));
}

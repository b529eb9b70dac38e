//! The `qbb-engine` binary driven through its standard input and output, as a GUI drives it:
//! raw bytes in, lines out, the process's fate checked.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use qbb::Scalar;
use qbb_engine::Position;

/// Generous: these tests check behaviour, not speed (a loaded machine must not fail them).
const PATIENCE: Duration = Duration::from_secs(30);

struct Engine {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(env: &[(&str, &str)]) -> Engine {
        let mut command = Command::new(env!("CARGO_BIN_EXE_qbb-engine"));
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .env_remove("QBB_BACKEND");
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.spawn().expect("the engine starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin: Some(stdin),
            lines,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("input still open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Closes the engine's standard input (the GUI went away).
    fn close_input(&mut self) {
        self.stdin = None;
    }

    fn send_line(&mut self, line: &str) {
        self.send(format!("{line}\n").as_bytes());
    }

    /// The lines up to and including the first that satisfies `last`.
    fn read_until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = last(&line);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no answer in time; saw {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited; saw {seen:?}"),
            }
        }
    }

    fn is_ready(&mut self) {
        self.send_line("isready");
        self.read_until(|l| l == "readyok");
    }

    fn bestmove(&mut self) -> String {
        let lines = self.read_until(|l| l.starts_with("bestmove "));
        let last = lines.last().unwrap();
        last.split_whitespace().nth(1).unwrap().to_string()
    }

    /// Waits for the process to end by itself and returns whether it succeeded.
    fn exits_cleanly(mut self) -> bool {
        let deadline = Instant::now() + PATIENCE;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.success();
            }
            thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        false
    }
}

fn assert_legal(fen_and_moves: (&str, &[&str]), answer: &str) {
    let (fen, moves) = fen_and_moves;
    let mut pos = Position::from_fen(fen).unwrap();
    for text in moves {
        pos = pos.make_move(Scalar, pos.parse_uci_move(Scalar, text).unwrap());
    }
    assert!(
        pos.parse_uci_move(Scalar, answer).is_ok(),
        "{answer} is not legal in {}",
        pos.to_fen()
    );
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn survives_garbage_bytes_and_keeps_answering() {
    let mut engine = Engine::start(&[]);
    engine.send_line("uci");
    engine.read_until(|l| l == "uciok");
    engine.send(b"\xff\xfe\x00garbage\r\n");
    engine.send(b"position fen \xc3\x28 w - - 0 1\n");
    engine.send(&[b'q'; 100_000]);
    engine.send(b"\n\n\t \n");
    engine.send(b"go wtime -1 btime x\n");
    engine.send(b"setoption name Hash value 99999999999999999999\n");
    engine.send(b"position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 xx yy\n");
    engine.is_ready();
    engine.send_line("go depth 4");
    let answer = engine.bestmove();
    assert_legal(
        (
            START,
            &[
                "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1",
            ],
        ),
        &answer,
    );
    engine.send_line("quit");
    assert!(engine.exits_cleanly());
}

#[test]
fn stop_and_quit_end_an_infinite_search() {
    let mut engine = Engine::start(&[]);
    engine.send_line("position startpos moves d2d4");
    engine.send_line("go infinite");
    thread::sleep(Duration::from_millis(200));
    engine.is_ready();
    engine.send_line("stop");
    let answer = engine.bestmove();
    assert_legal((START, &["d2d4"]), &answer);
    engine.send_line("go infinite");
    engine.send_line("quit");
    let lines = engine.read_until(|l| l.starts_with("bestmove "));
    assert!(lines.last().unwrap().starts_with("bestmove "));
    assert!(engine.exits_cleanly());
}

#[test]
fn the_end_of_input_ends_the_engine() {
    let mut engine = Engine::start(&[]);
    engine.send_line("go depth 30");
    // Closing stdin mid-search: the engine answers and leaves, as after `quit`.
    engine.close_input();
    engine.bestmove();
    assert!(engine.exits_cleanly());
}

#[test]
fn the_environment_chooses_the_backend() {
    let mut engine = Engine::start(&[("QBB_BACKEND", "scalar")]);
    engine.send_line("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(lines.contains(&"info string searching on the scalar backend".to_string()));
    engine.send_line("quit");
    assert!(engine.exits_cleanly());

    let mut engine = Engine::start(&[("QBB_BACKEND", "nonsense")]);
    engine.send_line("uci");
    let lines = engine.read_until(|l| l == "uciok");
    assert!(
        lines[0].starts_with("info string unknown backend `nonsense`"),
        "{lines:?}"
    );
    engine.send_line("go depth 2");
    engine.bestmove();
    engine.send_line("quit");
    assert!(engine.exits_cleanly());
}

//! `qbb perft`, run as a user runs it.

mod common;

use common::{qbb, scratch, stderr, stdout};

#[test]
fn counts_the_start_position() {
    let out = qbb(&["perft", "4"]);
    assert!(out.status.success());
    assert!(
        stdout(&out).starts_with("nodes 197281 "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn json_has_the_documented_fields() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for backend in ["scalar", "auto"] {
        let out = qbb(&[
            "perft",
            "3",
            "--fen",
            fen,
            "--json",
            "--no-bulk",
            "--threads",
            "2",
            "--backend",
            backend,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(v["nodes"], 97862);
        assert_eq!(v["depth"], 3);
        assert_eq!(v["bulk"], false);
        assert!(v["seconds"].as_f64().is_some() && v["mnps"].as_f64().is_some());
        assert!(v["backend"].as_str().is_some_and(|b| !b.is_empty()));
        assert_eq!(v["attacks"], "tables");
    }
}

#[test]
fn attacks_from_the_backend_count_the_same() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let out = qbb(&["perft", "3", "--fen", fen, "--attacks", "backend", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["nodes"], 97862);
    assert_eq!(v["attacks"], "backend");
}

#[test]
fn divide_lists_each_root_move() {
    let out = qbb(&["perft", "2", "--divide"]);
    let stdout = stdout(&out);
    assert!(out.status.success());
    assert!(stdout.contains("e2e4: 20\n"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.contains(": 20")).count(), 20);
    assert!(stdout.contains("nodes 400 "));
}

#[test]
fn epd_suites_are_checked_line_by_line() {
    let dir = scratch("perft-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.epd");
    std::fs::write(
        &good,
        "# a comment\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\n\
         \n\
         4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n",
    )
    .unwrap();
    let out = qbb(&["perft", "2", "--epd", good.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("2 positions, 4 counts checked up to depth 2, 0 mismatches"));

    let bad = dir.join("bad.epd");
    std::fs::write(
        &bad,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n\
         not a fen ;D1 3\n",
    )
    .unwrap();
    let out = qbb(&[
        "perft",
        "3",
        "--epd",
        bad.to_str().unwrap(),
        "--threads",
        "2",
    ]);
    let stdout = stdout(&out);
    assert!(!out.status.success());
    assert!(
        stdout.contains("line 1:") && stdout.contains("expected 401, counted 400"),
        "{stdout}"
    );
    assert!(
        stdout.contains("unreadable: line 2:") && stdout.contains("fields"),
        "{stdout}"
    );
    assert!(
        stdout.contains("1 mismatches, 1 lines unreadable"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_are_named() {
    for (args, reason) in [
        (vec!["perft"], "DEPTH"),
        (vec!["perft", "x"], "DEPTH"),
        (vec!["perft", "99"], "DEPTH"),
        (vec!["perft", "3", "--threads", "0"], "--threads"),
        (vec!["perft", "3", "--backend", "mmx"], "mmx"),
        (vec!["perft", "3", "--attacks", "magic"], "magic"),
        (
            vec!["perft", "3", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
            "kings",
        ),
        (
            vec!["perft", "3", "--epd", "/nonexistent/suite.epd"],
            "suite",
        ),
        (
            vec!["perft", "3", "--fen", "x", "--epd", "y"],
            "cannot be used with",
        ),
    ] {
        let out = qbb(&args);
        assert!(!out.status.success(), "{args:?}");
        let err = stderr(&out);
        assert!(err.contains(reason), "{args:?}: {err}");
    }
}

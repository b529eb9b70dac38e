"""qbb-engine driven by a real UCI client: python-chess's engine module.

Run through run.sh (which builds the engine and installs python-chess into a virtual
environment), or directly with QBB_ENGINE=/path/to/qbb-engine python -m unittest.

Besides the behaviour (legal answers, mates found, options accepted, garbage survived), it times
the two latencies a GUI feels and prints them: the answer to `go movetime 200` and to `stop`.
The bounds asserted are loose on purpose (the machine is shared); the printed figures are the
measurement.
"""

import os
import statistics
import subprocess
import threading
import time
import unittest

import chess
import chess.engine

ENGINE = os.environ.get("QBB_ENGINE", "target/release/qbb-engine")

POSITIONS = {
    "start": chess.STARTING_FEN,
    "kiwipete": "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "endgame": "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "promotion": "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "middlegame": "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R w KQ - 0 8",
}

MATE_IN_ONE = {
    "back rank": ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"),
    "scholar": ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7"),
    "for black": ("r5k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", "a8a1"),
}


def open_engine(**options):
    engine = chess.engine.SimpleEngine.popen_uci(ENGINE, timeout=30)
    if options:
        engine.configure(options)
    return engine


class Protocol(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = open_engine()

    @classmethod
    def tearDownClass(cls):
        cls.engine.quit()

    def test_handshake_names_the_engine_and_its_options(self):
        self.assertTrue(self.engine.id["name"].startswith("qbb-engine"))
        options = self.engine.options
        for name in [
            "Hash", "Threads", "Backend", "Move Overhead", "UCI_Chess960", "Use NNUE", "EvalFile",
        ]:
            self.assertIn(name, options)
        self.assertEqual(options["Backend"].type, "combo")
        self.assertEqual(options["Use NNUE"].type, "check")
        self.assertEqual(options["EvalFile"].type, "string")
        self.assertIn("scalar", options["Backend"].var)
        self.engine.ping()

    def assert_plays_from_the_start(self, depth, **options):
        """An engine of its own, configured with `options`, answers the start position legally."""
        engine = open_engine(**options)
        try:
            result = engine.play(chess.Board(), chess.engine.Limit(depth=depth))
            self.assertIn(result.move, chess.Board().legal_moves)
        finally:
            engine.quit()

    def test_options_are_accepted(self):
        self.assert_plays_from_the_start(4, Hash=32, **{"Move Overhead": 30, "Backend": "scalar"})

    def test_either_evaluation_plays(self):
        for nnue in [True, False]:
            with self.subTest(use_nnue=nnue):
                self.assert_plays_from_the_start(5, **{"Use NNUE": nnue})

    def test_fixed_depth_answers_are_legal(self):
        for name, fen in POSITIONS.items():
            with self.subTest(position=name):
                board = chess.Board(fen)
                result = self.engine.play(board, chess.engine.Limit(depth=6), info=chess.engine.INFO_ALL)
                self.assertIn(result.move, board.legal_moves)
                self.assertEqual(result.info.get("depth"), 6)
                self.assertIn("score", result.info)
                pv_board = board.copy()
                for move in result.info.get("pv", []):
                    self.assertIn(move, pv_board.legal_moves)
                    pv_board.push(move)

    def test_movetime_answers_are_legal_and_in_time(self):
        for name, fen in POSITIONS.items():
            with self.subTest(position=name):
                board = chess.Board(fen)
                started = time.perf_counter()
                result = self.engine.play(board, chess.engine.Limit(time=0.2))
                elapsed = time.perf_counter() - started
                self.assertIn(result.move, board.legal_moves)
                self.assertLess(elapsed, 1.0)

    def test_mates_in_one_are_found(self):
        for name, (fen, expected) in MATE_IN_ONE.items():
            with self.subTest(position=name):
                board = chess.Board(fen)
                result = self.engine.play(board, chess.engine.Limit(depth=4), info=chess.engine.INFO_SCORE)
                if expected:
                    self.assertEqual(result.move.uci(), expected)
                board.push(result.move)
                self.assertTrue(board.is_checkmate(), f"{name}: {result.move}")
                self.assertEqual(result.info["score"].relative, chess.engine.Mate(1))

    def test_searchmoves_limits_the_answer(self):
        # The mate is not among the moves allowed: the answer is one of them.
        fen, mate = MATE_IN_ONE["back rank"]
        allowed = [chess.Move.from_uci(m) for m in ("g1f1", "g1h1", "a1b1")]
        board = chess.Board(fen)
        result = self.engine.play(board, chess.engine.Limit(depth=4), root_moves=allowed)
        self.assertIn(result.move, allowed)
        self.assertNotEqual(result.move.uci(), mate)

    def test_a_short_self_play_game(self):
        board = chess.Board()
        self.engine.configure({"Hash": 16})
        while not board.is_game_over() and board.ply() < 40:
            result = self.engine.play(
                board,
                chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05, black_inc=0.05),
            )
            self.assertIn(result.move, board.legal_moves)
            board.push(result.move)
        self.assertGreaterEqual(board.ply(), 20)

    def test_two_threads_play_a_game_and_stop_together(self):
        """Threads 2, set through python-chess: a short game on the clock with every answer legal,
        then an infinite analysis that stops when asked and leaves the engine answering."""
        self.assertEqual(self.engine.options["Threads"].max, 256)
        engine = open_engine(Threads=2, Hash=16)
        try:
            board = chess.Board()
            while not board.is_game_over() and board.ply() < 16:
                result = engine.play(
                    board,
                    chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.05, black_inc=0.05),
                )
                self.assertIn(result.move, board.legal_moves)
                board.push(result.move)
            self.assertEqual(board.ply(), 16)
            with engine.analysis(board) as analysis:
                for info in analysis:
                    if info.get("depth", 0) >= 4:
                        break
            self.assertGreater(info["nodes"], 0)
            self.assertIn(info["pv"][0], board.legal_moves)
            result = engine.play(board, chess.engine.Limit(depth=5))
            self.assertIn(result.move, board.legal_moves)
        finally:
            engine.quit()

    def test_multipv_analysis(self):
        board = chess.Board(POSITIONS["middlegame"])
        infos = self.engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        self.assertEqual(len(infos), 3)
        firsts = [info["pv"][0] for info in infos]
        self.assertEqual(len(set(firsts)), 3)
        for move in firsts:
            self.assertIn(move, board.legal_moves)
        scores = [info["score"].relative.score(mate_score=100000) for info in infos]
        self.assertEqual(scores, sorted(scores, reverse=True))

    def test_pondering_through_a_game(self):
        # python-chess ponders on the expected reply after each answer, and on the next move
        # sends ponderhit when the reply came (the engine then answers on its clock) or stop.
        board = chess.Board()
        clock = chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.05, black_inc=0.05)
        while not board.is_game_over() and board.ply() < 16:
            result = self.engine.play(board, clock, ponder=True)
            self.assertIn(result.move, board.legal_moves)
            board.push(result.move)
            if result.ponder is not None and board.ply() % 4 != 1:
                # Mostly the reply pondered on (a ponderhit), sometimes another (a stop).
                self.assertIn(result.ponder, board.legal_moves)
                board.push(result.ponder)
            else:
                board.push(next(iter(board.legal_moves)))
        self.assertGreaterEqual(board.ply(), 10)

    def test_clock_searches_answer_a_legal_move_even_with_little_time(self):
        board = chess.Board(POSITIONS["kiwipete"])
        result = self.engine.play(board, chess.engine.Limit(white_clock=0.05, black_clock=0.05))
        self.assertIn(result.move, board.legal_moves)

    def test_stop_during_infinite(self):
        board = chess.Board(POSITIONS["middlegame"])
        with self.engine.analysis(board) as analysis:
            time.sleep(0.3)
            analysis.stop()
            best = analysis.wait()
        self.assertIn(best.move, board.legal_moves)

    def test_chess960(self):
        # python-chess sets UCI_Chess960 itself from the board, and reads castling as
        # king-takes-rook.
        board = chess.Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
        for _ in range(6):
            result = self.engine.play(board, chess.engine.Limit(depth=5))
            self.assertIn(result.move, board.legal_moves)
            board.push(result.move)


class RawPipe:
    """The engine on plain pipes, for what a well-behaved client never sends, and for timing."""

    def __init__(self, env=None):
        environment = dict(os.environ)
        environment.pop("QBB_BACKEND", None)
        environment.update(env or {})
        self.process = subprocess.Popen(
            [ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=environment
        )
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            with self.cond:
                self.lines.append((time.perf_counter(), raw.decode(errors="replace").rstrip("\n")))
                self.cond.notify_all()

    def send(self, data):
        if isinstance(data, str):
            data = (data + "\n").encode()
        self.process.stdin.write(data)
        self.process.stdin.flush()
        return time.perf_counter()

    def wait_for(self, prefix, since=0, timeout=30.0):
        """(arrival time, line) of the first line starting with prefix after index since."""
        deadline = time.perf_counter() + timeout
        with self.cond:
            while True:
                for stamp, line in self.lines[since:]:
                    if line.startswith(prefix):
                        return stamp, line
                left = deadline - time.perf_counter()
                if left <= 0:
                    raise AssertionError(f"no `{prefix}` line; saw {self.lines[since:]}")
                self.cond.wait(left)

    def mark(self):
        with self.cond:
            return len(self.lines)

    def close(self):
        try:
            self.send("quit")
            self.process.wait(timeout=30)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
            self.process.stdin.close()
            self.process.stdout.close()


class Robustness(unittest.TestCase):
    def test_garbage_burst_then_isready(self):
        pipe = RawPipe()
        try:
            burst = [
                b"\xff\xfe\xfd\n",
                b"\x00\x01\x02\x03\n",
                b"stop\n",
                b"ponderhit now\n",
                b"position fen this is not a fen\n",
                b"position startpos moves e2e5\n",
                b"setoption name Hash value -1\n",
                b"setoption name Backend value warp\n",
                b"setoption name EvalFile value /nonexistent/net.nnue\n",
                b"setoption name EvalFile value /etc/passwd\n",
                b"setoption name Use NNUE value perhaps\n",
                b"go depth -3\n",
                b"go perft lots\n",
                b"x" * 65536 + b"\n",
                "\u00e9\u00e8\u4e2d\u6587 \U0001f600\n".encode(),
                b"\r\n\r\n",
            ]
            mark = pipe.mark()
            for chunk in burst * 20:
                pipe.send(chunk)
            pipe.send("isready")
            pipe.wait_for("readyok", since=mark)
            explained = [l for _, l in pipe.lines[mark:] if l.startswith("info string")]
            self.assertGreater(len(explained), 100)
            self.assertFalse(any(l.startswith("bestmove") for _, l in pipe.lines[mark:]))
            # Still a working engine.
            mark = pipe.mark()
            pipe.send("position startpos moves e2e4")
            pipe.send("go depth 4")
            _, line = pipe.wait_for("bestmove", since=mark)
            board = chess.Board()
            board.push_uci("e2e4")
            self.assertIn(chess.Move.from_uci(line.split()[1]), board.legal_moves)
        finally:
            pipe.close()
        self.assertEqual(pipe.process.returncode, 0)

    def test_backend_from_the_environment(self):
        pipe = RawPipe(env={"QBB_BACKEND": "swar"})
        try:
            mark = pipe.mark()
            pipe.send("uci")
            pipe.wait_for("uciok", since=mark)
            self.assertIn("info string searching on the swar backend", [l for _, l in pipe.lines])
        finally:
            pipe.close()


class Latency(unittest.TestCase):
    """go movetime 200 should answer in under 300 ms and stop in under 50 ms on this machine."""

    ROUNDS = 5

    def test_latencies(self):
        pipe = RawPipe()
        movetime, stop = [], []
        try:
            pipe.send("uci")
            pipe.wait_for("uciok")
            for fen in list(POSITIONS.values())[: self.ROUNDS]:
                pipe.send(f"position fen {fen}")
                mark = pipe.mark()
                sent = pipe.send("go movetime 200")
                arrived, _ = pipe.wait_for("bestmove", since=mark)
                movetime.append((arrived - sent) * 1000)

                mark = pipe.mark()
                pipe.send("go infinite")
                time.sleep(0.25)
                sent = pipe.send("stop")
                arrived, _ = pipe.wait_for("bestmove", since=mark)
                stop.append((arrived - sent) * 1000)
        finally:
            pipe.close()
        print(
            "\nlatency over {} rounds: go movetime 200 -> bestmove median {:.1f} ms (max {:.1f}); "
            "stop -> bestmove median {:.2f} ms (max {:.2f})".format(
                self.ROUNDS, statistics.median(movetime), max(movetime), statistics.median(stop), max(stop)
            )
        )
        # Loose bounds on the median: a shared, loaded machine must not make this fail, but an
        # engine that ignores its clock or the stop command must.
        self.assertLess(statistics.median(movetime), 400)
        self.assertGreaterEqual(min(movetime), 150)
        self.assertLess(statistics.median(stop), 100)


if __name__ == "__main__":
    unittest.main()

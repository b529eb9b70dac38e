"""Soaks qbb-engine: fast self-play games between two engine processes while their options change
between and during games (Hash resized, Backend switched, Use NNUE toggled, Clear Hash,
ucinewgame) and searches are stopped at random moments. Every move is checked legal with
python-chess; a process that dies is a crash, an answer later than its limit allows is a hang,
a clock run below zero is a time loss. The totals go to a JSON file and a markdown page.

Run through soak.sh (which builds the engine and sets up python-chess in a venv under target/):

    crates/qbb-engine/tests/soak/soak.sh --games 1000      # the committed run
    crates/qbb-engine/tests/soak/soak.sh --games 20        # a short one
"""

import argparse
import datetime
import json
import os
import platform
import queue
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess

HERE = Path(__file__).resolve().parent

#: How much later than its clock allows an answer may come before it counts as a hang (the
#: machine is shared, and a GUI's own margin is about this).
HANG_SLACK_S = 2.0
#: How long after `stop` the answer may take.
STOP_WITHIN_S = 2.0
#: Plies after which a game is adjudicated a draw.
MAX_PLIES = 300


class Hang(Exception):
    pass


class Crash(Exception):
    pass


class Engine:
    """One engine process, read on a thread so that a silent one is noticed in time."""

    def __init__(self, path, name):
        self.path, self.name = path, name
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        options = self.wait_for(lambda l: l == "uciok", 10)
        self.backends = next(
            (l.split(" var ")[1:] for l in options if l.startswith("option name Backend ")), []
        )
        self.backends = [b.strip() for b in self.backends]

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise Crash(f"{self.name}: the process is gone (sending `{line}`)")

    def wait_for(self, done, within):
        """The lines read until one for which `done` holds; Hang after `within` seconds."""
        deadline = time.monotonic() + within
        seen = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Hang(f"{self.name}: no answer within {within:.1f} s")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise Crash(f"{self.name}: the process ended (exit {self.proc.wait()})")
            seen.append(line)
            if done(line):
                return seen

    def ready(self):
        self.send("isready")
        self.wait_for(lambda l: l == "readyok", 10)

    def restart(self):
        self.proc.kill()
        self.proc.wait()
        self.start()

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except (Crash, subprocess.TimeoutExpired):
            self.proc.kill()


def change_options(engine, rng, tally):
    """One to three random option changes: the ones a GUI sends between and during games."""
    for _ in range(rng.randint(1, 3)):
        choice = rng.choice(["hash", "backend", "nnue", "clear", "newgame"])
        if choice == "hash":
            engine.send(f"setoption name Hash value {rng.choice([1, 2, 4, 8, 16, 32, 64])}")
        elif choice == "backend":
            engine.send(f"setoption name Backend value {rng.choice(engine.backends or ['auto'])}")
        elif choice == "nnue":
            engine.send(f"setoption name Use NNUE value {rng.choice(['true', 'false'])}")
        elif choice == "clear":
            engine.send("setoption name Clear Hash")
        else:
            engine.send("ucinewgame")
        tally["option_changes"] += 1
    engine.ready()


def play_move(engine, board, clocks, increment_ms, rng, tally):
    """Asks `engine` for a move in `board` on the clock, or stopped at a random moment; returns
    the move (None when it ran out of time)."""
    moves = " ".join(m.uci() for m in board.move_stack)
    engine.send(f"position startpos moves {moves}" if moves else "position startpos")
    side = board.turn == chess.WHITE
    stopped = rng.random() < 0.05
    started = time.monotonic()
    if stopped:
        engine.send("go infinite")
        time.sleep(rng.uniform(0, 0.03))
        engine.send("stop")
        within = STOP_WITHIN_S
        tally["stops"] += 1
    else:
        wtime, btime = clocks
        engine.send(
            f"go wtime {max(wtime, 0)} btime {max(btime, 0)} winc {increment_ms} binc {increment_ms}"
        )
        within = (wtime if side else btime) / 1000 + HANG_SLACK_S
    answer = engine.wait_for(lambda l: l.startswith("bestmove"), within)[-1]
    spent_ms = (time.monotonic() - started) * 1000
    if not stopped:
        index = 0 if side else 1
        clocks[index] -= round(spent_ms)
        if clocks[index] < 0:
            return None
        clocks[index] += increment_ms
    text = answer.split()[1] if len(answer.split()) > 1 else "(none)"
    try:
        move = chess.Move.from_uci(text)
    except ValueError:
        move = None
    if move is None or move not in board.legal_moves:
        raise IllegalMove(f"{engine.name}: `{answer}` in {board.fen()}")
    return move


class IllegalMove(Exception):
    pass


def play_game(engines, rng, base_ms, increment_ms, tally):
    """One game, engines[0] White; returns its result ('1-0', '0-1', '1/2-1/2')."""
    board = chess.Board()
    clocks = [base_ms, base_ms]
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        engine = engines[0] if board.turn == chess.WHITE else engines[1]
        if rng.random() < 0.03:
            change_options(engine, rng, tally)
        move = play_move(engine, board, clocks, increment_ms, rng, tally)
        if move is None:
            tally["time_losses"] += 1
            return "0-1" if board.turn == chess.WHITE else "1-0"
        board.push(move)
        tally["moves"] += 1
    return board.result(claim_draw=True) if board.is_game_over(claim_draw=True) else "1/2-1/2"


def write_atomically(path, text):
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-seconds", type=float, default=None,
                        help="start no game after this long (the games played are reported)")
    parser.add_argument("--base-ms", type=int, default=1000, help="each side's clock")
    parser.add_argument("--inc-ms", type=int, default=10, help="increment per move")
    parser.add_argument("--engine", default=os.environ.get("QBB_ENGINE", "target/release/qbb-engine"))
    parser.add_argument("--out", type=Path, default=HERE / "results", help="writes OUT.json and OUT.md")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    tally = {k: 0 for k in [
        "games", "white_wins", "black_wins", "draws", "moves", "illegal_moves", "crashes",
        "hangs", "time_losses", "option_changes", "stops",
    ]}
    problems = []
    engines = [Engine(args.engine, "engine A"), Engine(args.engine, "engine B")]
    started = time.monotonic()
    for game in range(args.games):
        if args.max_seconds is not None and time.monotonic() - started > args.max_seconds:
            print(f"--max-seconds {args.max_seconds:g} reached after {game} games", flush=True)
            break
        pair = engines if game % 2 == 0 else engines[::-1]
        for engine in pair:
            change_options(engine, rng, tally)
        try:
            result = play_game(pair, rng, args.base_ms, args.inc_ms, tally)
            key = {"1-0": "white_wins", "0-1": "black_wins"}.get(result, "draws")
            tally[key] += 1
        except (IllegalMove, Crash, Hang) as e:
            kind = {IllegalMove: "illegal_moves", Crash: "crashes", Hang: "hangs"}[type(e)]
            tally[kind] += 1
            problems.append(f"game {game + 1}: {kind}: {e}")
            for engine in pair:
                engine.restart()
        tally["games"] += 1
        if (game + 1) % 10 == 0 or game + 1 == args.games:
            print(f"{game + 1}/{args.games} games: {tally}", flush=True)
    for engine in engines:
        engine.quit()

    version = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    report = {
        "command": "crates/qbb-engine/tests/soak/soak.sh " + " ".join(sys.argv[1:]),
        "commit": version.stdout.strip(),
        "engine": args.engine,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
        "cpu": platform.processor() or platform.machine(),
        "python_chess": chess.__version__,
        "time_control": f"{args.base_ms / 1000:g}+{args.inc_ms / 1000:g}",
        "seed": args.seed,
        "games_asked": args.games,
        "seconds": round(time.monotonic() - started),
        **tally,
        "problems": problems,
    }
    out_json = args.out.with_suffix(".json")
    write_atomically(out_json, json.dumps(report, indent=2) + "\n")
    rows = "\n".join(f"| {k.replace('_', ' ')} | {report[k]} |" for k in tally)
    page = (
        "# Engine soak\n\n"
        f"`{report['command']}` at commit {report['commit']}, {report['date']}: self-play at "
        f"{report['time_control']} between two engine processes whose options change between and "
        "during games, with searches stopped at random moments; every move checked legal with "
        f"python-chess {report['python_chess']}. {report['games']} of the {report['games_asked']} "
        f"games asked, in {report['seconds']} s.\n\n"
        "| | |\n| --- | ---: |\n" + rows + "\n"
        + ("\n" + "\n".join(f"- {p}" for p in problems) + "\n" if problems else "")
    )
    write_atomically(args.out.with_suffix(".md"), page)
    print(f"wrote {out_json} and {args.out.with_suffix('.md')}")
    bad = tally["illegal_moves"] + tally["crashes"] + tally["hangs"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

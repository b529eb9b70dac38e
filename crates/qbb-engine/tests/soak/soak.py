"""Soaks qbb-engine: fast self-play games between two engine processes while their options change
between and during games (Hash resized, Backend switched, Use NNUE toggled, Clear Hash,
ucinewgame) and searches are stopped at random moments. Every move is checked legal with
python-chess; a process that dies is a crash, an answer later than its limit allows is a hang,
a clock run below zero is a time loss (counted: on a loaded machine the clock is the machine's as
much as the engine's). The totals go to a JSON file and a markdown page, rewritten every ten
games, so a run cut short keeps the games it played.

A soak may take several runs: `--append` adds this run to the ones already in the results file
(each run's command, commit, seed and games kept, the totals summed over all of them); each run
needs a seed of its own, so that no games are played twice.

Run through soak.sh (which builds the engine and sets up python-chess in a venv under target/):

    crates/qbb-engine/tests/soak/soak.sh --games 1000                 # one run of 1000 games
    crates/qbb-engine/tests/soak/soak.sh --games 500 --seed 3 --append  # one more run, summed
    crates/qbb-engine/tests/soak/soak.sh --games 20 --out /tmp/soak     # a short one
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
ROOT = HERE.parents[3]

#: How much later than its clock allows an answer may come before it counts as a hang: a hang is
#: an engine that does not answer at all, and a loaded machine can hold a process for seconds.
HANG_SLACK_S = 20.0
#: How long after `stop` the answer may take before it counts as a hang.
STOP_WITHIN_S = 20.0
#: How long `uci` and `isready` may take before they count as a hang.
READY_WITHIN_S = 20.0
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
        options = self.wait_for(lambda l: l == "uciok", READY_WITHIN_S)
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
        self.wait_for(lambda l: l == "readyok", READY_WITHIN_S)

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


TALLY = [
    "games", "white_wins", "black_wins", "draws", "moves", "illegal_moves", "crashes", "hangs",
    "time_losses", "option_changes", "stops",
]


def write_atomically(path, text):
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


def shown(path):
    """`path` relative to the repository when it is inside it (the results name no machine's
    folders)."""
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except ValueError:
        return path


def earlier_runs(path):
    """The runs recorded in the results file at `path`, oldest first ([] when there is none)."""
    if not path.exists():
        return []
    report = json.loads(path.read_text())
    if "runs" in report:
        return [{**run, "engine": shown(run["engine"])} if "engine" in run else run
                for run in report["runs"]]
    # A file of a single run, written before runs were recorded one by one: that run.
    run = {k: v for k, v in report.items() if k not in ("cpu", "python_chess")}
    run.setdefault("hang_slack_s", 2.0)
    return [run]


def summed(runs):
    """The report of all `runs`: their tallies summed, each run kept as it was recorded."""
    totals = {k: sum(run[k] for run in runs) for k in TALLY}
    return {
        "cpu": platform.processor() or platform.machine(),
        "python_chess": chess.__version__,
        "runs_count": len(runs),
        "seconds": sum(run["seconds"] for run in runs),
        **totals,
        "problems": [f"run {i + 1}, {p}" for i, run in enumerate(runs) for p in run["problems"]],
        "runs": runs,
    }


def page(report):
    """The markdown page of a report: the totals, then one row per run."""
    totals = "\n".join(f"| {k.replace('_', ' ')} | {report[k]} |" for k in TALLY)
    runs = "\n".join(
        f"| {i + 1} | `{run['command']}` | {run.get('engine', 'not recorded')} | {run['commit']} "
        f"| {run['date']} | {run['seed']} "
        f"| {run['time_control']} | {run['hang_slack_s']:g} s | {run['games']} "
        f"| {run['seconds']} | {run['illegal_moves']} | {run['crashes']} | {run['hangs']} "
        f"| {run['time_losses']} |"
        for i, run in enumerate(report["runs"])
    )
    problems = "".join(f"- {p}\n" for p in report["problems"])
    return (
        "# Engine soak\n\n"
        "Self-play between two engine processes whose options change between and during games "
        "(Hash, Backend, Use NNUE, Clear Hash, ucinewgame), with searches stopped at random "
        f"moments; every move checked legal with python-chess {report['python_chess']}. "
        f"{report['games']} games in {report['runs_count']} runs, {report['seconds']} s in all. "
        "An answer later than the clock plus the run's hang margin is a hang; a clock run below "
        "zero is a time loss, counted.\n\n"
        "| all runs | |\n| --- | ---: |\n" + totals + "\n\n"
        "| run | command | engine | commit | date | seed | time control | hang margin | games "
        "| seconds | illegal moves | crashes | hangs | time losses |\n"
        "| ---: | --- | --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: "
        "| ---: |\n"
        + runs + "\n" + ("\n" + problems if problems else "")
    )


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
    parser.add_argument("--append", action="store_true",
                        help="add this run to the runs already in OUT.json (a seed of its own)")
    args = parser.parse_args()
    out_json, out_md = args.out.with_suffix(".json"), args.out.with_suffix(".md")
    out_json.parent.mkdir(parents=True, exist_ok=True)

    runs = earlier_runs(out_json) if args.append else []
    if any(run["seed"] == args.seed for run in runs):
        parser.error(f"--seed {args.seed} is taken by a run in {out_json}: its games were played")
    rng = random.Random(args.seed)
    tally = {k: 0 for k in TALLY}
    problems = []
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    run = {
        "command": "crates/qbb-engine/tests/soak/soak.sh " + " ".join(sys.argv[1:]),
        "commit": commit.stdout.strip(),
        "engine": shown(args.engine),
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%MZ"),
        "time_control": f"{args.base_ms / 1000:g}+{args.inc_ms / 1000:g}",
        "hang_slack_s": HANG_SLACK_S,
        "seed": args.seed,
        "games_asked": args.games,
        # The machine's load: on a shared machine it explains time losses better than the engine.
        "load_average_start": round(os.getloadavg()[0], 2),
    }
    started = time.monotonic()

    def record():
        """Writes the results so far: the earlier runs and this one."""
        run.update(seconds=round(time.monotonic() - started), **tally, problems=problems,
                   load_average_end=round(os.getloadavg()[0], 2))
        report = summed(runs + [run])
        write_atomically(out_json, json.dumps(report, indent=2) + "\n")
        write_atomically(out_md, page(report))

    engines = [Engine(args.engine, "engine A"), Engine(args.engine, "engine B")]
    for game in range(args.games):
        if args.max_seconds is not None and time.monotonic() - started > args.max_seconds:
            print(f"--max-seconds {args.max_seconds:g} reached after {game} games", flush=True)
            break
        pair = engines if game % 2 == 0 else engines[::-1]
        try:
            for engine in pair:
                change_options(engine, rng, tally)
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
        if (game + 1) % 10 == 0:
            record()
            print(f"{game + 1}/{args.games} games: {tally}", flush=True)
    for engine in engines:
        engine.quit()
    record()
    print(f"wrote {out_json} and {out_md}")
    bad = tally["illegal_moves"] + tally["crashes"] + tally["hangs"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Plays two UCI engines against each other and writes results that say how they were obtained.

Each opening of a fixed book is played twice, each engine having White once (a game pair): an
opening's bias cancels within its pair, and the pairs, not the games, are the independent samples
from which the Elo interval is computed (the pentanomial model, as fastchess and OpenBench do).

The runner keeps the clocks (base plus increment, measured with time.monotonic around each
`go`), so the time control means the same for any two engines. A game ends by the rules of chess
(mate, stalemate, insufficient material, threefold repetition or fifty moves, claimed at once), as
a draw after 300 plies, or as a loss for an engine that runs out of time, crashes or sends an
illegal move. Nothing else is adjudicated.

Run it through reports/match.sh, which installs python-chess (pinned) into target/python-venv:

    reports/match.sh \\
        --engine 'name=nnue,cmd=target/release/qbb-engine,option.Use NNUE=true' \\
        --engine 'name=hand,cmd=target/release/qbb-engine,option.Use NNUE=false' \\
        --tc 5+0.05 --games 200 --concurrency 2 --out reports/MACHINE/match/nnue-vs-hand

    reports/match.sh --make-openings reports/openings.epd     # rewrites the book, bit for bit
    python3 reports/match.py --combine DIR DIR                # two matches' pairs together
    python3 reports/match.py --combine DIR DIR --rebuilt NAME # NAME's binary built again

The statistics and the argument parsers use only the standard library, so their tests run on a
bare python3: python3 -m unittest discover -s reports -p 'test_match.py'.
"""

import argparse
import asyncio
import collections
import dataclasses
import datetime
import hashlib
import json
import math
import os
import platform
import queue
import random
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

try:
    import chess
    import chess.engine
    import chess.pgn
except ImportError:  # the statistics and parsers below need only the standard library
    chess = None

REPORTS = Path(__file__).resolve().parent
DEFAULT_OPENINGS = REPORTS / "openings.epd"

MAX_PLIES = 300
"""Plies played from the opening position after which a game is drawn (the only adjudication)."""

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""

PAIR_CLASSES = ("LL", "LD", "WL+DD", "WD", "WW")
"""Names of the pentanomial classes: the first engine's two results in a pair, 0 to 2 points."""

HANG_GRACE = 1.0
"""Seconds past its clock that an engine is waited for before it is stopped and replaced. It has
lost on time either way; the grace only lets a slightly late engine answer, so that its process
stays in a known state and can be reused."""

HANDSHAKE_TIMEOUT = 30.0
"""Seconds an engine has to answer `uci` and `isready`."""


# Statistics (standard library only) ---------------------------------------------------------------


def elo_from_score(score):
    """The logistic Elo difference whose expected score is `score`: -400 log10(1/score - 1).

    A score of 0 or 1 (or beyond, as a confidence bound can be) has no finite Elo: -inf or +inf.
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))  # the same, without a -0.0 at an even score


def signed(value):
    """An Elo figure for people: +12.3, -4.0, +inf or -inf."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.1f}"


def finite_or_none(value):
    """JSON has no infinity: an Elo beyond measure is stored as null (the `text` says which)."""
    return None if math.isinf(value) else round(value, 2)


@dataclasses.dataclass(frozen=True)
class EloEstimate:
    """The Elo difference of the first engine over the second and its 95% confidence interval."""

    pairs: int
    score: float
    elo: float
    low: float
    high: float

    @property
    def error(self):
        """Half the interval's width, the "±" that fastchess and OpenBench print; inf when a bound
        is infinite (the interval is not symmetric, so `low` and `high` are the exact bounds)."""
        if math.isinf(self.low) or math.isinf(self.high):
            return math.inf
        return (self.high - self.low) / 2

    def text(self):
        if math.isinf(self.elo):
            return (
                f"{signed(self.elo)}: beyond measure (score {self.score:.3f})"
            )
        return (
            f"{signed(self.elo)} ± {self.error:.1f} "
            f"(95%: {signed(self.low)} to {signed(self.high)})"
        )

    def to_json(self):
        return {
            "pairs": self.pairs,
            "score": round(self.score, 4),
            "elo": finite_or_none(self.elo),
            "low": finite_or_none(self.low),
            "high": finite_or_none(self.high),
            "error_95": finite_or_none(self.error),
            "text": self.text(),
        }


def pentanomial_elo(counts):
    """The Elo difference and its 95% confidence interval from game-pair counts.

    counts[k] is the number of pairs in which the first engine scored k/2 points over the pair's
    two games, k = 0..4 (LL, LD, WL or DD, WD, WW). The two games of a pair share an opening, so
    their results are correlated; the pairs are independent. Treating games as independent (the
    trinomial W/D/L model) misstates the variance, usually overstating it since the opening's bias
    cancels within a pair.

    With N pairs, p_k = counts[k] / N and a pair's score x_k = k/4 (its points out of 2):

        s           = sum_k p_k x_k                    the score, also (W + D/2) / games
        var         = sum_k p_k (x_k - s)^2            the variance of one pair's score
        s_lo, s_hi  = s -/+ 1.959964 sqrt(var / N)     normal 95% interval of the mean score
        Elo         = elo(s), interval [elo(s_lo), elo(s_hi)], ± = (elo(s_hi) - elo(s_lo)) / 2

    where elo(x) = -400 log10(1/x - 1) (elo_from_score). This is fastchess's EloPentanomial, the
    figure OpenBench shows. A score or bound at or past 0 or 1 gives -inf or +inf ("beyond
    measure") instead of an error: a clean sweep says the difference is large, not how large.
    """
    if len(counts) != len(PAIR_CLASSES) or any(count < 0 for count in counts):
        raise ValueError(f"expected five non-negative pair counts, got {counts!r}")
    pairs = sum(counts)
    if pairs == 0:
        raise ValueError("no complete game pair")
    score = sum(count * k / 4 for k, count in enumerate(counts)) / pairs
    variance = sum(count * (k / 4 - score) ** 2 for k, count in enumerate(counts)) / pairs
    margin = Z95 * math.sqrt(variance / pairs)
    return EloEstimate(
        pairs=pairs,
        score=score,
        elo=elo_from_score(score),
        low=elo_from_score(score - margin),
        high=elo_from_score(score + margin),
    )


def pair_class(first, second):
    """The pentanomial class (0..4) of a pair from the first engine's points in its two games."""
    points = {0.0: 0, 0.5: 1, 1.0: 2}
    if first not in points or second not in points:
        raise ValueError(f"game points must be 0, 0.5 or 1, got {first!r} and {second!r}")
    return points[first] + points[second]


# Command line (standard library only) -------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """An engine as given on the command line: its name in the results, command and UCI options."""

    name: str
    command: tuple
    options: dict


def parse_engine_spec(text):
    """Parses `name=NAME,cmd=COMMAND,option.UCI NAME=VALUE,...` (cmd required, the rest optional).

    The command is split like a shell would (so it may carry arguments); an option's value may not
    contain a comma. The name defaults to the command's file name.
    """
    name, command, options = None, None, {}
    for field in text.split(","):
        key, sep, value = field.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or not key:
            raise argparse.ArgumentTypeError(f"{field!r} in {text!r}: expected KEY=VALUE")
        if key == "name":
            name = value
        elif key == "cmd":
            command = tuple(shlex.split(value))
        elif key.startswith("option.") and key != "option.":
            option = key[len("option."):]
            if option in options:
                raise argparse.ArgumentTypeError(f"option {option!r} given twice in {text!r}")
            options[option] = value
        else:
            raise argparse.ArgumentTypeError(
                f"{key!r} in {text!r}: the keys are name, cmd and option.<UCI option name>"
            )
    if not command:
        raise argparse.ArgumentTypeError(f"{text!r}: cmd=COMMAND is required")
    return EngineSpec(name=name or Path(command[0]).name, command=command, options=options)


def parse_time_control(text):
    """Parses BASE+INCREMENT in seconds (`5+0.05`; `60` has no increment) into two floats."""
    base, _, increment = text.partition("+")
    try:
        base, increment = float(base), float(increment or 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"time control {text!r}: expected BASE+INC in seconds")
    if not (math.isfinite(base) and math.isfinite(increment)) or base <= 0 or increment < 0:
        raise argparse.ArgumentTypeError(f"time control {text!r}: needs BASE > 0 and INC >= 0")
    return base, increment


def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: must be at least 1")
    return value


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="reports/match.sh",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="""\
An engine is NAME,CMD and UCI options, comma-separated (quote it for the shell):
  --engine 'name=nnue,cmd=target/release/qbb-engine,option.Use NNUE=true'
  --engine 'name=sf2000,cmd=/usr/games/stockfish,option.UCI_LimitStrength=true,option.UCI_Elo=2000'
Check options take true or false. Every option is checked against the engine's `uci` answer
before the first game.

Written into --out (which must not hold a match already):
  games.pgn     every game, in the order they finished: the opening's FEN, the time control,
                the result, Termination (PGN's normal, time forfeit, rules infraction, abandoned
                or adjudication) and TerminationDetails, and after each move the mover's clock,
                increment included, as [%clk]
  results.json  engines (command, binary's sha256, options), time control, W/D/L of the first
                engine, pentanomial pair counts, Elo with its 95% interval, losses on time,
                crashes and illegal moves per engine, CPU, load averages, date, commit, command
  results.md    the same for people

The Elo difference is the first engine's over the second, from complete game pairs; an
infinite bound (a clean sweep) is null in results.json and "+inf"/"-inf" in the text.
Ctrl-C (SIGINT) or SIGTERM abandons the games in progress and writes the results of the finished
ones.""",
    )
    parser.add_argument("--engine", action="append", type=parse_engine_spec, default=[],
                        metavar="SPEC",
                        help="an engine; give exactly two, the first is the one measured")
    parser.add_argument("--tc", type=parse_time_control, metavar="BASE+INC",
                        help="seconds per game plus seconds per move, e.g. 5+0.05")
    parser.add_argument("--games", type=positive_int, metavar="N",
                        help="games to play, even: each opening is played with both colours")
    parser.add_argument("--concurrency", type=positive_int, default=1, metavar="N",
                        help="games played at once, each worker with its own two engine "
                             "processes (default 1)")
    parser.add_argument("--openings", type=Path, default=DEFAULT_OPENINGS, metavar="FILE",
                        help="EPD book, used in file order and cycled if too short "
                             f"(default {shown(DEFAULT_OPENINGS)})")
    parser.add_argument("--out", type=Path, metavar="DIR", help="directory for the results")
    parser.add_argument("--combine", type=Path, nargs="+", metavar="DIR",
                        help="instead of a match, the Elo of finished matches played on the "
                             "same terms (binaries, options, time control), their game pairs "
                             "taken together")
    parser.add_argument("--rebuilt", action="append", default=[], metavar="NAME",
                        help="--combine: the engine NAME's binary was built again from the same "
                             "source between the matches, so its sha256 may differ (a build "
                             "embeds the path of its source in its debug information)")
    parser.add_argument("--make-openings", type=Path, metavar="FILE",
                        help="instead of a match, write the random opening book to FILE")
    parser.add_argument("--seed", type=int, default=1,
                        help="--make-openings: random seed (default 1)")
    parser.add_argument("--count", type=positive_int, default=200,
                        help="--make-openings: positions (default 200)")
    args = parser.parse_args(argv)
    if args.rebuilt and args.combine is None:
        parser.error("--rebuilt goes with --combine")
    if args.make_openings is None and args.combine is None:
        if len(args.engine) != 2:
            parser.error("give --engine exactly twice")
        if args.engine[0].name == args.engine[1].name:
            parser.error(f"both engines are named {args.engine[0].name!r}: give them name=")
        for option, value in (("--tc", args.tc), ("--games", args.games), ("--out", args.out)):
            if value is None:
                parser.error(f"{option} is required")
        if args.games % 2:
            parser.error("--games must be even: openings are played in pairs")
    return args


# Files and the machine ----------------------------------------------------------------------------


def shown(path):
    """A path as the repository knows it (reports/openings.epd) when it lies inside it."""
    try:
        return str(Path(path).resolve().relative_to(REPORTS.parent))
    except ValueError:
        return str(path)


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as binary:
        for block in iter(lambda: binary.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def cpu():
    """The first CPU's model name, family and model from /proc/cpuinfo (the family and model tell
    apart CPUs sold under one name, as "AMD EPYC" is under KVM); elsewhere what Python knows."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                if not key.strip():
                    break  # the end of the first processor's block
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    name = fields.get("model name") or platform.processor() or platform.machine()
    family, model = fields.get("cpu family"), fields.get("model")
    described = f"{name} (family {family}, model {model})" if family and model else name
    return {"model_name": name, "family": family, "model": model, "text": described}


def git_commit():
    """The repository's HEAD when the match started (the engines' digests name the builds)."""
    try:
        return subprocess.run(["git", "-C", str(REPORTS), "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def load_average():
    return [round(load, 2) for load in os.getloadavg()]


# The opening book ---------------------------------------------------------------------------------


def make_openings(count, seed):
    """`count` EPD lines: positions after 6 to 8 uniformly random legal plies from the start.

    Moves are drawn in UCI order from random.Random(seed), so the book depends on the seed only.
    Kept are positions where the game is not over, material is level (pawn 1, knight and bishop 3,
    rook 5, queen 9) and that did not come up before. No engine judges them: some are lost for a
    side, which game pairs (both colours from every opening) cancel out of the result.
    """
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    rng = random.Random(seed)
    lines, seen = [], set()
    while len(lines) < count:
        board = chess.Board()
        for _ in range(rng.randint(6, 8)):
            moves = sorted(board.legal_moves, key=chess.Move.uci)
            if not moves:
                break
            board.push(rng.choice(moves))
        material = [
            sum(value * len(board.pieces(piece, colour)) for piece, value in values.items())
            for colour in chess.COLORS
        ]
        if board.is_game_over() or material[0] != material[1] or board.epd() in seen:
            continue
        seen.add(board.epd())
        moves = chess.Board().variation_san(board.move_stack)
        lines.append(board.epd(hmvc=board.halfmove_clock, fmvn=board.fullmove_number,
                               id=f"random-{seed}-{len(lines) + 1:03d}", c0=moves))
    return lines


def write_openings(path, count, seed):
    header = [
        "# The opening book of reports/match.py, made by",
        f"#   reports/match.sh --make-openings {path} --seed {seed} --count {count}",
        f"# with python-chess {chess.__version__}: {count} positions, each after 6 to 8 uniformly",
        "# random legal plies from the start position (random.Random(seed), moves drawn in UCI",
        "# order), kept when the game is not over (no mate, stalemate or dead position), material",
        "# is level and it is not a repeat. No engine evaluated them, so some favour a side: each",
        "# is played with both colours, which cancels that out of the score. The c0 operation",
        "# holds the moves from the start.",
    ]
    lines = make_openings(count, seed)
    path.write_text("\n".join(header + lines) + "\n")
    print(f"wrote {len(lines)} openings to {path}", file=sys.stderr)


@dataclasses.dataclass(frozen=True)
class Opening:
    line: int
    id: str
    board: object  # chess.Board


def load_openings(path):
    """The book's positions in file order; `#` lines are comments. Exits on a bad line."""
    try:
        text = path.read_text()
    except OSError as error:
        sys.exit(f"openings: cannot read {path}: {error.strerror}")
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            board, operations = chess.Board.from_epd(line)
        except ValueError as error:
            sys.exit(f"{path}:{number}: not an EPD position: {error}")
        if board.is_game_over():
            sys.exit(f"{path}:{number}: the game is already over in this position")
        openings.append(Opening(number, str(operations.get("id", f"line {number}")), board))
    if not openings:
        sys.exit(f"{path}: no positions")
    return openings


# Engines ------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Engine:
    """An engine checked by `probe`: its UCI name, the options ready for `configure`, and the
    binary's path and digest (so a result names the exact build that produced it)."""

    spec: EngineSpec
    uci_name: str
    config: dict
    path: str
    sha256: str


async def open_engine(command):
    """Starts an engine process in its own process group, so that a Ctrl-C meant for the runner
    does not kill the engines in the middle of their games."""
    return await asyncio.wait_for(
        chess.engine.popen_uci(list(command), setpgrp=True), HANDSHAKE_TIMEOUT
    )


async def probe(spec):
    """Starts the engine once before any game, so that a missing binary, a failed handshake or an
    unknown option stops the run with the reason instead of turning into forfeits later."""
    program = spec.command[0]
    path = shutil.which(program)
    if path is None:
        reason = "not executable" if os.path.exists(program) else "no such file or command"
        sys.exit(f"engine {spec.name!r}: cannot run {program!r}: {reason}")
    try:
        transport, engine = await open_engine(spec.command)
    except (asyncio.TimeoutError, chess.engine.EngineError, OSError) as error:
        sys.exit(f"engine {spec.name!r}: {shlex.join(spec.command)} did not complete the UCI "
                 f"handshake: {error or type(error).__name__}")
    try:
        config = {}
        for name, text in spec.options.items():
            option = engine.options.get(name)
            if option is None:
                sys.exit(f"engine {spec.name!r} has no option {name!r}; it has: "
                         + ", ".join(engine.options))
            if option.type == "check":
                if text.lower() not in ("true", "false"):
                    sys.exit(f"engine {spec.name!r}: option {name!r} takes true or false, "
                             f"not {text!r}")
                config[option.name] = text.lower() == "true"
            else:
                config[option.name] = text
        try:
            await engine.configure(config)
            await engine.ping()
        except chess.engine.EngineError as error:
            sys.exit(f"engine {spec.name!r}: {error}")
        return Engine(spec, engine.id.get("name", "?"), config, path, sha256_of(path))
    finally:
        await close_engine(transport, engine)


async def close_engine(transport, engine):
    """Sends quit; an engine that has not left a second later (or is gone) is killed."""
    try:
        await asyncio.wait_for(engine.quit(), 1)
    except (asyncio.TimeoutError, chess.engine.EngineError):
        pass  # hung or dead already: closing the transport below kills whatever is left
    finally:
        transport.close()


class Player:
    """One process of an engine, owned by one worker and reused across its games."""

    def __init__(self, engine):
        self.engine = engine
        self.name = engine.spec.name
        self.transport = self.protocol = None

    async def start(self):
        """Starts and configures the process, then lets it search the start position to depth 1:
        python-chess sends its first `ucinewgame` and the engine pages in its code and tables
        there, rather than on the first move of a game, on the clock."""
        try:
            self.transport, self.protocol = await open_engine(self.engine.spec.command)
            await self.protocol.configure(self.engine.config)
            await self.protocol.play(chess.Board(), chess.engine.Limit(depth=1), game=self)
        except (asyncio.TimeoutError, chess.engine.EngineError, OSError) as error:
            reason = error or type(error).__name__
            raise RuntimeError(f"engine {self.name!r} failed to start: {reason}") from error

    async def restart(self):
        await self.close()
        await self.start()

    async def close(self):
        if self.protocol is not None:
            await close_engine(self.transport, self.protocol)
            self.transport = self.protocol = None

    async def new_game(self):
        """`ucinewgame` and a ping before the clock starts, as cutechess and fastchess do (an
        engine may clear a large hash table there). An engine that died or hangs since its last
        game is replaced; it has lost no game for it, since it was not on move."""
        try:
            self.protocol.send_line("ucinewgame")
            await asyncio.wait_for(self.protocol.ping(), HANDSHAKE_TIMEOUT)
        except (asyncio.TimeoutError, chess.engine.EngineError):
            print(f"engine {self.name!r} died or hung between games: restarted", file=sys.stderr)
            await self.restart()


# Games --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Job:
    pair: int
    first_is_white: bool
    opening_index: int

    @property
    def round(self):
        return f"{self.pair + 1}.{1 if self.first_is_white else 2}"


@dataclasses.dataclass(frozen=True)
class Fault:
    """Why an engine lost a game other than on the board, and whether its process is unusable."""

    kind: str  # a key of FAULT_TERMINATION
    detail: str
    replace: bool


FAULT_TERMINATION = {
    "loss on time": "time forfeit", "crash": "abandoned", "illegal move": "rules infraction",
}
"""The kinds of fault, each with PGN's Termination tag for it."""


@dataclasses.dataclass(frozen=True)
class GameRecord:
    job: Job
    white: str
    black: str
    result: str
    termination: str
    detail: str
    fault: object  # Fault or None
    loser: object  # the faulting engine's name or None
    pgn: str

    @property
    def reason(self):
        """How the game ended in a few words: checkmate, draw after 300 plies, crash..."""
        return self.detail if self.fault is None else self.fault.kind


class Abandoned(Exception):
    """The run was interrupted during this game, which is not recorded."""


async def request_move(player, board, limit, clock):
    """Asks for a move: (move, seconds taken, None), or (None, None, the Fault) if it lost."""
    started = time.monotonic()
    try:
        played = await asyncio.wait_for(
            player.protocol.play(board, limit, game=player), clock + HANG_GRACE
        )
    except asyncio.TimeoutError:
        return None, None, Fault("loss on time", f"gave no move within its {clock:.3f} s (waited "
                                         f"{HANG_GRACE:g} s more)", replace=True)
    except chess.engine.EngineTerminatedError as error:
        return None, None, Fault("crash", f"crashed: {error}", replace=True)
    except chess.engine.EngineError as error:
        # python-chess checks bestmove against the position and raises EngineError if illegal.
        return None, None, Fault("illegal move", f"sent an illegal move ({error})", replace=True)
    elapsed = time.monotonic() - started
    if elapsed > clock:
        return None, None, Fault("loss on time", f"used {elapsed:.3f} s with {clock:.3f} s left",
                                 replace=False)
    if played.move is None:
        return None, None, Fault("illegal move", "answered bestmove (none) in a position with "
                                                 "legal moves", replace=True)
    return played.move, elapsed, None


async def play_game(job, opening, white, black, tc, stop, headers):
    """Plays one game from `opening` between two started Players and returns its record. The
    caller replaces the process of an engine whose fault says it is unusable."""
    base, increment = tc
    board = opening.board.copy()
    players = {chess.WHITE: white, chess.BLACK: black}
    clocks = {chess.WHITE: base, chess.BLACK: base}
    game = chess.pgn.Game()
    game.setup(board)
    node = game
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y.%m.%d")
    for player in (white, black):
        await player.new_game()
    fault = loser = None
    plies = 0
    while True:
        if stop.is_set():
            raise Abandoned()
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            result, termination = outcome.result(), "normal"
            detail = outcome.termination.name.lower().replace("_", " ")
            break
        if plies >= MAX_PLIES:
            result, termination, detail = "1/2-1/2", "adjudication", f"draw after {MAX_PLIES} plies"
            break
        side = board.turn
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
            white_inc=increment, black_inc=increment,
        )
        move, elapsed, fault = await request_move(players[side], board, limit, clocks[side])
        if fault is not None:
            loser = players[side].name
            result = "0-1" if side == chess.WHITE else "1-0"
            termination, detail = FAULT_TERMINATION[fault.kind], f"{loser} {fault.detail}"
            break
        clocks[side] += increment - elapsed
        board.push(move)
        node = node.add_variation(move)
        node.set_clock(clocks[side])
        plies += 1

    game.headers.update(headers)
    game.headers.update({
        "Date": date,
        "Round": job.round,
        "White": white.name,
        "Black": black.name,
        "Result": result,
        "Opening": f"{opening.id} (line {opening.line})",
        "PlyCount": str(plies),
        "Termination": termination,
        "TerminationDetails": detail,
    })
    return GameRecord(job, white.name, black.name, result, termination, detail, fault, loser,
                      str(game))


# The match ----------------------------------------------------------------------------------------


class Match:
    """The state the workers share: the queue of games, the tallies and games.pgn."""

    def __init__(self, engines, openings, tc, games, pgn_path, headers):
        self.engines = engines
        self.openings = openings
        self.tc = tc
        self.planned = games
        self.headers = headers
        self.jobs = queue.Queue()
        for pair in range(games // 2):
            for first_is_white in (True, False):
                self.jobs.put(Job(pair, first_is_white, pair % len(openings)))
        self.stop = threading.Event()
        self.error = None
        self.lock = threading.Lock()
        self.records = []
        self.first_points = {}  # pair -> the first engine's points in its finished games
        self.pentanomial = [0] * len(PAIR_CLASSES)
        self.pgn = open(pgn_path, "w")

    def first_engine_points(self, record):
        white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[record.result]
        return white_points if record.job.first_is_white else 1 - white_points

    def tally(self):
        points = [self.first_engine_points(record) for record in self.records]
        return points.count(1.0), points.count(0.5), points.count(0.0)

    def estimate(self):
        return pentanomial_elo(self.pentanomial) if sum(self.pentanomial) else None

    def record(self, record):
        with self.lock:
            self.records.append(record)
            self.pgn.write(record.pgn + "\n\n")
            self.pgn.flush()
            points = self.first_points.setdefault(record.job.pair, [])
            points.append(self.first_engine_points(record))
            if len(points) == 2:
                self.pentanomial[pair_class(*points)] += 1
            wins, draws, losses = self.tally()
            estimate = self.estimate()
            width = len(str(self.planned))
            print(
                f"[{len(self.records):>{width}}/{self.planned}] {self.engines[0].spec.name} "
                f"+{wins} ={draws} -{losses} score {(wins + draws / 2) / len(self.records):.3f}, "
                f"Elo {estimate.text() if estimate else 'after the first pair'} | "
                f"{record.job.round} {record.white}-{record.black} {record.result} {record.detail}",
                file=sys.stderr, flush=True,
            )

    def fail(self, error):
        with self.lock:
            if self.error is None:
                self.error = error
            self.stop.set()


class Worker(threading.Thread):
    """Plays games from the queue on its own event loop, with its own process of each engine."""

    def __init__(self, match, number):
        super().__init__(name=f"worker-{number}")
        self.match = match

    def run(self):
        try:
            asyncio.run(self.serve())
        except Exception as error:  # reported by the main thread, which stops the run
            self.match.fail(f"{self.name}: {error}")

    async def serve(self):
        players = [Player(engine) for engine in self.match.engines]
        try:
            for player in players:
                await player.start()
            while not self.match.stop.is_set():
                try:
                    job = self.match.jobs.get_nowait()
                except queue.Empty:
                    return
                white, black = players if job.first_is_white else players[::-1]
                opening = self.match.openings[job.opening_index]
                try:
                    record = await play_game(job, opening, white, black, self.match.tc,
                                             self.match.stop, self.match.headers)
                except Abandoned:
                    return
                self.match.record(record)
                if record.fault is not None and record.fault.replace:
                    await next(p for p in players if p.name == record.loser).restart()
        finally:
            for player in players:
                await player.close()


def summarize(match, args, context):
    first, second = (engine.spec.name for engine in match.engines)
    wins, draws, losses = match.tally()
    games = len(match.records)
    estimate = match.estimate()
    faults = {engine.spec.name: dict.fromkeys(FAULT_TERMINATION, 0) for engine in match.engines}
    for record in match.records:
        if record.fault is not None:
            faults[record.loser][record.fault.kind] += 1
    terminations = collections.Counter(record.reason for record in match.records)
    base, increment = args.tc
    return {
        "title": f"{first} vs {second}",
        "command": context["command"],
        "started": context["started"],
        "finished": context["finished"],
        "complete": games == match.planned,
        "stopped_by": context["stopped_by"],
        "commit": context["commit"],
        "python_chess": chess.__version__,
        "machine": {
            "cpu": cpu(),
            "logical_cpus": os.cpu_count(),
            "load_average_start": context["load_start"],
            "load_average_end": context["load_end"],
        },
        "engines": [
            {
                "name": engine.spec.name,
                "command": shlex.join(engine.spec.command),
                "path": engine.path,
                "sha256": engine.sha256,
                "uci_name": engine.uci_name,
                "options": engine.spec.options,
            }
            for engine in match.engines
        ],
        "time_control": {"base_seconds": base, "increment_seconds": increment,
                         "text": f"{base:g}+{increment:g}"},
        "max_plies": MAX_PLIES,
        "concurrency": args.concurrency,
        "openings": {
            "file": shown(args.openings),
            "sha256": sha256_of(args.openings),
            "positions": len(match.openings),
            "pairs_played": len(match.first_points),
        },
        "games_planned": match.planned,
        "games": games,
        "first_engine": first,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": round((wins + draws / 2) / games, 4) if games else None,
        "pentanomial": dict(zip(PAIR_CLASSES, match.pentanomial)),
        "elo": estimate.to_json() if estimate else None,
        "time_losses": {name: counts["loss on time"] for name, counts in faults.items()},
        "crashes": {name: counts["crash"] for name, counts in faults.items()},
        "illegal_moves": {name: counts["illegal move"] for name, counts in faults.items()},
        "terminations": dict(terminations.most_common()),
    }


def loads(averages):
    return " / ".join(f"{load:.2f}" for load in averages)


def per_engine(counts):
    return ", ".join(f"{name} {count}" for name, count in counts.items())


def markdown(summary):
    first, second = (engine["name"] for engine in summary["engines"])
    elo = summary["elo"]
    machine, openings = summary["machine"], summary["openings"]
    rows = [
        ("games", f"{summary['games']} of {summary['games_planned']}"
                  + ("" if summary["complete"] else f" (stopped: {summary['stopped_by']})")),
        (f"{first}: wins / draws / losses",
         f"{summary['wins']} / {summary['draws']} / {summary['losses']}"),
        ("score", "-" if summary["score"] is None else f"{summary['score']:.3f}"),
        (f"Elo, {first} over {second}",
         f"{elo['text']}, from {elo['pairs']} game pair{'' if elo['pairs'] == 1 else 's'}"
         if elo else "no complete pair"),
        ("pairs " + " / ".join(summary["pentanomial"]),
         " / ".join(str(count) for count in summary["pentanomial"].values())),
        ("losses on time", per_engine(summary["time_losses"])),
        ("crashes", per_engine(summary["crashes"])),
        ("illegal moves", per_engine(summary["illegal_moves"])),
        ("time control", f"{summary['time_control']['text']} s, clocks kept by the runner"),
        ("openings", f"`{openings['file']}`, {openings['pairs_played']} of its "
                     f"{openings['positions']} positions, each with both colours"),
        ("concurrency", str(summary["concurrency"])),
        ("machine", f"{machine['cpu']['text']}, {machine['logical_cpus']} logical CPUs"),
        ("load average, 1 / 5 / 15 min", f"{loads(machine['load_average_start'])} at the start, "
                                         f"{loads(machine['load_average_end'])} at the end"),
        ("date", f"{summary['started']} to {summary['finished']}"),
        ("commit", f"`{summary['commit']}`"),
    ]
    lines = [f"# {summary['title']}", "", "| | |", "| --- | --- |"]
    lines += [f"| {key} | {value} |" for key, value in rows]
    lines += ["", "| engine | command | UCI name | options | sha256 |",
              "| --- | --- | --- | --- | --- |"]
    for engine in summary["engines"]:
        options = ", ".join(f"{name}={value}" for name, value in engine["options"].items())
        lines.append(f"| {engine['name']} | `{engine['command']}` | {engine['uci_name']} | "
                     f"{options or 'defaults'} | `{engine['sha256'][:16]}` |")
    lines += ["", "How the games ended: " + ", ".join(
        f"{reason} {count}" for reason, count in summary["terminations"].items()) + ".", ""]
    lines += [
        "The Elo interval is computed from the game pairs (pentanomial model, as fastchess and",
        "OpenBench): see `pentanomial_elo` in `reports/match.py`. Games are in `games.pgn`, in the",
        "order they finished (Round N.1 and N.2 are the two colours of opening N).",
        "", "Command:", "", "```sh", summary["command"], "```", "",
    ]
    return "\n".join(lines)


def combine(folders, rebuilt=()):
    """The Elo of the matches in `folders` (their results.json) with their game pairs taken
    together, and a line that says it. The matches must have been played on the same terms: the
    same binaries (by sha256; for the engines named in `rebuilt`, binaries built again from the
    same source, by name only) with the same options, the same time control and ply limit."""
    if len({folder.resolve() for folder in folders}) < len(folders):
        sys.exit("--combine: a folder is named twice (its games would count twice)")
    summaries = []
    for folder in folders:
        path = folder / "results.json"
        try:
            summaries.append((path, json.loads(path.read_text())))
        except (OSError, ValueError) as error:
            sys.exit(f"{path}: cannot read it: {error}")
    first_path, first = summaries[0]

    def read(summary, path):
        """The summary's terms, pair counts and W/D/L, or a one-line error naming the file."""
        try:
            engines = [(e["name"], "rebuilt" if e["name"] in rebuilt else e["sha256"],
                        e["options"]) for e in summary["engines"]]
            terms = (engines, summary["time_control"]["text"], summary["max_plies"])
            pairs = [int(summary["pentanomial"][name]) for name in PAIR_CLASSES]
            results = {key: int(summary[key]) for key in ("wins", "draws", "losses")}
        except (KeyError, TypeError, ValueError) as error:
            sys.exit(f"{path}: no match summary (missing or bad {error})")
        return terms, pairs, results

    expected = read(first, first_path)[0]
    unknown = sorted(set(rebuilt) - {name for name, _, _ in expected[0]})
    if unknown:
        sys.exit(f"--rebuilt: {first_path} has no engine named {unknown[0]!r}")
    counts = [0] * len(PAIR_CLASSES)
    totals = collections.Counter()
    for path, summary in summaries:
        terms, pairs, results = read(summary, path)
        for field, mine, theirs in zip(("engines", "time control", "ply limit"), terms, expected):
            if mine != theirs:
                sys.exit(f"{path}: its {field} differ from {first_path}'s: {mine} against {theirs}")
        counts = [total + count for total, count in zip(counts, pairs)]
        totals.update(results)
    estimate = pentanomial_elo(counts)
    games = totals["wins"] + totals["draws"] + totals["losses"]
    line = (f"{first['title']}, {len(summaries)} matches, {games} games: +{totals['wins']} "
            f"={totals['draws']} -{totals['losses']}, pairs "
            f"{' / '.join(str(count) for count in counts)}, Elo {estimate.text()}")
    if rebuilt:
        line += f" ({', '.join(sorted(rebuilt))} rebuilt between the matches)"
    return estimate, line


def stop_on_signals():
    """Makes SIGINT and SIGTERM raise KeyboardInterrupt in the main thread, which stops a match
    with its summary written: a match started in the background (`cmd &` in a script) inherits
    SIGINT ignored, and SIGTERM would end it without a summary."""
    for number in (signal.SIGINT, signal.SIGTERM):
        signal.signal(number, signal.default_int_handler)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if args.combine is not None:
        print(combine(args.combine, args.rebuilt)[1])
        return
    if chess is None:
        sys.exit("match.py needs python-chess: run it through reports/match.sh, which installs it")
    if args.make_openings is not None:
        write_openings(args.make_openings, args.count, args.seed)
        return

    launcher = os.environ.get("QBB_MATCH_LAUNCHER", sys.argv[0])
    context = {"command": shlex.join([launcher, *argv]), "commit": git_commit()}
    openings = load_openings(args.openings)
    if args.games // 2 > len(openings):
        print(f"warning: {args.games // 2} pairs but {len(openings)} openings: the book is cycled",
              file=sys.stderr)
    for name in ("games.pgn", "results.json", "results.md"):
        if (args.out / name).exists():
            sys.exit(f"{args.out / name} exists: choose another --out, or remove the old match")
    engines = [asyncio.run(probe(spec)) for spec in args.engine]
    args.out.mkdir(parents=True, exist_ok=True)

    stop_on_signals()
    context["load_start"] = load_average()
    context["started"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    base, increment = args.tc
    headers = {"Event": f"{engines[0].spec.name} vs {engines[1].spec.name}", "Site": cpu()["text"],
               "TimeControl": f"{base:g}+{increment:g}"}
    match = Match(engines, openings, args.tc, args.games, args.out / "games.pgn", headers)
    print(f"{headers['Event']}: {args.games} games at {headers['TimeControl']}, "
          f"concurrency {args.concurrency}, into {args.out}", file=sys.stderr)
    workers = [Worker(match, number) for number in range(args.concurrency)]
    for worker in workers:
        worker.start()
    stopped_by = None
    for worker in workers:
        while worker.is_alive():
            try:
                worker.join()
            except KeyboardInterrupt:
                stopped_by = "interrupted (SIGINT or SIGTERM)"
                print("interrupted: abandoning the games in progress", file=sys.stderr)
                match.stop.set()
    match.pgn.close()

    context["stopped_by"] = match.error or stopped_by
    context["load_end"] = load_average()
    context["finished"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    summary = summarize(match, args, context)
    (args.out / "results.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    (args.out / "results.md").write_text(markdown(summary))
    elo = summary["elo"]
    print(f"{summary['title']}: +{summary['wins']} ={summary['draws']} -{summary['losses']}, "
          f"Elo {elo['text'] if elo else 'not measured (no complete pair)'}; "
          f"results in {args.out}", file=sys.stderr)
    if match.error:
        sys.exit(f"error: {match.error}")
    if stopped_by:
        sys.exit(130)


if __name__ == "__main__":
    main()

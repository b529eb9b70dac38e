#!/usr/bin/env python3
"""Plays a match between two UCI engines with python-chess and reports the score and the Elo
difference with its 95% confidence interval.

Each opening of the book is played twice, once with each colour, so that neither engine profits
from the draw of the openings. Clocks are kept here (base time plus increment, Fischer style);
an engine whose clock runs out loses. A game ends by the rules (mate, stalemate, threefold
repetition, fifty moves, insufficient material), or as a draw after MAX_PLIES half-moves.

    python match.py --engine target/release/qbb-engine --opponent /usr/games/stockfish \
        --opponent-option "Skill Level=3" --games 20 --tc 10+0.1 \
        --pgn reports/match/skill3.pgn --json reports/match/skill3.json

Needs python-chess (pip install chess).
"""

import argparse
import datetime
import json
import math
import os
import platform
import sys
import time

import chess
import chess.engine
import chess.pgn

MAX_PLIES = 400

# Short, common openings (UCI moves from the start position): the book of the match.
OPENINGS = [
    ("Ruy Lopez", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6"),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Sicilian Najdorf", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"),
    ("French", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6"),
    ("Caro-Kann", "e2e4 c7c6 d2d4 d7d5 b1c3 d5e4 c3e4"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6"),
    ("Slav", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6"),
    ("King's Indian", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6"),
    ("Nimzo-Indian", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4"),
    ("English", "c2c4 e7e5 b1c3 g8f6 g1f3 b8c6"),
    ("Scandinavian", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"),
    ("London", "d2d4 d7d5 c1f4 g8f6 e2e3 e7e6"),
    ("Pirc", "e2e4 d7d6 d2d4 g8f6 b1c3 g7g6"),
    ("Dutch", "d2d4 f7f5 g2g3 g8f6 f1g2 e7e6"),
    ("Reti", "g1f3 d7d5 c2c4 e7e6 g2g3 g8f6"),
    ("Scotch", "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4 f3d4"),
    ("Petroff", "e2e4 e7e5 g1f3 g8f6 f3e5 d7d6 e5f3 f6e4"),
    ("Grunfeld", "d2d4 g8f6 c2c4 g7g6 b1c3 d7d5"),
    ("Alekhine", "e2e4 g8f6 e4e5 f6d5 d2d4 d7d6"),
    ("Catalan", "d2d4 g8f6 c2c4 e7e6 g2g3 d7d5 f1g2"),
]


def parse_options(pairs):
    options = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep:
            sys.exit(f"option `{pair}`: expected NAME=VALUE")
        options[name.strip()] = value.strip()
    return options


def parse_tc(text):
    base, _, inc = text.partition("+")
    try:
        return float(base), float(inc or 0)
    except ValueError:
        sys.exit(f"time control `{text}`: expected BASE+INC in seconds, e.g. 10+0.1")


def elo(score):
    """The Elo difference that expects this score (0 < score < 1)."""
    return -400 * math.log10(1 / score - 1)


def elo_interval(results):
    """(Elo, low, high) with the 95% confidence interval, from per-game scores (0, 0.5 or 1).

    A bound whose score reaches 0 or 1 has no finite Elo and is None (unbounded)."""
    n = len(results)
    mean = sum(results) / n
    variance = sum((r - mean) ** 2 for r in results) / n
    margin = 1.96 * math.sqrt(variance / n)

    def finite(p):
        return elo(p) if 0 < p < 1 else None

    return finite(mean), finite(mean - margin), finite(mean + margin)


def show(rating, sign=True):
    return "unbounded" if rating is None else (f"{rating:+.0f}" if sign else f"{rating:.0f}")


def play_game(engines, names, white, opening, tc, overhead_log):
    """Plays one game; engines[white] has white. Returns (result for engine 0, pgn game)."""
    base, inc = tc
    board = chess.Board()
    for uci in opening[1].split():
        board.push_uci(uci)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    order = {chess.WHITE: white, chess.BLACK: 1 - white}
    termination = None
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            termination = outcome.termination.name.lower().replace("_", " ")
            result = outcome.result()
            break
        if board.ply() >= MAX_PLIES:
            termination = f"draw after {MAX_PLIES} plies (adjudicated)"
            result = "1/2-1/2"
            break
        side = board.turn
        engine = engines[order[side]]
        limit = chess.engine.Limit(
            white_clock=clocks[chess.WHITE],
            black_clock=clocks[chess.BLACK],
            white_inc=inc,
            black_inc=inc,
        )
        started = time.perf_counter()
        try:
            played = engine.play(board, limit, game=opening[0] + str(white))
        except chess.engine.EngineError as error:
            termination = f"{names[order[side]]} failed: {error}"
            result = "0-1" if side == chess.WHITE else "1-0"
            break
        spent = time.perf_counter() - started
        overhead_log[order[side]].append(spent)
        clocks[side] -= spent
        if clocks[side] < 0:
            termination = f"{names[order[side]]} lost on time"
            result = "0-1" if side == chess.WHITE else "1-0"
            break
        clocks[side] += inc
        if played.move is None or played.move not in board.legal_moves:
            termination = f"{names[order[side]]} played an illegal move {played.move}"
            result = "0-1" if side == chess.WHITE else "1-0"
            break
        board.push(played.move)

    game = chess.pgn.Game.from_board(board)
    game.headers["Event"] = "qbb-engine match"
    game.headers["Date"] = datetime.date.today().strftime("%Y.%m.%d")
    game.headers["White"] = names[white]
    game.headers["Black"] = names[1 - white]
    game.headers["Result"] = result
    game.headers["Opening"] = opening[0]
    game.headers["TimeControl"] = f"{base:g}+{inc:g}"
    game.headers["Termination"] = termination
    points_white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
    points = points_white if white == 0 else 1 - points_white
    return points, game, termination


def cpu_model():
    """The CPU's model name (Linux), else what the platform module knows."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", required=True, help="the engine under test")
    parser.add_argument("--opponent", required=True, help="the reference engine")
    parser.add_argument("--engine-option", action="append", metavar="NAME=VALUE")
    parser.add_argument("--opponent-option", action="append", metavar="NAME=VALUE")
    parser.add_argument("--games", type=int, default=20, help="even; openings are used in pairs")
    parser.add_argument("--tc", default="10+0.1", help="seconds per game + increment per move")
    parser.add_argument("--pgn", help="write the games here")
    parser.add_argument("--json", help="write the summary here")
    args = parser.parse_args()
    if args.games < 2 or args.games % 2:
        sys.exit("--games must be even and at least 2")
    if args.games // 2 > len(OPENINGS):
        sys.exit(f"--games: at most {2 * len(OPENINGS)} (two per opening)")
    tc = parse_tc(args.tc)

    engines = [
        chess.engine.SimpleEngine.popen_uci(args.engine),
        chess.engine.SimpleEngine.popen_uci(args.opponent),
    ]
    try:
        engine_options = parse_options(args.engine_option)
        opponent_options = parse_options(args.opponent_option)
        engines[0].configure(engine_options)
        engines[1].configure(opponent_options)
        names = [engines[0].id.get("name", "engine"), engines[1].id.get("name", "opponent")]
        if opponent_options:
            names[1] += " (" + ", ".join(f"{k} {v}" for k, v in opponent_options.items()) + ")"

        results, games, terminations = [], [], []
        move_times = ([], [])
        for index in range(args.games):
            opening = OPENINGS[index // 2]
            white = index % 2
            points, game, termination = play_game(engines, names, white, opening, tc, move_times)
            results.append(points)
            games.append(game)
            terminations.append(termination)
            wins = results.count(1.0)
            draws = results.count(0.5)
            print(
                f"game {index + 1}/{args.games} {opening[0]:<24} {names[0]} "
                f"{'white' if white == 0 else 'black'}: {points} ({termination}); "
                f"running +{wins} ={draws} -{len(results) - wins - draws}",
                flush=True,
            )
    finally:
        for engine in engines:
            engine.quit()

    wins, draws = results.count(1.0), results.count(0.5)
    losses = len(results) - wins - draws
    score = sum(results) / len(results)
    rating, low, high = elo_interval(results)
    summary = {
        "engine": names[0],
        "opponent": names[1],
        "games": len(results),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": round(score, 4),
        "elo": None if rating is None else round(rating, 1),
        "elo_95_low": None if low is None else round(low, 1),
        "elo_95_high": None if high is None else round(high, 1),
        "time_control": args.tc,
        "losses_on_time": sum(1 for t in terminations if t == f"{names[0]} lost on time"),
        "opponent_losses_on_time": sum(1 for t in terminations if t == f"{names[1]} lost on time"),
        "average_move_seconds": round(sum(move_times[0]) / max(len(move_times[0]), 1), 4),
        "opponent_average_move_seconds": round(sum(move_times[1]) / max(len(move_times[1]), 1), 4),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "command": " ".join(sys.argv),
    }
    print(
        f"{names[0]} vs {names[1]}: +{wins} ={draws} -{losses} in {len(results)} games, "
        f"score {score:.3f}, Elo {show(rating)} (95% interval {show(low)} to {show(high)})"
    )
    if args.pgn:
        with open(args.pgn, "w") as out:
            for game in games:
                print(game, file=out, end="\n\n")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(summary, out, indent=2)
            out.write("\n")


if __name__ == "__main__":
    main()

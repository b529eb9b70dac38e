"""The engine chapter's matches (engine/): the Stockfish ladder, one row per rung, and the
matches of the engine against itself (a search change against the commit before it, two threads
against one), each row as its `reports/match.py` summary gives it."""

from .inputs import HEADER, OUT, read_json, write
from .nnue import breakable, elo_text, games_played, match_files, match_where

LADDER_GOAL = {"uci_elo": 2600, "score": 0.5, "games": 40, "base_seconds": 10.0,
               "increment_seconds": 0.1}


def stockfish_elo(engine):
    """The UCI_Elo a Stockfish opponent was limited to, or None for any other engine."""
    options = {k.lower(): v for k, v in (engine.get("options") or {}).items()}
    if str(options.get("uci_limitstrength", "")).lower() != "true":
        return None
    try:
        return int(options.get("uci_elo"))
    except (TypeError, ValueError):
        return None


def played(path):
    """The summaries `reports/match.py` wrote (they list both engines), with where they are."""
    for path in match_files(path):
        m = read_json(path)
        if len(m.get("engines") or []) == 2:
            yield path, m


def wdl(m):
    return f"+{m.get('wins', '?')} ={m.get('draws', '?')} -{m.get('losses', '?')}"


def binary_of(m):
    """The first engine's binary, by the start of its sha256 (the commit checked out when a match
    started need not be the one the binary was built from)."""
    return (m["engines"][0].get("sha256") or "?")[:8]


def ladder(header, reports_root):
    """The rungs played against Stockfish limited by UCI_Elo, by machine, then by the engine's
    binary (its ladders in the order they were first played), then by strength; and whether the
    latest rung on the issue's terms (40 games or more at 10+0.1 against UCI_Elo 2600) scored
    half."""
    rungs = []
    for path, m in played(reports_root):
        elo = stockfish_elo(m["engines"][1])
        if elo is not None:
            rungs.append((match_where(path).split(",")[0], elo, path, m))
    if not rungs:
        return header + ("*No match against Stockfish limited by `UCI_Elo` is committed yet.*\n")
    first_played = {}
    for machine, _elo, _path, m in rungs:
        key = (machine, binary_of(m))
        first_played[key] = min(first_played.get(key, "~"), m.get("started", ""))

    def order(rung):
        machine, elo, _path, m = rung
        return machine, first_played[(machine, binary_of(m))], elo, m.get("started", "")

    text = header + ("| machine | qbb's binary (sha256) | Stockfish's UCI_Elo | time control | games | qbb's "
                     "wins, draws, losses | score | Elo difference, qbb over Stockfish |\n"
                     "| --- | --- | ---: | --- | ---: | ---: | ---: | --- |\n")
    for machine, elo, _path, m in sorted(rungs, key=order):
        tc = (m.get("time_control") or {}).get("text", "?")
        text += (f"| {machine} | {binary_of(m)} | {elo} | {tc} | {games_played(m)} | {wdl(m)} | "
                 f"{m.get('score', '?')} | {elo_text(m)} |\n")
    goal = LADDER_GOAL
    on_terms = [m for _machine, elo, _p, m in rungs
                if elo == goal["uci_elo"] and m.get("games", 0) >= goal["games"]
                and (m.get("time_control") or {}).get("base_seconds") == goal["base_seconds"]
                and (m.get("time_control") or {}).get("increment_seconds")
                == goal["increment_seconds"]]
    if not on_terms:
        verdict = (f"No rung against UCI_Elo {goal['uci_elo']} of {goal['games']} games or more "
                   f"at 10+0.1 is committed yet.")
    else:
        # The engine as it is now, not the luckiest of its versions: the last rung played.
        latest = max(on_terms, key=lambda m: m.get("started", ""))
        half = latest.get("score", 0) >= goal["score"]
        low = (latest.get("elo") or {}).get("low")
        interval = ("" if low is None else
                    f", its interval {'above' if low > 0 else 'still holding'} zero")
        earlier = len(on_terms) - 1
        verdict = (f"Against UCI_Elo {goal['uci_elo']} at 10+0.1 the engine's latest rung on "
                   f"those terms (binary {binary_of(latest)}) scored {latest.get('score')} over "
                   f"{latest.get('games')} games: {'at least' if half else 'below'} half the "
                   f"points{interval}; {earlier} rung{'' if earlier == 1 else 's'} of earlier "
                   f"versions came before it.")
    return text + (
        f"\n{verdict} Each rung is played by `reports/match.sh` with Stockfish 15.1 (Debian's "
        "`stockfish`) limited by `UCI_LimitStrength`, one thread each, openings from "
        "`reports/openings.epd` with both colours; the Elo interval comes from the game pairs. "
        "The command, the binaries' hashes and the games are beside each summary in "
        "`reports/<machine>/match/`; rows of one binary (the start of its sha256) are one "
        "version of the engine.\n")


def self_play(header, reports_root):
    """The matches of the engine against itself: neither side limited Stockfish, and the NNUE
    chapter's matches (`Use NNUE`, `EvalFile`) left to that chapter."""
    rows = []
    for path, m in played(reports_root):
        first, second = m["engines"]
        if stockfish_elo(second) is not None or stockfish_elo(first) is not None:
            continue
        options = {k.lower() for e in m["engines"] for k in (e.get("options") or {})}
        if options & {"use nnue", "evalfile"}:
            continue
        rows.append((path, m))
    if not rows:
        return header + "*No match of the engine against itself is committed yet.*\n"

    def side(e):
        options = ", ".join(f"{k}={v}" for k, v in (e.get("options") or {}).items())
        return breakable(f"{e.get('name', '?')} ({options or 'default options'})")

    text = header + ("| machine, match | first engine | second engine | time control | games | "
                     "the first's wins, draws, losses | Elo difference, first over second | "
                     "load average, start / end |\n"
                     "| --- | --- | --- | --- | ---: | ---: | --- | ---: |\n")
    for path, m in sorted(rows, key=lambda r: r[1].get("started", "")):
        first, second = m["engines"]
        tc = (m.get("time_control") or {}).get("text", "?")
        machine = m.get("machine") or {}
        start = (machine.get("load_average_start") or ["?"])[0]
        end = (machine.get("load_average_end") or ["?"])[0]
        text += (f"| {match_where(path)} | {side(first)} | {side(second)} | {tc} | {games_played(m)} | "
                 f"{wdl(m)} | {elo_text(m)} | {start} / {end} |\n")
    return text + (
        "\nEach row as its summary `reports/<machine>/match/<match>/results.json` gives it, in the "
        "order the matches were played; `results.md` beside it names the binaries (their commit "
        "and sha256) and `games.pgn` holds the games. The load averages are the machine's over "
        "the minute before the first game and over the last minute of the match, whose own "
        "engines count in the second (about one per game played at once, two for the side with "
        "two threads): far above that, other work shared the CPUs.\n")


def write_engine_matches(reports_root):
    """engine/: ladder.md and self-play.md."""
    out = OUT / "engine"
    source = HEADER.format(source="the match summaries under `reports/*/match/`")
    write(out / "ladder.md", ladder(source, reports_root))
    write(out / "self-play.md", self_play(source, reports_root))

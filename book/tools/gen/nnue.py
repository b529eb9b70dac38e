"""Generates nnue/: the NNUE chapter's excerpts of the sources (whole items, found by the start of
their first line), the network built into the engine in a few sentences, and the matches that
measure what the network bought.
"""

import html
import json
import re
import subprocess
import sys
from pathlib import Path

from .inputs import HEADER, OUT, REPO, TOOLS, read_json, write


# The excerpts of the sources the NNUE chapter shows: each a list of items of one file, found by
# the start of their first line (an item runs to its closing brace, or is one line ending in `;`),
# with their doc comments and attributes. A signature that is missing or not unique stops the run.
NNUE_EXCERPTS = {
    "constants": ("crates/qbb/src/nnue.rs",
                  ["pub const INPUTS", "pub const HIDDEN", "pub const QA", "pub const QB",
                   "pub const SCALE"]),
    "feature": ("crates/qbb/src/nnue.rs", ["pub const fn feature("]),
    "changes": ("crates/qbb/src/nnue.rs", ["pub fn changes("]),
    "flipped": ("crates/qbb/src/nnue.rs", ["pub fn flipped("]),
    "finish": ("crates/qbb/src/nnue.rs", ["pub fn finish("]),
    "evaluator": ("crates/qbb-engine/src/eval/nnue.rs",
                  ["pub fn set_root<", "pub fn make_move<", "pub fn evaluate<"]),
}


def source_item(lines, signature, path):
    """The lines of the item whose first line starts with `signature` (after indentation), its
    doc comments and attributes included."""
    at = [i for i, line in enumerate(lines) if line.lstrip().startswith(signature)]
    if len(at) != 1:
        raise SystemExit(f"generate: {path}: {len(at)} items start with `{signature}` (wants 1)")
    start = end = at[0]
    while start > 0 and lines[start - 1].lstrip().startswith(("///", "#[")):
        start -= 1
    if "{" not in lines[end] and lines[end].rstrip().endswith(";"):
        return lines[start:end + 1]
    depth, opened = 0, False
    while True:
        code = lines[end].split("//")[0]
        depth += code.count("{") - code.count("}")
        opened = opened or "{" in code
        if opened and depth == 0:
            return lines[start:end + 1]
        end += 1
        if end == len(lines):
            raise SystemExit(f"generate: {path}: `{signature}` does not close")


def excerpt(path, signatures):
    """The items, dedented, blank-line separated; consecutive one-line items stay together."""
    lines = (REPO / path).read_text().splitlines()
    items = [source_item(lines, s, path) for s in signatures]
    indent = min(len(l) - len(l.lstrip()) for item in items for l in item if l.strip())
    parts = ["\n".join(l[indent:] for l in item) for item in items]
    text = parts[0]
    for before, part in zip(items, parts[1:]):
        single = len(before) == 1 or before[-1].rstrip().endswith(";")
        text += ("\n" if single and part.count("\n") <= 2 else "\n\n") + part
    return text


def network_facts(header):
    """The network built into the engine, in a few generated sentences."""
    sys.path.insert(0, str(TOOLS))
    sys.dont_write_bytecode = True  # no __pycache__ beside the tools
    import nnue_net

    net, size, checksum = nnue_net.read_network()
    values = net.weights()
    nonzero = sum(1 for v in values if v)
    rel = nnue_net.EMBEDDED.relative_to(REPO)
    commit = subprocess.run(["git", "log", "-1", "--format=%h, %cs", "--", str(rel)], cwd=REPO,
                            capture_output=True, text=True).stdout.strip()
    named = f"`{rel}` ({size} bytes, checksum `{checksum:#018x}`" + \
        (f", last committed in {commit}" if commit else "") + ")"
    start = nnue_net.relative_codes("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR")
    start_cp = nnue_net.evaluate(nnue_net.refresh(start, net), net)
    if nonzero == 0:
        return header + (
            f"The network built into the engine, {named}, has every one of its {len(values)} "
            "weights and biases at zero: it scores every position 0 cp, for either side. With "
            "it, `Use NNUE` on (the default) gives the search a constant evaluation, and the "
            "numbers of the `qbb show` pictures above are all zero for the same reason. A trained "
            "network in this file fills them in at the next `book/generate.sh`.\n")
    span = lambda vs: f"{min(vs)} to {max(vs)}"
    features = [v for row in net.rows for v in row]
    outputs = [v for row in net.output for v in row]
    return header + (
        f"The network built into the engine, {named}, {net.hidden} lanes wide: {nonzero} of its "
        f"{len(values)} weights "
        f"and biases are non-zero. Feature weights run from {span(features)} and the feature "
        f"bias from {span(net.bias)} (scale QA = {nnue_net.QA}); output weights from "
        f"{span(outputs)} (scale QB = {nnue_net.QB}); the output bias is {net.output_bias} "
        f"(scale QA · QB). It scores the start position {start_cp} cp for the side to move "
        "(the book's Python copy of the scalar reference, `book/tools/nnue_net.py`).\n")


def match_files(reports_root):
    """The match summaries of every report: `match/*.json` and `match/*/results.json`."""
    root = Path(reports_root)
    return sorted(set(root.glob("*/match/*.json")) | set(root.glob("*/match/*/results.json")))


def match_options(command, side):
    """The `--engine-option` or `--opponent-option` values of a crates/qbb-engine/tools/match.py
    command line (its summaries record no options of their own)."""
    return re.findall(rf"--{side}-option (.+?)(?= --|$)", command or "")


def breakable(text):
    """`text` as HTML that may break after each `/`: a path among an engine's options would
    otherwise stretch the table past the page's column."""
    return html.escape(text, quote=False).replace("/", "/<wbr>")


def match_where(path):
    """The machine and the match of a summary, `reports/<machine>/match/<match>/results.json` or
    `reports/<machine>/match/<match>.json`, as the table's first cell."""
    parts = path.parts
    at = len(parts) - 1 - parts[::-1].index("match")
    return f"`{parts[at - 1]}`, `{parts[at + 1]}`"


def games_played(m):
    """The games of a reports/match.py summary, and how many were planned if it stopped early."""
    text = f"{m.get('games', '?')}"
    if not m.get("complete", True):
        text += f" of {m.get('games_planned', '?')}"
    return text


def elo_text(m):
    """A reports/match.py summary's Elo difference with its interval, as it printed it."""
    return (m.get("elo") or {}).get("text", "no complete pair")


def match_row(path, m):
    """One match summary as a row: reports/match.py's results.json (an `engines` list, the Elo
    from game pairs) or the older crates/qbb-engine/tools/match.py summary."""
    where = match_where(path)
    if "engines" in m:
        def side(e):
            options = ", ".join(f"{k}={v}" for k, v in (e.get("options") or {}).items())
            return breakable(f"{e.get('name', '?')} ({options or 'default options'})")
        first, second = (m["engines"] + [{}, {}])[:2]
        games = games_played(m)
        elo = elo_text(m)
        tc = (m.get("time_control") or {}).get("text", "?")
    else:
        first = {"name": m.get("engine", "?")}
        options = match_options(m.get("command"), "engine")
        side = lambda e: breakable(
            e["name"] + (f" ({', '.join(options)})" if options and e is first else ""))
        second = {"name": m.get("opponent", "?")}
        games, tc = f"{m.get('games', '?')}", m.get("time_control", "?")
        show = lambda x: "unbounded" if x is None else f"{x:+.0f}"
        elo = (f"{show(m.get('elo'))} (95%: {show(m.get('elo_95_low'))} to "
               f"{show(m.get('elo_95_high'))})")
    return (f"| {where} | {side(first)} | {side(second)} | {games} | "
            f"+{m.get('wins', '?')} ={m.get('draws', '?')} -{m.get('losses', '?')} | "
            f"{m.get('score', '?')} | {elo} | {tc} |\n")


def nnue_matches(header, reports_root):
    """The matches that measure the network, those whose summary names `Use NNUE` or `EvalFile`
    anywhere (an engine's options, its command), in a table; else what to run. (The engine
    chapter lists the matches against Stockfish.)"""
    found = []
    for path in match_files(reports_root):
        m = read_json(path)
        if re.search(r"use nnue|evalfile", json.dumps(m), re.I):
            found.append((path, m))
    if not found:
        return header + (
            "*Not yet played on a committed machine: no match summary under `reports/*/match/` "
            "names `Use NNUE` or `EvalFile`. The match that measures what the network bought is "
            "the engine against itself with the hand-written evaluation, played by "
            "`reports/match.py` (game pairs from a fixed book of openings, the Elo interval from "
            "the pairs):*\n\n"
            "```sh\ncargo build --release -p qbb-engine\n"
            "reports/match.sh \\\n"
            "    --engine 'name=nnue,cmd=target/release/qbb-engine,option.Use NNUE=true' \\\n"
            "    --engine 'name=hand,cmd=target/release/qbb-engine,option.Use NNUE=false' \\\n"
            "    --tc 5+0.05 --games 200 --concurrency 2 "
            "--out reports/MACHINE/match/nnue-vs-hand\n```\n\n"
            "*Its `results.json` appears in this section at the next `book/generate.sh`.*\n")
    text = header + ("| machine, match | first engine | second engine | games | the first's wins, draws, "
                     "losses | score | Elo difference, first over second | time control |\n"
                     "| --- | --- | --- | ---: | ---: | ---: | --- | --- |\n")
    for path, m in found:
        text += match_row(path, m)
    text += ("\nEach row as the match's own summary gives it, "
             "`reports/<machine>/match/<match>/results.json` (`<match>.json` for the older tool); "
             "the machine, the commit, the binaries and the games are in the files beside it "
             "(`results.md`, `games.pgn`). "
             "`reports/match.py` computes the Elo interval from game pairs, each opening played "
             "with both colours (the pentanomial model); the older "
             "`crates/qbb-engine/tools/match.py` from single games.\n")
    return text


def write_nnue(reports_root):
    """nnue/: the excerpts, the network, the matches."""
    out = OUT / "nnue"
    for name, (path, signatures) in NNUE_EXCERPTS.items():
        text = HEADER.format(source=f"`{path}`")
        write(out / f"{name}.md", text + "```rust\n" + excerpt(path, signatures) + "\n```\n")
    write(out / "network.md", network_facts(
        HEADER.format(source="`crates/qbb-engine/nets/default.nnue`")))
    write(out / "match.md", nnue_matches(
        HEADER.format(source="the match summaries under `reports/*/match/`"), reports_root))

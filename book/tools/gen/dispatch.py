"""Generates the dispatch chapter's tables from a report's dispatch.json: the engine under run-time
dispatch against the same engine built for the CPU, and what that costs in a sentence; perft's
instructions and cycles per leaf; the inlining wall, timed, and its cost; and the fix the chapter
tells, one machine's ratios before it and after (results/inlining-fix.md).
"""

from pathlib import Path

from .catalogue import BACKENDS
from .formatting import and_list, format_ns, format_ratio, ratio_range
from .inputs import HEADER, read_json


def dispatch_table(d, path):
    source = f"reports/{d['machine']}/{path.name}"
    text = HEADER.format(source=f"`{source}`")
    text += (
        "| position | backend | run-time dispatch (Mnps) | target-cpu=native (Mnps) | "
        "dispatch / native |\n| --- | --- | ---: | ---: | ---: |\n"
    )
    cells = {}
    for r in d["rows"]:
        cells[(r["position"], r["depth"], r["backend"], r["build"])] = r
    keys = []
    for r in d["rows"]:
        key = (r["position"], r["depth"], r["backend"])
        if key not in keys:
            keys.append(key)
    for position, depth, backend in keys:
        dispatch = cells[(position, depth, backend, "run-time dispatch")]
        native = cells[(position, depth, backend, "target-cpu=native")]
        a, b = dispatch["median_mnps"], native["median_mnps"]
        spread = lambda r: f"{r['median_mnps']:.1f} ({min(r['mnps']):.1f} – {max(r['mnps']):.1f})"
        text += (
            f"| {position}, perft {depth} | {backend} | {spread(dispatch)} | {spread(native)} | "
            f"{a / b:.2f} |\n"
        )
    text += (
        f"\nMillions of leaf nodes per second, median of the runs (slowest – fastest in brackets). "
        f"Measured on {d['cpu']}, {d['rustc']}, {d['date']}, load average {d['load']} at the "
        f"start; {d['method']}; by `{d['command']}`.\n"
    )
    return text


def perft_ipc(d, path, report):
    """Instructions per leaf of the headline perfts (callgrind, `dispatch.json`'s `instructions`)
    beside their speed in the same build and the core clock of `qbb compare`: cycles per leaf and
    instructions per cycle."""
    source = f"reports/{d['machine']}/{path.name}"
    counted = d.get("instructions")
    ghz = report["machine"].get("clock_ghz")
    if not counted or not ghz:
        why = "no callgrind count (valgrind was missing or the report predates it)" if not counted \
            else "no measured core clock in its results.json"
        return (HEADER.format(source=f"`{source}`") +
                f"*`{source}` gives {why}: on that machine, `python3 book/tools/measure.py "
                f"{d['machine']} instructions` adds the counts.*\n")
    speed = {(r["position"], r["depth"], r["backend"]): r["median_mnps"]
             for r in d["rows"] if r["build"] == counted["build"]}
    text = HEADER.format(source=f"`{source}` and its `results.json`")
    text += ("| perft | backend | instructions per leaf | Mnps | cycles per leaf | "
             "instructions per cycle |\n| --- | --- | ---: | ---: | ---: | ---: |\n")
    for r in counted["rows"]:
        mnps = speed[(r["position"], r["depth"], counted["backend"])]
        cycles = ghz * 1000 / mnps
        text += (f"| {r['position']}, depth {r['depth']} | {counted['backend']} | "
                 f"{r['instructions_per_leaf']:.2f} | {mnps:.1f} | {cycles:.2f} | "
                 f"{r['instructions_per_leaf'] / cycles:.2f} |\n")
    text += (
        f"\nInstructions per leaf counted by {counted['valgrind']} "
        f"(`{counted['command']}`; the start-up taken off), of the binary the dispatch table times "
        f"({counted['build']}, {d['rustc']}); Mnps the median of that table; cycles per leaf the "
        f"core clock of `qbb compare`, {ghz:.2f} GHz, over the Mnps. Measured on {d['cpu']}; by "
        f"`{d['command']}`.\n"
    )
    return text


def wall_table(d, path):
    source = f"reports/{d['machine']}/{path.name}"
    wall = d["wall"]
    text = HEADER.format(source=f"`{source}`")
    text += (
        "| routine | scalar, inlined (ns) | avx2 inside the region (ns) | avx2 across the wall (ns) "
        "| across / inside |\n| --- | ---: | ---: | ---: | ---: |\n"
    )
    by = {(r["routine"], r["variant"]): r for r in wall["results"]}
    cell = lambda r: f"{format_ns(r['ns_per_call'])} ({format_ns(r['fastest'])} – {format_ns(r['slowest'])})"
    for routine in dict.fromkeys(r["routine"] for r in wall["results"]):
        scalar, inside, across = (by[(routine, v)] for v in ("scalar", "avx2-inside", "avx2-across"))
        text += (
            f"| `{routine}` | {cell(scalar)} | {cell(inside)} | {cell(across)} | "
            f"{format_ratio(across['ns_per_call'] / inside['ns_per_call'])}× |\n"
        )
    text += (
        f"\nNanoseconds per call over {wall['positions']} positions, median of {wall['rounds']} "
        f"rounds (fastest – slowest in brackets), the variants interleaved in every round. "
        f"Measured on {d['cpu']}, {d['rustc']}, {d['date']}; by `{d['wall_command']}`.\n"
    )
    return text


def dispatch_cost(d, path):
    """The engine under run-time dispatch against the native build, in two sentences: the widest
    backend the machine ran (where dispatch-once must cost nothing), then the others."""
    rows = d["rows"]
    cells = {(r["position"], r["depth"], r["backend"], r["build"]): r for r in rows}
    positions = list(dict.fromkeys((r["position"], r["depth"]) for r in rows))
    backends = [b for b in BACKENDS if any(r["backend"] == b for r in rows)]
    widest = backends[-1]

    def pair(position, backend):
        a = cells[(*position, backend, "run-time dispatch")]
        b = cells[(*position, backend, "target-cpu=native")]
        return a, b

    ratios = [a["median_mnps"] / b["median_mnps"] for a, b in (pair(p, widest) for p in positions)]
    overlap = lambda a, b: min(a["mnps"]) <= max(b["mnps"]) and min(b["mnps"]) <= max(a["mnps"])
    apart = [p for p in positions if not overlap(*pair(p, widest))]
    name = lambda p: p[0] if p[0] == "Kiwipete" else f"the {p[0]}"
    every = "both positions" if len(positions) == 2 else f"all {len(positions)} positions"
    text = HEADER.format(source=f"`reports/{d['machine']}/{path.name}`")
    text += (f"On the {widest} backend the shipped binary runs at {ratio_range(ratios)} of the "
             f"native build's speed")
    if not apart:
        text += (f", and the two builds are within each other's run-to-run spread on {every}: "
                 "dispatching once at the top of perft costs nothing measurable.")
    else:
        where = ("either position" if len(positions) == 2 else "any position") \
            if len(apart) == len(positions) else and_list(map(name, apart))
        text += (f"; the runs of the two builds do not overlap on {where}: there dispatching once "
                 "costs something measurable.")
    others = [b for b in backends if b != widest]
    if others:
        rest = [a["median_mnps"] / b["median_mnps"]
                for a, b in (pair(p, o) for p in positions for o in others)]
        text += (f" The {and_list(others)} backends run at {ratio_range(rest)} of the native "
                 "build's speed.")
    return text + "\n"


def wall_cost(d, path):
    """What the wall costs, in one sentence: across against inside, and against scalar inlined."""
    by = {(r["routine"], r["variant"]): r for r in d["wall"]["results"]}
    routines = list(dict.fromkeys(r["routine"] for r in d["wall"]["results"]))
    ratio = lambda routine: (by[(routine, "avx2-across")]["ns_per_call"]
                             / by[(routine, "avx2-inside")]["ns_per_call"])
    parts = [f"`{routines[0]}` takes {format_ratio(ratio(routines[0]))} times as long as inside "
             "the region"]
    parts += [f"`{r}` {format_ratio(ratio(r))} times" for r in routines[1:]]
    slower = [r for r in routines
              if by[(r, "avx2-across")]["ns_per_call"] > by[(r, "scalar")]["ns_per_call"]]
    text = HEADER.format(source=f"`reports/{d['machine']}/{path.name}`")
    text += f"Across the wall, {and_list(parts)}"
    if len(slower) == len(routines):
        both = "both are" if len(routines) == 2 else "all are"
        text += f"; {both} then slower than the scalar reference inlined into its loop."
    elif slower:
        text += (f"; {and_list(f'`{r}`' for r in slower)} then "
                 f"{'is' if len(slower) == 1 else 'are'} slower than the scalar reference "
                 "inlined into its loop.")
    else:
        text += "; neither is slower than the scalar reference inlined into its loop."
    return text + "\n"


# The benchmarks whose portable job the compiler left outside the AVX2 region until the fix that
# the dispatch chapter tells (found in the benchmark library's machine code, not measured).
INLINING_FIX = ["piece-at", "slider-attacks", "nibble-avg", "hash-manino"]


def inlining_fix(before_path, after_path, shown_as):
    """The portable backend's ratio over scalar before and after the fix, the AVX2 backend's beside
    it: two runs of one machine, each ratio taken within its own run."""
    before, after = (read_json(Path(p)) for p in (before_path, after_path))
    if before["machine"]["id"] != after["machine"]["id"]:
        raise SystemExit("generate: inlining-fix wants two reports of the same machine")
    ratio = lambda report, bench, backend: next(
        r["speedup_vs_scalar"] for r in report["results"]
        if r["benchmark"] == bench and r["backend"] == backend)
    machine = after["machine"]["id"]
    text = HEADER.format(source=f"`{shown_as}` and `reports/{machine}/results.json`")
    text += "| benchmark | portable before | avx2 before | portable after | avx2 after |\n"
    text += "| --- | ---: | ---: | ---: | ---: |\n"
    for bench in INLINING_FIX:
        cells = [f"{format_ratio(ratio(report, bench, backend))}×"
                 for report in (before, after) for backend in ("portable", "avx2")]
        text += f"| `{bench}` | " + " | ".join(cells) + " |\n"
    text += (
        f"\nNaive ratios over the scalar reference, each within its own run of "
        f"`reports/{machine}`. "
        f"Before: {before['machine']['date']}, load average {before['machine']['load']} at the "
        f"start (`{shown_as}`). After: {after['machine']['date']}, load average "
        f"{after['machine']['load']}.\n"
    )
    return text

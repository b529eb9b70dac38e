"""Generates the tables of how steady the timings are: how far the ratios move when the whole job
runs twice (before pairing and with the lab's timer), what a loaded turn does to each
implementation, the rows whose time moves most with the placement of their loop, the check of
what sets a report's noise floor (placement.json), and the checks of where each result lands
(stack.json) and of what a shared core does to the ratios (neighbour.json).
"""

from .formatting import and_list, decimals_by_magnitude, format_fraction, format_ns, format_ratio
from .inputs import HEADER, read_json
from .measurements import chosen_turns, counted_turns_text
from .model_comparison import median


def flipped(a, has_intervals):
    """How many verdicts changed sides between the runs, by the run's tie margin; in brackets, how
    many did by the intervals alone where that differs, or "no margin" where the run had none."""
    count = str(len(a["verdict_changes"]))
    if not has_intervals:
        return count
    margin = a.get("tie_margin") or 0.0
    if not margin:
        return f"{count} (no margin)"
    without = a.get("verdict_changes_without_margin")
    if without is None or len(without) == len(a["verdict_changes"]):
        return count
    return f"{count} ({len(without)} with no margin)"


def processes(a, before_pairing):
    """The processes a repeated run ran in, as a word: recorded in the agreement since the lab
    keeps it; before that, two for `reports/pairing-check.sh` (two `qbb compare` runs, always) and
    one for a report's own (`qbb compare --repeat 2`)."""
    count = a.get("processes") or (2 if before_pairing else 1)
    return {1: "one", 2: "two"}.get(count, str(count))


# How far apart two probe figures may lie and still be one state of the core: the lab's
# STATE_BAND (benches/src/neighbour.rs).
STATE_BAND = 0.1


def core_states(a):
    """Each run's usual probe figure and whether they were one state (every figure within the
    band of the first run's), as the lab's agreement says it; a dash for runs made before the
    agreement kept them."""
    figures = a.get("usual_states") or []
    if not figures:
        return "—"
    low, high = figures[0] * (1 - STATE_BAND), figures[0] * (1 + STATE_BAND)
    state = "one state" if all(low <= f <= high for f in figures[1:]) else "not one state"
    return f"{', '.join(f'{f:.1f}' for f in figures)}: {state}"


def agreement_table(reports_root):
    """How far the ratios moved when the whole job ran twice, on every machine that has a repeated
    run: with the timer before pairing (the report's `unpaired/` folder) and with the lab's timer
    (the report's own agreement)."""
    machines = []
    for report_file in sorted(reports_root.glob("*/results.json")):
        before_file = report_file.parent / "unpaired" / "results.json"
        before = read_json(before_file).get("agreement") if before_file.is_file() else None
        after = read_json(report_file).get("agreement")
        if before is not None or after is not None:
            machines.append((report_file.parent.name, before, after))
    if not machines:
        return ("*No report has a repeated run: `qbb compare --repeat 2` and "
                "`reports/pairing-check.sh MACHINE` write them.*\n")
    text = HEADER.format(source="`reports/*/results.json` and `reports/*/unpaired/results.json`")
    text += ("| machine | timer | processes | ratios | median | 90th pct. | largest | "
             "verdicts flipped | to or from a tie | usual core states |\n"
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
    for machine, before, after in machines:
        for name, a, paired in [("before pairing", before, False), ("the lab's", after, True)]:
            if a is not None:
                text += (f"| `{machine}` | {name} | {processes(a, not paired)} | {a['ratios']} | "
                         f"{a['median'] * 100:.1f} % | "
                         f"{a['p90'] * 100:.1f} % | {a['max'] * 100:.1f} % | "
                         f"{flipped(a, paired)} | {a['tie_changes']} | {core_states(a)} |\n")
    widest = lambda a: (f"{a['max'] * 100:.1f} % (`{a['widest'][0]['benchmark']}` on "
                        f"{a['widest'][0]['backend']}: {format_fraction(a['widest'][0]['first'])}× "
                        f"then {format_fraction(a['widest'][0]['other'])}×)")
    text += "\nThe largest difference:\n\n"
    for machine, before, after in machines:
        moved = " to ".join(widest(a) for a in (before, after) if a is not None)
        text += f"- on `{machine}`, {'from ' if before and after else ''}{moved};\n"
    text = text[:-2] + ".\n"
    reference = next(a for _, b, c in machines for a in (c, b) if a is not None)["reference"]
    text += (f"\nEach ratio is an implementation's speed-up over {reference} in the same "
             "benchmark, in the first run and in the second; the columns give how far the two "
             "differ, relative: at the median, the 90th percentile and the largest. *Before "
             "pairing*: a speed-up is the ratio of two medians over the run, each loop in one "
             "placement; *the lab's*: the median of the ratios of the turns its report counts "
             "(those in the run's usual state; in reports made before, the quietest third), four "
             "placements of each loop, turns until every interval is within ±2 %. A "
             "verdict is a speed-up over the baseline above 1 or below it by its interval, by "
             "more than the tie margin where the run had one (the timer before pairing had no "
             "intervals: no verdict of it is counted). The lab's "
             "runs are each report's own: two `qbb compare` runs, each in a process of its own, "
             "compared by `qbb report --agree-with` (`reports/machine-report.sh`), or where the "
             "processes column says one, the two runs of `qbb compare --repeat 2`, which share "
             "one process's memory layout; the others are two runs of the timer before pairing, "
             "two processes compared the same way (`reports/pairing-check.sh MACHINE`). The "
             "last column gives each run's usual probe figure (independent additions per ns), "
             "where the runs were probed, and whether they lie within a tenth of one another: "
             "runs in different states measured different cores, as far as the probe can "
             "tell.\n")
    return text


def load_table(reports_root):
    """What a loaded turn does to each implementation: for the benchmark of any report whose
    implementations were slowed most unevenly by the turns its figures leave out, each
    implementation's median time in the turns counted and in the others."""
    worst = None
    for report_file in sorted(reports_root.glob("*/results.json")):
        rows = [r for r in read_json(report_file)["results"] if chosen_turns(r)]
        for bench in sorted({r["benchmark"] for r in rows}):
            slowdowns = []
            for r in (r for r in rows if r["benchmark"] == bench):
                counted = set(chosen_turns(r))
                others = [t for i, t in enumerate(r["turn_ns"]) if i not in counted]
                if others:
                    slowdowns.append((r, median(sorted(others)) / r["ns_per_op"]))
            if len(slowdowns) > 1:
                uneven = max(s for _, s in slowdowns) / min(s for _, s in slowdowns)
                if worst is None or uneven > worst[0]:
                    worst = (uneven, report_file.parent.name, bench, slowdowns)
    if worst is None:
        return ("*No report names the turns its figures come from yet: `qbb compare` writes "
                "them (`usual_turns` in `results.json`).*\n")
    uneven, machine, bench, slowdowns = worst
    most, least = max(s for _, s in slowdowns), min(s for _, s in slowdowns)
    text = HEADER.format(source=f"`reports/{machine}/results.json`")
    text += ("| implementation | turns counted | the other turns | slower by | instructions per "
             "cycle |\n| --- | ---: | ---: | ---: | ---: |\n")
    for r, s in sorted(slowdowns, key=lambda x: x[1]):
        ipc = f"{r['ipc']:.2f}" if r.get("ipc") else "–"
        others = r["ns_per_op"] * s
        text += (f"| {r['backend']} | {format_ns(r['ns_per_op'])} | {format_ns(others)} | "
                 f"{(s - 1) * 100:.0f} % | {ipc} |\n")
    counted = counted_turns_text(r for r, _ in slowdowns)
    text += (f"\nNanoseconds per call of `{bench}` on `{machine}`: the median over the "
             f"benchmark's turns counted ({counted}) and over the other turns of the same run; of "
             f"every benchmark of every report, the one whose implementations the other turns "
             f"slowed most unevenly (the "
             f"largest slowdown, ×{most:.2f}, is {uneven:.2f} times the smallest, ×{least:.2f}). "
             f"Instructions per "
             f"cycle are from the turns counted and callgrind's count.\n")
    return text


def placement_spread(report, report_dir, shown=8):
    """The rows whose time moved most with the placement of their loop: each placement's median
    time, and how many rows moved by more than a tenth."""
    machine = report_dir.name
    rows = [r for r in report["results"] if r.get("placement_ns")]
    if not rows:
        return (f"*`reports/{machine}` was timed before the lab placed each loop four ways: "
                "`qbb compare` on that machine gives the placements' times.*\n")
    spread = lambda r: max(r["placement_ns"]) / min(r["placement_ns"]) - 1
    rows.sort(key=spread, reverse=True)
    places = len(rows[0]["placement_ns"])
    text = HEADER.format(source=f"`reports/{machine}/results.json`")
    text += ("| benchmark | on | " +
             " | ".join(f"+{16 * i}" for i in range(places)) + " | spread | cell |\n")
    text += "| --- | --- |" + " ---: |" * (places + 2) + "\n"
    for r in rows[:shown]:
        text += (f"| `{r['benchmark']}` | {r['backend']} | " +
                 " | ".join(format_ns(ns) for ns in r["placement_ns"]) +
                 f" | {spread(r) * 100:.0f} % | {format_ns(r['ns_per_op'])} |\n")
    wide = sum(1 for r in rows if spread(r) > 0.1)
    counted = counted_turns_text(rows)
    text += (f"\nNanoseconds per call. The {shown} rows of `{machine}`'s report whose time moved "
             f"most with the placement of their loop, of {len(rows)}; {wide} rows moved by more "
             f"than 10 %. Column +k is the copy moved k bytes on from a 64-byte boundary (before "
             f"the same prologue in every copy), its time the median over {counted}; the cell "
             f"is the table's time: the median over {counted} of each turn's median over "
             f"the placements.\n")
    return text


def placement_check(path):
    """The check of what sets a report's noise floor: the floor's pair timed again, built as
    usual and with every loop aligned to 64 bytes, beside where the kernel's loops begin."""
    command = "`reports/placement-check.sh <machine>`"
    if path is None:
        return f"*No report has a `placement.json` yet: {command} writes it.*\n"
    c = read_json(path)
    machine = path.parent.name
    on, source = c["pair"]["on"], c["pair"]["from"]
    report = c["report"]
    text = HEADER.format(source=f"`reports/{machine}/placement.json`")
    text += (f"| `{c['benchmark']}` | the two loops begin at (address mod 64) | {on} | {source} | "
             f"gap |\n| --- | --- | ---: | ---: | ---: |\n")
    text += (f"| the report's run | not recorded | {format_ns(report['ns_per_op'][on])} ns | "
             f"{format_ns(report['ns_per_op'][source])} ns | {report['noise'] * 100:.1f} % |\n")
    for b in c["builds"]:
        heads = " and ".join(str(loop["head_mod_64"]) for loop in b["loops"])
        flags = f" (`{b['rustflags']}`)" if b["rustflags"] else ""
        best = b["best_ns_per_op"]
        text += (f"| {b['name']}{flags} | {heads} | {format_ns(best[on])} ns | "
                 f"{format_ns(best[source])} ns | {b['gap'] * 100:.1f} % |\n")
    loop_bytes = c["builds"][0]["loops"][0]["bytes"]
    others = report["pairs"][1:]
    next_pair = (
        f" The next widest pair of that run, `{others[0]['benchmark']}` on {others[0]['on']} and "
        f"{others[0]['from']}, differs by {others[0]['gap'] * 100:.1f} %."
        if others else "")
    text += (
        f"\nMeasured on `{machine}`: `{c['benchmark']}` on {on}, which runs {source}'s code, the "
        f"pair that sets the floor of that machine's report ({len(report['pairs'])} pairs in its "
        f"run).{next_pair} In each build the two copies of the loop are the same {loop_bytes} "
        f"bytes up to their backward jump. {c['rounds']} rounds of `qbb compare --bench "
        f"{c['benchmark']}`, the builds alternating: the times are each side's best round, the gap "
        f"the median over the rounds of the two sides' ratio (a round times both in turns). "
        f"Commit {c['commit']}, {c['rustc']}; by `{c['command']}`.\n"
    )
    return text


def no_check_yet(file, script):
    """What a check's table says when no machine has run it: which command would."""
    return f"*No report has a `{file}` yet: `reports/{script} <machine>` writes it.*\n"


def several_machines_header(paths, file):
    """The generated-file header of a check's table, naming every machine's file it reads."""
    return HEADER.format(source=", ".join(f"`reports/{p.parent.name}/{file}`" for p in paths))


def stack_check(paths):
    """The check of where each result lands, on every machine that ran it: one benchmark timed
    in processes whose stacks begin 16 bytes apart over a page, with the lab before results were
    kept at the start of a page and with the lab since."""
    if not paths:
        return no_check_yet("stack.json", "stack-check.sh")
    text = several_machines_header(paths, "stack.json")
    text += ("| machine | lab | fastest | median | slowest | runs over 1.5× the median | "
             "speed-up over the baseline |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n")
    notes = []
    for path in paths:
        c = read_json(path)
        machine = path.parent.name
        for lab in c["labs"]:
            low, high = lab["speedups"]
            text += (f"| `{machine}` | {lab['lab']} (commit {lab['commit']}) | "
                     f"{format_ns(lab['fastest_ns'])} ns | {format_ns(lab['median_ns'])} ns | "
                     f"{format_ns(lab['slowest_ns'])} ns | {lab['slow_runs']} of "
                     f"{len(lab['runs'])} | {format_ratio(low)}× to {format_ratio(high)}× |\n")
        first = c["labs"][0]
        slow = [r["pad"] for r in first["runs"] if r["ns_per_op"] > 1.5 * first["median_ns"]]
        where = (f"; before, the slow runs were those padded by {slow[0]} to {slow[-1]} bytes"
                 if slow else "")
        notes.append(
            f"`{machine}`: `{c['benchmark']}` on {c['backend']}, paddings from 0 to "
            f"{first['runs'][-1]['pad']} bytes by {c['step_bytes']}{where}; {c['rustc']}; by "
            f"`{c['command']}`.")
    text += (
        "\nNanoseconds per call, one `qbb compare --quick --bench BENCH --backend BACKEND` per "
        "padding of the environment, the two labs taking turns at each; the speed-up is each run's "
        "own, over its baseline. " + " ".join(notes) + "\n")
    return text


# The estimates of neighbour.json, in the table's order, and their names in its sentences.
NEIGHBOUR_ESTIMATES = {
    "reported": "as reported",
    "alone": "alone",
    "shared": "shared",
    "all_turns": "every turn",
    "quietest_third_of_all": "quietest third of all",
    "quietest_third_of_usual": "quietest third of the usual state",
}


def known_estimates(runs, backend, estimate):
    """One implementation's estimate in each run that had the turns for it."""
    figures = (r["implementations"][backend].get(estimate) for r in runs)
    return [f for f in figures if f is not None]


def estimate_spread(runs, backend, estimate):
    """A table cell: the range of an estimate over the runs, and in how many it was made where
    some runs lacked the turns; three decimals below 1, two above, as the runs differ in the
    second."""
    known = known_estimates(runs, backend, estimate)
    if not known:
        return "—"
    low, high = (decimals_by_magnitude(f, 3) for f in (min(known), max(known)))
    cell = f"{low}×" if low == high else f"{low}× to {high}×"
    return cell if len(known) == len(runs) else f"{cell} ({len(known)} of the runs)"


def widest_move(runs, estimate):
    """How far one estimate moved over the runs: for the implementation that moved most, its
    highest ratio over its lowest, less 1, among the runs that had the turns for it."""
    per_backend = (known_estimates(runs, b, estimate) for b in runs[0]["implementations"])
    moves = [max(known) / min(known) - 1 for known in per_backend if len(known) > 1]
    return f"{max(moves) * 100:.1f} %" if moves else "—"


def widest_moves(runs):
    """How far each estimate moved over the runs ([`widest_move`])."""
    return ", ".join(f"{name} {widest_move(runs, e)}" for e, name in NEIGHBOUR_ESTIMATES.items())


def moves_within_states(runs):
    """Which state the lab's estimates came from (`usual_state`): where it was one state in every
    run, that state; where it was the alone one in some runs and the shared one in others, how far
    the reported ratios moved within each group of runs. Empty for a file written before the runs
    named their state."""
    alone = [r for r in runs if r.get("usual_state") == "alone"]
    shared = [r for r in runs if r.get("usual_state") == "shared"]
    if len(alone) == len(runs) or len(shared) == len(runs):
        state = "the alone one" if alone else "a shared one"
        return f"; the usual state the lab's estimates came from was {state} in every run"
    if not alone or not shared:
        return ""
    text = (f"; the usual state the lab's estimates came from was the alone one in {len(alone)} "
            f"runs and a shared one in the other {len(shared)}, and as reported moved by "
            f"{widest_move(alone, 'reported')} at most within the first and "
            f"{widest_move(shared, 'reported')} within the second")
    if len(shared) < 2:
        return text
    def moved(backend):
        known = known_estimates(shared, backend, "reported")
        return max(known) / min(known) if known else 1.0
    backend = max(shared[0]["implementations"], key=moved)
    each = and_list([f"{format_ratio(r['implementations'][backend]['reported'])}× at "
                     f"{r['probe_usual']:.2f}" for r in shared
                     if r["implementations"][backend]["reported"] is not None])
    return (text + f" ({backend} in the shared runs, with the usual probe figure: {each} "
            f"additions a nanosecond)")


def probe_median(runs, key):
    """The median over the runs of one state's probe figure, where any run had that state."""
    figures = sorted(r[key] for r in runs if r[key] is not None)
    return median(figures) if figures else None


def span(counts):
    """A range of whole numbers as words: "3 to 20", or one number where they are all alike."""
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low} to {high}"


def neighbour_check(paths):
    """The check of whether a shared core moves the ratios, on every machine that ran it: one
    benchmark in several processes, each run's speed-ups from the turns the core ran alone, from
    those it was shared, from every turn, from the quietest third of all turns and of those in
    the usual state, and as the lab reports them."""
    if not paths:
        return no_check_yet("neighbour.json", "neighbour-check.sh")
    text = several_machines_header(paths, "neighbour.json")
    text += ("| machine | implementation | as the lab reports it | turns alone | turns shared | "
             "every turn | quietest third of all turns | quietest third of the usual state |\n"
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    notes = []
    for path in paths:
        c = read_json(path)
        machine, runs = path.parent.name, c["runs"]
        for backend in runs[0]["implementations"]:
            cells = " | ".join(estimate_spread(runs, backend, e) for e in NEIGHBOUR_ESTIMATES)
            text += f"| `{machine}` | {backend} | {cells} |\n"
        alone = [r["alone_turns"] for r in runs]
        turns = [r["turns"] for r in runs]
        alone_probe = probe_median(runs, "probe_alone")
        shared_probe = probe_median(runs, "probe_shared")
        probes = f"about {alone_probe:.1f} additions a nanosecond alone" if alone_probe else ""
        if shared_probe:
            probes += (", " if probes else "about ") + f"{shared_probe:.1f} shared"
        notes.append(
            f"`{machine}`: {len(runs)} runs of `qbb compare --bench {c['benchmark']}`, speed-ups "
            f"over {c['reference']}; the core ran alone in {span(alone)} of {span(turns)} turns a "
            f"run ({probes}); the most any implementation's ratio moved over the runs, "
            f"{widest_moves(runs)}{moves_within_states(runs)}; commit {c['commit']}, "
            f"{c['rustc']}; by `{c['command']}`.")
    text += (
        "\nThe range over the runs of each estimate, every one the median of the paired ratios "
        "over its turns, all taken from the same turns of each run; a turn ran alone when its "
        "probe came within a tenth of the highest any run reached; — where no run had the six "
        "turns an estimate needs in that state (or, in a file written before the estimate, no run "
        "made it). " + " ".join(notes) + "\n")
    return text

"""Generates the tables of how steady the timings are: how far the ratios move when the whole job
runs twice (before pairing and paired), the rows whose time moves most with the placement of
their loop, and the check of what sets a report's noise floor (placement.json).
"""

import json

from .formatting import format_ns, format_ratio
from .inputs import HEADER, read_json


def agreement_table(report_dir, report):
    """How far the ratios moved when the whole job ran twice: with the timer before pairing (the
    report's `unpaired/` folder) and with the paired timer (the report's own agreement)."""
    machine = report_dir.name
    before_file = report_dir / "unpaired" / "results.json"
    before = json.loads(before_file.read_text()).get("agreement") if before_file.is_file() else None
    after = report.get("agreement")
    if before is None and after is None:
        return (f"*`reports/{machine}` has no repeated run: `qbb compare --repeat 2` and "
                f"`reports/pairing-check.sh {machine}` write them.*\n")
    text = HEADER.format(source=f"`reports/{machine}/results.json` and "
                                f"`reports/{machine}/unpaired/results.json`")
    text += ("| timer | ratios | median | 90th pct. | largest | verdicts flipped | "
             "to or from a tie |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for name, a in [("before pairing", before), ("paired", after)]:
        if a is None:
            continue
        text += (f"| {name} | {a['ratios']} | {a['median'] * 100:.1f} % | "
                 f"{a['p90'] * 100:.1f} % | {a['max'] * 100:.1f} % | "
                 f"{len(a['verdict_changes'])} | {a['tie_changes']} |\n")
    if before is not None and after is not None:
        text += (f"\nThe largest difference went from {before['max'] * 100:.1f} % "
                 f"(`{before['widest'][0]['benchmark']}` on {before['widest'][0]['backend']}: "
                 f"{format_ratio(before['widest'][0]['first'])}× then "
                 f"{format_ratio(before['widest'][0]['other'])}×) to {after['max'] * 100:.1f} % "
                 f"(`{after['widest'][0]['benchmark']}` on {after['widest'][0]['backend']}: "
                 f"{format_ratio(after['widest'][0]['first'])}× then "
                 f"{format_ratio(after['widest'][0]['other'])}×).\n")
    reference = (after or before)["reference"]
    text += (f"\nMeasured on `{machine}`: each ratio is an implementation's speed-up over "
             f"{reference} in the same benchmark, in the first run and in the second; the "
             "columns give how far the two differ, relative: at the median, the 90th percentile "
             "and the largest. *Before pairing*: a speed-up is the ratio of two medians over the "
             "run, each loop in one placement; *paired*: the median of the turns' ratios, four "
             "placements of each loop, turns until every interval is within ±2 %. A verdict is a speed-up "
             "over the baseline above 1 or below it by its interval (the timer before pairing "
             "had no intervals: no verdict of it is counted). The paired run is the report's own "
             "(`qbb compare --repeat 2`); the other is two runs of the timer before pairing "
             f"compared by `qbb report --agree-with` (`reports/pairing-check.sh {machine}`).\n")
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
    text += (f"\nNanoseconds per call. The {shown} rows of `{machine}`'s report whose time moved "
             f"most with the placement of their loop, of {len(rows)}; {wide} rows moved by more "
             f"than 10 %. Column +k is the copy moved k bytes on from a 64-byte boundary (before "
             f"the same prologue in every copy), its time the median over the turns; the cell is "
             f"the table's time: the median over the turns of each turn's median over the "
             f"placements.\n")
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

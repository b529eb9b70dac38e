#!/usr/bin/env python3
"""Sums fuzz/counts.tsv (written by fuzz/run.sh): executions per target over every run, and the
runs that failed.

    python3 fuzz/counts-total.py            # the table
    python3 fuzz/counts-total.py --readme   # the table and where the targets stand, written into
                                            # fuzz/README.md between its `counts` markers
"""
import sys
from collections import defaultdict
from pathlib import Path

TARGETS = ["fen", "epd", "uci", "network", "movelist"]
GOAL = 10_000_000
HERE = Path(__file__).parent
BEGIN, END = "<!-- counts: begin -->", "<!-- counts: end -->"


def totals():
    runs, seconds, failed = defaultdict(int), defaultdict(int), defaultdict(int)
    for line in (HERE / "counts.tsv").read_text().splitlines():
        _when, target, secs, count, status = line.split("\t")
        runs[target] += int(count)
        seconds[target] += int(secs)
        # "stopped": interrupted (SIGINT) before its time, without a finding.
        failed[target] += status not in ("0", "stopped")
    return runs, seconds, failed


def table(runs, seconds, failed):
    lines = ["| target | executions | seconds asked | failed runs |", "| --- | ---: | ---: | ---: |"]
    lines += [f"| {t} | {runs[t]:,} | {seconds[t]:,} | {failed[t]} |" for t in TARGETS]
    return "\n".join(lines)


def standing(runs):
    def names(ts):
        return ", ".join(f"`{t}`" for t in ts)
    done = [t for t in TARGETS if runs[t] >= GOAL]
    left = [t for t in TARGETS if runs[t] < GOAL]
    if not left:
        return f"Every target has passed the goal of {GOAL:,} executions."
    if not done:
        return f"No target has reached the goal of {GOAL:,} executions yet."
    return (f"The goal is {GOAL:,} executions per target: {names(done)} "
            f"{'has' if len(done) == 1 else 'have'} reached it; {names(left)} not yet.")


def main():
    runs, seconds, failed = totals()
    text = table(runs, seconds, failed)
    if sys.argv[1:] != ["--readme"]:
        print(text)
        return
    readme = HERE / "README.md"
    page = readme.read_text()
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{standing(runs)}\n\n{text}\n{END}{tail}")


main()

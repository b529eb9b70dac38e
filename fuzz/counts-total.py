#!/usr/bin/env python3
"""Sums fuzz/counts.tsv (written by fuzz/run.sh): executions per target over every run, and the
runs that failed.

    python3 fuzz/counts-total.py
"""
from collections import defaultdict
from pathlib import Path

TARGETS = ["fen", "epd", "uci", "network", "movelist"]

runs = defaultdict(int)
seconds = defaultdict(int)
failed = defaultdict(int)
for line in (Path(__file__).parent / "counts.tsv").read_text().splitlines():
    _when, target, secs, count, status = line.split("\t")
    runs[target] += int(count)
    seconds[target] += int(secs)
    failed[target] += status != "0"
print("| target | executions | seconds asked | failed runs |")
print("| --- | ---: | ---: | ---: |")
for target in TARGETS:
    print(f"| {target} | {runs[target]:,} | {seconds[target]:,} | {failed[target]} |")

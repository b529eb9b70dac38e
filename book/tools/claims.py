"""Checks the book's comparative sentences against the measurements.

A hand-written paragraph that compares implementations ("faster", "ties", "wins", ...) carries a
marker, an HTML comment the reader never sees, for each comparison it makes:

    <!-- claim nibble-add: avx2 ties swar-v3 -->
    <!-- claim to-mailbox: avx512 faster avx2 -->
    <!-- claim checks-and-pins amd-epyc-f25m1: avx2 fastest -->
    <!-- claim to-mailbox: avx512 faster hex-sets/portable -->

`BENCHMARK [MACHINE]: A RELATION [B]`, where RELATION is `faster`, `slower`, `ties`, `level` (A
over B within 3 %, the whole interval where there is one, however certain the difference),
`no-slower` (faster or tied), `fastest` or `slowest` (A is the fastest or the slowest, or tied with it), and MACHINE is a folder of
reports/ (by default the book's machine, the one its generated tables come from). B may be
another benchmark's row, `BENCHMARK/IMPLEMENTATION`. The check reads
that machine's results.json. Where both rows were timed in turns, A against B is the median of
the turns' ratios with the sign test's 95 % interval, as the lab computes speed-ups
(benches/src/estimate.rs): faster when the interval lies wholly above 1 by more than the report's
tie margin (`tie_margin`, 1 %), slower when wholly below it by more, a tie otherwise. Rows without
turns compare their medians, and a difference within the run's noise floor is a tie.

A paragraph of a technique chapter (or of the dispatch, representations, results, story, adding
a backend and NEON pages) that uses a comparative word and carries no marker is a problem too:
either the comparison is generated (an include), or it is marked and checked, or it is not
written. A paragraph whose comparisons are of something else than this book's measurements
(llvm-mca's predictions, given in the paragraph; instruction counts; another program) says so with
`<!-- not measured: WHAT IT COMPARES -->`.

Usage: claims.py BOOK_SRC REPORTS_DIR      (prints one line per problem; exits 1 if any)
"""

import json
import re
import sys
from pathlib import Path

from gen.machines import shown_machine
from gen.measurements import counted_times, interval_standing, paired_interval, tie_margin

RELATIONS = ("faster", "slower", "ties", "level", "no-slower", "fastest", "slowest")
LEVEL = 0.03
MARKER = re.compile(r"<!--\s*claim\s+([^:>]+?)\s*:\s*(.*?)\s*-->")
COMPARATIVE = re.compile(
    r"\b(faster|slower|quicker|wins?|won|loses|ties?|tied|beats?|outperforms?|ahead of|"
    r"behind|level with|as fast as|twice as|fastest|slowest)\b",
    re.IGNORECASE,
)
NOT_MEASURED = re.compile(r"<!--\s*not measured:\s*\S.*?-->")
CHECKED_PAGES = ("techniques/*.md", "dispatch.md", "representations.md", "results.md", "story.md",
                 "adding-a-backend.md", "neon-porting.md")


class Claim:
    def __init__(self, page, line, text, default_machine):
        self.page, self.line, self.text = page, line, text
        head, body = MARKER.match(text).groups()
        words = head.split()
        self.benchmark = words[0]
        self.machine = words[1] if len(words) > 1 else default_machine
        parts = body.split()
        if len(parts) < 2 or parts[1] not in RELATIONS:
            raise ValueError(f"wants `A RELATION [B]` with RELATION one of {', '.join(RELATIONS)}")
        self.subject, self.relation = parts[0], parts[1]
        self.other = parts[2] if len(parts) > 2 else None
        alone = self.relation in ("fastest", "slowest")
        if alone != (self.other is None) or len(parts) > 3:
            raise ValueError("`fastest` and `slowest` take no second implementation, the others one")

    def where(self):
        return f"{self.page}:{self.line}"


def noise_floor(report):
    return float(report.get("noise") or 0.0)


def speedup(a, b):
    """Row `a` over row `b`: (low, median, high), paired where both were timed in turns (over
    the turns the benchmark's figures come from, where the report names them)."""
    turns_a, turns_b = counted_times(a), counted_times(b)
    if turns_a and turns_b and len(turns_a) == len(turns_b):
        interval = paired_interval(turns_b, turns_a)
        if interval is not None:
            return interval
    ratio = b["ns_per_op"] / a["ns_per_op"]
    return ratio, ratio, ratio


def is_level(a, b):
    low, _, high = speedup(a, b)
    return 1 - LEVEL <= low and high <= 1 + LEVEL


def compare(report, a, b):
    """'faster', 'slower' or 'ties': row `a` against row `b` of one benchmark."""
    low, ratio, high = speedup(a, b)
    if low != high:
        standing = interval_standing(low, high, tie_margin(report))
        return {1: "faster", -1: "slower", 0: "ties"}[standing]
    floor = noise_floor(report)
    if max(ratio, 1 / ratio) - 1 <= floor:  # the floor is a gap: slower over faster, less 1
        return "ties"
    return "faster" if ratio > 1 else "slower"


def holds(claim, report):
    """None when the claim holds, else why not."""
    def rows_of(benchmark):
        return {r["backend"]: r for r in report["results"] if r["benchmark"] == benchmark}

    rows = rows_of(claim.benchmark)
    if not rows:
        return f"no benchmark `{claim.benchmark}` in reports/{claim.machine}/results.json"
    other_rows, other = rows, claim.other
    if other is not None and "/" in other:
        # Another benchmark's row (`hex-sets/scalar-v3`): its turns are not this row's, so the
        # two compare by their medians and the noise floor.
        other_benchmark, other = other.split("/", 1)
        other_rows = rows_of(other_benchmark)
    for name, where in ((claim.subject, rows), (other, other_rows)):
        if name is not None and name not in where:
            return f"no row `{name}` for that benchmark on {claim.machine}"
    subject = rows[claim.subject]
    if claim.relation in ("fastest", "slowest"):
        timed = [r for r in rows.values() if r.get("ns_per_op")]
        pick = min if claim.relation == "fastest" else max
        extreme = pick(timed, key=lambda r: r["ns_per_op"])
        if subject is extreme or compare(report, subject, extreme) == "ties":
            return None
        return f"the {claim.relation} is `{extreme['backend']}`, and `{claim.subject}` does not tie with it"
    against = other_rows[other]
    if other_rows is not rows:
        against = {k: v for k, v in against.items() if k != "turn_ns"}
    if claim.relation == "level":
        low, _, high = speedup(subject, against)
        if is_level(subject, against):
            return None
        return f"`{claim.subject}` over `{claim.other}` is {low:.3f} to {high:.3f}"
    found = compare(report, subject, against)
    wanted = {"no-slower": ("faster", "ties")}.get(claim.relation, (claim.relation,))
    if found in wanted:
        return None
    return f"the data says `{claim.subject}` {found} `{claim.other}`"


def prose_paragraphs(path):
    """(first line number, text) of each paragraph outside code blocks."""
    paragraph, start, in_code = [], 0, False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if re.match(r"\s*(```|~~~)", line):
            in_code = not in_code
            continue
        if in_code:
            continue
        if line.strip():
            if not paragraph:
                start = number
            paragraph.append(line)
        elif paragraph:
            yield start, "\n".join(paragraph)
            paragraph = []
    if paragraph:
        yield start, "\n".join(paragraph)


def book_machine(src):
    """The report folder the book's generated tables name (book/generate.sh's MACHINE)."""
    machine = shown_machine(src / "generated")
    if machine is None:
        raise ValueError("generated/results/verdict.md names no reports/<machine>/results.json")
    return machine


def check(src, reports):
    problems, claims = [], []
    machine = book_machine(src)
    pages = sorted({p for pattern in CHECKED_PAGES for p in src.glob(pattern)})
    for page in pages:
        rel = page.relative_to(src)
        for line, text in prose_paragraphs(page):
            markers = list(MARKER.finditer(text))
            visible = MARKER.sub("", re.sub(r"`[^`]*`", "", text))
            if "{{#include" in visible:
                continue
            exempt = NOT_MEASURED.search(text)
            if not markers and not exempt and COMPARATIVE.search(visible):
                word = COMPARATIVE.search(visible).group(0)
                problems.append(f"{rel}:{line}: compares (`{word}`) without a claim marker")
            for m in markers:
                at = line + text[: m.start()].count("\n")
                try:
                    claims.append(Claim(rel, at, m.group(0), machine))
                except ValueError as e:
                    problems.append(f"{rel}:{at}: {m.group(0)}: {e}")
    reports_by_machine = {}
    for claim in claims:
        path = reports / claim.machine / "results.json"
        if claim.machine not in reports_by_machine:
            if not path.is_file():
                problems.append(f"{claim.where()}: no {path}")
                reports_by_machine[claim.machine] = None
                continue
            reports_by_machine[claim.machine] = json.loads(path.read_text())
        report = reports_by_machine[claim.machine]
        if report is None:
            continue
        why = holds(claim, report)
        if why:
            problems.append(f"{claim.where()}: {claim.text}: false: {why}")
    return problems, len(claims)


def main(argv):
    if len(argv) != 3:
        print("usage: claims.py BOOK_SRC REPORTS_DIR", file=sys.stderr)
        return 2
    problems, count = check(Path(argv[1]), Path(argv[2]))
    for p in problems:
        print(f"book: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"claims: {count} comparative claims checked against the measurements, all hold")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

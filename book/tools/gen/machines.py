"""Generates results/machines.md, every machine that has a report side by side (what each is, and
per benchmark its fastest implementation and speed-up over the baseline), and chooses the machine
the book shows when generate.sh is given none (`default-machine`).
"""

import re
from pathlib import Path

from .formatting import format_noise, format_ratio
from .inputs import HEADER, read_json
from .measurements import by_benchmark, fastest_text, is_fair, per_call, timed


def read_reports(report_dirs):
    """The results.json of each folder that has one, as (folder, report)."""
    found = []
    for d in report_dirs:
        path = Path(d) / "results.json"
        if path.exists():
            found.append((Path(d), read_json(path)))
    return found


def shown_machine(generated):
    """The report folder the book's generated tables name now (generate.sh's MACHINE last time),
    from `generated`/results/verdict.md; None before the first generation."""
    path = Path(generated) / "results" / "verdict.md"
    if not path.exists():
        return None
    found = re.search(r"`reports/([^/`]+)/results\.json`", path.read_text())
    return found.group(1) if found else None


# The files of a report the book reads besides results.json (`results` stops without them).
BOOK_NEEDS = ["dispatch.json", "perft.json"]


def default_machine(reports_root, shown=None):
    """The report the book shows when generate.sh is given none. The one it shows now (`shown`,
    the machine its generated verdicts name) while that report is complete: the prose's claims are
    about that machine, so a new report changes it only when generate.sh is given its name.
    Otherwise a complete one (results.json and BOOK_NEEDS) before an incomplete one, then one with
    baselines before one without, then the one that times the most backends (a CPU with AVX-512
    times avx512 too), then the most recently measured (by the date the report records, not the
    file's)."""
    found = read_reports(sorted(Path(reports_root).iterdir()))
    if not found:
        raise SystemExit(f"generate: no {reports_root}/<machine>/results.json; run `qbb compare` first")
    for folder, report in found:
        if report["machine"]["id"] == shown and all((folder / n).exists() for n in BOOK_NEEDS):
            return shown

    def rank(f):
        folder, report = f
        complete = all((folder / name).exists() for name in BOOK_NEEDS)
        backends = {r["backend"] for r in timed(report["results"])}
        return (complete, is_fair(report), len(backends), report["machine"]["date"])

    _, report = max(found, key=rank)
    return report["machine"]["id"]


def machine_cell(report, bench):
    """One machine's answer for one benchmark: the fastest implementation (and those tied with
    it), its speed-up over the baseline and its cycles; the naive ratio, marked, for an older
    report."""
    rows = [r for r in report["results"] if r["benchmark"] == bench]
    if not timed(rows):
        return "not measured"
    best = min(timed(rows), key=lambda r: r["ns_per_op"])
    fastest = fastest_text(rows, report.get("noise"))
    if not is_fair(report):
        naive = best.get("speedup_vs_scalar")
        ratio = f"{format_ratio(naive)}× over scalar (naive)" if naive else "no ratio"
        return f"{fastest} {ratio}"
    if best["backend"] == best["baseline"]:
        return f"{fastest}, the baseline, {per_call(best)}"
    if best["baseline"] in fastest.split(" = "):
        return f"{fastest}, a tie with the baseline, {per_call(best)}"
    return (
        f"{fastest} {format_ratio(best['speedup_vs_baseline'])}× over {best['baseline']}, "
        f"{per_call(best)}"
    )


def machines_page(report_dirs):
    """The machines that have a report, side by side: what each is, and per benchmark the fastest
    implementation and its speed-up over the baseline on each (the naive ratio, marked, where a
    report predates the baselines)."""
    found = sorted(read_reports(report_dirs), key=lambda f: f[1]["machine"]["id"])
    if not found:
        raise SystemExit("generate: machines: no results.json in the folders given")
    text = HEADER.format(source=", ".join(f"`reports/{r['machine']['id']}/results.json`" for _, r in found))
    if len(found) < 2:
        return text + (
            f"Only one machine has a report so far, `reports/{found[0][1]['machine']['id']}`. When "
            "a second one does, this section compares them side by side.\n"
        )
    reports = [r for _, r in found]
    text += "| | " + " | ".join(f"`{r['machine']['id']}`" for r in reports) + " |\n"
    text += "| --- |" + " --- |" * len(reports) + "\n"

    def clock(r):
        ghz = r["machine"].get("clock_ghz")
        return f"{ghz:.2f} GHz" if ghz else "not measured"

    def noise(r):
        if not is_fair(r):
            return "not measured"
        return format_noise(r["noise"]) if r.get("noise") is not None else "not measured"

    for key, value in [
        ("CPU", lambda r: f"{r['machine']['cpu']} ({r['machine']['cpu_details']})"),
        ("features it lacks", lambda r: ", ".join(r["machine"]["missing_features"]) or "none"),
        ("core clock", clock),
        ("noise floor", noise),
        ("compiler", lambda r: r["machine"]["rustc"]),
        ("date (UTC)", lambda r: r["machine"]["date"]),
        ("speed-ups", lambda r: "over the baseline" if is_fair(r)
         else "naive only: the report predates the baselines"),
    ]:
        text += f"| {key} | " + " | ".join(value(r) for r in reports) + " |\n"

    benches = []
    for r in sorted(reports, key=lambda r: -len(r["results"])):
        benches += [b for b in by_benchmark(r["results"]) if b not in benches]
    text += "\n| benchmark | " + " | ".join(f"`{r['machine']['id']}`" for r in reports) + " |\n"
    text += "| --- |" + " --- |" * len(reports) + "\n"
    for bench in benches:
        text += f"| `{bench}` | " + " | ".join(machine_cell(r, bench) for r in reports) + " |\n"
    text += (
        "\nEach cell: the fastest implementation on that machine (`a = b` where another is within "
        "the run's noise floor of it), its speed-up over the benchmark's baseline on that machine "
        "and its time per call, in cycles where the report measured the clock. A report made "
        "before the baselines existed gives only the naive ratio over the scalar reference, marked "
        "(naive): it is not comparable with a speed-up over the baseline, and says more about "
        "`popcnt` and the reference's plainness than about SIMD.\n"
    )
    return text

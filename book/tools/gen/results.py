"""Generates results/ and charts/ for the machine the book shows (the `results` command): the
measured tables per chapter and where they come from, the overview, the verdicts, the instruction
counts, the machine, the dispatch, perft and noise tables from the report's other files, and the
charts as the lab drew them; a benchmark the report lacks gets a line that says where it was
measured instead, in its table's place and its chart's.
"""

import html
import shutil
import sys

from .catalogue import BACKENDS, GROUPS
from .dispatch import dispatch_cost, dispatch_table, perft_ipc, wall_cost, wall_table
from .inputs import HEADER, OUT, REPO, read_json, required_json, write
from .measurements import ipc_of, is_fair, not_measured, timed
from .noise import (agreement_table, load_table, neighbour_check, placement_check,
                    placement_spread, stack_check)
from .perft import perft_attacks_table, perft_margins, perft_steps_table, perft_table, threads_table
from .tables import (MeasuredReport, chapter_benchmarks, clock_line, conversions_table,
                     instructions_line, instructions_overview, machine_line, machine_table,
                     noise_line, overview_table, ratio_line)
from .verdicts import benchmark_verdicts, counts_and_time, verdict


NO_COUNTS_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="40" viewBox="0 0 640 40">'
    '<text x="10" y="25" font-family="sans-serif" font-size="14">No instruction counts in this '
    "report: valgrind did not run on its machine.</text></svg>\n"
)


NOT_MEASURED_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="40" viewBox="0 0 640 40">'
    '<rect width="640" height="40" fill="#fff"/>'
    '<text x="10" y="25" font-family="sans-serif" font-size="14">{text}</text></svg>\n'
)


def measured_in(bench):
    """The folders of reports/ whose results.json has a timed row of `bench`."""
    found = []
    for path in sorted((REPO / "reports").glob("*/results.json")):
        rows = read_json(path).get("results", [])
        if any(r.get("benchmark") == bench for r in timed(rows)):
            found.append(path.parent.name)
    return found


def not_yet_measured(bench, machine_id):
    """What stands in a chapter where the table of a benchmark the report lacks would be."""
    elsewhere = [m for m in measured_in(bench) if m != machine_id]
    if elsewhere:
        where = ", ".join(f"`reports/{m}`" for m in elsewhere)
        return (f"*Not in `reports/{machine_id}`, the report this book shows; measured in "
                f"{where} (`book/generate.sh MACHINE` shows that report instead).*\n")
    return (f"*Not yet measured on a committed machine: no report in `reports/` has a row of "
            f"`{bench}`. Run `cargo run --release -p qbb-lab -- compare` (or `compare --bench "
            f"{bench}` for this benchmark alone) to measure it on yours.*\n")


def own_or_newest(report_dir, name):
    """`report_dir`'s file `name`, or else the one of any report measured last, by the date the
    file records (a file without one counts as oldest; ties go to the folder named last), so that
    every checkout picks the same; None when no report has it."""
    def measured(path):
        return (str(read_json(path).get("date") or ""), path.parent.name)
    others = sorted(REPO.glob(f"reports/*/{name}"), key=measured, reverse=True)
    return next((f for f in [report_dir / name] + others if f.is_file()), None)


def write_chapter_tables(measured, out):
    """One file per chapter: the tables of its routines' benchmarks, and in the place of a
    routine the report has not measured, a line that says where it was; returns those routines."""
    unmeasured = []
    for anchor, _row, probes in GROUPS:
        text = HEADER.format(source=measured.sources)
        for bench in chapter_benchmarks(probes):
            if bench not in measured.by_bench:
                if not bench.endswith("-latency"):
                    # A routine newer than the report: say so where its table would be.
                    print(f"generate: {measured.source} has no benchmark {bench}", file=sys.stderr)
                    unmeasured.append(bench)
                    text += f"**`{bench}`** (throughput):\n\n"
                    text += not_yet_measured(bench, measured.machine_id) + "\n"
                continue
            kind = "latency" if bench.endswith("-latency") else "throughput"
            text += f"**`{bench}`** ({kind}):\n\n"
            text += measured.table(bench) + "\n"
        write(out / f"{anchor}.md", text.rstrip("\n") + "\n")
    return unmeasured


def provenance_link(measured):
    """What each chapter says of its tables' origin, after its last table: the machine in a few
    words and a link to the one page that says the rest (the results page)."""
    m = measured.report["machine"]
    return HEADER.format(source=measured.sources) + (
        f"Measured on `{measured.machine_id}` ({m['cpu']}, {m['cpu_details'].split(', ')[0]}, "
        f"{m['cpu_details'].split(', ')[1]}): [where these numbers come from]"
        "(../results.md#where-the-numbers-come-from).\n"
    )


def provenance(measured):
    """Where the chapter tables come from, in full: once, on the results page."""
    report, rows = measured.report, measured.report["results"]
    with_ipc = any(ipc_of(r, measured.counts_by_bench.get(r["benchmark"], {}).get(r["backend"]))
                   is not None for r in rows)
    text = HEADER.format(source=measured.sources)
    text += machine_line(report) + "\n\n"
    text += " ".join(part for part in (ratio_line(report), clock_line(report)) if part) + "\n\n"
    if is_fair(report):
        text += noise_line(report) + "\n\n"
    text += instructions_line(measured.counts, with_ipc) + "\n"
    present = {r["backend"] for r in rows}
    absent = [b for b in BACKENDS if b not in present]
    if absent:
        text += "\n" + " ".join(
            f"The {b} backend has no row: {not_measured(b, report).removeprefix('not run: ')}."
            for b in absent
        ) + "\n"
    return text


def write_report_pages(measured, unmeasured, out):
    """The pages over the whole report: the verdicts, the overview, the conversions, the machine
    and the instruction counts."""
    report, source, machine_id = measured.report, measured.source, measured.machine_id
    for bench in unmeasured:
        write(out / "verdicts" / f"{bench}.md", HEADER.format(source=f"`{source}`") + (
            f"`reports/{machine_id}/results.json` has no row of `{bench}`, so there is no "
            "measured verdict on it here.\n"))
    write(out / "conversions.md", conversions_table(report, source))
    write(out / "overview.md", overview_table(report, source))
    write(out / "verdict.md", verdict(report, source))
    write(out / "counts_and_time.md", counts_and_time(report, measured.counts, measured.sources))
    write(out / "machine.md", machine_table(report, source))
    for bench, text in benchmark_verdicts(report, measured.counts_by_bench, measured.sources).items():
        write(out / "verdicts" / f"{bench}.md", text)
    if measured.counts is not None:
        write(out / "instructions.md", instructions_overview(measured.counts, measured.counts_source))
    else:
        no_counts = HEADER.format(source=f"`{source}`") + instructions_line(None) + "\n"
        write(out / "instructions.md", no_counts)
        # The results page shows the chart of the counts: say in its place that there is none.
        write(OUT / "charts" / "instructions.svg", NO_COUNTS_SVG)


def write_engine_pages(measured, out):
    """The engine's pages, from the report's other files: dispatch, the wall, perft against the
    crates, threads, and how steady the timings are."""
    report_dir, report, machine_id = measured.dir, measured.report, measured.machine_id
    # The engine under run-time dispatch against the same engine built for this CPU.
    measure = f"`python3 book/tools/measure.py {machine_id}`"
    dispatch_file = report_dir / "dispatch.json"
    dispatch = required_json(dispatch_file, measure)
    write(out / "dispatch.md", dispatch_table(dispatch, dispatch_file))
    write(out / "perft-ipc.md", perft_ipc(dispatch, dispatch_file, report))
    write(out / "wall.md", wall_table(dispatch, dispatch_file))
    write(out / "dispatch-cost.md", dispatch_cost(dispatch, dispatch_file))
    write(out / "wall-cost.md", wall_cost(dispatch, dispatch_file))
    perft_file = report_dir / "perft.json"
    perft = required_json(perft_file, measure)
    write(out / "perft.md", perft_table(perft, perft_file, machine_id))
    write(out / "perft-margins.md", perft_margins(perft, perft_file, machine_id))
    # Perft on one thread and on every core: this machine's, or the newest report that has it.
    write(out / "threads.md", threads_table(own_or_newest(report_dir, "threads.json"), measure))
    # How far the ratios move from one run of the job to the next, before pairing and after.
    write(out / "agreement.md", agreement_table(report_dir.parent))
    write(out / "load.md", load_table(report_dir.parent))
    write(out / "placement-spread.md", placement_spread(report, report_dir))
    # What sets the noise floor: this machine's check, or the newest report that has one.
    write(out / "placement.md", placement_check(own_or_newest(report_dir, "placement.json")))
    # Where each result lands: every machine's check, since which cores pay for it is the point.
    write(out / "stack.md", stack_check(sorted(REPO.glob("reports/*/stack.json"))))
    # What a shared core does to the ratios: every machine's check, as the cores' neighbours differ.
    write(out / "neighbour.md", neighbour_check(sorted(REPO.glob("reports/*/neighbour.json"))))
    # The same race with every crate built for this CPU, where the machine's report has it.
    native_file = report_dir / "perft-native.json"
    if native_file.is_file():
        native = read_json(native_file)
        write(out / "perft-native-margins.md", perft_margins(native, native_file, machine_id))
    else:
        write(out / "perft-native-margins.md", (
            f"*`reports/{machine_id}` has no `perft-native.json` (the race with the crates built "
            f"for this CPU too): {measure} writes it.*\n"
        ))
    write(out / "perft-attacks.md", perft_attacks_table(perft, perft_file, machine_id))
    # The move generator's speed work, step by step: this machine's, or the newest report's.
    write(out / "perft-steps.md", perft_steps_table(own_or_newest(report_dir, "perft-steps.json")))


def copy_charts(measured, unmeasured):
    """The book machine's overview and instruction charts, as the lab drew them; for a routine
    the report has not measured, one line that says so (`qbb charts`, which generate.sh runs next,
    draws every benchmark's chart from all the reports)."""
    report_dir = measured.dir
    charts = OUT / "charts"
    charts.mkdir(parents=True, exist_ok=True)
    for name in ("overview.svg", "instructions.svg"):
        if (report_dir / name).exists() and (name != "instructions.svg" or measured.counts is not None):
            shutil.copy(report_dir / name, charts / name)
    for bench in unmeasured:
        if not (charts / f"{bench}.svg").exists():
            write(charts / f"{bench}.svg", NOT_MEASURED_SVG.format(
                text=html.escape(f"{bench}: no report measures it yet")))


def write_results(report_dir):
    """results/ and charts/ for the machine the book shows."""
    measured = MeasuredReport(report_dir)
    if measured.counts is None:
        # The instruction counts of the same benchmarks (callgrind) stand beside the times; a
        # report made where valgrind does not run has none.
        print(f"generate: {measured.counts_path} is missing: the tables have no instruction "
              "counts (the callgrind bench and `qbb instructions` write it; reports/README.md "
              "says how)", file=sys.stderr)
    out = OUT / "results"
    unmeasured = write_chapter_tables(measured, out)
    write(out / "provenance.md", provenance_link(measured))
    write(out / "provenance-full.md", provenance(measured))
    write_report_pages(measured, unmeasured, out)
    write_engine_pages(measured, out)
    copy_charts(measured, unmeasured)

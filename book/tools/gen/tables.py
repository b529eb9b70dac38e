"""Generates the measured tables of a report: one table per benchmark (the median, the speed-up
over the baseline with its interval, cycles, instructions per cycle, whose code ran; folded under
it the spread of the samples, the naive ratio and the instructions per call), the sentences that say where their numbers come from, the overview of every benchmark,
the instruction counts, the conversions between representations and the machine's own table; and
the `tables` command, which writes another machine's tables per chapter under
results/<machine>/ for the step-by-step sections.
"""

import re
from pathlib import Path

from .catalogue import BACKENDS, GROUPS, label, ordered, routine_id
from .formatting import (and_list, format_fraction, format_ipc, format_noise,
                         format_ns, format_ratio, format_speedup)
from .inputs import HEADER, OUT, read_json, write
from .measurements import (COUNTED_ANOTHER_COPY, by_benchmark, counted_another_copy, fastest_text,
                           instructions_of, interval_tie_text, ipc_of, is_fair, is_paired, per_call,
                           tie_margin, tied_fastest, timed, unmeasured_line)


def code_cell(row, reasons):
    """Whose code ran, short; an inherited row's reason goes to `reasons`, under the table."""
    support = row["support"]
    inherited = re.fullmatch(r"inherited: from (\w+) \((.*)\)", support)
    if inherited:
        reasons.append(f"{row['backend']} runs {inherited.group(1)}'s code ({inherited.group(2)})")
        return f"inherited from {inherited.group(1)}"
    return support.removeprefix("raised: ")


def benchmark_table(rows, report, counts):
    """One benchmark, every implementation, in two parts. The table holds what a reader compares at
    a glance: the median time per call, the speed-up over the baseline with its 95 % interval (the
    headline), cycles and instructions per cycle, whose code ran. Under it, folded, each
    implementation's detail: the fastest and slowest sample, how many samples of how many calls,
    the naive ratio over the scalar reference and the instructions of a call. A column nobody fills
    is left out; a report without baselines keeps its naive ratio in the table, its only ratio."""
    fair = is_fair(report)
    by_backend = {r["backend"]: r for r in rows}
    tied = {r["backend"] for r in tied_fastest(rows, report.get("noise"))}
    baseline = next((r["baseline"] for r in rows if r.get("baseline")), None)
    count = lambda r: counts.get(r["backend"])
    other_copy = [r["backend"] for r in rows if counted_another_copy(r)
                  and instructions_of(r, count(r)) is not None]

    def ns(r):
        text = format_ns(r["ns_per_op"])
        return f"**{text}**" if r["backend"] in tied else text

    def headline(r):
        if r["backend"] == baseline:
            return "1 (baseline)"
        ratio = r.get("speedup_vs_baseline")
        if not ratio:
            return ""
        interval = r.get("speedup_interval")
        if not interval:
            return f"{format_fraction(ratio)}×"
        return format_speedup(ratio, interval, tie_margin(report))

    def naive(r):
        if r["backend"] == "scalar":
            return "1 (reference)"
        ratio = r.get("speedup_vs_scalar")
        return f"{format_ratio(ratio)}×" if ratio else ""

    def optional(value, fmt):
        return lambda r: fmt(value(r)) if value(r) is not None else ""

    def name(r):
        return label(r["backend"]) + (" °" if r["backend"] == baseline else "")

    def spread(r):
        return f"{format_ns(r['ns_min'])} – {format_ns(r['ns_max'])}"

    def instructions(r):
        return (optional(lambda r: instructions_of(r, count(r)), format_ns)(r)
                + (" ‡" if r["backend"] in other_copy else ""))

    def ipc(r):
        if r["backend"] in other_copy:
            return "‡"
        return optional(lambda r: ipc_of(r, count(r)), format_ipc)(r)

    reasons = []
    columns = [("implementation", "---", name), ("ns per call (median)", "---:", ns)]
    if fair:
        paired = any(r.get("speedup_interval") for r in rows)
        columns.append(("speed-up over the baseline" + (" (95\u00a0% interval)" if paired else ""),
                        "---:", headline))
    if any(r.get("cycles_per_op") for r in rows):
        columns.append(("cycles per call", "---:", optional(lambda r: r.get("cycles_per_op"), format_ns)))
    if not fair:
        columns.append(("naive ratio: over scalar", "---:", naive))
    if any(ipc_of(r, count(r)) is not None for r in rows):
        columns.append(("instructions per cycle", "---:", ipc))
    columns.append(("code", "---", lambda r: code_cell(r, reasons)))

    detail = [("implementation", "---", name), ("fastest – slowest sample, ns", "---:", spread)]
    if any(r.get("samples") for r in rows):
        detail.append(("samples", "---:", optional(lambda r: r.get("samples"), str)))
    if any(r.get("calls_per_sample") for r in rows):
        detail.append(("calls per sample", "---:",
                       optional(lambda r: r.get("calls_per_sample"), lambda n: f"{n:,}".replace(",", " "))))
    if fair:
        detail.append(("naive ratio: over scalar", "---:", naive))
    if any(instructions_of(r, count(r)) is not None for r in rows):
        detail.append(("instructions per call", "---:", instructions))

    text = measured(markdown_table(columns, [by_backend[b] for b in ordered(by_backend)]))
    # One short paragraph under the table: the baseline, a tie, the inherited rows' reasons, the
    # backends left out.
    notes = ""
    if baseline:
        notes += f"*° The baseline: `{baseline}`, the fastest scalar-class implementation here.*\n"
    if len(tied) > 1:
        rule = (f"their paired interval with the fastest {interval_tie_text(report)}"
                if is_paired(report) else "within the noise floor")
        notes += f"*In bold, tied ({rule}): {and_list(ordered(tied))}.*\n"
    notes += "".join(f"*{reason}.*\n" for reason in reasons)
    if other_copy:
        notes += f"*{COUNTED_ANOTHER_COPY}.*\n"
    notes += unmeasured_line([b for b in BACKENDS if b not in by_backend], report)
    if notes:
        text += "\n" + notes
    # mdBook renders the markdown inside <details> when blank lines set it apart from the tags.
    text += ("\n<details class=\"measured\">\n"
             "<summary>Samples, the naive ratio and instruction counts</summary>\n\n"
             + markdown_table(detail, [by_backend[b] for b in ordered(by_backend)])
             + "\n</details>\n")
    return text


def markdown_table(columns, rows):
    """A markdown table: `columns` are (title, alignment, cell function) and `rows` its rows."""
    text = "| " + " | ".join(title for title, _, _ in columns) + " |\n"
    text += "|" + "|".join(f" {align} " for _, align, _ in columns) + "|\n"
    for r in rows:
        text += "| " + " | ".join(cell(r) for _, _, cell in columns) + " |\n"
    return text


def measured(table):
    """A table of measurements in a block of its own, which the book's style keeps to one line a
    row (`.measured` in book/theme/lab.css); mdBook renders the markdown inside an HTML block that
    blank lines set apart."""
    return f'<div class="measured">\n\n{table}\n</div>\n'


def machine_line(report):
    m = report["machine"]
    return (
        f"Measured on {m['cpu']} ({m['cpu_details']}), {m['os']}; {m['rustc']}, {m['flags']}; "
        f"{m['date']}, load average {m['load']} at the start; by `{report['source']}` over "
        f"{report['corpus']}."
    )


def clock_line(report):
    """How cycles were reckoned, in one sentence (empty for a report without a clock)."""
    m = report["machine"]
    ghz = m.get("clock_ghz")
    if not ghz:
        return ""
    samples = [f"{g:.2f}" for g in m.get("clock_samples_ghz", [])]
    timed_at = f" ({and_list(samples)} GHz)" if samples else ""
    return (
        f"Cycles per call are the nanoseconds times the core clock, {ghz:.2f} GHz: a chain of "
        f"dependent additions, one per cycle, timed before and after the run{timed_at}."
    )


def noise_line(report):
    """The noise floor and what it decides, in one sentence."""
    noise = report.get("noise")
    if is_paired(report):
        floor = (f" The widest gap between two timings of the same machine code (a backend that "
                 f"inherits a routine where neither adds target features) is {format_noise(noise)}."
                 if noise is not None else "")
        return (
            "Each speed-up is the median of ratios taken within turns (every implementation timed "
            "once per turn, in each of four placements of its loop), with a 95 % interval; a time "
            f"whose paired interval with the fastest {interval_tie_text(report)} is a tie, in bold "
            "with it." + floor
        )
    if noise is None:
        return "This run timed no routine twice, so it has no noise floor: only the fastest time is in bold."
    return (
        f"The noise floor of the run is {format_noise(noise)}: the largest difference between two "
        f"timings of the same machine code (a backend that inherits a routine where neither adds "
        f"target features); a time within it of the fastest is a tie, in bold with it."
    )


def ratio_line(report):
    """Which ratio the tables lead with, in one or two sentences."""
    if not is_fair(report):
        return (
            "This report predates the baselines, the core clock and the noise floor: its only "
            "ratio is the naive one, over the scalar reference, labelled so; no table of it shows "
            "a speed-up over the best scalar-class code, and only the fastest time is in bold."
        )
    return (
        "Each speed-up is over the benchmark's baseline (°), the fastest of its scalar-class "
        "implementations: scalar and SWAR, each built for baseline x86-64 and for x86-64-v3 "
        "(`scalar-v3`, `swar-v3`). The naive ratio over the scalar reference has a column of its own."
    )


def instructions_line(counts, with_ipc=False):
    """Where the instruction counts come from, in one sentence."""
    if counts is None:
        return "No instruction counts: this report has no `instructions.json` (valgrind did not run)."
    compilers = {}
    for c in counts["results"]:
        compilers.setdefault(c["rustc"], [])
        if c["backend"] not in compilers[c["rustc"]]:
            compilers[c["rustc"]].append(c["backend"])
    built = "; ".join(f"{rustc} for {', '.join(b)}" for rustc, b in compilers.items())
    ipc = " Instructions per cycle: that count over the cycles per call." if with_ipc else ""
    return (
        f"Instructions per call: callgrind's count of one pass over the corpus divided by its "
        f"calls, the loop's share included (`reports/{counts['machine']['id']}/instructions.json`, "
        f"counted {counts['machine']['date']}; {built}). Valgrind cannot run AVX-512.{ipc}"
    )


def instructions_overview(counts, source):
    """Every benchmark on every counted backend: instructions per call, the ratio to scalar."""
    rows = counts["results"]
    backends = ordered(c["backend"] for c in rows)
    text = HEADER.format(source=f"`{source}`")
    text += "| benchmark | " + " | ".join(map(label, backends)) + " |\n"
    text += "| --- |" + " ---: |" * len(backends) + "\n"
    by_bench = {}
    for c in rows:
        by_bench.setdefault(c["benchmark"], {})[c["backend"]] = c
    for bench, by_backend in by_bench.items():
        fewest = min(by_backend.values(), key=lambda c: c["instructions_per_pass"])["backend"]
        cells = []
        for backend in backends:
            c = by_backend.get(backend)
            if c is None:
                cells.append("")
                continue
            cell = format_ns(c["instructions_per_call"])
            if backend != "scalar" and c.get("vs_scalar"):
                cell += f" ({format_fraction(c['vs_scalar'])}×)"
            if c["support"].startswith("inherited"):
                cell += " †"
            cells.append(f"**{cell}**" if backend == fewest and len(by_backend) > 1 else cell)
        text += f"| `{bench}` | " + " | ".join(cells) + " |\n"
    text += (
        "\nIn brackets, the backend's count divided by scalar's; the fewest of each row in bold; "
        "† marks a backend that runs another tier's code for that routine. "
        + instructions_line(counts) + "\n"
    )
    return text


def overview_table(report, source):
    """Every benchmark on every implementation: the speed-up over the baseline, the ties in bold;
    or, for a report without baselines, the naive ratio over scalar, labelled so."""
    rows = report["results"]
    noise = report.get("noise")
    fair = is_fair(report)
    implementations = ordered(r["backend"] for r in rows)
    text = HEADER.format(source=f"`{source}`")
    if fair:
        text += "| benchmark | baseline | its time per call | " + " | ".join(map(label, implementations))
        text += " | fastest, naive ratio over scalar |\n"
        text += "| --- | --- | ---: |" + " ---: |" * len(implementations) + " ---: |\n"
    else:
        others = [b for b in implementations if b != "scalar"]
        text += "| benchmark | scalar (ns) | " + " | ".join(map(label, others)) + " |\n"
        text += "| --- | ---: |" + " ---: |" * len(others) + "\n"
    for bench, bench_rows in by_benchmark(rows).items():
        by_backend = {r["backend"]: r for r in bench_rows}
        tied = {r["backend"] for r in tied_fastest(bench_rows, noise)}
        baseline = next((r["baseline"] for r in bench_rows if r.get("baseline")), None)

        def cell(backend, ratio_key):
            r = by_backend.get(backend)
            if r is None:
                return ""
            if fair and backend == baseline:
                cell = "1 °"
            else:
                cell = f"{format_ratio(r[ratio_key])}×" if r.get(ratio_key) else ""
            if r["support"].startswith("inherited"):
                cell += " †"
            return f"**{cell}**" if backend in tied else cell

        if fair:
            base = by_backend[baseline]
            best = min(timed(bench_rows), key=lambda r: r["ns_per_op"])
            naive = f"{format_ratio(best['speedup_vs_scalar'])}×" if best.get("speedup_vs_scalar") else ""
            cells = [cell(b, "speedup_vs_baseline") for b in implementations]
            text += (
                f"| `{bench}` | {baseline} | {per_call(base)} | " + " | ".join(cells)
                + f" | {best['backend']} {naive} |\n"
            )
        else:
            scalar = by_backend.get("scalar")
            scalar_ns = format_ns(scalar["ns_per_op"]) if scalar else ""
            if "scalar" in tied and scalar_ns:
                scalar_ns = f"**{scalar_ns}**"
            cells = [cell(b, "speedup_vs_scalar") for b in implementations if b != "scalar"]
            text += f"| `{bench}` | {scalar_ns} | " + " | ".join(cells) + " |\n"
    if fair:
        if is_paired(report):
            how = ("the median over the run's turns of the baseline's time divided by the "
                   "implementation's in the same turn")
            tie = f"every implementation whose paired interval with it {interval_tie_text(report)}"
        else:
            how = "the baseline's median divided by the implementation's"
            tie = ("every implementation within the run's noise floor "
                   f"({format_noise(noise) if noise is not None else 'not measured'}) of it")
        text += (
            f"\nEach cell is the implementation's speed-up over the row's baseline ({how}); ° "
            "marks the baseline, whose time per call is in the third column. In bold the fastest "
            f"of each row and {tie}: a tie. † marks a backend that runs another tier's code for "
            "that routine. The "
            "last column is the fastest implementation's naive ratio over the scalar reference, "
            "which mixes the SIMD width with the instruction set and with how plainly the reference "
            "is written; it is there for comparison with older reports, not as a result.\n"
        )
    else:
        text += (
            "\nNaive ratios: the scalar reference's median divided by the backend's. This report "
            "predates the baselines, so no cell is a speed-up over the best scalar-class code; the "
            "fastest backend of each row in bold; † marks a backend that runs another tier's code "
            "for that routine.\n"
        )
    return text


def conversions_table(report, source):
    """The conversions between representations, for the chapter that compares them."""
    conversions = [
        ("quad → mailbox", "to-mailbox"), ("mailbox → quad", "from-mailbox"),
        ("quad → nibble board", "to-nibble-board"), ("nibble board → quad", "from-nibble-board"),
        ("quad → classical", "to-classical"), ("classical → quad", "from-classical"),
        ("quad → dense", "to-dense"), ("dense → quad", "from-dense"),
        ("quad → 16 hex sets", "hex-sets"), ("quad → piece sets", "piece-sets"),
    ]
    fair = is_fair(report)
    noise = report.get("noise")
    groups = by_benchmark(report["results"])
    text = HEADER.format(source=f"`{source}`")
    if fair:
        text += (
            "| conversion | baseline | its time (ns) | fastest | its time (ns) | speed-up over the "
            "baseline | naive ratio: over scalar |\n| --- | --- | ---: | --- | ---: | ---: | ---: |\n"
        )
    else:
        text += "| conversion | scalar (ns) | fastest backend | its time (ns) | naive ratio: over scalar |\n"
        text += "| --- | ---: | --- | ---: | ---: |\n"
    for title, bench in conversions:
        rows = groups[bench]
        best = min(timed(rows), key=lambda r: r["ns_per_op"])
        fastest = fastest_text(rows, noise)
        naive = f"{format_ratio(best['speedup_vs_scalar'])}×" if best.get("speedup_vs_scalar") else ""
        if fair:
            base = next(r for r in rows if r["backend"] == best["baseline"])
            text += (
                f"| {title} | {base['backend']} | {format_ns(base['ns_per_op'])} | {fastest} | "
                f"{format_ns(best['ns_per_op'])} | {format_ratio(best['speedup_vs_baseline'])}× | "
                f"{naive} |\n"
            )
        else:
            scalar = next(r for r in rows if r["backend"] == "scalar")
            text += (
                f"| {title} | {format_ns(scalar['ns_per_op'])} | {fastest} | "
                f"{format_ns(best['ns_per_op'])} | {naive} |\n"
            )
    text += "\n"
    if fair:
        text += (
            "The baseline is the fastest scalar-class implementation of the conversion; `a = b` "
            "are tied within the run's noise floor. "
        )
    else:
        text += ("This report predates the baselines: the only ratio is the naive one, over the "
                 "scalar reference. ")
    text += machine_line(report) + "\n"
    return text


def machine_table(report, source):
    """The machine and the run, for the results page."""
    m = report["machine"]
    text = HEADER.format(source=f"`{source}`")
    text += "| | this report |\n| --- | --- |\n"
    rows = [
        ("CPU", m["cpu"]), ("details", m["cpu_details"]), ("report folder", f"`reports/{m['id']}`"),
        ("features the backends use", ", ".join(m["features"]) or "none"),
        ("features it lacks", ", ".join(m["missing_features"]) or "none"),
        ("compiler", m["rustc"]), ("build", m["flags"]), ("system", m["os"]),
        ("load average at the start", m["load"]), ("date (UTC)", m["date"]),
        ("command", f"`{report['source']}`"), ("inputs", report["corpus"]),
        ("unit", report["unit"]),
    ]
    if m.get("clock_ghz"):
        samples = " and ".join(f"{g:.2f}" for g in m.get("clock_samples_ghz", []))
        rows.append(("core clock", f"{m['clock_ghz']:.2f} GHz (a dependent-add chain timed before "
                                   f"and after the run: {samples} GHz)"))
    if is_fair(report):
        noise = report.get("noise")
        rows.append(("noise floor", format_noise(noise) if noise is not None
                     else "not measured (no routine timed twice)"))
        rows.append(("speed-ups", "over each benchmark's baseline"))
    else:
        rows.append(("speed-ups",
                     "naive only, over the scalar reference (the report predates the baselines)"))
    for key, value in rows:
        text += f"| {key} | {value} |\n"
    return text


class MeasuredReport:
    """A report's results.json, with the instruction counts beside it (instructions.json) where
    callgrind ran on its machine, by benchmark and backend."""

    def __init__(self, report_dir):
        self.dir = Path(report_dir)
        self.report = read_json(self.dir / "results.json")
        self.machine_id = self.report["machine"]["id"]
        self.source = f"reports/{self.machine_id}/results.json"
        self.counts_path = self.dir / "instructions.json"
        self.counts = read_json(self.counts_path) if self.counts_path.exists() else None
        self.counts_source = f"reports/{self.machine_id}/instructions.json"
        self.counts_by_bench = {}
        for c in (self.counts or {}).get("results", []):
            self.counts_by_bench.setdefault(c["benchmark"], {})[c["backend"]] = c
        # What a page of times and counts names as its sources.
        self.sources = f"`{self.source}`" + (f" and `{self.counts_source}`" if self.counts else "")
        self.by_bench = by_benchmark(self.report["results"])

    def table(self, bench):
        """The table of one benchmark, times and counts."""
        return benchmark_table(self.by_bench[bench], self.report, self.counts_by_bench.get(bench, {}))


def chapter_benchmarks(probes):
    """The benchmarks of a chapter's routines: each routine's throughput, then its latency."""
    for probe in probes:
        yield from (routine_id(probe), routine_id(probe) + "-latency")


def write_tables(report_dir):
    """Another machine's measured tables, per chapter, under results/<machine>/: what the
    chapters' step-by-step sections set llvm-mca's model of that machine's CPU against, when it is
    not the machine the book shows. Each file says where its numbers come from."""
    measured = MeasuredReport(report_dir)
    report, machine_id = measured.report, measured.machine_id
    header = HEADER.format(source=measured.sources)
    out = OUT / "results" / machine_id
    for anchor, _row, probes in GROUPS:
        text = header
        for bench in chapter_benchmarks(probes):
            if bench not in measured.by_bench:
                continue
            kind = "latency" if bench.endswith("-latency") else "throughput"
            text += f"**`{bench}`** ({kind}), `reports/{machine_id}`:\n\n"
            text += measured.table(bench) + "\n"
        if text == header:
            text += f"`reports/{machine_id}` has no benchmark of this chapter.\n"
        text += "\n" + machine_line(report) + " " + " ".join(
            part for part in (ratio_line(report), clock_line(report)) if part) + "\n"
        write(out / f"{anchor}.md", text.rstrip("\n") + "\n")

"""Generates the verdicts: the measured figures the chapters' prose discusses, as sentences, so that
no measured number is typed in a chapter. Per benchmark (results/verdicts/<benchmark>.md) the
fastest implementation, its time and its ratio over the baseline (or, in a report without
baselines, over the scalar reference), those tied with it, level with the reference and slower
than it, and the instruction counts; over the whole report, where the best SIMD backend beats the
baseline, ties with it or loses (verdict.md); and, per latency benchmark, the fewest instructions
against the fastest time (counts_and_time.md).
"""

from .catalogue import SIMD
from .formatting import (and_list, format_fraction, format_ipc, format_noise, format_ns, format_ratio,
                         format_speedup)
from .inputs import HEADER, REPO, read_json
from .measurements import (against_one, by_benchmark, counted_another_copy, counted_times,
                           inherited_from, instructions_of, interval_standing, interval_tie_text,
                           ipc_of, is_fair, is_paired, paired_interval, per_call, tie_margin,
                           tied_fastest, timed)


def verdict(report, source):
    """Per benchmark, what the best SIMD backend does against the baseline: beats it beyond the
    noise floor, ties with it, or loses; and which scalar-class code the baselines are."""
    text = HEADER.format(source=f"`{source}`")
    if not is_fair(report):
        return text + (
            "This report has no baselines, so it cannot tell where SIMD beats the best scalar-class "
            "code: its only ratio is over the naive reference.\n"
        )
    noise = report.get("noise") or 0.0
    wins, ties, losses, baselines = [], [], [], {}
    for bench, rows in by_benchmark(report["results"]).items():
        baseline = next(r["baseline"] for r in rows if r.get("baseline"))
        baselines.setdefault(baseline, []).append(bench)
        simd = [r for r in timed(rows) if r["backend"] in SIMD and r.get("speedup_vs_baseline")]
        if not simd:
            continue
        best = max(simd, key=lambda r: r["speedup_vs_baseline"])
        speedup = speedup_text(best, "speedup_vs_baseline", tie_margin(report))
        item = f"`{bench}` ({best['backend']}, {speedup}× over {baseline})"
        {1: wins, 0: ties, -1: losses}[against_one(best, noise, tie_margin(report))].append(item)
    if is_paired(report):
        margin = tie_margin(report)
        above = f"{1 + margin:g}" if margin else "1"
        titles = [f"SIMD beats the baseline: the speed-up's 95 % interval lies above {above}",
                  f"SIMD ties with the baseline: the interval {interval_tie_text(report)}"]
    else:
        noise_text = (f"the noise floor, {format_noise(noise)}" if report.get("noise") is not None
                      else "the noise floor (none measured)")
        titles = [f"SIMD beats the baseline by more than {noise_text}",
                  "SIMD ties with the baseline, within the noise floor"]
    for title, items in [
        (titles[0], wins),
        (titles[1], ties),
        ("The baseline beats every SIMD backend", losses),
    ]:
        text += f"- **{title}** ({len(items)}): " + (", ".join(items) if items else "none") + ".\n"
    text += (
        "\nIn brackets, the fastest SIMD backend and its speed-up over the benchmark's baseline. "
        "The baselines themselves: "
        + "; ".join(
            f"{b} for {len(benches)} benchmark{'s' if len(benches) > 1 else ''}"
            for b, benches in sorted(baselines.items(), key=lambda kv: -len(kv[1]))
        )
        + ".\n"
    )
    return text


def counts_and_time(report, counts, sources):
    """For each latency benchmark: the implementation with the fewest instructions per call
    against the fastest one; a count measures work, not time."""
    text = HEADER.format(source=sources)
    sentences = []
    count_of = {}
    if counts is not None:
        for c in counts["results"]:
            count_of[(c["benchmark"], c["backend"])] = c
    noise = report.get("noise")
    for bench, rows in by_benchmark(report["results"]).items():
        if not bench.endswith("-latency"):
            continue
        instr = lambda r: instructions_of(r, count_of.get((bench, r["backend"])))
        # A count of other code than the timed one (counted_another_copy) is no evidence here.
        rows = [r for r in timed(rows) if instr(r) is not None and not counted_another_copy(r)]
        if len(rows) < 2:
            continue
        fewest = min(rows, key=instr)
        fastest = min(rows, key=lambda r: r["ns_per_op"])
        tied = {r["backend"] for r in tied_fastest(rows, noise)}
        ipc = lambda r: ipc_of(r, count_of.get((bench, r["backend"])))
        if fewest is fastest:
            sentences.append(
                f"In `{bench}`, {fewest['backend']} executes the fewest instructions, "
                f"{format_ns(instr(fewest))} per call, and is also the fastest, at {per_call(fewest)}."
            )
            continue
        how = "ties with" if fewest["backend"] in tied else "is slower than"
        sentence = (
            f"In `{bench}`, {fewest['backend']} executes the fewest instructions, "
            f"{format_ns(instr(fewest))} per call against {format_ns(instr(fastest))} for "
            f"{fastest['backend']}, and {how} it: {per_call(fewest)} against {per_call(fastest)}"
        )
        if ipc(fewest) is not None and ipc(fastest) is not None:
            sentence += (
                f", {format_ipc(ipc(fewest))} instructions per cycle against "
                f"{format_ipc(ipc(fastest))}"
            )
        sentences.append(sentence + ".")
    if not sentences:
        return text + "This report has no latency benchmark with instruction counts.\n"
    return text + " ".join(sentences) + "\n"


def time_text(row):
    """A row's time per call: cycles and nanoseconds where the run timed the clock."""
    if row.get("cycles_per_op"):
        return f"{format_ns(row['cycles_per_op'])} cycles ({format_ns(row['ns_per_op'])} ns)"
    return f"{format_ns(row['ns_per_op'])} ns"


def speedup_text(row, key, margin):
    """A row's ratio as the tables print it: with the decimals its interval needs to show where it
    stands against 1 and the tie margin (1.0054, not 1.0), where the row has a paired interval;
    else as the lab prints ratios."""
    if key == "speedup_vs_baseline" and row.get("speedup_interval"):
        return format_speedup(row[key], row["speedup_interval"], margin).split("×")[0]
    return format_fraction(row[key]) if row[key] < 1 else format_ratio(row[key])


def benchmark_verdict(bench, rows, report, counts):
    """One benchmark in a few sentences: the fastest implementation, its time per call and its
    ratio over the reference (or the baseline); the others in order, those level with the reference
    and those slower than it; and, where callgrind counted them, the instructions per call."""
    fair = is_fair(report)
    noise = (report.get("noise") or 0.0) if fair else 0.0
    rows = timed(rows)
    if not rows:
        return f"`{bench}` has no timed row in this report.\n"
    by_backend = {r["backend"]: r for r in rows}
    key = "speedup_vs_baseline" if fair else "speedup_vs_scalar"
    if fair:
        reference = next(r["baseline"] for r in rows if r.get("baseline"))
        named = f"the baseline, `{reference}`"
        short = "the baseline"
    else:
        reference = "scalar"
        named, short = "the scalar reference", "the reference"
    ref = by_backend.get(reference)

    def item(r):
        source = inherited_from(r)
        whose = f", {source}'s code" if source else ""
        if r["backend"] == reference:
            return f"`{r['backend']}` ({short})"
        return f"`{r['backend']}` ({speedup_text(r, key, tie_margin(report))}×{whose})"

    fastest = sorted(rows, key=lambda r: r["ns_per_op"])
    best = fastest[0]
    ties = [r for r in tied_fastest(rows, noise) if r is not best]
    ties.sort(key=lambda r: r["ns_per_op"])
    if best["backend"] == reference:
        named = f"{named}," if fair else named
        text = f"In `{bench}`, {named} is the fastest, at {time_text(best)} per call."
    else:
        whose = f" (running {inherited_from(best)}'s code)" if inherited_from(best) else ""
        text = f"In `{bench}`, `{best['backend']}`{whose} is the fastest, at {time_text(best)} "
        text += f"per call, {speedup_text(best, key, tie_margin(report))}× over {named}"
        text += f", which takes {time_text(ref)}." if ref else "."
    paired = fair and is_paired(report)
    if ties:
        tie = "ties" if len(ties) == 1 else "tie"
        reach = interval_tie_text(report)
        plural = reach.replace("reaches", "reach").replace("includes", "include")
        how = (f"its paired interval {reach}" if len(ties) == 1 else
               f"their paired intervals {plural}") if paired else (
            f"within the run's noise floor of {format_noise(noise)}")
        text += f" {and_list(item(r) for r in ties)} {tie} with it: {how}."
    rest = [r for r in fastest[1:] if r not in ties and r["backend"] != reference]
    if fair:
        standing = {r["backend"]: against_one(r, noise, tie_margin(report)) for r in rest}
    else:
        standing = {r["backend"]: 1 if r[key] > 1 + noise else 0 if r[key] * (1 + noise) >= 1
                    else -1 for r in rest}
    faster = [r for r in rest if standing[r["backend"]] == 1]
    level = [r for r in rest if standing[r["backend"]] == 0]
    slower = [r for r in rest if standing[r["backend"]] == -1]
    if faster:
        text += f" Then {and_list(item(r) for r in faster)}."
    if level:
        within = (f" (the interval {interval_tie_text(report)})" if paired
                  else " within the noise floor" if noise else "")
        text += f" Level with {short}{within}: {and_list(item(r) for r in level)}."
    if slower:
        than = "it" if best["backend"] == reference else short
        text += f" Slower than {than}: {and_list(item(r) for r in slower)}."

    counted = [(r, instructions_of(r, counts.get(r["backend"]))) for r in rows]
    counted = sorted(((r, n) for r, n in counted if n is not None), key=lambda rn: rn[1])
    if counted:
        parts = [f"{format_ns(n)} for `{r['backend']}`"
                 + (" (its AVX2 copy: valgrind hides AVX-512)" if counted_another_copy(r) else "")
                 for r, n in counted]
        parts[0] = parts[0].replace(" for ", " instructions for ", 1)
        text += f" Callgrind counts, per call, {and_list(parts)}."
    return text + "\n"


def machine_row(machine_id, report, bench):
    """One machine's line of a benchmark's table: the fastest, its speed-up over that machine's
    baseline, the baseline, and what ties with the fastest; None where it has no timed row."""
    rows = timed([r for r in report["results"] if r["benchmark"] == bench])
    if not rows:
        return None
    noise = report.get("noise") or 0.0
    best = min(rows, key=lambda r: r["ns_per_op"])
    details = report["machine"]["cpu_details"].split(", ")
    cpu = f"{report['machine']['cpu']}, {', '.join(details[:2])}"
    tied = [r["backend"] for r in tied_fastest(rows, noise) if r is not best]
    tie_rule = "interval" if is_paired(report) else f"floor {format_noise(noise)}"
    ties = f"{', '.join(f'`{b}`' for b in tied)} ({tie_rule})" if tied else "none"
    if not is_fair(report):
        return (f"| `{machine_id}` | {cpu} | `{best['backend']}` | "
                f"{format_ratio(best['speedup_vs_scalar'])}× over scalar (naive) | – | {ties} |")
    baseline = best["baseline"]
    over = "is the baseline" if best["backend"] == baseline else (
        f"{speedup_text(best, 'speedup_vs_baseline', tie_margin(report))}×")
    return f"| `{machine_id}` | {cpu} | `{best['backend']}` | {over} | `{baseline}` | {ties} |"


def fastest_among(report, rows, names):
    """The fastest of `rows` restricted to `names`, and those that tie with it: by the paired
    turns where the report has them, else within its noise floor."""
    rows = [r for r in rows if r["backend"] in names]
    best = min(rows, key=lambda r: r["ns_per_op"])
    noise = report.get("noise") or 0.0

    def ties(r):
        turns, best_turns = counted_times(r), counted_times(best)
        interval = (paired_interval(best_turns, turns)
                    if turns and best_turns and len(turns) == len(best_turns) else None)
        if interval is not None:
            return interval_standing(interval[0], interval[2], tie_margin(report)) == 0
        return r["ns_per_op"] <= best["ns_per_op"] * (1 + noise)

    return {r["backend"] for r in rows if r is best or ties(r)}


def agree_on_fastest(a, b):
    """Whether two machines, each (report, timed rows), name the same fastest implementation (or
    tie) among the implementations both ran."""
    common = {r["backend"] for r in a[1]} & {r["backend"] for r in b[1]}
    if not common:
        return True
    return bool(fastest_among(a[0], a[1], common) & fastest_among(b[0], b[1], common))


def machines_verdict(bench, reports):
    """Every committed machine's answer for one benchmark side by side, and whether they agree on
    the fastest implementation among those both ran (a machine without AVX-512 cannot disagree
    about avx512)."""
    lines = [(m, machine_row(m, r, bench)) for m, r in reports]
    lines = [(m, line) for m, line in lines if line is not None]
    if len(lines) < 2:
        return ""
    text = ("\nOn every machine with a report (each over its own baseline; `reports/<machine>/`):\n\n"
            "| machine | CPU | fastest | over the baseline | baseline | tied with the fastest |\n"
            "| --- | --- | --- | --- | --- | --- |\n")
    text += "\n".join(line for _, line in lines) + "\n"
    timed_rows = {m: (r, timed([x for x in r["results"] if x["benchmark"] == bench]))
                  for m, r in reports}
    timed_rows = {m: rr for m, rr in timed_rows.items() if rr[1]}
    ids = list(timed_rows)
    disagree = [(x, y) for i, x in enumerate(ids) for y in ids[i + 1:]
                if not agree_on_fastest(timed_rows[x], timed_rows[y])]
    if not disagree:
        text += "\nThe machines agree on the fastest, among the implementations each runs.\n"
    else:
        def named(m, common):
            report, rows = timed_rows[m]
            best = sorted(fastest_among(report, rows, common))
            return f"`{m}` ({', '.join(f'`{b}`' for b in best)})"

        def common_of(x, y):
            return ({r["backend"] for r in timed_rows[x][1]}
                    & {r["backend"] for r in timed_rows[y][1]})

        pairs = "; ".join(f"{named(x, common_of(x, y))} against {named(y, common_of(x, y))}"
                          for x, y in disagree)
        text += ("\nThe machines disagree on the fastest among the implementations both ran: "
                 f"{pairs}.\n")
    return text


def committed_reports():
    """(machine id, results.json) of every folder of reports/ that has one."""
    found = []
    for path in sorted(REPO.glob("reports/*/results.json")):
        found.append((path.parent.name, read_json(path)))
    return found


def benchmark_verdicts(report, counts_by_bench, sources):
    """benchmark -> its generated paragraph, for results/verdicts/<benchmark>.md: the book's
    machine in sentences, then every committed machine side by side."""
    reports = committed_reports()
    return {
        bench: HEADER.format(source=sources)
        + benchmark_verdict(bench, rows, report, counts_by_bench.get(bench, {}))
        + machines_verdict(bench, reports)
        for bench, rows in by_benchmark(report["results"]).items()
    }

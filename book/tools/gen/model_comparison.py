"""Generates the model page's comparison of llvm-mca's predictions with the timings of the
measured machine: every row predicted against measured with the checks that hold for it
(measured), how many rows differ and how many a check settles (summary), one table per check with
the evidence of each row it settles (loop, call, pdep, fewer, width, zmm, on-core), and the rows no
check settles, with what the model says of them (open)."""

import re
import sys
from pathlib import Path

from .formatting import cycles_text, format_ipc
from .llvm_mca import instruction_info, pressure_units
from .model_checks import (CHECKS, HALVED_512, MICROCODED_PDEP, NOTE_CALLS, NOTE_INDIRECT,
                           NOTE_RESET, ON_CORE, caveat_marks, classify, zmm_check)
from .model_facts import has_caveat, modelled
from .model_listings import assemblable, find_probe

# The files of the comparison, the summary and the measured table first, then one per group of
# checks; each is written whatever the report holds.
COMPARISON_FILES = ["summary", "measured", "loop", "call", "pdep", "fewer", "width", "zmm",
                    "on-core", "open"]

NO_ROW_PASSES = "No row that differs passes this check.\n"


class Comparison:
    """The model's comparison with the timings: every measured row with its prediction, what the
    probe's listing shows, and the checks that hold for it where it differs."""

    def __init__(self, facts):
        self.facts = facts
        self.header = facts.header
        self.mca = facts.mca
        comparison = facts.comparison
        self.machine = comparison["machine"]
        self.threshold = comparison["differs_above"]
        self.cpu = comparison["cpu"]
        self.width = facts.widths.get(self.cpu)
        # A count of another copy of the code than the one timed and modelled (the portable
        # backend under valgrind on an AVX-512 CPU) comes as `counted_another_copy`, without
        # `benchmark_instructions`: no check and no IPC uses it.
        self.results = [self.checked_row(row) for row in comparison["rows"]]
        self.differ = [r for r in self.results if r["row"].get("differs")]
        self.settled = [r for r in self.differ if r["settled"]]
        self.open_rows = [r for r in self.differ if not r["settled"]]

    def checked_row(self, row):
        """A row of the comparison, its prediction, the probe's listing and the checks that hold
        for it if it differs (whether one settles it)."""
        p = self.facts.by_key.get((row["routine"], row["backend"], self.cpu), {})
        found = find_probe(self.facts.listings, p) if p else None
        facts = found[0] if found else None
        checks, settled = ({}, False)
        zmm = None
        if row.get("differs"):
            checks, settled = classify(row, p, self.width, self.threshold, facts, self.cpu)
            zmm = zmm_check(self.mca, row, p, facts, self.cpu, self.threshold)
            if zmm and zmm["narrows"]:
                checks["zmm"] = zmm["settles"]
                settled = settled or zmm["settles"]
        return {"row": row, "p": p, "facts": facts, "listing": found[1] if found else None,
                "checks": checks, "settled": settled, "zmm": zmm}

    def passing(self, check):
        """The rows that differ and pass `check` (`width` partly, too)."""
        return [r for r in self.differ
                if check in r["checks"] and (r["checks"][check] or check == "width")]


def row_ipc(r):
    """Callgrind's instructions per call over the measured cycles, or None."""
    m, c = r["row"].get("benchmark_instructions"), r["row"].get("measured_cycles")
    return m / c if m and c else None


def check_words(r):
    """The checks that hold for a row that differs, *partly* where one does not settle it alone;
    open when none settles it."""
    if not r["row"].get("differs"):
        return ""
    words = [k if v else f"{k} (partly)" for k, v in r["checks"].items()]
    return ", ".join(words) if r["settled"] else "**open**" + (f": {', '.join(words)}" if words else "")


def row_name(r):
    """The first three cells of a check's table: benchmark, backend, predicted ÷ measured."""
    return f"{r['row']['routine']} | {r['row']['backend']} | {r['row']['predicted_over_measured']:.2f}×"


def benchmark_count(r):
    """Callgrind's instructions per call of the row's benchmark, or `-`."""
    m = r["row"].get("benchmark_instructions")
    return cycles_text(m) if m is not None else "-"


def listing_note(rs):
    """Which listings the probes of rows `rs` were read from."""
    used = sorted({(r["listing"]["file"], r["listing"]["compiler"] or "an unnamed compiler")
                   for r in rs if r["listing"]})
    if not used:
        return ""
    return ("\nThe listings read: " + "; ".join(f"`{Path(f).name}` ({c})" for f, c in used)
            + ", each probe the copy with as many instructions as llvm-mca modelled.\n")


def check_table(c, check, head, fill):
    """The table of one check: a row per row that passes it, the columns `head` filled by
    `fill`."""
    rs = c.passing(check)
    if not rs:
        return c.header + NO_ROW_PASSES
    text = c.header + "| benchmark | backend | predicted ÷ measured | " + " | ".join(head) + " |\n"
    text += "| --- | --- | ---: |" + " --- |" * len(head) + "\n"
    for r in rs:
        text += f"| {row_name(r)} | " + " | ".join(fill(r)) + " |\n"
    return text


def measured_row_cells(r, counted):
    """One row of the measured table."""
    row = r["row"]
    ratio = row.get("predicted_over_measured")
    ratio_text = f"{ratio:.2f}×" if ratio is not None else "-"
    name = row["routine"]
    if row.get("differs"):
        ratio_text, name = f"**{ratio_text}**", f"**{name}**"
    cells = [name, row["backend"],
             cycles_text(row["measured_cycles"]) if row.get("measured_cycles") else "-",
             cycles_text(row["predicted_cycles"]) + caveat_marks(r["p"]), ratio_text]
    if counted:
        m = row.get("benchmark_instructions")
        cells.append(f"{row['probe_instructions']} / {cycles_text(m) if m is not None else '-'}"
                     + (" ‡" if row.get("counted_another_copy") else ""))
        cells.append(format_ipc(row_ipc(r)) if row_ipc(r) else "-")
    cells.append(check_words(r))
    return cells


def unmodelled_lines(comparison):
    """The measured rows without a prediction ("piece-at scalar-v3: not modelled"), by backend
    and why."""
    unmodelled = {}
    for u in comparison.get("unmodelled", []):
        what, _, why = u.partition(": ")
        _, _, backend = what.rpartition(" ")
        unmodelled.setdefault((backend, why), []).append(what.rpartition(" ")[0])
    text = ""
    for (backend, why), benches in unmodelled.items():
        text += (f"\nNot compared, {backend} ({why}): " +
                 (f"all {len(benches)} of its benchmarks" if len(benches) > 3 else ", ".join(benches))
                 + ".\n")
    return text


def measured_file(c):
    """Every row, predicted against measured, with the checks that hold for it."""
    counted = any(r["row"].get("benchmark_instructions") is not None for r in c.results)
    text = c.header + "| benchmark | backend | measured cycles | predicted | predicted ÷ measured |"
    text += " instructions: model / callgrind | IPC |" if counted else ""
    text += " checks |\n| --- | --- | ---: | ---: | ---: |" + (" ---: | ---: |" if counted else "") + " --- |\n"
    for r in c.results:
        text += "| " + " | ".join(measured_row_cells(r, counted)) + " |\n"
    text += (f"\nMeasured cycles per call on {c.machine} beside `{c.cpu}`'s prediction. "
             f"Rows more than {c.threshold}× apart, either way, in bold, with the checks that hold "
             "for them (the sections below); **open**: none settles it. ↺ and → as in the "
             "prediction tables.")
    if counted:
        text += (" Instructions: those llvm-mca schedules per call (the probe) and those callgrind "
                 "counts per call of the benchmark, its loop included; IPC: callgrind's count over "
                 "the measured cycles.")
        if any(r["row"].get("counted_another_copy") for r in c.results):
            text += (" ‡ portable: callgrind counted its AVX2 copy (valgrind hides AVX-512), not "
                     "the AVX-512 copy timed and modelled here, so its count is left out of the "
                     "IPC and of the checks.")
    text += "\n"
    return text + unmodelled_lines(c.facts.comparison)


def median(sorted_values):
    """The median of values already in order."""
    n = len(sorted_values)
    if n % 2:
        return sorted_values[n // 2]
    return (sorted_values[n // 2 - 1] + sorted_values[n // 2]) / 2


def summary_file(c):
    """How many rows differ, how many a check settles, and predicted ÷ measured over the rows
    without a loop or a call."""
    clean = sorted(r["row"]["predicted_over_measured"] for r in c.results
                   if r["row"].get("predicted_over_measured") is not None and not has_caveat(r["p"]))
    text = c.header + (f"{len(c.differ)} of the {len(c.results)} rows of `{c.cpu}` against the "
                       f"timings differ by more than {c.threshold}×. ")
    if c.differ:
        parts = []
        for k in CHECKS:
            n = sum(1 for r in c.differ if r["checks"].get(k))
            if n:
                parts.append(f"{k}: {n}")
        text += (f"A check settles {len(c.settled)} of them ({'; '.join(parts) or 'none'}; a row "
                 f"can pass more than one check) and {len(c.open_rows)} "
                 f"{'is' if len(c.open_rows) == 1 else 'are'} open. ")
    if clean:
        above = sum(1 for x in clean if x > 1)
        text += (f"Over the {len(clean)} rows whose probe has no loop and no call, predicted ÷ "
                 f"measured has a median of {median(clean):.2f} and is above 1 in {above}.")
    return text + "\n"


def backward_jumps(r):
    """The backward jumps the listing shows in the row's probe."""
    if r["facts"] is None:
        return "(no listing of this probe)"
    return ", ".join(f"`{j}`" for j in dict.fromkeys(r["facts"]["backward"])) or "-"


def loop_file(c):
    """The rows whose probe loops: llvm-mca modelled one pass of the loop."""
    text = check_table(
        c, "loop", ["backward jump in the listing", "instructions: one pass (model)",
                    "per call (callgrind)", "callgrind ÷ one pass"],
        lambda r: [backward_jumps(r), str(r["row"]["probe_instructions"]), benchmark_count(r),
                   (f"{r['row']['benchmark_instructions'] / r['row']['probe_instructions']:.0f}×"
                    if r["row"].get("benchmark_instructions") else "-")])
    return text + listing_note([r for r in c.differ if r["checks"].get("loop")])


def not_followed(r):
    """What llvm-mca does not follow in the row's probe, as `model.json` notes it."""
    notes = [n for n in r["row"].get("notes", []) if n.startswith((NOTE_CALLS, NOTE_INDIRECT))]
    return "; ".join(n.replace("|", "\\|") for n in notes)


def call_file(c):
    """The rows whose probe calls or jumps where llvm-mca does not follow."""
    return check_table(c, "call", ["what llvm-mca does not follow (`model.json`)",
                                   "instructions: model", "per call (callgrind)"],
                       lambda r: [not_followed(r), str(r["row"]["probe_instructions"]),
                                  benchmark_count(r)])


def bit_instructions(r):
    """The pdep and pext of the row's probe, counted by mnemonic."""
    mnemonics = [b.split()[0] for b in r["facts"]["bits"]]
    return ", ".join(f"{mnemonics.count(k)} `{k}`" for k in sorted(set(mnemonics)))


def pdep_model_lines(c):
    """What LLVM's model of each CPU says of pdep and pext: a check run here, on one instruction
    each."""
    mca, cpu = c.mca, c.cpu
    snippet = "pdep rax, rbx, rcx\npext rax, rbx, rcx\n"
    text = (f"\nWhat `{Path(mca.path).name}` ({mca.own_version}) says of the two instructions "
            f"on each CPU of the model, from `printf '{snippet.replace(chr(10), chr(92) + 'n')}' | "
            f"{mca.command('CPU', '-iterations=100')} -` (the Instruction Info and Resource "
            "pressure views):\n\n")
    text += "| `-mcpu` | instruction | uops | latency | reciprocal throughput | execution units |\n"
    text += "| --- | --- | ---: | ---: | ---: | --- |\n"
    raw, units = None, []
    for name in c.facts.cpu_names:
        report = mca.run(name, snippet, "-iterations=100")
        for mnemonic in ("pdep", "pext"):
            info = instruction_info(report, mnemonic)
            used, head, line = pressure_units(report, mnemonic)
            if info:
                text += (f"| `{name}` | `{mnemonic}` | {info[0]} | {info[1]} | {info[2]} | "
                         f"{', '.join(used) if used else 'none'} |\n")
            if name == cpu and mnemonic == "pdep" and info:
                raw = (info[3], head, line)
                units.append((name, used))
    if raw:
        text += (f"\nThe lines of `{cpu}`'s report for `pdep`, Instruction Info "
                 "(uops, latency, reciprocal throughput) and Resource pressure by instruction "
                 "(one column per execution unit, `-` for none):\n\n```text\n"
                 + "\n".join(raw) + "\n```\n")
        uops, latency, rthroughput = raw[0].split()[:3]
        text += (f"\nSo {mca.own_version.replace('LLVM version', 'LLVM')}'s `{cpu}` model gives `pdep` {uops} uop"
                 f"{'s' if uops != '1' else ''}, a latency of {latency} cycles and a reciprocal "
                 f"throughput of {rthroughput}, on "
                 + (", ".join(next((u for n, u in units if n == cpu), [])) or "no execution unit")
                 + ".")
    if cpu in MICROCODED_PDEP:
        text += (f" `{cpu}` is {MICROCODED_PDEP[cpu]}, on which `pdep` and `pext` are microcoded "
                 "(Agner Fog's instruction tables; uops.info).")
    return text + "\n"


def pdep_file(c):
    """The rows whose probe uses pdep or pext on a CPU that microcodes them, and what the model
    of each CPU says of the two instructions."""
    text = check_table(c, "pdep", ["in the probe", "measured cycles", "predicted"],
                       lambda r: [bit_instructions(r), cycles_text(r["row"]["measured_cycles"]),
                                  cycles_text(r["row"]["predicted_cycles"])])
    text += listing_note([r for r in c.differ if r["checks"].get("pdep")])
    return text + pdep_model_lines(c)


def branches(r):
    """The branches the listing shows in the row's probe."""
    if r["facts"] is None:
        return "(no listing of this probe)"
    parts = []
    if r["facts"]["branches"]:
        parts.append(f"{r['facts']['branches']} forward conditional")
    if r["facts"]["backward"]:
        parts.append("a loop")
    return ", ".join(parts) or "none"


def fewer_file(c):
    """The rows whose benchmark runs fewer instructions than the probe."""
    text = check_table(
        c, "fewer", ["instructions: model", "per call (callgrind)", "model ÷ callgrind",
                     "branches in the probe"],
        lambda r: [str(r["row"]["probe_instructions"]), benchmark_count(r),
                   f"{r['row']['probe_instructions'] / r['row']['benchmark_instructions']:.2f}×",
                   branches(r)])
    return text + listing_note([r for r in c.differ if r["checks"].get("fewer")])


def width_file(c):
    """The rows whose micro-operations alone, at the CPU's dispatch width, take longer than
    measured."""
    width = c.width

    def floor(r):
        return r["p"]["uops_per_call"] / width

    return check_table(
        c, "width", ["uops per call (model)", "dispatch width", "floor: uops ÷ width",
                     "measured cycles", "floor ÷ measured"],
        lambda r: [cycles_text(r["p"]["uops_per_call"]), str(width),
                   cycles_text(floor(r)), cycles_text(r["row"]["measured_cycles"]),
                   f"{floor(r) / r['row']['measured_cycles']:.2f}×"
                   + ("" if r["checks"]["width"] else " (partly)")])


def zmm_row(r):
    """One row of the zmm check's table."""
    z = r["zmm"]
    return (f"| {row_name(r)} | {z['zmm']} | {cycles_text(z['own'])} | "
            f"{cycles_text(z['other']) if z['other'] is not None else '-'} | "
            f"{cycles_text(z['full'])}"
            + (f" ({z['dropped']} line{'s' if z['dropped'] != 1 else ''} not assembled)" if z["dropped"] else "")
            + f" | {cycles_text(r['row']['measured_cycles'])} | {z['ratio']:.2f}×"
            + ("" if z["settles"] else " (partly)" if z["narrows"] else " (no nearer)")
            + " |\n")


def zmm_file(c):
    """The rows predicted slower than measured on a CPU whose model splits 512-bit operations,
    with llvm-mca run again on the block written with 256-bit operations."""
    zmm_rows = [r for r in c.differ if r.get("zmm")]
    if not zmm_rows:
        return c.header + NO_ROW_PASSES
    cpu, by_key = c.cpu, c.facts.by_key
    other_cpu = HALVED_512.get(cpu, "")
    mine = [p for p in c.facts.preds if p["cpu"] == cpu and modelled(p)]
    same = [p for p in mine if modelled(by_key.get((p["routine"], p["backend"], other_cpu)))
            and by_key[(p["routine"], p["backend"], other_cpu)]["cycles_per_call"] == p["cycles_per_call"]]
    text = c.header + (f"In `model.json`, {len(same)} of the {len(mine)} predictions for `{cpu}` "
                       f"equal `{other_cpu}`'s for the same routine and backend.\n\n")
    text += (f"| benchmark | backend | predicted ÷ measured | instructions on zmm | "
             f"`{cpu}` | `{other_cpu}`, same block | 512-bit as 256-bit | measured | "
             "renamed ÷ measured |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for r in zmm_rows:
        text += zmm_row(r)
    text += (f"\nCycles per call from `{Path(c.mca.path).name} -mcpu=CPU -iterations=100` on each "
             "probe's block (its resets first, as in the example above), run here: as modelled, "
             f"for `{other_cpu}` on the same block, and for `{cpu}` with each 512-bit operation "
             "written as its 256-bit one (`zmm` registers and `zmmword` operands renamed, "
             "broadcasts halved, the moves of a 256-bit half written as their 128-bit forms). "
             f"The row is settled when that prediction is within {c.threshold}× of the measurement, "
             "*partly* when it only narrows the gap; *no nearer*: the check does not hold.\n")
    return text


def on_core_cells(r):
    """The model's block on this core beside the prediction and the benchmark."""
    row = r["row"]
    block, measured = row["block_on_core_cycles"], row["measured_cycles"]
    return [cycles_text(row["predicted_cycles"]), cycles_text(block), cycles_text(measured),
            f"{block / measured:.2f}×", f"{row['predicted_cycles'] / block:.2f}×"]


def on_core_file(c):
    """The rows settled by the model's own block timed on the core (core, inlined, split)."""
    timed = [r for r in c.results if r["row"].get("block_on_core_cycles")]
    not_run = [r for r in c.results if r["row"].get("block_not_run")]
    sided = [r for r in c.differ if set(ON_CORE) & set(r["checks"])]
    if sided:
        text = c.header + ("| benchmark | backend | predicted ÷ measured | check | predicted | "
                           "block on this core | benchmark | block ÷ benchmark | predicted ÷ block |\n"
                           "| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |\n")
        for r in sided:
            check = next(k for k in ON_CORE if r["checks"].get(k))
            text += f"| {row_name(r)} | {check} | " + " | ".join(on_core_cells(r)) + " |\n"
    else:
        text = c.header + NO_ROW_PASSES
    text += (f"\nOf the {len(c.results)} rows, {len(timed)} blocks ran on this core and "
             f"{len(not_run)} did not (a call or a jump out of the function, which llvm-mca does "
             "not follow, or a block stopped by a signal, such as one that reached outside its "
             "memory; a branch runs straight through); `model.json` gives each row's "
             "`block_on_core_cycles` or `block_not_run` with the reason.\n")
    return text


def busiest(r):
    """The model's busiest unit for the row's probe and its cycles per call."""
    b = r["p"].get("busiest_resource")
    if not b:
        return "-"
    return f"{b['name']}: {cycles_text(b['cycles_per_call'])} of {cycles_text(r['p']['cycles_per_call'])}"


def on_busiest(c, r):
    """The probe's instructions llvm-mca puts on its busiest unit, by mnemonic (a run of
    llvm-mca on the block, as in the example above)."""
    b = r["p"].get("busiest_resource")
    if not b or r["facts"] is None:
        return "-"
    resets = next((n for n in r["p"].get("notes", []) if n.startswith(NOTE_RESET)), "")
    resets = resets[len(NOTE_RESET):].split("; ") if resets else []
    block = "\n".join(resets + [assemblable(i) for i in r["facts"]["instructions"]]) + "\n"
    try:
        report = c.mca.run(c.cpu, block, "-iterations=100", "-instruction-info=false")
    except Exception as e:  # noqa: BLE001 - what llvm-mca refuses is reported, not fatal
        err = (getattr(e, "stderr", "") or "").strip().splitlines()
        print(f"generate: llvm-mca refuses the block of {r['p'].get('probe')}: "
              f"{err[0] if err else e}", file=sys.stderr)
        return "(llvm-mca refuses the block as printed)"
    lines = report.splitlines()
    index = next((re.match(r"(\[[\d.]+\])", l).group(1) for l in lines
                  if re.match(r"\[[\d.]+\]\s+-\s+" + re.escape(b["name"]) + "$", l)), None)
    at = next(i for i, l in enumerate(lines) if l.startswith("Resource pressure by instruction"))
    header_cells = lines[at + 1].split()
    if index not in header_cells:
        return "-"
    column = header_cells.index(index)
    found = []
    for line in lines[at + 2 + len(resets):]:  # the resets are not the probe's
        cells = line.split()
        if len(cells) <= len(header_cells) - 1:
            break
        if cells[column] != "-":
            found.append(cells[len(header_cells) - 1])
    return ", ".join(f"{found.count(m)} `{m}`" for m in dict.fromkeys(found)) or "-"


def open_row(c, r):
    """One row no check settles, with what the model says of it."""
    partly = [k for k, v in r["checks"].items() if not v]
    block = r["row"].get("block_on_core_cycles")
    on_core = f"{block / r['row']['measured_cycles']:.2f}×" if block else "-"
    return (f"| {row_name(r)} | {r['row']['probe_instructions']} / {benchmark_count(r)} | "
            f"{format_ipc(row_ipc(r)) if row_ipc(r) else '-'} | {on_core} | "
            f"{cycles_text(r['p']['block_rthroughput'])} | {busiest(r)} | {on_busiest(c, r)} | "
            f"{', '.join(partly) or '-'} |\n")


def open_file(c):
    """The rows that differ and that no check settles."""
    if not c.open_rows:
        return c.header + "Every row that differs is settled by a check.\n"
    cpu = c.cpu
    text = c.header + ("| benchmark | backend | predicted ÷ measured | instructions: model / "
                       "callgrind | IPC | block on this core ÷ measured | resource bound (model) "
                       "| model's busiest unit: its cycles | the probe's instructions on it | "
                       "partly |\n"
                       "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |\n")
    for r in c.open_rows:
        text += open_row(c, r)
    text += (f"\nOn `{cpu}`: the resource bound is llvm-mca's Block RThroughput, the cycles per "
             "call the block's micro-operations need to be dispatched and executed, dependencies "
             "aside; the busiest unit is the one its Resource pressure view charges with the "
             "most cycles per call (`model.json`'s `busiest_resource`), beside the prediction; "
             "the instructions on it, by mnemonic, are those the same view charges to it when "
             "the block is run again here. *partly*: a check that holds but does not reach "
             "the threshold by itself. Every check of this chapter was run on each of these rows "
             f"({', '.join(k for k in CHECKS if (k != 'zmm' or cpu in HALVED_512) and k not in ON_CORE)}"
             "; and core, inlined and split on those whose block ran on the core); none "
             "settles it.")
    not_run = [r for r in c.open_rows if r["row"].get("block_not_run")]
    if not_run:
        text += " Blocks not run: " + "; ".join(
            f"{r['row']['routine']} on {r['row']['backend']} ({r['row']['block_not_run']})"
            for r in not_run) + "."
    return text + "\n"


# The files of the checks, after the summary and the measured table, in COMPARISON_FILES' order.
CHECK_FILES = {"loop": loop_file, "call": call_file, "pdep": pdep_file, "fewer": fewer_file,
               "width": width_file, "zmm": zmm_file, "on-core": on_core_file, "open": open_file}


def comparison_files(facts):
    """The comparison's files, name -> text: each says why it is empty when the model has no
    measurements beside it, or the measurements have no cycles."""
    if not facts.comparison:
        none = facts.header + ("This model has no measurements beside it: its folder has no "
                               "`results.json` whose CPU llvm-mca knows.\n")
        return {name: none for name in COMPARISON_FILES}
    c = Comparison(facts)
    files = {"measured": measured_file(c)}
    if not any(r["row"].get("predicted_over_measured") is not None for r in c.results):
        files["summary"] = facts.header + (
            "The timings have no cycles (their `results.json` has no clock and `qbb model` was "
            "given none), so no prediction is compared with them.\n")
        for name in COMPARISON_FILES[2:]:
            files[name] = files["summary"]
        return files
    files["summary"] = summary_file(c)
    for name, make in CHECK_FILES.items():
        files[name] = make(c)
    return files

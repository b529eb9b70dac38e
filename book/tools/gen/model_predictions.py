"""Generates the model page's files of llvm-mca's predictions: where they come from
(provenance), the CPUs asked about (cpus), every routine on every backend per CPU (predictions),
the fastest backend of each routine per CPU (overview), the avx512 backend against the best of the
others, predicted (avx512) and on the measured machine (avx512-measured), one probe's block as
llvm-mca is given it and what llvm-mca reports (block), and how a gather is handed to it
(gather)."""

import re
import sys
from pathlib import Path

from .formatting import cycles_text, format_ratio
from .model_checks import NOTE_RESET, caveat_marks, has_note
from .model_facts import has_caveat, modelled
from .model_listings import assemblable, find_probe


def provenance_file(facts):
    """The tool, the listings, the CPUs, the clock."""
    model, comparison = facts.model, facts.comparison
    text = facts.header
    text += f"**Where these numbers come from.** `{model['command']}` on {model['date']}, "
    text += f"with {model['llvm_mca']['version']} (`{model['llvm_mca']['path']} "
    text += f"{model['llvm_mca']['arguments']}`), from the asm probes listed by "
    text += "; ".join(
        f"{l['compiler']} ({', '.join(l['used_for'])})" for l in model["listings"] if l["used_for"]
    ) + ". "
    if comparison:
        text += (f"The measurements are those of `reports/{facts.report_dir.name}/results.json`, "
                 f"{comparison['machine']}, built by {comparison['measured_with']}; ")
        clock = comparison.get("clock")
        if clock:
            text += f"nanoseconds became cycles at {clock['ghz']} GHz, {clock['source']}. "
        else:
            text += "the cycles are the report's own (its `cycles_per_op`). "
        if comparison.get("counted_with"):
            text += f"The instruction counts are callgrind's (`instructions.json`), built by " \
                    f"{comparison['counted_with']}. "
    return text + "\n"


def cpus_file(facts):
    """Which CPUs the model was asked about, which run the avx512 backend, their width."""
    text = facts.header + "| `-mcpu` | CPU | runs the avx512 backend | llvm-mca's dispatch width |\n"
    text += "| --- | --- | --- | ---: |\n"
    for c in facts.cpus:
        mark = " (the measured machine)" if c["name"] == facts.machine_cpu else ""
        text += (f"| `{c['name']}` | {c['title']}{mark} | {'yes' if c['runs_avx512_backend'] else 'no'} "
                 f"| {facts.widths[c['name']]} |\n")
    text += (f"\nThe dispatch width is the `Dispatch Width` of `{Path(facts.mca.path).name}`'s report "
             f"({facts.mca.own_version}): the most micro-operations its model of the CPU dispatches per "
             "cycle.\n")
    return text


def prediction_cells(facts, routine, cpu):
    """One routine's predictions on one CPU, a cell per backend: the fewest among those without a
    mark in bold, the marks of a loop, a call and an inherited routine."""
    row = [facts.by_key.get((routine, b, cpu)) for b in facts.backends]
    clean = [p["cycles_per_call"] for p in row if modelled(p) and not has_caveat(p)]
    fewest = min(clean) if clean else None
    cells = []
    for p in row:
        if p is None:
            cells.append("-")
        elif not modelled(p):
            cells.append("n/a" if p.get("not_available") else "-")
        else:
            cell = cycles_text(p["cycles_per_call"])
            if p["cycles_per_call"] == fewest and not has_caveat(p):
                cell = f"**{cell}**"
            cell += caveat_marks(p)
            if (p.get("support") or "").startswith("inherited"):
                cell += "†"
            cells.append(cell)
    return cells


def predictions_file(facts):
    """One table per CPU, routines down, backends across."""
    text = facts.header
    for c in facts.cpus:
        cpu = c["name"]
        opened = " open" if cpu == (facts.machine_cpu or facts.cpu_names[0]) else ""
        runs = "runs the avx512 backend" if c["runs_avx512_backend"] else "no AVX-512"
        text += f"<details{opened}>\n<summary><code>{cpu}</code>: {c['title']} ({runs})</summary>\n\n"
        text += "| routine | " + " | ".join(
            b + (facts.diamond(cpu) if b == "avx512" else "") for b in facts.backends) + " |\n"
        text += "| --- |" + " ---: |" * len(facts.backends) + "\n"
        for r in facts.routines:
            text += f"| {r} | " + " | ".join(prediction_cells(facts, r, cpu)) + " |\n"
        text += "\n</details>\n\n"
    text += (
        "Cycles per call (lower is better); the fewest of a row in bold, among cells without a "
        "mark. ↺ the probe loops: llvm-mca modelled one pass. → the probe calls a function or "
        "jumps through a table, which llvm-mca does not follow. † the backend runs another "
        "backend's code for that routine. n/a: the CPU cannot run the backend. "
        + facts.avx512_note() + "\n"
    )
    failed = [p for p in facts.preds if not modelled(p) and not p.get("not_available")]
    if failed:
        text += "\nNot modelled: " + "; ".join(
            f"{p['routine']} on {p['backend']} for `{p['cpu']}` ({p.get('error', 'no figure')})"
            for p in failed) + ".\n"
    return text


def overview_file(facts):
    """The fastest backend of each routine on each CPU."""
    text = facts.header + "| routine | " + " | ".join(f"`{c}`" for c in facts.cpu_names) + " |\n"
    text += "| --- |" + " --- |" * len(facts.cpu_names) + "\n"
    for r in facts.routines:
        cells = []
        for cpu in facts.cpu_names:
            ps = [facts.by_key.get((r, b, cpu)) for b in facts.backends]
            ps = [p for p in ps if modelled(p) and not has_caveat(p)]
            if not ps:
                cells.append("-")
                continue
            best = min(ps, key=lambda p: p["cycles_per_call"])
            mark = facts.diamond(cpu) if best["backend"] == "avx512" else ""
            cells.append(f"{best['backend']}{mark} {cycles_text(best['cycles_per_call'])}")
        text += f"| {r} | " + " | ".join(cells) + " |\n"
    text += ("\nThe backend with the fewest predicted cycles per call, and that figure; probes "
             "with a loop or a call are left out of the choice. " + facts.avx512_note() + "\n")
    return text


def avx512_cells(facts, routine, cpu, others):
    """The avx512 backend's prediction for one routine on one CPU, and the best of `others` with
    the predicted speed-up of avx512 over it."""
    p = facts.by_key.get((routine, "avx512", cpu))
    rest = [facts.by_key.get((routine, b, cpu)) for b in others]
    rest = [q for q in rest if modelled(q) and not has_caveat(q)]
    if not modelled(p):
        return ["-", "-"]
    cells = [cycles_text(p["cycles_per_call"]) + caveat_marks(p)]
    if rest and not has_caveat(p):
        best = min(rest, key=lambda q: q["cycles_per_call"])
        gain = best["cycles_per_call"] / p["cycles_per_call"]
        cells.append(f"{cycles_text(best['cycles_per_call'])} {best['backend']} "
                     f"({format_ratio(gain)}×)")
    else:
        cells.append("-")
    return cells


def avx512_file(facts):
    """The avx512 backend's predictions beside the best of the others, on each AVX-512 CPU."""
    wide = facts.wide
    if not wide:
        return facts.header + "None of the CPUs of this model runs the avx512 backend.\n"
    others = facts.without_avx512()
    text = facts.header + "| routine | " + " | ".join(
        f"`{c}` avx512{facts.diamond(c)} | `{c}` best other" for c in wide) + " |\n"
    text += "| --- |" + " ---: | ---: |" * len(wide) + "\n"
    for r in facts.routines:
        cells = []
        for cpu in wide:
            cells += avx512_cells(facts, r, cpu, others)
        text += f"| {r} | " + " | ".join(cells) + " |\n"
    text += ("\nPredicted cycles per call of the avx512 backend and (best other) of the "
             f"fastest backend that does not use AVX-512 ({', '.join(others)}; the portable backend runs its "
             "AVX-512 copy on these CPUs, so it is left out), with the predicted speed-up of "
             "avx512 over it in brackets; ↺ and → as above, and no speed-up beside a figure "
             "with either. " + facts.avx512_note() + "\n")
    return text


def avx512_measured_row(facts, r, others, measured_by):
    """One routine of the avx512 backend on the measured machine: its cells, and its speed-up over
    the fastest of `others`, measured and predicted (None where either side is missing)."""
    machine_cpu = facts.machine_cpu
    routine = r["routine"]
    ratio = r.get("predicted_over_measured")
    ratio_text = f"{ratio:.2f}×" if ratio is not None else "-"
    if r.get("differs"):
        ratio_text = f"**{ratio_text}**"
    p = facts.by_key.get((routine, "avx512", machine_cpu))
    mine = [measured_by.get((routine, b)) for b in others]
    mine = [q for q in mine if q and q.get("measured_cycles")]
    theirs = [facts.by_key.get((routine, b, machine_cpu)) for b in others]
    theirs = [q for q in theirs if modelled(q) and not has_caveat(q)]
    cells = [routine, cycles_text(r["measured_cycles"]) if r.get("measured_cycles") else "-",
             cycles_text(r["predicted_cycles"]) + (caveat_marks(p) if p else ""), ratio_text]
    best_m = min(mine, key=lambda q: q["measured_cycles"]) if mine else None
    best_p = min(theirs, key=lambda q: q["cycles_per_call"]) if theirs else None
    cells.append(f"{best_m['backend']} {cycles_text(best_m['measured_cycles'])}" if best_m else "-")
    cells.append(f"{best_p['backend']} {cycles_text(best_p['cycles_per_call'])}" if best_p else "-")
    gain_m = gain_p = None
    if best_m and r.get("measured_cycles"):
        gain_m = best_m["measured_cycles"] / r["measured_cycles"]
    if best_p and p and modelled(p) and not has_caveat(p):
        gain_p = best_p["cycles_per_call"] / p["cycles_per_call"]
    cells.append(f"{format_ratio(gain_m)}×" if gain_m else "-")
    cells.append(f"{format_ratio(gain_p)}×" if gain_p else "-")
    return cells, gain_m, gain_p


def avx512_measured_file(facts):
    """On the measured CPU, the avx512 backend predicted against measured, and its speed-up over
    the fastest backend without AVX-512, predicted and measured."""
    comparison, machine_cpu = facts.comparison, facts.machine_cpu
    rows512 = [r for r in (comparison or {}).get("rows", []) if r["backend"] == "avx512"]
    if not rows512:
        return facts.header + ("No report measured the avx512 backend on a CPU of this model, so "
                               "its predictions have no measurement beside them.\n")
    others = facts.without_avx512()
    threshold = comparison["differs_above"]
    measured_by = {(r["routine"], r["backend"]): r for r in comparison["rows"]}
    text = facts.header + (f"| routine | avx512 measured | avx512 predicted (`{machine_cpu}`) | "
                           "predicted ÷ measured | best of the others, measured | "
                           "best of the others, predicted | speed-up, measured | speed-up, predicted |\n"
                           "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: |\n")
    agree = disagree = 0
    for r in rows512:
        cells, gain_m, gain_p = avx512_measured_row(facts, r, others, measured_by)
        if gain_m and gain_p:
            if (gain_m > 1) == (gain_p > 1):
                agree += 1
            else:
                disagree += 1
        text += "| " + " | ".join(cells) + " |\n"
    text += (f"\nCycles per call of the avx512 backend on {comparison['machine']}, measured, and "
             f"`{machine_cpu}`'s prediction for it; ratios more than {threshold}× apart in bold "
             "(their checks are in the comparison below, with every backend's). Beside them the "
             f"fastest backend without AVX-512 ({', '.join(others)}), by the measurement and by "
             "the model (probes with a loop or a call left out), and the speed-up of avx512 over "
             f"it each way. Where both speed-ups are given, the model and the machine agree on "
             f"whether avx512 is ahead in {agree} routine{'s' if agree != 1 else ''} and disagree "
             f"in {disagree}.\n")
    return text


def block_example(facts, cpu):
    """The probe the block file shows on `cpu`: swar's nibble-add if a listing has its modelled
    code, else the first short one without a loop or a call that resets arguments; with its block
    and listing. None when no listing has any of them."""
    preferred = [facts.by_key.get(("nibble-add", "swar", cpu))]
    others_with_reset = [p for p in facts.preds if p["cpu"] == cpu and modelled(p)
                         and has_note(p.get("notes"), NOTE_RESET) and not has_caveat(p)
                         and p.get("instructions", 99) <= 30]
    for p in preferred + others_with_reset:
        if modelled(p) and has_note(p.get("notes"), NOTE_RESET):
            found = find_probe(facts.listings, p)
            if found:
                return p, found
    return None


def block_file(facts):
    """One probe as llvm-mca is given it, and what llvm-mca reports."""
    example_cpu = facts.machine_cpu or facts.cpu_names[0]
    example = block_example(facts, example_cpu)
    if not example:
        return facts.header + ("No listing of the modelled probes was found (neither the files "
                               "`model.json` names nor those generate.sh made hold the same code), "
                               "so no block is shown.\n")
    mca = facts.mca
    p, (block, listing) = example
    resets = next(n for n in p["notes"] if n.startswith(NOTE_RESET))[len(NOTE_RESET):].split("; ")
    lines = resets + [assemblable(i) for i in block["instructions"]]
    report = mca.run(example_cpu, "\n".join(lines) + "\n", "-iterations=100")
    summary = report[: report.index("Instruction Info:")].rstrip() if "Instruction Info:" in report else report
    pressure = ""
    if "Resource pressure per iteration:" in report:
        part = report[report.index("Resources:"): report.index("Resource pressure by instruction")]
        pressure = part.rstrip()
    total = re.search(r"Total Cycles:\s+(\d+)", report)
    cycles = int(total.group(1)) / 100 if total else None
    text = facts.header
    text += (f"The probe `{p['probe']}` from {listing['compiler'] or 'a listing'} "
             f"({len(block['instructions'])} instructions), as llvm-mca is given it: first "
             f"the argument registers it reads and then overwrites, each given a fresh value "
             f"(`{'`, `'.join(resets)}`), then the probe without its `ret`:\n\n")
    text += "```x86asm\n" + "\n".join(lines) + "\n```\n\n"
    text += f"`{mca.command(example_cpu, '-iterations=100')} block.s` ({mca.own_version}), its summary:\n\n"
    text += "```text\n" + summary + "\n```\n\n"
    if pressure:
        text += "and where the micro-operations go, per iteration:\n\n```text\n" + pressure + "\n```\n\n"
    text += (f"Total Cycles ÷ Iterations is the figure the tables give: "
             f"{cycles_text(cycles) if cycles else '-'} cycles per call here, "
             f"{cycles_text(p['cycles_per_call'])} in `model.json`. The reset instructions are "
             "scheduled with the rest and left in the cycles; the instruction and micro-operation "
             "counts of `model.json` leave them out.\n")
    if cycles is not None and abs(cycles - p["cycles_per_call"]) > 0.011:
        print(f"generate: llvm-mca now gives {cycles} cycles for {p['probe']}, model.json "
              f"{p['cycles_per_call']}", file=sys.stderr)
    return text


def gather_file(facts):
    """How a gather is handed to llvm-mca."""
    for p in facts.preds:
        if modelled(p) and p["cpu"] in facts.wide:
            found = find_probe(facts.listings, p)
            if found and found[0]["gathers"]:
                line = found[0]["gathers"][0]
                return facts.header + (
                    f"In `{p['probe']}` the listing prints\n\n```x86asm\n{line}\n```\n\n"
                    f"and llvm-mca is given\n\n```x86asm\n{assemblable(line)}\n```\n")
    return facts.header + "No modelled probe has a gather or a scatter.\n"

"""Writes each technique chapter's model figures: llvm-mca's predictions for the book's machine.

The step-by-step sections explain one backend's instructions, their chains and the ports they
compete for; the figures they rest on come from here, for the CPU of the machine whose tables the
chapter shows (the `cpu` of model.json's `predicted_vs_measured`), so that the model and the
measurements are of the same CPU and of code from the same compiler. Per chapter group:

  - per routine, every backend's predicted cycles per call (llvm-mca on the probe repeated as a
    loop of independent calls, as `qbb model` ran it) beside the measured cycles per call of each
    of the routine's benchmarks, and the busiest resource of the prediction;
  - for the backend the chapter's step-by-step follows (FOLLOWED), the probe's instructions with
    llvm-mca's micro-ops, latency and reciprocal throughput (`-instruction-info`), and the cycles
    of one call alone, from first issue to last retire. The probe is read from the listings given
    on the command line (book/generate.sh's asm step makes them): the copy compiled by the compiler
    `qbb model` read, with as many instructions as it modelled. When no listing has that copy, the
    table is left out, and the file says why.

Usage: chapter_model.py REPORT_DIR OUT_DIR [LISTING.s ...]
"""

import json
import re
import subprocess
import sys
from pathlib import Path

from gen import listings, model_listings
from gen.formatting import cycles_text
from gen.catalogue import GROUPS as CATALOGUE_GROUPS, routine_id
from gen.inputs import write

# The chapter groups and their routines (the routine ids of results.json and model.json): the
# generator's own catalogue.
GROUPS = {group: [routine_id(p) for p in probes] for group, _chapter, probes in CATALOGUE_GROUPS}

# The (routine, backend) each chapter's step-by-step walks through, instruction by instruction.
FOLLOWED = {
    "piece_at": ("piece-at", "avx2"),
    "set_piece": ("set-piece", "avx2"),
    "piece_sets": ("piece-sets", "avx2"),
    "hex_sets": ("hex-sets", "avx2"),
    "to_mailbox": ("to-mailbox", "avx2"),
    "from_mailbox": ("from-mailbox", "avx2"),
    "move_delta": ("move-delta", "sse2"),
    "flip": ("flip", "avx2"),
    "occluded_fills": ("occluded-fills", "avx2"),
    "slider_attacks": ("slider-attacks", "avx2"),
    "knight_attacks": ("knight-attacks", "avx2"),
    "checks_and_pins": ("checks-and-pins", "avx2"),
    "weighted_popcount": ("weighted-popcount", "avx2"),
    "nibble_arith": ("nibble-add", "swar"),
    "nibble_board": ("to-nibble-board", "avx2"),
    "classical": ("from-classical", "sse2"),
    "hash": ("hash-manino", "avx2"),
    "nnue": ("nnue-evaluate", "avx2"),
}

BACKENDS = ("scalar", "swar", "sse2", "avx2", "avx512", "portable")
FUNCTION = re.compile(r"^([^\s.].*):$")
NOTE_RESET = "fresh arguments: "
NOTE_LOOP = "loop: modelled as one pass"
# A longer instruction table is folded: the chapter's prose names the instructions it discusses.
FOLD_ABOVE = 30


def clean_name(name):
    """A listing's symbol without crate disambiguators, hashes and generic arguments."""
    return listings.clean_name(listings.without_generic_args(re.sub(r"::h[0-9a-f]{16}\b", "", name)))


def read_listing(path):
    """The compiler a listing names on its first lines, and its functions by clean name."""
    compiler, functions, current = None, {}, None
    for number, line in enumerate(Path(path).read_text().splitlines()):
        if number < 5 and compiler is None:
            m = re.match(r"#\s*(rustc .*)", line)
            if m:
                compiler = m.group(1).strip()
                continue
        m = FUNCTION.match(line)
        if m:
            current = clean_name(m.group(1))
            functions.setdefault(current, [])
            if functions[current]:
                current = None  # a second copy of the same name: the first one counts
        elif line.startswith(".Lfunc_end"):
            current = None
        elif current is not None and line.strip():
            functions[current].append(line.rstrip())
    return {"file": str(path), "compiler": compiler, "functions": functions}


def jump_symbol(operand):
    """The function a `jmp`/`call` names, cleaned as this script keys its listings; None for a
    label, register or computed address."""
    symbol = model_listings.jump_symbol(operand)
    return None if symbol is None else clean_name(symbol)


def probe_instructions(functions, name, depth=0):
    """The probe's instructions as `qbb model` hands them to llvm-mca: without `ret` and
    `vzeroupper`, a tail-called function of the listing in place of its jump."""
    out = []
    for line in functions[name]:
        if not line.startswith(("\t", " ")):
            continue
        text = re.split(r"[ \t]#", line)[0].strip()
        if not text or text.startswith(".") or text.endswith(":"):
            continue
        mnemonic, _, operands = text.replace("\t", " ").partition(" ")
        operands = operands.strip()
        if mnemonic in ("ret", "vzeroupper"):
            continue
        if mnemonic == "jmp" and depth < 3 and jump_symbol(operands) in functions:
            out += probe_instructions(functions, jump_symbol(operands), depth + 1)
            continue
        out.append(f"{mnemonic} {operands}".strip())
    return out


def assemblable(instruction):
    """The instruction as llvm-mca can assemble it: a symbol's address as a placeholder name."""
    mnemonic, _, operands = instruction.partition(" ")
    operands = re.sub(r"\[rip \+ (?:[^\[\]]|\[[^\]]*\])*\]", "[rip + qbb_symbol]", operands)
    if (mnemonic == "call" or mnemonic.startswith("j")) and jump_symbol(operands) is not None:
        operands = "qbb_function"
    if "gather" in mnemonic or "scatter" in mnemonic:
        operands = re.sub(r"\b\w+ ptr (\[)", r"\1", operands)
    return f"{mnemonic} {operands}".strip()


def shown(instruction):
    """The instruction for a table cell: a long symbol cut to its last path segment."""
    def short(m):
        name = clean_name(m.group(1))
        return "[rip + " + name.split("::")[-1] + "]"
    text = re.sub(r"\[rip \+ ((?:[^\[\]]|\[[^\]]*\])*)\]", short, instruction)
    return text.replace("|", "\\|")


def instruction_info(mca, cpu, instructions):
    """llvm-mca's micro-ops, latency and reciprocal throughput of each instruction, and the
    cycles of one pass of the block from first issue to last retire."""
    block = ".intel_syntax noprefix\n" + "\n".join(assemblable(i) for i in instructions) + "\n"
    run = subprocess.run(
        [mca, "-mtriple=x86_64", f"-mcpu={cpu}", "-iterations=1", "-instruction-info", "-"],
        input=block, capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(f"{mca} -mcpu={cpu}: {run.stderr.strip().splitlines()[0]}")
    total = int(re.search(r"Total Cycles:\s+(\d+)", run.stdout).group(1))
    info = run.stdout[run.stdout.index("Instruction Info:"):]
    rows = re.findall(r"^\s*(\d+)\s+(\d+)\s+(\d+\.\d+)\s", info, re.MULTILINE)
    if len(rows) != len(instructions):
        raise ValueError(f"{mca}: {len(rows)} rows of instruction info for {len(instructions)} "
                         "instructions")
    return [(int(u), int(lat), float(rt)) for u, lat, rt in rows], total


def cpu_title(model, cpu):
    return next((c["title"] for c in model["cpus"] if c["name"] == cpu), cpu)


def zen4_note(predictions):
    """What LLVM 19 does with -mcpu=znver5, shown by the resources it names (`Zn4…`)."""
    if any(p.get("busiest_resource", {}).get("name", "").startswith("Zn4") for p in predictions):
        return (" LLVM 19 schedules `znver5` with its Zen 4 model: its resources are `Zn4…`. "
                "That model splits a 512-bit operation in two; Zen 5 runs it in one pass.")
    return ""


def prediction_table(routine, preds, results):
    benches = sorted({r["benchmark"] for r in results if r["routine"] == routine},
                     key=lambda b: (b != routine, b))
    measured = {(r["benchmark"], r["backend"]): r.get("cycles_per_op") for r in results}
    head = ["backend", "predicted cycles per call"]
    head += [f"measured: `{b}`" for b in benches] + ["busiest resource", "instructions"]
    lines = [f"**`{routine}`**", "", "| " + " | ".join(head) + " |",
             "| --- |" + " ---: |" * (len(head) - 3) + " --- | ---: |"]
    for backend in BACKENDS:
        p = preds.get((routine, backend))
        if p is None:
            continue
        marks = " ↺" if any(n.startswith(NOTE_LOOP) for n in p.get("notes", [])) else ""
        cells = [f"`{backend}`", cycles_text(p["cycles_per_call"]) + marks]
        for b in benches:
            m = measured.get((b, backend))
            cells.append(cycles_text(m) if m is not None else "–")
        busy = p.get("busiest_resource") or {}
        cells.append(f"{busy['name']} ({cycles_text(busy['cycles_per_call'])})" if busy else "–")
        cells.append(str(p["instructions"]))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def find_probe(listings, probe, count, compiler):
    """The probe's instructions from the first listing by `compiler` whose copy has `count`."""
    for listing in listings:
        if listing["compiler"] != compiler or probe not in listing["functions"]:
            continue
        instructions = probe_instructions(listing["functions"], probe)
        if len(instructions) == count:
            return instructions, listing
    return None, None


def info_section(group, model, preds, listings, mca, cpu):
    routine, backend = FOLLOWED[group]
    p = preds.get((routine, backend))
    if p is None:
        return [f"*`{routine}` on `{backend}` has no prediction in this model.*"]
    compiler = next((l["compiler"] for l in model["listings"] if backend in l["used_for"]), None)
    instructions, listing = find_probe(listings, p["probe"], p["instructions"], compiler)
    title = f"**`{backend}`'s `{routine}`, instruction by instruction**"
    if instructions is None:
        return [title, "", (
            f"*Left out: none of the listings given holds `{p['probe']}` as {compiler} compiles "
            f"it, with the {p['instructions']} instructions llvm-mca modelled "
            "(`book/generate.sh` makes the listings; the nightly one needs the nightly "
            "toolchain).*")]
    info, total = instruction_info(mca, cpu, instructions)
    lines = [title, ""]
    folded = len(instructions) > FOLD_ABOVE
    if folded:
        lines += ["<details>", f"<summary>The {len(instructions)} instructions, with llvm-mca's "
                  "latency and reciprocal throughput</summary>", ""]
    lines += ["| # | instruction | µops | latency | rec. throughput |",
              "| ---: | --- | ---: | ---: | ---: |"]
    for n, (text, (uops, latency, rthroughput)) in enumerate(zip(instructions, info), 1):
        lines.append(f"| {n} | `{shown(text)}` | {uops} | {latency} | {rthroughput:.2f} |")
    if folded:
        lines += ["", "</details>"]
    resets = [n[len(NOTE_RESET):] for n in p.get("notes", []) if n.startswith(NOTE_RESET)]
    lines += ["", (
        "Latency: cycles until the result can be used. "
        "Reciprocal throughput: cycles between two independent issues. "
        f"One call alone, from the first issue to the last retire: {total} cycles. "
        f"As independent calls: {cycles_text(p['cycles_per_call'])} cycles per call; the busiest "
        f"resource, {p['busiest_resource']['name']}, "
        f"{cycles_text(p['busiest_resource']['cycles_per_call'])}. "
        + (f"Each copy starts with `{'; '.join(resets)}`: no copy waits for the one before "
           "through a reused register. " if resets else "")
        + f"From `{Path(listing['file']).name}` ({listing['compiler']}), "
        f"`{mca} -mtriple=x86_64 -mcpu={cpu} -instruction-info`.")]
    return lines


def chapter_file(group, model, results, report_dir, listings, mca):
    comparison = model["predicted_vs_measured"]
    cpu = comparison["cpu"]
    preds = {(p["routine"], p["backend"]): p for p in model["predictions"] if p["cpu"] == cpu}
    routines = [r for r in GROUPS[group] if any(k[0] == r for k in preds)]
    if not routines:
        return None
    source = f"`{report_dir}/model.json` and `{report_dir}/results.json`"
    lines = [f"<!-- Generated by book/generate.sh from {source}; do not edit. -->", ""]
    for routine in routines:
        lines += prediction_table(routine, preds, results["results"]) + [""]
    group_preds = [preds[k] for k in preds if k[0] in routines]
    loops = any(" ↺" in line for line in lines)
    clock = comparison.get("clock", {}).get("ghz")
    compilers = "; ".join(f"{c} ({', '.join(b)})" for c, b in comparison.get("compilers", []))
    lines.append(
        f"Predicted: llvm-mca's model of {cpu_title(model, cpu)}, `-mcpu={cpu}`, "
        f"{model['llvm_mca']['version']}. "
        "The probe runs as a loop of independent calls. "
        f"From `{report_dir}/model.json` (`{model['command']}`, {model['date']}). "
        f"Its listings: {compilers}. "
        f"Measured: `{report_dir}/results.json`, cycles per call at {clock:.2f} GHz, "
        f"code from {comparison['measured_with']}. "
        "Busiest resource: the unit the model keeps busiest, with its cycles per call."
        + (" A loop (↺) is modelled as one pass." if loops else "")
        + zen4_note(group_preds))
    if group in FOLLOWED and FOLLOWED[group][0] in routines:
        lines += [""] + info_section(group, model, preds, listings, mca, cpu)
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 3:
        print("usage: chapter_model.py REPORT_DIR OUT_DIR [LISTING.s ...]", file=sys.stderr)
        return 2
    report_dir, out = Path(argv[1]), Path(argv[2])
    if not (report_dir / "model.json").is_file():
        # The chapters include a file per group whatever the report holds.
        note = (f"*`reports/{report_dir.name}` has no `model.json` yet: `qbb model --out "
                f"reports/{report_dir.name}` writes it (reports/README.md says how).*\n")
        out.mkdir(parents=True, exist_ok=True)
        for group in GROUPS:
            (out / f"{group}.md").write_text(note)
        return 0
    try:
        model = json.loads((report_dir / "model.json").read_text())
        results = json.loads((report_dir / "results.json").read_text())
        listings = [read_listing(p) for p in argv[3:]]
        mca = model["llvm_mca"]["path"]
        shown_dir = report_dir.as_posix().rstrip("/")
        if not shown_dir.startswith("reports/"):
            shown_dir = f"reports/{report_dir.name}"
        files = {g: chapter_file(g, model, results, shown_dir, listings, mca) for g in GROUPS}
    except (OSError, ValueError, KeyError) as e:
        print(f"chapter_model: {e}", file=sys.stderr)
        return 1
    for group, text in files.items():
        if text is not None:
            write(out / f"{group}.md", text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Generates neon/: what each routine group becomes on AArch64's Advanced SIMD, for the `On NEON`
section of its chapter, in three files per group:

  code/<group>.md   the neon backend's implementation, included by its anchor from
                    crates/qbb/src/backend/neon/, or for a routine neon takes from swar the reason
                    `qbb backends --json` gives (declared in neon/inherited.rs);
  asm/<group>.md    the neon probe's machine code from the AArch64 listing (the one `qbb model`
                    builds, target/qbb-model/aarch64.s), with its instruction count, beside the
                    counts of the scalar and swar probes compiled for AArch64;
  model/<group>.md  llvm-mca's predicted cycles per call of scalar, swar and neon on the ARM cores
                    of the model file, beside the x86 cores' lowest SIMD prediction: predictions
                    only, no ARM machine has timed the lab.

The file names are the routine groups' anchors, as in asm/ and code/.
"""

import sys
from pathlib import Path

from .asm import compiler_of, listing_block
from .catalogue import GROUPS, routine_id
from .code import anchor_file, load_support, support_line
from .formatting import and_list, cycles_text
from .inputs import HEADER, OUT, REPO, InputError, read_json, write
from .listings import find_function, is_instruction, listing_of, parse_functions
from .model_arm import arm_cores, cell, schedules_as_cyclone

# The AArch64 probes whose instruction counts stand beside neon's.
AARCH64_PROBES = ["scalar", "swar", "neon"]

# The x86 cores beside the ARM ones: the newest AMD and Intel server cores the model file asks
# about, and the SIMD backends each may run.
X86_CORES = ["znver4", "sapphirerapids"]
X86_SIMD = ["sse2", "avx2", "avx512", "portable"]

# From book/src/generated/neon/<kind>/ back to the repository.
TO_REPO = Path("../../../../..")

# Where the book says how the predictions are made (a link from a technique chapter).
MODEL_SECTION = "../model.md#neon-on-arm-cores-predicted-only"


def code_page(anchor, probes, support):
    """The neon implementation of a group by its anchor, or why neon inherits it."""
    text = HEADER.format(source="`qbb backends --json` and the anchors in the neon sources")
    line = support_line("neon", probes, support)
    if line:
        text += f"{line}\n\n"
    source = anchor_file("neon", anchor)
    if source is not None:
        rel = TO_REPO / source.relative_to(REPO)
        text += f"```rust\n{{{{#include {rel}:{anchor}}}}}\n```\n"
    elif not line:
        raise SystemExit(
            f"generate: neon writes {anchor} natively but none of its sources has "
            f"`// ANCHOR: {anchor}` around it"
        )
    return text


def asm_page(probes, functions, compiler, support):
    """The neon probes' AArch64 machine code, with the counts of scalar, swar and neon."""
    text = HEADER.format(source="`cargo asm --target aarch64-unknown-linux-gnu` on the asm-probes "
                                "of crate qbb")
    text += f"Compiled by {compiler} for AArch64.\n\n" if compiler else ""
    text += "| routine | " + " | ".join(f"{m} (AArch64)" for m in AARCH64_PROBES) + " |\n"
    text += "| --- |" + " ---: |" * len(AARCH64_PROBES) + "\n"
    details = ""
    for probe in probes:
        cells = []
        for module in AARCH64_PROBES:
            name = find_function(functions, f"qbb::probes::{module}::{probe}")
            if name is None:
                cells.append("not built")
                continue
            count, extra, blocks = listing_of(name, functions)
            state = (support.get(module) or {}).get(routine_id(probe), "native")
            inherited = state != "native"
            cells.append(f"{count}" + (f" + {extra}" if extra else "")
                         + (" (inherited)" if inherited else ""))
            if module == "neon":
                details += listing_block(f"neon: <code>{probe}</code>", count, extra, blocks,
                                         inherited, language="armasm")
        text += f"| `{probe}` | " + " | ".join(cells) + " |\n"
    return text + "\n" + details


def lowest_simd(predictions, cpu, runs_avx512):
    """The x86 SIMD backend llvm-mca predicts the fewest cycles for on `cpu`, and its
    prediction; only the backends the CPU runs."""
    found = [(predictions[(b, cpu)], b) for b in X86_SIMD
             if (b, cpu) in predictions and (b != "avx512" or runs_avx512)]
    if not found:
        return None, None
    p, backend = min(found, key=lambda pair: pair[0]["cycles_per_call"])
    return p, backend


def verdict(neon, swar):
    """What the ARM rows say of neon against swar, as the end of a sentence."""
    if str(neon[0].get("support", "")).startswith("inherited"):
        return "neon runs swar's code, so the two rows predict alike"
    below = [n["cpu"] for n, s in zip(neon, swar) if n["cycles_per_call"] < s["cycles_per_call"]]
    if len(below) == len(neon):
        where = "on both ARM cores" if len(neon) == 2 else "on every ARM core"
        return f"the model predicts fewer cycles for neon than for swar {where}"
    if not below:
        return "the model predicts no fewer cycles for neon than for swar"
    return f"the model predicts fewer cycles for neon than for swar on {and_list(below)} only"


def verdicts(by_routine):
    """One sentence per verdict, naming the routines it holds for."""
    grouped = {}
    for routine, said in by_routine:
        grouped.setdefault(said, []).append(f"`{routine}`")
    return [f"For {and_list(routines)} {said}." for said, routines in grouped.items()]


def modelled_count(functions, name, depth=0):
    """The probe's instructions as `qbb model` hands them to llvm-mca: without `ret`, and a tail
    call (`b` to a function of the listing) replaced by the function it jumps to."""
    count = 0
    for line in functions[name]:
        if not is_instruction(line):
            continue
        mnemonic, _, operand = line.strip().partition(" ")
        operand = operand.strip()
        if mnemonic == "ret":
            continue
        if mnemonic == "b" and operand in functions and depth < 3:
            count += modelled_count(functions, operand, depth + 1)
            continue
        count += 1
    return count


def other_build(routine, probe, predictions, functions):
    """A sentence when llvm-mca modelled another build of neon's probe than the listing shows
    (their instruction counts differ), else None."""
    name = find_function(functions, f"qbb::probes::neon::{probe}")
    modelled = [p["instructions"] for p in predictions if p is not None and "instructions" in p]
    if name is None or not modelled:
        return None
    shown = modelled_count(functions, name)
    if all(n == shown for n in modelled):
        return None
    return (f"The neon `{routine}` llvm-mca read had {and_list(sorted({str(n) for n in modelled}))} "
            f"instructions besides `ret`, the listing of this page {shown}: its prediction is of "
            f"another build of the code.")


def model_page(probes, model, model_path, functions):
    """The group's predictions: scalar, swar and neon on the ARM cores, the lowest x86 SIMD
    prediction on two x86 cores."""
    text = HEADER.format(source=f"`{model_path}`")
    cores = arm_cores(model)
    x86 = {c["name"]: c for c in model["cpus"] if c["name"] in X86_CORES}
    if not cores:
        return text + f"`{model_path}` models no ARM core.\n"
    predictions = {(p["routine"], p["backend"], p["cpu"]): p for p in model["predictions"]}
    cyclone = schedules_as_cyclone(model)
    several = len(probes) > 1
    said, builds = [], []
    for probe in probes:
        routine = routine_id(probe)
        # A table per routine, narrow enough for a phone; a group's routines are named above theirs.
        text += f"`{routine}`:\n\n" if several else ""
        text += "| core | scalar | swar | SIMD |\n| --- | ---: | ---: | ---: |\n"
        for core in cores:
            name = core["name"]
            label = f"`{name}`" + (" (Cyclone's model)" if cyclone and name == "apple-m4" else "")
            neon = predictions.get((routine, "neon", name))
            cells = [cell(predictions.get((routine, b, name))) for b in ("scalar", "swar")]
            cells.append(f"{cell(neon)} neon" if neon else "–")
            text += f"| {label} | " + " | ".join(cells) + " |\n"
        for name in X86_CORES:
            if name not in x86:
                continue
            best, backend = lowest_simd(
                {(b, c): p for (r, b, c), p in predictions.items() if r == routine},
                name, x86[name].get("runs_avx512_backend", False))
            cells = [cell(predictions.get((routine, b, name))) for b in ("scalar", "swar")]
            cells.append(f"{cell(best)} {backend}" if best else "–")
            text += f"| `{name}` | " + " | ".join(cells) + " |\n"
        text += "\n" if several else ""
        neon = [predictions.get((routine, "neon", c["name"])) for c in cores]
        swar = [predictions.get((routine, "swar", c["name"])) for c in cores]
        if all(neon) and all(swar):
            said.append((routine, verdict(neon, swar)))
        builds.append(other_build(routine, probe, neon, functions))
    arm_mca = model["llvm_mca_aarch64"]["version"].replace("LLVM version ", "LLVM ")
    x86_mca = model["llvm_mca"]["version"].replace("LLVM version ", "LLVM ")
    text += "" if several else "\n"
    text += (f"Cycles per call predicted by llvm-mca: {arm_mca} for the ARM cores, "
             f"{x86_mca.replace('LLVM ', '')} for x86. No ARM silicon measured these. ")
    text += "SIMD is neon on ARM, the lowest of the x86 SIMD backends on x86. "
    text += "Marks: † inherited, ↺ a loop run once, → a call not followed; both leave work out. "
    text += " ".join(verdicts(said) + [b for b in builds if b])
    text += f"\n\n[How these predictions are made, and what they cannot see]({MODEL_SECTION}).\n"
    return text


def write_neon(backends_json, model_path, listing):
    """neon/code/, neon/asm/ and neon/model/: a page of each per routine group."""
    support = load_support(backends_json)
    if not support.get("neon"):
        raise InputError(f"{backends_json}: no neon backend in `qbb backends --json`")
    model = read_json(model_path)
    try:
        model["cpus"], model["predictions"], model["llvm_mca_aarch64"], model["llvm_mca"]
    except KeyError as e:
        raise InputError(f"{model_path}: no {e} (made by `qbb model --cpu ...,apple-m4`?)") from None
    functions = parse_functions(listing)
    compiler = compiler_of(listing)
    if not any(name.startswith("qbb::probes::neon::") for name in functions):
        raise InputError(f"{listing}: no probe of neon (not a listing of aarch64-unknown-linux-gnu?)")
    resolved = Path(model_path).resolve()
    shown = resolved.relative_to(REPO).as_posix() if resolved.is_relative_to(REPO) else model_path
    out = OUT / "neon"
    for anchor, _row, probes in GROUPS:
        write(out / "code" / f"{anchor}.md", code_page(anchor, probes, support))
        write(out / "asm" / f"{anchor}.md", asm_page(probes, functions, compiler, support))
        write(out / "model" / f"{anchor}.md", model_page(probes, model, shown, functions))
        for probe in probes:
            if find_function(functions, f"qbb::probes::neon::{probe}") is None:
                print(f"generate: no neon probe of {probe} in {listing}", file=sys.stderr)

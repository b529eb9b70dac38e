"""The probes' code as the model page reads it: a listing's functions and the compiler that made
it, a probe's block as `qbb model` hands it to llvm-mca (tail calls followed, `ret` and
`vzeroupper` left out, symbols replaced by names llvm-mca can assemble), what the listing shows
about it (loops, branches, calls, pdep/pext, gathers), and the copy of a probe that has as many
instructions as llvm-mca modelled.
"""

import re
from pathlib import Path

from .listings import clean_name, clean_name_in, parse_functions, without_generic_args


def read_listing(path):
    """A listing's functions (raw name -> lines), an index by clean name, and its compiler (the
    `# rustc ...` line `qbb model` and generate.sh put at its top)."""
    functions = parse_functions(path)
    compiler = None
    for line in Path(path).read_text().splitlines()[:5]:
        m = re.match(r"#\s*(rustc .*)", line)
        if m:
            compiler = m.group(1).strip()
            break
    index = {}
    for raw in functions:
        index.setdefault(without_generic_args(clean_name(raw)), raw)
    return {"file": str(path), "compiler": compiler, "functions": functions, "index": index}


def jump_symbol(operand):
    """The function a `jmp`/`call` names, as the listing spells it; None for a label, register or
    computed address."""
    m = re.fullmatch(r"(?:qword ptr )?\[rip \+ (.+)\]", operand)
    if m:
        operand = m.group(1)
    elif operand.startswith(".L") or "[" in operand or re.fullmatch(r"[a-z0-9]{1,5}", operand):
        return None
    return re.sub(r"@(GOTPCREL|PLT)$", "", operand)


def probe_block(functions, raw, depth=0):
    """A probe's instructions as `qbb model` gives them to llvm-mca (without `ret` and
    `vzeroupper`, tail-called functions of the listing in place of their jump), and what the
    listing shows about them: backward jumps, forward conditional branches, calls, pdep/pext and
    gathers."""
    lines = functions[raw]
    labels = {l[:-1]: i for i, l in enumerate(lines) if not l.startswith(("\t", " ")) and l.endswith(":")}
    block = {"instructions": [], "backward": [], "branches": 0, "calls": [], "bits": [], "gathers": []}
    for at, line in enumerate(lines):
        if not line.startswith(("\t", " ")):
            continue
        text = re.split(r"[ \t]#", line)[0].strip()
        if not text or text.startswith(".") or text.endswith(":"):
            continue
        mnemonic, _, operands = text.replace("\t", " ").partition(" ")
        operands = operands.strip()
        if mnemonic in ("ret", "vzeroupper"):
            continue
        if mnemonic == "jmp" and depth < 3:
            target = jump_symbol(operands)
            if target in functions:
                inner = probe_block(functions, target, depth + 1)
                for key in block:
                    block[key] += inner[key]
                continue
        if mnemonic.startswith("j"):
            if operands in labels:
                if labels[operands] < at:
                    block["backward"].append(f"{mnemonic} {operands}")
                elif mnemonic != "jmp":
                    block["branches"] += 1
        if mnemonic == "call":
            block["calls"].append(clean_name_in(operands))
        if mnemonic in ("pdep", "pext"):
            block["bits"].append(f"{mnemonic} {operands}")
        if "gather" in mnemonic or "scatter" in mnemonic:
            block["gathers"].append(f"{mnemonic} {operands}")
        block["instructions"].append(f"{mnemonic} {operands}".strip())
    return block


def find_probe(listings, p):
    """The probe of prediction `p` in the first listing whose copy has as many instructions as
    llvm-mca modelled (the same code, as far as a count can tell), with the listing; None when no
    listing has it, or none has that copy."""
    for listing in listings:
        raw = listing["index"].get(p.get("probe"))
        if raw is None:
            continue
        block = probe_block(listing["functions"], raw)
        if len(block["instructions"]) == p.get("instructions"):
            return block, listing
    return None


def assemblable(instruction):
    """The instruction as `qbb model` hands it to llvm-mca: symbols replaced by a placeholder
    name llvm-mca can assemble, a gather's memory operand without its size."""
    mnemonic, _, operands = instruction.partition(" ")
    # A symbol can hold brackets of its own (`<[u64; 64]>`): one level of them is allowed.
    operands = re.sub(r"\[rip \+ (?:[^\[\]]|\[[^\]]*\])*\]", "[rip + qbb_symbol]", operands)
    if (mnemonic == "call" or mnemonic.startswith("j")) and jump_symbol(operands) is not None:
        operands = "qbb_function"
    if "gather" in mnemonic or "scatter" in mnemonic:
        operands = re.sub(r"\b\w+ ptr (\[)", r"\1", operands)
    return f"{mnemonic} {operands}".strip()

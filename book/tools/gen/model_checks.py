"""The checks the model page runs on a row whose prediction differs from the measurement, each of
which can settle it: a loop modelled as one pass, a call llvm-mca does not follow, microcoded
pdep, fewer instructions in the benchmark than in the probe, the dispatch width's floor, 512-bit
operations split in two by the model (the `zmm` check, llvm-mca run again on the block written
with 256-bit operations), and the model's own block timed on the core.
"""

import re

from .llvm_mca import mca_cycles
from .model_listings import assemblable


# The notes `qbb model` writes on a prediction (crates/qbb-lab/src/model/mod.rs), by their prefix.
NOTE_LOOP = "loop: modelled as one pass"
NOTE_CALLS = "calls"
NOTE_INDIRECT = "indirect jump"
NOTE_RESET = "fresh arguments: "


# The CPUs on which PDEP and PEXT are microcoded, their cost growing with the set bits of the mask:
# AMD's Zen 1 and Zen 2, as Agner Fog's instruction tables and uops.info's measurements list them
# (from Zen 3 on, and on Intel since Haswell, they take a few cycles).
MICROCODED_PDEP = {"znver1": "Zen 1", "znver2": "Zen 2"}


# The checks that can settle a disagreement, in the order the book presents them; a row can pass
# more than one. `width` settles a row only when its floor alone is past the threshold; below that
# it is a partial answer, listed with the open rows.
CHECKS = ["loop", "call", "pdep", "fewer", "width", "zmm", "core", "inlined", "split"]


# The checks that read the model's own block as it ran on the core (`block_on_core_cycles`).
ON_CORE = ("core", "inlined", "split")


# The CPUs whose LLVM 19 model is another's that splits 512-bit operations in two, with the CPU
# whose model it is: LLVM 19 schedules `-mcpu=znver5` with its Zen 4 model (the `zmm` check runs
# both on every block it checks, and shows that they agree), while Zen 5 executes a 512-bit
# operation in one pass of its 512-bit datapath (AMD's Zen 5 presentation at Hot Chips 2024).
HALVED_512 = {"znver5": "znver4"}


def has_note(notes, prefix):
    return any(n.startswith(prefix) for n in notes or [])


def caveat_marks(p):
    """↺ a loop modelled as one pass, → a call or jump llvm-mca does not follow."""
    notes = p.get("notes", [])
    marks = ""
    if has_note(notes, NOTE_LOOP):
        marks += " ↺"
    if has_note(notes, NOTE_CALLS) or has_note(notes, NOTE_INDIRECT):
        marks += " →"
    return marks


def classify(row, p, width, threshold, facts, cpu):
    """The checks that hold for a row that differs (check -> whether it settles the row alone;
    `width` settles only past the threshold), and whether one of them settles it. `facts` is what
    the probe's listing shows (None without a listing of the modelled code)."""
    ratio = row["predicted_over_measured"]
    notes = row.get("notes", [])
    n, m = row["probe_instructions"], row.get("benchmark_instructions")
    found = {}
    under = ratio < 1
    if under and has_note(notes, NOTE_LOOP) and (m is None or m > n):
        found["loop"] = True
    if under and (has_note(notes, NOTE_CALLS) or has_note(notes, NOTE_INDIRECT)):
        found["call"] = True
    if under and cpu in MICROCODED_PDEP and facts and facts["bits"]:
        found["pdep"] = True
    if not under and m is not None and m < n:
        found["fewer"] = True
    measured = row.get("measured_cycles")
    if not under and width and measured and p.get("uops_per_call"):
        floor = p["uops_per_call"] / width
        if floor > measured:
            found["width"] = floor / measured >= threshold
    found.update(on_core_sides(row, threshold))
    return found, any(found.values())


def on_core_sides(row, threshold):
    """What the model's own block, run on this core (`block_on_core_cycles`), says of a row:
    `core` when it runs as fast as the benchmark and not as predicted (the model misjudges the
    core on that code), `inlined` when it runs as predicted and not as the benchmark (the
    benchmark's loop runs other code than the probe), `split` when it lies between the two and
    near both (the gap is the product of the two, each within the threshold); nothing when it was
    not run or lies beyond both."""
    block, measured = row.get("block_on_core_cycles"), row.get("measured_cycles")
    if not block or not measured:
        return {}

    def near(a, b):
        return 1 / threshold <= a / b <= threshold
    with_benchmark, with_model = near(block, measured), near(block, row["predicted_cycles"])
    if with_benchmark and not with_model:
        return {"core": True}
    if with_model and not with_benchmark:
        return {"inlined": True}
    if min(measured, row["predicted_cycles"]) <= block <= max(measured, row["predicted_cycles"]):
        return {"split": True}
    return {}


# The 512-bit instructions whose 256-bit counterpart has another name, and the narrower operand
# sizes a down-conversion's destination takes when its source halves.
AS_256 = {"vextracti64x4": "vextracti128", "vextractf64x4": "vextractf128",
          "vinserti64x4": "vinserti128", "vinsertf64x4": "vinsertf128",
          "vbroadcasti64x4": "vbroadcasti128", "vbroadcastf64x4": "vbroadcastf128"}
HALF_SIZE = {"ymm": "xmm", "ymmword": "xmmword", "xmmword": "qword", "qword": "dword"}


def as_256(line):
    """One instruction of a probe with its 512-bit operation written as the 256-bit one: `zmm`
    registers and `zmmword` operands renamed, broadcasts `{1toN}` halved, and the instructions
    that move a 256-bit half (extract, insert, broadcast of 256 bits) as their 128-bit forms, whose
    operands all halve. A line without a 512-bit operand is left as it is."""
    if "zmm" not in line:
        return line
    mnemonic, _, operands = line.partition(" ")
    if mnemonic in AS_256:
        # Every operand halves: zmm -> ymm, ymm -> xmm, ymmword -> xmmword.
        operands = re.sub(r"\bymm(\d+)\b", r"xmm\1", operands).replace("ymmword", "xmmword")
        operands = re.sub(r"\bzmm(\d+)\b", r"ymm\1", operands)
        return f"{AS_256[mnemonic]} {operands}"
    operands = re.sub(r"\{1to(\d+)\}", lambda m: "{1to%d}" % (int(m.group(1)) // 2), operands)
    if re.match(r"vpmov[a-z]*[qdw][bwd]$", mnemonic) and mnemonic not in ("vpmovb2m", "vpmovw2m",
                                                                       "vpmovd2m", "vpmovq2m"):
        # A down-conversion: the destination (first operand) is narrower than the source.
        dest, _, rest = operands.partition(",")
        dest = re.sub(r"\b(ymm|xmm)(\d+)\b", lambda m: "xmm" + m.group(2), dest)
        dest = re.sub(r"\b(ymmword|xmmword|qword)\b", lambda m: HALF_SIZE[m.group(1)], dest)
        operands = dest + "," + rest
    operands = re.sub(r"\bzmm(\d+)\b", r"ymm\1", operands).replace("zmmword", "ymmword")
    return f"{mnemonic} {operands}"


def zmm_check(mca, row, p, facts, cpu, threshold):
    """For a row predicted slower than measured on a CPU whose model splits 512-bit operations
    (HALVED_512): llvm-mca on the probe as modelled, on the same block for the CPU whose model it
    is, and on the block with every 512-bit register and operand renamed to its 256-bit form (each
    512-bit operation priced as one pass, as a 512-bit datapath runs it). Settles the row when the
    renamed block's prediction comes within the threshold of the measurement."""
    if cpu not in HALVED_512 or facts is None or not row.get("measured_cycles"):
        return None
    if row["predicted_over_measured"] <= 1:
        return None
    instructions = [assemblable(i) for i in facts["instructions"]]
    if not any("zmm" in i for i in instructions):
        return None
    resets = next((n for n in p.get("notes", []) if n.startswith(NOTE_RESET)), "")
    resets = resets[len(NOTE_RESET):].split("; ") if resets else []
    block = "\n".join(resets + instructions) + "\n"
    renamed = "\n".join(as_256(line) for line in block.splitlines()) + "\n"
    own, _ = mca_cycles(mca, cpu, block)
    other, _ = mca_cycles(mca, HALVED_512[cpu], block)
    full, dropped = mca_cycles(mca, cpu, renamed)
    if own is None or full is None:
        return None
    measured = row["measured_cycles"]
    return {"zmm": sum(1 for i in instructions if "zmm" in i), "own": own, "other": other,
            "full": full, "dropped": dropped, "ratio": full / measured,
            "narrows": dropped == 0 and full < own,
            "settles": dropped == 0 and full < own and full / measured <= threshold}

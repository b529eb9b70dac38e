"""Runs llvm-mca for the model page, the same one that made the report's model.json (or one of the
same major version), and reads its views: the total cycles of a block, the dispatch width of a
CPU, an instruction's line of the Instruction Info view and the execution units the Resource
pressure view charges it to.
"""

import re
import shutil
import subprocess
from pathlib import Path


class Mca:
    """The llvm-mca that made the model (or, failing that, one of the same major version)."""

    def __init__(self, model):
        wanted = model["llvm_mca"]["path"]
        self.version = model["llvm_mca"]["version"]
        candidates = [wanted, "llvm-mca-19", "llvm-mca", "/usr/lib/llvm-19/bin/llvm-mca"]
        self.path = next((c for c in candidates if shutil.which(c)), None)
        if self.path is None:
            raise SystemExit(f"generate: no llvm-mca to run (the model used `{wanted}`, "
                             f"{self.version}); Debian: apt-get install llvm-19")
        out = subprocess.run([self.path, "--version"], capture_output=True, text=True).stdout
        m = re.search(r"LLVM version [\d.]+", out)
        self.own_version = m.group(0) if m else "an llvm-mca of unknown version"

    def run(self, cpu, text, *args):
        return subprocess.run(
            [self.path, "-mtriple=x86_64", f"-mcpu={cpu}", *args, "-"],
            input=".intel_syntax noprefix\n" + text, capture_output=True, text=True, check=True,
        ).stdout

    def command(self, cpu, *args):
        return " ".join([Path(self.path).name, "-mtriple=x86_64", f"-mcpu={cpu}", *args])

    def dispatch_width(self, cpu):
        m = re.search(r"Dispatch Width:\s+(\d+)", self.run(cpu, "add rax, rbx\n", "-iterations=1"))
        return int(m.group(1))


def instruction_info(report, mnemonic):
    """(uops, latency, reciprocal throughput) of `mnemonic` in llvm-mca's Instruction Info view,
    and the line itself."""
    for line in report.splitlines():
        cells = line.split()
        if len(cells) >= 4 and mnemonic in cells and cells[0].isdigit():
            return cells[0], cells[1], cells[2], line.rstrip()
    return None


def pressure_units(report, mnemonic):
    """The execution resources llvm-mca's "Resource pressure by instruction" charges `mnemonic`
    with, and that row of the view."""
    names = {}
    lines = report.splitlines()
    if "Resources:" in lines:
        for line in lines[lines.index("Resources:") + 1:]:
            m = re.match(r"(\[[\d.]+\])\s+-\s+(\S+)", line)
            if not m:
                break
            names[m.group(1)] = m.group(2)
    at = next(i for i, l in enumerate(lines) if l.startswith("Resource pressure by instruction"))
    header = lines[at + 1].split()
    for line in lines[at + 2:]:
        if mnemonic in line.split():
            values = line.split()[: len(header) - 1]
            used = [names.get(h, h) for h, v in zip(header, values) if v != "-"]
            return used, lines[at + 1].rstrip(), line.rstrip()
    return [], "", ""


def mca_cycles(mca, cpu, block):
    """Total Cycles ÷ 100 of llvm-mca on `block` for `cpu`, with the lines it cannot assemble
    dropped, and how many it dropped; None when it gives no figure."""
    run = subprocess.run(
        [mca.path, "-mtriple=x86_64", f"-mcpu={cpu}", "-iterations=100",
         "-skip-unsupported-instructions=parse-failure", "-"],
        input=".intel_syntax noprefix\n" + block, capture_output=True, text=True)
    m = re.search(r"Total Cycles:\s+(\d+)", run.stdout)
    if not m:
        return None, 0
    return int(m.group(1)) / 100, run.stderr.count("error:")

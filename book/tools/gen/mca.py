"""Generates mca/: the dependency chains behind the latency benchmarks, one llvm-mca timeline per
routine and backend in LLVM's model of Zen 3, with the instructions and the cycles from first
issue to last retire.
"""

import re
import subprocess
import tempfile

from .inputs import HEADER, OUT, write
from .listings import find_function, is_instruction, parse_functions


# The routines whose latency the lab measures, and the backends whose chains the book compares.
MCA_ROUTINES = ["piece_at", "flip"]
MCA_BACKENDS = ["scalar", "sse2", "avx2"]
MCA_CPU = "znver3"


def write_timelines(listings):
    """One timeline per routine and backend: one call of the routine, as llvm-mca schedules it."""
    functions = {}
    for listing in listings:
        functions.update(parse_functions(listing))
    out = OUT / "mca"
    for routine in MCA_ROUTINES:
        text = HEADER.format(source=f"`llvm-mca -mcpu={MCA_CPU}` on the asm-probes of crate qbb")
        rows = []
        for backend in MCA_BACKENDS:
            name = find_function(functions, f"qbb::probes::{backend}::{routine}")
            if name is None:
                raise SystemExit(f"generate: no probe {backend}::{routine} for llvm-mca")
            body = [
                line.strip()
                for line in functions[name]
                if is_instruction(line) and line.split()[0] not in ("ret", "vzeroupper")
            ]
            with tempfile.NamedTemporaryFile("w", suffix=".s") as f:
                f.write(".intel_syntax noprefix\n" + "\n".join(body) + "\n")
                f.flush()
                report = subprocess.run(
                    ["llvm-mca", f"-mcpu={MCA_CPU}", "-iterations=1", "-timeline", f.name],
                    check=True, capture_output=True, text=True,
                ).stdout
            cycles = int(re.search(r"Total Cycles:\s+(\d+)", report).group(1))
            timeline = report[report.index("Timeline view:"):]
            timeline = timeline[: timeline.index("Average Wait times")].rstrip()
            rows.append((backend, len(body), cycles))
            text += (
                f"<details>\n<summary>{backend}: one call of <code>{routine}</code>, {cycles} "
                f"cycles in the model</summary>\n\n```text\n{timeline}\n```\n\n</details>\n\n"
            )
        table = "| backend | instructions | cycles from first issue to last retire (model) |\n"
        table += "| --- | ---: | ---: |\n"
        for backend, n, cycles in rows:
            table += f"| {backend} | {n} | {cycles} |\n"
        write(out / f"{routine}.md", text.replace("\n\n", "\n\n" + table + "\n", 1))

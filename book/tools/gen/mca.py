"""Generates mca/: the dependency chains behind the latency benchmarks, one llvm-mca timeline per
routine and backend, in the model of the CPU of the book's machine (the one its report's
model.json predicts against the measurements) and from the listing of the compiler that made its
timings, with the instructions and the cycles from first issue to last retire.
"""

import re
from pathlib import Path

from .inputs import HEADER, OUT, InputError, read_json, write
from .listings import find_function, is_instruction, parse_functions
from .llvm_mca import Mca


# The routines whose latency the lab measures, and the backends whose chains the book compares
# (avx512 too where the book's machine runs it).
MCA_ROUTINES = ["piece_at", "flip"]
MCA_BACKENDS = ["scalar", "sse2", "avx2", "avx512"]


def listing_of_compiler(listings, rustc):
    """The listing whose first line names `rustc` (each starts `# rustc ...`); the first listing
    when none does."""
    for listing in listings:
        with open(listing) as f:
            if f.readline().strip() == f"# {rustc}":
                return listing
    return listings[0]


def write_timelines(report_dir, listings):
    """One timeline per routine and backend: one call of the routine, as llvm-mca schedules it on
    the book's machine's CPU."""
    report_dir = Path(report_dir)
    model = read_json(report_dir / "model.json")
    report = read_json(report_dir / "results.json")
    try:
        cpu = model["predicted_vs_measured"]["cpu"]
        rustc = report["machine"]["rustc"]
    except KeyError as e:
        raise InputError(f"{report_dir}: model.json or results.json has no {e}") from None
    mca = Mca(model)
    listing = listing_of_compiler(listings, rustc)
    functions = parse_functions(listing)
    runs = {r["backend"] for r in report["results"]}
    out = OUT / "mca"
    for routine in MCA_ROUTINES:
        text = HEADER.format(
            source=f"`{mca.command(cpu, '-iterations=1', '-timeline')}` on the asm-probes of "
                   f"crate qbb, compiled by {rustc}")
        rows = []
        for backend in [b for b in MCA_BACKENDS if b in runs]:
            name = find_function(functions, f"qbb::probes::{backend}::{routine}")
            if name is None:
                raise SystemExit(f"generate: no probe {backend}::{routine} for llvm-mca")
            body = [
                line.strip()
                for line in functions[name]
                if is_instruction(line) and line.split()[0] not in ("ret", "vzeroupper")
            ]
            view = mca.run(cpu, "\n".join(body) + "\n", "-iterations=1", "-timeline")
            cycles = int(re.search(r"Total Cycles:\s+(\d+)", view).group(1))
            timeline = view[view.index("Timeline view:"):]
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

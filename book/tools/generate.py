#!/usr/bin/env python3
"""Writes the generated parts of the book (book/src/generated/) from the project's own outputs.

Called by book/generate.sh, which runs the commands whose output this reads:

  code     <backends.json>                    which backend writes which routine, and its source
  asm      <listing.s>...                     the machine code of every probe, with counts
  results  <reports dir>                      the measured tables of one machine, per chapter,
                                              the times beside the instruction counts
  tables   <reports dir>                      another machine's measured tables, per chapter
                                              (results/<machine>/), for the step-by-step sections
  machines <reports dir>...                   the machines that have a report, side by side
  inlining-fix <before.json> <after.json> <shown as>
                                              one machine's ratios before and after the fix of the
                                              dispatch chapter (the first from git, named as shown)
  default-machine <reports>                   prints the machine the book shows by default (the one
                                              it shows now, while its report is complete)
  mca      <report dir> <listing.s>...        llvm-mca timelines of the latency benchmarks' routines
  model-arm <model.json>                      the neon backend on ARM cores, predicted (model/arm.md)
  neon     <backends.json> <model.json> <aarch64 listing.s>
                                              per routine group, the neon implementation, its
                                              AArch64 machine code and its predictions (neon/)
  model    <reports dir> [<listing.s>...]     llvm-mca's predictions (model.json) on every CPU,
                                              predicted against measured, and the checks of each
                                              row that differs (the listings: the probes' code)
  nnue     <reports>                          the NNUE chapter's excerpts of the sources, the
                                              network built into the engine, and the matches
                                              that set `Use NNUE` or `EvalFile`
  engine-matches <reports>                    the engine chapter's Stockfish ladder and the
                                              engine's matches against itself (engine/)

Nothing here measures or invents a number: every figure written comes from a file named on the
command line, or from llvm-mca run on the listings named there (mca, model). Each command is
written by a module of the package gen/ beside this file: default-machine by gen/machines.py,
inlining-fix by gen/dispatch.py, engine-matches by gen/engine_matches.py, every other by the module of its name; gen/inputs.py reads the
files and gen/formatting.py prints the numbers for all of them.
"""

import sys

# The generator's modules compile in memory: no __pycache__ beside the tools.
sys.dont_write_bytecode = True

from gen.asm import write_asm  # noqa: E402 - after the bytecode switch
from gen.code import write_code  # noqa: E402
from gen.dispatch import inlining_fix  # noqa: E402
from gen.engine_matches import write_engine_matches  # noqa: E402
from gen.inputs import OUT, InputError, write  # noqa: E402
from gen.machines import default_machine, machines_page, shown_machine  # noqa: E402
from gen.mca import write_timelines  # noqa: E402
from gen.model import write_model_page  # noqa: E402
from gen.model_arm import arm_page  # noqa: E402
from gen.neon import write_neon  # noqa: E402
from gen.nnue import write_nnue  # noqa: E402
from gen.results import write_results  # noqa: E402
from gen.tables import write_tables  # noqa: E402


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    command, args = argv[1], argv[2:]
    if command == "code":
        write_code(args[0])
    elif command == "asm":
        support_json = args[0]
        write_asm(args[1:], support_json)
    elif command == "results":
        write_results(args[0])
    elif command == "tables":
        write_tables(args[0])
    elif command == "machines":
        write(OUT / "results" / "machines.md", machines_page(args))
    elif command == "inlining-fix":
        write(OUT / "results" / "inlining-fix.md", inlining_fix(args[0], args[1], args[2]))
    elif command == "default-machine":
        print(default_machine(args[0], shown_machine(OUT)))
    elif command == "mca":
        write_timelines(args[0], args[1:])
    elif command == "model":
        write_model_page(args[0], args[1:])
    elif command == "model-arm":
        write(OUT / "model" / "arm.md", arm_page(args[0]))
    elif command == "neon":
        write_neon(args[0], args[1], args[2])
    elif command == "nnue":
        write_nnue(args[0])
    elif command == "engine-matches":
        write_engine_matches(args[0])
    else:
        raise SystemExit(f"generate: unknown command {command}\n{__doc__}")


if __name__ == "__main__":
    try:
        main(sys.argv)
    except InputError as e:
        raise SystemExit(f"generate: {e}")

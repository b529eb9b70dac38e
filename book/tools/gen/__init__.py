"""The book generator's modules, one per command of book/tools/generate.py (code, asm,
mca, results, tables, machines, model, model-arm, neon, nnue) and the pages they share (verdicts,
dispatch, perft, noise, the model's predictions and comparison), over the modules every page
reads with: inputs (the files read and written, and the one-line errors of a damaged one),
formatting (how a number is printed), catalogue (the backends and routine groups), measurements
(what a report's rows say: ties, wins, losses) and listings (the machine code of the probes)."""

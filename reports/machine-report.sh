#!/usr/bin/env bash
# Writes the complete report of this machine, reports/<machine-id>/, with one compiler: nightly,
# which the portable backend needs, so that the timings, the instruction counts and the listings
# the model reads all come from the same rustc (each file names it).
#
#   results.*       qbb compare: every routine on every backend and on the baselines (scalar
#                   and swar, also built for x86-64-v3), ns and cycles per call (the core clock is
#                   timed during the run), paired speed-ups over the baseline with their
#                   intervals, the noise floor, and how far the ratios moved in a second run, a
#                   process of its own (qbb report --agree-with), as a user's next run would be
#   instructions.*  callgrind's counts of the same kernels (where valgrind runs); then results.*
#                   again, with instructions per call and per cycle
#   model.*         llvm-mca's prediction of every routine on several microarchitectures, and
#                   predicted against measured for this one, each modelled block also run here
#   dispatch.json   the engine's perft under run-time dispatch against target-cpu=native (and its
#                   instructions per leaf, where valgrind runs), and the
#   perft*.json     inlining wall; perft against cozy-chess and shakmaty, as shipped and built
#   threads.json    for this CPU; perft on one thread and on all (book/tools/measure.py)
#
# Usage: reports/machine-report.sh [--quick]
#   --quick  short timing plans (a smoke test of the whole chain; not for committing)
#
# Needs: rustup with a nightly toolchain, python3, valgrind (optional: without it the counts
# are left out), llvm-mca 17 or newer (Debian: apt-get install llvm-19) and cargo-show-asm for
# the model. gungraun-runner is installed at the version the benches use when it is missing.
# Run it on a quiet machine: the timings share the cores with anything else that runs.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
export RUSTUP_TOOLCHAIN=nightly
quick=()
[[ "${1:-}" == "--quick" ]] && quick=(--quick)

lab() { cargo run --release --quiet -p qbb-lab --features portable-simd -- "$@"; }
step() { echo "machine-report: $*" >&2; }

step "timing every routine (qbb compare)"
log=$(mktemp)
second=$(mktemp -d)
trap 'rm -rf "$log" "$second"' EXIT
lab compare "${quick[@]}" 2> >(tee "$log" >&2)
dir=$(sed -n 's/^wrote [0-9]* files to \(.*\): results.json.*/\1/p' "$log" | tail -n1)
[[ -n "$dir" ]] || { echo "machine-report: qbb compare did not say where it wrote" >&2; exit 1; }
machine=$(basename "$dir")
# Not `--repeat 2`: two runs in one process share its memory layout (where its stack and heap
# lie), and the next run a user makes does not.
step "the same job again in a new process, and how far its ratios moved"
lab compare "${quick[@]}" --out "$second" >/dev/null
lab report --json "$dir/results.json" --agree-with "$second/results.json" --out "$dir"

if command -v valgrind >/dev/null; then
    gungraun=$(sed -n 's/^gungraun = .*"=\?\([0-9.]*\)".*/\1/p' benches/Cargo.toml)
    if ! gungraun-runner --version 2>/dev/null | grep -q "$gungraun"; then
        step "installing gungraun-runner $gungraun"
        cargo install --quiet gungraun-runner --version "$gungraun" --locked
    fi
    step "counting instructions (callgrind)"
    cargo bench --quiet -p qbb-benches --features callgrind,portable-simd --bench callgrind -- \
        --save-summary=pretty-json
    lab instructions --out "$dir"
    step "timings again, with instructions per cycle"
    lab report --json "$dir/results.json" --out "$dir"
else
    step "no valgrind: instruction counts left out"
fi

step "the model (llvm-mca)"
lab model --out "$dir"

step "perft and the dispatch figures (book/tools/measure.py)"
python3 book/tools/measure.py "$machine"

step "done: reports/$machine; then book/generate.sh $machine and book/check.sh"

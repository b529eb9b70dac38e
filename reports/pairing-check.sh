#!/usr/bin/env bash
# What the paired timer changed: the whole job run twice with the timer that came before it
# (commit fc7c49b: samples taken in turns, but a speed-up the ratio of two medians over the run,
# and one placement of each loop), and how far its ratios moved from the first run to the second,
# computed by this lab (`qbb report --json FIRST --agree-with SECOND`) as `qbb compare --repeat 2`
# computes it for the paired timer. The measuring chapter sets the two side by side.
#
# Usage: reports/pairing-check.sh MACHINE
#   writes reports/MACHINE/unpaired/ (results.json with its `agreement`, results.md, charts);
#   builds that commit's lab with nightly, as reports/machine-report.sh builds this one, into
#   target/pairing-check/. Run it on a quiet machine, right after or before the report's own run.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
machine=${1:?usage: reports/pairing-check.sh MACHINE}
before=fc7c49b
export RUSTUP_TOOLCHAIN=nightly
step() { echo "pairing-check: $*" >&2; }

[[ -f "reports/$machine/results.json" ]] ||
    { echo "pairing-check: no reports/$machine/results.json" >&2; exit 1; }
work="$repo/target/pairing-check"
tree="$work/$before"
if [[ ! -f "$tree/Cargo.toml" ]]; then
    step "unpacking $before into $tree"
    mkdir -p "$tree"
    git archive "$before" | tar -x -C "$tree"
fi
step "building the lab of $before"
cargo build --release --quiet -p qbb-lab --features portable-simd \
    --manifest-path "$tree/Cargo.toml" --target-dir "$work/target"
old="$work/target/release/qbb"

runs="$work/runs"
rm -rf "$runs"
for run in 1 2; do
    step "run $run of 2 with the timer of $before"
    "$old" compare --out "$runs/$run"
done

step "their agreement, by this lab"
cargo run --release --quiet -p qbb-lab --features portable-simd -- \
    report --json "$runs/1/results.json" --agree-with "$runs/2/results.json" \
    --out "reports/$machine/unpaired"

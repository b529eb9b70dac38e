#!/usr/bin/env bash
# The engine's `bench` (16 positions searched to a fixed depth) on every backend this CPU runs,
# with the network and with the hand-written evaluation: nodes and nodes per second, into
# reports/<machine>/engine-bench.md. The node count of one evaluation must be the same on every
# backend (the script checks it); the speed is one run each, on a quiet machine.
#
#   reports/engine-bench.sh MACHINE [DEPTH]
set -euo pipefail
cd "$(dirname "$0")/.."
machine=${1:?usage: reports/engine-bench.sh MACHINE [DEPTH]}
depth=${2:-11}
out=reports/$machine/engine-bench.md
mkdir -p "reports/$machine"

toolchain=() features=()
if cargo +nightly --version >/dev/null 2>&1; then
  toolchain=(+nightly) features=(--features portable-simd)
fi
cargo "${toolchain[@]}" build -q --release -p qbb-engine -p qbb-lab "${features[@]}"
backends=$(target/release/qbb backends --json |
  python3 -c 'import json,sys; print(" ".join(b["name"] for b in json.load(sys.stdin) if b["available"]))')

{
  echo "# qbb-engine bench, depth $depth"
  echo
  echo "$(grep -m 1 '^model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(cargo "${toolchain[@]}" --version)."
  echo "Made by \`reports/engine-bench.sh $machine $depth\`: \`QBB_BACKEND=<backend> qbb-engine bench $depth --eval <eval>\`, one run each."
  echo
  echo "| backend | NNUE: nodes | NNUE: nodes/s | hand-written: nodes | hand-written: nodes/s |"
  echo "| --- | ---: | ---: | ---: | ---: |"
} >"$out"
declare -A first
for backend in $backends; do
  row="| $backend |"
  for eval in nnue hand; do
    read -r nodes _ nps _ < <(QBB_BACKEND=$backend target/release/qbb-engine bench "$depth" --eval "$eval" | tail -n 1)
    if [ -n "${first[$eval]:-}" ] && [ "${first[$eval]}" != "$nodes" ]; then
      echo "engine-bench: $backend searched $nodes nodes with --eval $eval, another backend ${first[$eval]}" >&2
      exit 1
    fi
    first[$eval]=$nodes
    row="$row $nodes | $nps |"
  done
  echo "$row" >>"$out"
done
cat "$out"

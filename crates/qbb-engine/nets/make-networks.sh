#!/usr/bin/env bash
# Makes the engine's network from its own games, in one command: self-play data from the engine
# as built now (its embedded network evaluating, 5,000 nodes a move), then a network of the
# engine's width (256 lanes) trained on them. Everything goes under target/nnue/; a data file
# already there is kept (the same seed gives the same file, so a stopped run resumes).
#
#   crates/qbb-engine/nets/make-networks.sh              # 6 files of 10,000 games (~5.7 M positions)
#   crates/qbb-engine/nets/make-networks.sh --files 2    # fewer games, for a try
#
# Whether the network becomes `default.nnue` is a match's decision, not this script's: see
# nets/README.md.
set -euo pipefail
cd "$(dirname "$0")/../../.."

files=6
if [ "${1:-}" = --files ] && [ -n "${2:-}" ]; then
  files=$2
elif [ $# -gt 0 ]; then
  echo "usage: $0 [--files N]" >&2
  exit 2
fi
threads=$(nproc)
games=10000
nodes=5000
out=target/nnue
mkdir -p "$out/data"

cargo build --release -p qbb-engine -p qbb-trainer

data=()
for ((i = 0; i < files; i++)); do
  seed=$((11 + i))
  file="$out/data/selfplay-nnue-$nodes-seed$seed.txt"
  if [ ! -f "$file" ]; then
    target/release/qbb-engine datagen --games "$games" --nodes "$nodes" --seed "$seed" \
      --eval nnue --threads "$threads" --out "$file.part"
    mv "$file.part" "$file"
  fi
  data+=("$file")
done

# Two training threads whatever the machine: a training run is repeatable for a thread count.
target/release/qbb-train "${data[@]}" --out "$out/qbb-256.nnue" \
  --epochs 40 --batch-size 16384 --wdl 0 --threads 2
echo "network: $out/qbb-256.nnue, from ${#data[@]} data file(s)"

#!/usr/bin/env bash
# Where perft's time went, step by step: builds `qbb` at each commit that changed the move
# generator's speed and counts, under callgrind, the instructions of two bulk-counting perfts and
# one leaf-making perft on the avx2 backend. Counts, unlike times, do not depend on what else the
# machine runs, so every step is measured alike whenever the script runs; the timings of the last
# step are the perft bench's (book/tools/measure.py).
#
# Usage: reports/perft-steps.sh MACHINE
#   writes reports/MACHINE/perft-steps.json, which book/generate.sh turns into the engine
#   chapter's table. Needs valgrind; builds with the toolchain in use (one compiler for every
#   step) into target/perft-steps/.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
machine=${1:?usage: reports/perft-steps.sh MACHINE}
out="reports/$machine/perft-steps.json"
command -v valgrind >/dev/null || { echo "perft-steps: needs valgrind" >&2; exit 1; }

# commit | what it changed (the commit message says why and what it measured then)
steps=(
    "e601407|the engine before the changes"
    "05d1946|perft plays its moves unkeyed: no Zobrist key, no clocks"
    "ab51215|free sliders without a pin test per piece"
    "ce3cd45|the last two plies counted in one function"
    "700f152|pinned sliders and pawns behind one test"
    "35cf45e|unkeyed moves skip the castling key's loop"
    "bfaea32|castling and busy kings read one map of the opponent's attacks"
)
kiwipete='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
# name | depth | FEN (empty: the start position) | bulk or no-bulk | leaves
runs=(
    "startpos d5|5||bulk|4865609"
    "kiwipete d4|4|$kiwipete|bulk|4085603"
    "startpos d4 no-bulk|4||no-bulk|197281"
)

target=$repo/target/perft-steps
tree=$(mktemp -d)
trap 'git worktree remove --force "$tree" >/dev/null 2>&1 || true; rm -rf "$tree"' EXIT

# Instructions of one run of `qbb perft`.
count() {
    local qbb=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$qbb" perft "$@" --backend avx2 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

rows=()
for step in "${steps[@]}"; do
    commit=${step%%|*}
    title=${step#*|}
    echo "perft-steps: $commit ($title)" >&2
    git worktree remove --force "$tree" >/dev/null 2>&1 || true
    git worktree add --detach --force "$tree" "$commit" >/dev/null
    (cd "$tree" && cargo build --release --quiet -p qbb-lab --target-dir "$target")
    qbb=$target/release/qbb
    # The start-up (tables, FEN) is counted once by a perft of one ply and taken off each run.
    startup=$(count "$qbb" 1)
    cells=()
    for run in "${runs[@]}"; do
        IFS='|' read -r name depth fen bulk leaves <<<"$run"
        args=("$depth")
        [[ -n "$fen" ]] && args+=(--fen "$fen")
        [[ "$bulk" == no-bulk ]] && args+=(--no-bulk)
        total=$(count "$qbb" "${args[@]}")
        cells+=("{\"run\":\"$name\",\"leaves\":$leaves,\"instructions\":$((total - startup))}")
    done
    rows+=("{\"commit\":\"$commit\",\"change\":\"$title\",\"runs\":[$(IFS=,; echo "${cells[*]}")]}")
done

{
    echo "{\"rustc\":\"$(rustc --version)\",\"valgrind\":\"$(valgrind --version)\",\"backend\":\"avx2\","
    echo "\"command\":\"reports/perft-steps.sh $machine\",\"steps\":["
    (IFS=$'\n'; echo "${rows[*]}" | sed '$!s/$/,/')
    echo "]}"
} >"$out"
python3 -m json.tool "$out" >/dev/null
echo "perft-steps: wrote $out" >&2

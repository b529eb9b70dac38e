#!/usr/bin/env bash
# Where perft's time went, step by step: builds `qbb` at each commit that changed the move
# generator's speed and counts, under callgrind, the instructions of two bulk-counting perfts and
# one leaf-making perft on the avx2 backend. Counts, unlike times, do not depend on what else the
# machine runs, so every step is measured alike whenever the script runs. Then it times the same
# perfts one ply deeper at every step, in rounds that run every step in turn (best of five, wall
# time), so that the steps' speeds are compared within one run: a change can cost instructions
# and still save time. Run it on a quiet machine.
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
    "62f29a8|castling and busy kings read one map of the opponent's attacks"
    "a05fdb2|promotions only with a pawn on the seventh rank"
    "927b5d6|checks and pins from the snipers alone"
    "bd44238|avx2 plane masks from a table (move delta)"
    "73965f0|children made in batches before they are counted"
    "8fa2aac|castling generated next to the king's moves"
    "a5701c6|without bulk counting, the last two plies in one function"
    "8ce74c6|perft with and without bulk counting compiled apart"
    "16cfc75|one array of children per node, not one per batch"
    "41b68f7|pawns split at the seventh rank: no rank-8 masks"
    "2b8e565|castling paths from one lookup of rank 1"
    "9a0df86|a copy of the generator for nodes in no check and with no pin"
    "f0b8fc9|the map of the opponent's attacks from the sliders that can reach"
    "9b1b361|a batch as lanes on avx512; on avx2 a for loop over the batches"
    "a52d56d|a child written only where it differs from its siblings"
    "22de478|a quiet move's child counted from its siblings, not made"
    "98e7519|a plain capture's child counted from its siblings too"
)
kiwipete='r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'
# name | depth | FEN (empty: the start position) | bulk or no-bulk | leaves
runs=(
    "startpos d5|5||bulk|4865609"
    "kiwipete d4|4|$kiwipete|bulk|4085603"
    "startpos d4 no-bulk|4||no-bulk|197281"
)

# Every step's commit must be in this clone's history: say which is missing before any build.
for step in "${steps[@]}"; do
    commit=${step%%|*}
    git cat-file -e "$commit^{commit}" 2>/dev/null ||
        { echo "perft-steps: commit $commit (${step#*|}) is not in this repository's history" >&2; exit 1; }
done

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

counted=()
rows=()
for step in "${steps[@]}"; do
    commit=${step%%|*}
    title=${step#*|}
    echo "perft-steps: $commit ($title)" >&2
    git worktree remove --force "$tree" >/dev/null 2>&1 || true
    git worktree add --detach --force "$tree" "$commit" >/dev/null
    (cd "$tree" && cargo build --release --quiet -p qbb-lab --target-dir "$target")
    qbb=$target/qbb-$commit
    cp "$target/release/qbb" "$qbb"
    # The start-up (tables, FEN) is counted once by a perft of one ply and taken off each run.
    startup=$(count "$qbb" 1)
    cells=()
    for run in "${runs[@]}"; do
        IFS='|' read -r name depth fen bulk leaves <<<"$run"
        args=("$depth")
        [[ -n "$fen" ]] && args+=(--fen "$fen")
        [[ "$bulk" == no-bulk ]] && args+=(--no-bulk)
        total=$(count "$qbb" "${args[@]}")
        cells+=("\"run\":\"$name\",\"leaves\":$leaves,\"instructions\":$((total - startup))")
    done
    counted+=("$(IFS='|'; echo "${cells[*]}")")
done

# Speed: each run one ply deeper (long enough to time), every step in turn, five rounds.
declare -A best
for round in 1 2 3 4 5; do
    echo "perft-steps: timing, round $round of 5" >&2
    for step in "${steps[@]}"; do
        commit=${step%%|*}
        for run in "${runs[@]}"; do
            IFS='|' read -r name depth fen bulk leaves <<<"$run"
            args=("$((depth + 1))" --backend avx2 --json)
            [[ -n "$fen" ]] && args+=(--fen "$fen")
            [[ "$bulk" == no-bulk ]] && args+=(--no-bulk)
            mnps=$("$target/qbb-$commit" perft "${args[@]}" |
                python3 -c 'import json, sys; print(json.load(sys.stdin)["mnps"])')
            key="$commit $name"
            best[$key]=$(python3 -c "print(round(max($mnps, ${best[$key]:-0}), 1))")
        done
    done
done

for i in "${!steps[@]}"; do
    commit=${steps[$i]%%|*}
    title=${steps[$i]#*|}
    IFS='|' read -r -a cells <<<"${counted[$i]}"
    timed=()
    for j in "${!runs[@]}"; do
        name=${runs[$j]%%|*}
        timed+=("{${cells[$j]},\"mnps_one_ply_deeper\":${best["$commit $name"]}}")
    done
    rows+=("{\"commit\":\"$commit\",\"change\":\"$title\",\"runs\":[$(IFS=,; echo "${timed[*]}")]}")
done

{
    echo "{\"rustc\":\"$(rustc --version)\",\"valgrind\":\"$(valgrind --version)\",\"backend\":\"avx2\","
    echo "\"cpu\":\"$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)\","
    echo "\"command\":\"reports/perft-steps.sh $machine\",\"steps\":["
    (IFS=$'\n'; echo "${rows[*]}" | sed '$!s/$/,/')
    echo "]}"
} >"$out"
python3 -m json.tool "$out" >/dev/null
echo "perft-steps: wrote $out" >&2

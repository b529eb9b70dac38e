#!/usr/bin/env bash
# Regenerates everything under book/src/generated/ from the project's own commands:
#
#   pictures/  the four planes of the positions the chapters draw, and what each routine
#              computes on a position chosen to show it                (qbb show [--routine])
#   diagrams/  the lane diagrams: what the backends' instructions do   (tools/diagrams.py)
#   code/      each backend's implementation, included by anchor      (qbb backends --json)
#   asm/       each backend x routine in machine code, with counts     (cargo asm, asm-probes)
#   mca/       the latency benchmarks' routines scheduled by llvm-mca  (llvm-mca, the model of the
#              book machine's CPU)
#   results/   the measured tables of the book's machine, per chapter (reports/<machine>/: times,
#              cycles and instruction counts), the figures each chapter's prose discusses, as
#              sentences (results/verdicts/), every machine that has a report, side by side
#              (reports/*/results.json), once for the results page and per chapter
#              (results/machines/, tools/other_machines.py), and the optimisation story's table
#              (results/story.md, tools/story.py)
#   charts/    per benchmark, every machine's speed-ups side by side, a group per report   (qbb charts)
#              and the book machine's overview, copied from reports/<machine>/
#   model/     llvm-mca's predictions of every routine on every CPU of the report's model.json,
#              predicted against measured, and the checks of every row that differs (llvm-mca
#              run again on the probes of the listings below), and per chapter the model of the
#              book's machine's CPU its step-by-step reads (model/chapters/, tools/chapter_model.py)
#   neon/      per routine group, for the chapters' `On NEON` sections: the neon backend's code by
#              anchor (or why it inherits swar's), its AArch64 machine code with counts, and its
#              llvm-mca predictions on ARM cores beside x86 ones (reports/arm-model/model.json);
#              left as it is where no compiler has the aarch64-unknown-linux-gnu standard library
#   nnue/      the NNUE chapter's excerpts of the sources, the network built into the engine
#              (crates/qbb-engine/nets/default.nnue) and the matches of reports/*/match/ that set
#              `Use NNUE` or `EvalFile`                                 (tools/generate.py nnue)
#   engine/    the engine chapter's matches: the rungs against Stockfish limited by UCI_Elo, and
#              the engine against itself (search changes, threads)  (tools/generate.py engine-matches)
#
# Usage: book/generate.sh [MACHINE]
#   MACHINE is a folder of reports/: the machine the book shows (its tables, verdicts, charts and
#   model chapter). reports/ holds five: amd-epyc-f23m1 (Zen 1), amd-epyc-f25m1 (Zen 3),
#   amd-epyc-f25m17 (Zen 4), amd-epyc-f26m2 (Zen 5) and intel-xeon-f6m167 (an Intel Xeon), the
#   last three with AVX-512. The
#   default is the machine the book shows now, while its report has everything the book reads
#   (results.json, dispatch.json, perft.json): the prose's claims are about it, so another machine
#   becomes the book's only by name. Before the first generation, or when that report is gone, it
#   is the report that times the most backends (on a CPU with AVX-512 that includes avx512), among
#   the complete ones with baselines; ties go to the most recently measured, by the date each
#   report records. `generate.py default-machine reports` prints it.
# Needs: cargo-show-asm (`cargo install cargo-show-asm`), llvm-mca (Debian: `apt-get install llvm`;
# the model's checks run the llvm-mca that made model.json, e.g. llvm-mca-19 from `llvm-19`),
# python3, and for the portable backend's listings a nightly toolchain (`rustup toolchain install
# nightly`). The measurements themselves come first: `qbb compare`, book/tools/measure.py and the
# instruction counts (the callgrind bench, then `qbb instructions`).
# Then run book/check.sh.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
out=book/src/generated
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "generate: building the lab" >&2
cargo build --release --quiet -p qbb-lab
qbb=target/release/qbb

# ---- pictures: `qbb show`, exactly as a reader would run it ------------------------------------
picture() {
    local name=$1
    shift
    mkdir -p "$out/pictures"
    # The command as a reader would type it; a FEN goes on a continuation line of its own.
    local shown="\$ qbb show --backend scalar" arg
    for arg in "$@"; do
        if [[ "$arg" == *" "* ]]; then shown+=" \\"$'\n'"    '$arg'"; else shown+=" $arg"; fi
    done
    {
        echo "$shown"
        "$qbb" show --backend scalar "$@"
    } >"$out/pictures/$name.txt"
}
start='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
rm -rf "$out/pictures"
picture start
picture start-relative-white --relative "$start"
picture e4-black-to-move 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'
picture e4-relative --relative 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'
picture pins '4k3/8/2N1r3/8/Qb6/2N5/4B3/R3K2R w KQ - 0 1'
# What each routine computes, on the position `qbb show --routine` chooses for it: one picture per
# routine of the catalogue (the list comes from the lab), computed by the scalar reference through
# the Backend trait.
routines=$("$qbb" backends --json | python3 -c 'import json, sys; print(*json.load(sys.stdin)[0]["routines"])')
for routine in $routines; do
    picture "routine-$routine" --routine "$routine"
done

# ---- diagrams: the lane diagrams, SVG drawn from the values the backends' steps compute ---------
rm -rf "$out/diagrams"
python3 book/tools/diagrams.py "$out/diagrams"

# ---- code: which backend writes what, from the lab's backend matrix ----------------------------
"$qbb" backends --json >"$tmp/backends.json"
rm -rf "$out/code"
python3 book/tools/generate.py code "$tmp/backends.json"
cp "$tmp/backends.json" "$out/backends.json"

# ---- asm: one out-of-line probe per backend and routine ----------------------------------------
echo "generate: machine code of the probes" >&2
# Each listing starts with the compiler that made it, as `qbb model`'s listings do.
echo "# $(rustc --version)" >"$tmp/stable.s"
cargo asm -p qbb --features asm-probes --lib --simplify --full-name --everything \
    >>"$tmp/stable.s" 2>"$tmp/asm.log" || { cat "$tmp/asm.log" >&2; exit 1; }
listings=("$tmp/stable.s")
if rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "# $(rustup run nightly rustc --version)" >"$tmp/nightly.s"
    cargo +nightly asm -p qbb --features asm-probes,portable-simd --lib --simplify --full-name \
        --everything --target-dir target/nightly >>"$tmp/nightly.s" 2>"$tmp/asm.log" ||
        { cat "$tmp/asm.log" >&2; exit 1; }
    listings+=("$tmp/nightly.s")
else
    echo "generate: no nightly toolchain, the portable backend's listings are left out" >&2
fi

# ---- the machine the book shows: its tables, verdicts, charts, model and timelines ---------------
machine=${1:-}
if [[ -z "$machine" ]]; then
    machine=$(python3 book/tools/generate.py default-machine reports)
fi
if [[ -z "$machine" || ! -f "reports/$machine/results.json" ]]; then
    echo "generate: no reports/<machine>/results.json; run \`qbb compare\` first" >&2
    exit 1
fi

# The listings of the compiler that timed the book's machine come first: the chapters show the
# machine code that was measured (the other listing fills in what that one lacks).
timed_by=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["machine"]["rustc"])' \
    "reports/$machine/results.json")
ordered=()
for listing in "${listings[@]}"; do
    if [[ "$(head -n 1 "$listing")" == "# $timed_by" ]]; then
        ordered=("$listing" "${ordered[@]}")
    else
        ordered+=("$listing")
    fi
done
listings=("${ordered[@]}")
rm -rf "$out/asm"
python3 book/tools/generate.py asm "$tmp/backends.json" "${listings[@]}"

# ---- mca: the dependency chains behind the latency benchmarks, in the model of the book machine's
# CPU (its model.json), from the listing of the compiler that timed it ----------------------------
rm -rf "$out/mca"
python3 book/tools/generate.py mca "reports/$machine" "${listings[@]}"

# ---- results: the measured tables and charts of one machine, and every machine side by side -----
echo "generate: the measured tables of reports/$machine" >&2
rm -rf "$out/results" "$out/charts"
python3 book/tools/generate.py results "reports/$machine"
# The chapters' charts: every benchmark on every machine that has a report, a group per machine
# (drawn over the book machine's own charts, which the line above copies).
"$qbb" charts --out "$out/charts" reports/*/results.json
machines=()
for report in reports/*/results.json; do
    machines+=("$(dirname "$report")")
done
python3 book/tools/generate.py machines "${machines[@]}"
# Per chapter, every machine side by side: each one's speed-ups over its own baseline, folded.
python3 book/tools/other_machines.py "$out/results/machines" "${machines[@]}"
# The optimisation story: one routine, step by step, on the book's machine.
python3 book/tools/story.py "reports/$machine" to-mailbox "$out/results/story.md"
# The dispatch chapter's fix, measured on one machine: its report before the fix, as git keeps it,
# against the same machine's report since.
fix_before=87e0950:reports/amd-epyc-f25m1/results.json
git show "$fix_before" >"$tmp/before-fix.json"
python3 book/tools/generate.py inlining-fix "$tmp/before-fix.json" \
    reports/amd-epyc-f25m1/results.json "git show $fix_before"

# ---- model: llvm-mca's predictions beside the measurements, and the check of each disagreement --
# From reports/$machine/model.json (or, when it has none, the most recent report that has one); the
# probes' code is read from the listings the model was made from when target/qbb-model/ still holds
# them, else from those made above.
echo "generate: the model of reports/$machine" >&2
rm -rf "$out/model"
python3 book/tools/generate.py model "reports/$machine" "${listings[@]}"
# Per chapter, the model of the book's machine's CPU that its step-by-step reads: every backend's
# prediction beside the measurement, and the instructions of the backend it follows, taken from
# the listing made above by the compiler the model's listings came from.
python3 book/tools/chapter_model.py "reports/$machine" "$out/model/chapters" "${listings[@]}"
# The neon backend on ARM cores, predicted only: the model file of its own (reports/README.md).
python3 book/tools/generate.py model-arm reports/arm-model/model.json

# ---- neon: per routine group, the neon backend's code, its AArch64 machine code and its
# predictions on ARM cores (reports/arm-model/model.json), for the chapters' `On NEON` sections.
# The listing is made as `qbb model` makes target/qbb-model/aarch64.s: the same cargo asm, by a
# compiler that has the aarch64-unknown-linux-gnu standard library (the checkout's own, else
# Debian's /usr/bin/rustc in target/aarch64-build, as .ci/aarch64-under-qemu installs it). -------
aarch64=aarch64-unknown-linux-gnu
has_aarch64_std() { [[ -d "$("$1" --print sysroot 2>/dev/null)/lib/rustlib/$aarch64/lib" ]]; }
neon_listing=
neon_rustc=
neon_target_dir=target
if [[ "$(uname -m)" == aarch64 ]]; then
    neon_listing="$tmp/stable.s"
elif has_aarch64_std rustc; then
    neon_rustc=rustc
elif [[ -x /usr/bin/rustc ]] && has_aarch64_std /usr/bin/rustc; then
    # The host build's fingerprints are of another rustc: a target folder of its own.
    neon_rustc=/usr/bin/rustc
    neon_target_dir=target/aarch64-build
fi
if [[ -n "$neon_rustc" ]]; then
    echo "generate: machine code of the probes for $aarch64" >&2
    printf '# %s\n# target %s\n' "$("$neon_rustc" --version)" "$aarch64" >"$tmp/aarch64.s"
    RUSTC=$neon_rustc cargo asm -p qbb --features asm-probes --lib --simplify --full-name \
        --everything --target "$aarch64" --target-dir "$neon_target_dir" \
        >>"$tmp/aarch64.s" 2>"$tmp/asm.log" || { cat "$tmp/asm.log" >&2; exit 1; }
    neon_listing="$tmp/aarch64.s"
fi
if [[ -n "$neon_listing" ]]; then
    rm -rf "$out/neon"
    python3 book/tools/generate.py neon "$out/backends.json" reports/arm-model/model.json \
        "$neon_listing"
else
    echo "generate: no compiler here has the $aarch64 standard library, so $out/neon/ is left" \
        "as it is (\`rustup target add $aarch64\`, or Debian's rustc-web and" \
        "libstd-rust-web-dev:arm64 as .ci/aarch64-under-qemu installs them)" >&2
fi

# ---- nnue: the chapter's source excerpts, the embedded network, what the network bought --------
rm -rf "$out/nnue"
python3 book/tools/generate.py nnue reports
# ---- engine: the Stockfish ladder and the engine's matches against itself (reports/*/match/).
rm -rf "$out/engine"
python3 book/tools/generate.py engine-matches reports

echo "generate: done; now run book/check.sh" >&2

#!/usr/bin/env bash
# Where a result lands: one benchmark on one backend, timed in separate processes whose stacks
# begin 16 bytes apart over a whole page. Address randomisation is off (`setarch -R`) and the
# environment is padded by 0, 16, ..., 4080 bytes, which moves every stack slot of the process by
# as much. Two labs take turns at each padding: the lab before results were kept at the start of
# a page (commit 2a15df5: each result left wherever black_box's stack slot fell) and this one
# (`keep` in benches/src/kernels.rs).
#
# Usage: reports/stack-check.sh MACHINE [BENCH [BACKEND]]
#   defaults: piece-sets, on avx512 where the CPU has it, else avx2. Writes
#   reports/MACHINE/stack.json, which book/generate.sh turns into the measuring chapter's check.
#   Builds both labs with the default toolchain into target/stack-check/. 512 runs of
#   `qbb compare --quick` for one benchmark, each a few seconds with its start: about half an
#   hour. Needs setarch (util-linux). Run it on a quiet machine.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
fail() {
    echo "stack-check: $*" >&2
    exit 1
}
machine=${1:?usage: reports/stack-check.sh MACHINE [BENCH [BACKEND]]}
bench=${2:-piece-sets}
if [[ -n ${3:-} ]]; then
    backend=$3
elif grep -qw avx512f /proc/cpuinfo; then
    backend=avx512
else
    backend=avx2
fi
[[ -d "reports/$machine" ]] || fail "no reports/$machine (run reports/machine-report.sh first)"
command -v setarch >/dev/null || fail "needs setarch (util-linux)"
setarch -R true 2>/dev/null || fail "setarch -R cannot turn address randomisation off here"

before=2a15df5
work="$repo/target/stack-check"
tree="$work/$before"
if [[ ! -f "$tree/Cargo.toml" ]]; then
    mkdir -p "$tree"
    git archive "$before" | tar -x -C "$tree"
fi
echo "stack-check: building the lab of $before and this one" >&2
cargo build --release --quiet -p qbb-lab --manifest-path "$tree/Cargo.toml" \
    --target-dir "$work/before"
cargo build --release --quiet -p qbb-lab --target-dir "$work/now"
labs=(before now)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for pad in $(seq 0 16 4080); do
    (( pad % 1024 == 0 )) && echo "stack-check: padding $pad of 4080 bytes" >&2
    padding=$(printf '%*s' "$pad" '' | tr ' ' x)
    for lab in "${labs[@]}"; do
        env -i PAD="$padding" setarch -R "$work/$lab/release/qbb" compare --quick \
            --bench "$bench" --backend "$backend" --out "$scratch/$lab-$pad" >/dev/null 2>&1 ||
            fail "qbb compare --bench $bench --backend $backend failed (the $lab lab)"
    done
done

python3 - "$machine" "$bench" "$backend" "$before" "$scratch" <<'PY'
import json, statistics, subprocess, sys
from pathlib import Path

machine, bench, backend, before, scratch = sys.argv[1:6]
pads = range(0, 4096, 16)

def runs(lab):
    """Each padding's time per call on the backend, and its speed-up over the row's baseline."""
    out = []
    for pad in pads:
        rows = json.load(open(Path(scratch) / f"{lab}-{pad}" / "results.json"))["results"]
        row = next(r for r in rows if r["benchmark"] == bench and r["backend"] == backend)
        out.append({"pad": pad, "ns_per_op": row["ns_per_op"],
                    "speedup": row["speedup_vs_baseline"]})
    return out

def summary(name, commit, lab_runs):
    times = [r["ns_per_op"] for r in lab_runs]
    median = statistics.median(times)
    return {"lab": name, "commit": commit, "runs": lab_runs, "median_ns": median,
            "fastest_ns": min(times), "slowest_ns": max(times),
            "slow_runs": sum(1 for t in times if t > 1.5 * median),
            "speedups": [min(r["speedup"] for r in lab_runs), max(r["speedup"] for r in lab_runs)]}

now = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                     check=True).stdout.strip()
rustc = subprocess.run(["rustc", "-V"], capture_output=True, text=True, check=True).stdout.strip()
out = {
    "machine": machine,
    "command": f"reports/stack-check.sh {machine} {bench} {backend}",
    "rustc": rustc,
    "benchmark": bench,
    "backend": backend,
    "step_bytes": 16,
    "labs": [summary("results where black_box's slot fell", before, runs("before")),
             summary("results at the start of a page", now, runs("now"))],
}
path = Path("reports") / machine / "stack.json"
path.write_text(json.dumps(out, indent=1) + "\n")
for lab in out["labs"]:
    print(f"stack-check: {lab['lab']}: {lab['fastest_ns']:.2f} to {lab['slowest_ns']:.2f} ns, "
          f"median {lab['median_ns']:.2f}; {lab['slow_runs']} of {len(lab['runs'])} runs over "
          f"1.5x the median", file=sys.stderr)
print(f"stack-check: wrote {path}", file=sys.stderr)
PY

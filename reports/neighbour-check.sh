#!/usr/bin/env bash
# Whether a shared core explains ratios that move from run to run: one benchmark timed in RUNS
# processes of their own (`qbb compare --bench BENCH`), and each run's speed-ups estimated five
# ways from the same turns, by the neighbour probe that `qbb compare` records beside every turn
# (`turn_probe` in results.json), each against one reference (the first run's baseline, as the
# lab's agreement takes one): from the turns in which the core ran alone (the probe within a
# tenth, the lab's STATE_BAND, of the highest figure any run's probe reached), from the turns in
# which it was shared (the rest), from every turn, from the quietest third of all turns (the rule
# before the probe: the third with the lowest load, never fewer than six), from the quietest third
# of the turns in the usual state (the rule before the lab counted every turn of that state), and
# as the lab reports them (the paired ratio over the turns in the run's usual state,
# `usual_turns`). If a state's ratios hold still from run to run while the others move, the
# mixture of the states moved them.
#
# Usage: reports/neighbour-check.sh MACHINE [RUNS] [BENCH]
#   RUNS defaults to 10, BENCH to weighted-popcount. Writes reports/MACHINE/neighbour.json, which
#   book/generate.sh turns into the measuring chapter's table. Builds the lab with nightly, as
#   reports/machine-report.sh does. Some ten seconds a run; run it on an otherwise quiet machine
#   (the neighbour it looks for is outside the machine).
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
machine=${1:?usage: reports/neighbour-check.sh MACHINE [RUNS] [BENCH]}
runs=${2:-10}
bench=${3:-weighted-popcount}
fail() {
    echo "neighbour-check: $*" >&2
    exit 1
}
case $runs in
    '' | *[!0-9]* | 0 | 1) fail "RUNS must be a whole number of at least 2, not '$runs'" ;;
esac
[[ -d "reports/$machine" ]] || fail "no reports/$machine (run reports/machine-report.sh first)"
export RUSTUP_TOOLCHAIN=nightly

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
echo "neighbour-check: building the lab" >&2
cargo build --release --quiet -p qbb-lab --features portable-simd
for run in $(seq "$runs"); do
    echo "neighbour-check: run $run of $runs, $bench" >&2
    target/release/qbb compare --bench "$bench" --out "$scratch/$run" >/dev/null 2>&1 ||
        fail "qbb compare --bench $bench failed (is '$bench' one of qbb list's benchmarks?)"
done

python3 - "$machine" "$bench" "$runs" "$scratch" "$(git rev-parse --short HEAD)" \
    "reports/neighbour-check.sh $machine $runs $bench" <<'EOF'
import json, math, statistics, sys

machine, bench, runs, scratch, commit, command = sys.argv[1:]
# The lab's STATE_BAND (benches/src/neighbour.rs) and MIN_TURNS_FOR_INTERVAL
# (benches/src/estimate.rs).
BAND, MIN_TURNS = 0.1, 6

def read(run):
    with open(f"{scratch}/{run}/results.json") as f:
        report = json.load(f)
    rows = [r for r in report["results"] if r["benchmark"] == bench]
    if not rows or not all(r.get("turn_probe") for r in rows):
        sys.exit(f"neighbour-check: run {run} recorded no probe for {bench} (no probe on this "
                 f"architecture?)")
    turns = min(len(r["turn_ns"]) for r in rows)
    probes = [statistics.median(r["turn_probe"][t] for r in rows) for t in range(turns)]
    return report, rows, probes

read_runs = [read(run) for run in range(1, int(runs) + 1)]
# One reference for every run, as the lab's agreement has: the first run's baseline, which a
# later run may not choose.
reference = read_runs[0][1][0]["baseline"]
alone_figure = max(p for _, _, probes in read_runs for p in probes)

def ratio(turns, base, row):
    """The median over `turns` of the paired ratio, the reference's time over the row's."""
    if len(turns) < MIN_TURNS:
        return None
    return round(statistics.median(base["turn_ns"][t] / row["turn_ns"][t] for t in turns), 4)

def quietest_third(rows, candidates):
    """The third of the `candidates` turns with the lowest load (the median over the
    implementations of a turn's time over that implementation's median over the candidates),
    never fewer than six."""
    typical = [statistics.median(r["turn_ns"][t] for t in candidates) for r in rows]
    load = lambda t: statistics.median(r["turn_ns"][t] / m for r, m in zip(rows, typical))
    keep = min(max(math.ceil(len(candidates) / 3), MIN_TURNS), len(candidates))
    return sorted(sorted(candidates, key=lambda t: (load(t), t))[:keep])

out_runs = []
for report, rows, probes in read_runs:
    turns = len(probes)
    alone = [t for t in range(turns) if probes[t] >= alone_figure * (1 - BAND)]
    shared = [t for t in range(turns) if t not in alone]
    quiet = quietest_third(rows, range(turns))
    # The lab's usual state (the same turns for every row): one benchmark, so the run's.
    usual = rows[0]["usual_turns"]
    quiet_usual = quietest_third(rows, usual)
    base = next(r for r in rows if r["backend"] == reference)
    implementations = {}
    for row in rows:
        if row is base:
            continue
        implementations[row["backend"]] = {
            "reported": ratio(usual, base, row),
            "alone": ratio(alone, base, row),
            "shared": ratio(shared, base, row),
            "all_turns": ratio(range(turns), base, row),
            "quietest_third_of_all": ratio(quiet, base, row),
            "quietest_third_of_usual": ratio(quiet_usual, base, row),
        }
    median_probe = lambda ts: round(statistics.median(probes[t] for t in ts), 2) if ts else None
    probe_usual = median_probe(usual)
    out_runs.append({
        "turns": turns,
        "usual_turns": len(usual),
        "probe_usual": probe_usual,
        # The state the lab's estimates were made in, judged as each turn's is.
        "usual_state": "alone" if probe_usual >= alone_figure * (1 - BAND) else "shared",
        "alone_turns": len(alone),
        "shared_turns": len(shared),
        "probe_alone": median_probe(alone),
        "probe_shared": median_probe(shared),
        "clock_ghz": report["machine"].get("clock_ghz"),
        "implementations": implementations,
    })

first = read_runs[0][0]
result = {
    "machine": machine,
    "command": command,
    "commit": commit,
    "rustc": first["machine"]["rustc"],
    "benchmark": bench,
    "reference": reference,
    "band": BAND,
    "alone_figure": round(alone_figure, 2),
    "runs": out_runs,
}
with open(f"reports/{machine}/neighbour.json", "w") as f:
    json.dump(result, f, indent=1)
    f.write("\n")
print(f"neighbour-check: wrote reports/{machine}/neighbour.json", file=sys.stderr)
EOF

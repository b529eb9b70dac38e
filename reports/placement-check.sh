#!/usr/bin/env bash
# What sets a report's noise floor: the two timings of one machine code that differ the most (a
# backend running another's routine, neither adding target features), timed again with the code
# built twice: as usual, and with every loop's first instruction on a 64-byte boundary
# (`-C llvm-args=-align-loops=64`). The two copies hold the same instructions; if their gap is where
# the copies sit in memory, it changes with the placement and closes when both sit alike. For each
# build the script reads where the two copies of the kernel's loop begin (the address modulo 64,
# from objdump) and times the pair in rounds that alternate the builds (`qbb compare --bench`):
# each side's best round, and the gap as the median over the rounds of the two sides' ratio.
#
# It checks the timer that came before the lab placed every loop four ways (commit fc7c49b, built
# from an archive of that commit): the timer whose floor it explains, and the one whose loops it
# knows how to find (one copy per implementation).
#
# Usage: reports/placement-check.sh MACHINE [ROUNDS]
#   reads reports/MACHINE/results.json (the floor's pair), writes reports/MACHINE/placement.json,
#   which book/generate.sh turns into the measuring chapter's check. Builds with nightly (as
#   reports/machine-report.sh does) into target/placement/. Needs objdump (binutils). Run it on a
#   quiet machine.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
machine=${1:?usage: reports/placement-check.sh MACHINE [ROUNDS]}
rounds=${2:-5}
fail() {
    echo "placement-check: $*" >&2
    exit 1
}
case $rounds in
    '' | *[!0-9]* | 0) fail "ROUNDS must be a positive whole number, not '$rounds'" ;;
esac
results="reports/$machine/results.json"
[[ -f "$results" ]] || fail "no $results (run reports/machine-report.sh first)"
command -v objdump >/dev/null || fail "needs objdump (binutils)"
export RUSTUP_TOOLCHAIN=nightly

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The pair that sets the floor: the first of the report's `noise_pairs` (the lab's pairs of
# timings of identical code, widest first).
read -r bench on from < <(python3 -c '
import json, sys
for p in json.load(open(sys.argv[1])).get("noise_pairs", [])[:1]:
    print(p["benchmark"], p["on"], p["from"])' "$results") ||
    fail "$results names no noise_pairs: it timed no routine twice, or was written before the lab \
recorded them (qbb report --json $results --out reports/$machine adds them)"
echo "placement-check: the floor of $results comes from $bench, $on running $from's code" >&2

checked=fc7c49b
tree="target/placement/$checked"
if [[ ! -f "$tree/Cargo.toml" ]]; then
    mkdir -p "$tree"
    git archive "$checked" | tar -x -C "$tree"
fi
builds=("as built|" "loops aligned to 64 bytes|-C llvm-args=-align-loops=64")
bins=()
for i in "${!builds[@]}"; do
    name=${builds[$i]%%|*} flags=${builds[$i]#*|}
    echo "placement-check: building the lab of $checked, $name" >&2
    RUSTFLAGS="$flags" CARGO_TARGET_DIR="target/placement/$i" \
        cargo build --release --quiet -p qbb-lab --features portable-simd \
        --manifest-path "$tree/Cargo.toml"
    bins+=("target/placement/$i/release/qbb")
done

for round in $(seq "$rounds"); do
    for i in "${!bins[@]}"; do
        echo "placement-check: round $round of $rounds, ${builds[$i]%%|*}" >&2
        "${bins[$i]}" compare --bench "$bench" --backend "$on,$from" --out "$scratch/$i-$round" \
            >/dev/null 2>&1 || fail "qbb compare failed"
    done
done

python3 - "$machine" "$bench" "$on" "$from" "$rounds" "$scratch" "$results" "$checked" \
    "${builds[@]}" <<'EOF'
import json, re, statistics, subprocess, sys
from pathlib import Path

machine, bench, on, source, rounds, scratch, results, commit = sys.argv[1:9]
names, flags = zip(*(build.split("|") for build in sys.argv[9:]))
bins = [f"target/placement/{i}/release/qbb" for i in range(len(names))]
rounds = int(rounds)
# The benchmark's kernel type: `flip` is kernels::Flip, `flip-latency` kernels::FlipLatency.
kernel = "".join(part.capitalize() for part in bench.split("-"))
symbol = re.compile(rf"Implementation3run.*7kernels{len(kernel)}{kernel}E")

def kernel_loops(binary):
    """Where the copies of the kernel's loop begin in `Implementation::run` for the benchmark:
    of its innermost loops (the targets of backward jumps whose range holds no other), those
    whose bytes occur more than once, the longest such: the same loop compiled for each side of
    the pair."""
    symbols = subprocess.run(["nm", "-S", binary], capture_output=True, text=True,
                             check=True).stdout
    # Not the feature regions' closures, which run the kernel for the other backends.
    found = [line.split() for line in symbols.splitlines()
             if symbol.search(line) and "with_features" not in line]
    if len(found) != 1:
        sys.exit(f"placement-check: {len(found)} functions in {binary} match the {kernel} kernel")
    start, size = int(found[0][0], 16), int(found[0][1], 16)
    listing = subprocess.run(
        ["objdump", "-d", f"--start-address={start}", f"--stop-address={start + size}", binary],
        capture_output=True, text=True, check=True).stdout
    code, jumps = {}, []
    for line in listing.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*(?:\t(.*))?$", line)
        if not m:
            continue
        at = int(m.group(1), 16)
        for k, byte in enumerate(m.group(2).split()):
            code[at + k] = byte
        jump = re.match(r"(j[a-z]+)\s+([0-9a-f]+)\s", m.group(3) or "")
        if jump and jump.group(1) != "jmp" and start <= int(jump.group(2), 16) < at:
            jumps.append((int(jump.group(2), 16), at))
    inner = {(t, a) for t, a in jumps
             if not any((t2, a2) != (t, a) and t <= t2 and a2 <= a for t2, a2 in jumps)}
    # A loop's bytes, from its head to its backward jump.
    groups = {}
    for t, a in sorted(inner):
        groups.setdefault("".join(code.get(x, "") for x in range(t, a)), []).append(t)
    twice = [(len(body) // 2, heads) for body, heads in groups.items() if len(heads) > 1]
    if not twice:
        sys.exit(f"placement-check: no loop of the {kernel} kernel occurs twice in {binary}")
    length, copies = max(twice)
    return [{"head_mod_64": t % 64, "bytes": length} for t in copies]

def timings(i):
    """Per backend, each round's median and the best of them; and the gap between the two as
    the median over the rounds of their ratio (the two sides of a round ran in turns, so a
    disturbance of the host hits both, while from round to round it moves both)."""
    per_backend = {}
    for r in range(1, rounds + 1):
        rows = json.load(open(Path(scratch) / f"{i}-{r}" / "results.json"))["results"]
        for row in rows:
            if row["benchmark"] == bench and row["backend"] in (on, source):
                per_backend.setdefault(row["backend"], []).append(row["ns_per_op"])
    best = {b: min(v) for b, v in per_backend.items()}
    ratios = [a / b for a, b in zip(per_backend[on], per_backend[source])]
    return best, per_backend, statistics.median(ratios)

report = json.load(open(results))
floor_rows = {r["backend"]: r["ns_per_op"] for r in report["results"] if r["benchmark"] == bench}
rustc = subprocess.run(["rustc", "-V"], capture_output=True, text=True, check=True).stdout.strip()
out = {
    "machine": machine,
    "command": f"reports/placement-check.sh {machine} {rounds}",
    "commit": commit,
    "rustc": rustc,
    "benchmark": bench,
    "pair": {"on": on, "from": source},
    "report": {"source": report.get("source"), "noise": report.get("noise"),
               "ns_per_op": {b: floor_rows.get(b) for b in (on, source)},
               "pairs": report["noise_pairs"]},
    "rounds": rounds,
    "builds": [],
}
for i, binary in enumerate(bins):
    best, samples, ratio = timings(i)
    out["builds"].append({
        "name": names[i],
        "rustflags": flags[i],
        "loops": kernel_loops(binary),
        "best_ns_per_op": best,
        "rounds_ns_per_op": samples,
        "median_ratio": round(ratio, 4),
        "gap": round(max(ratio, 1 / ratio) - 1, 4),
    })
path = Path("reports") / machine / "placement.json"
path.write_text(json.dumps(out, indent=2) + "\n")
for b in out["builds"]:
    heads = ", ".join(str(l["head_mod_64"]) for l in b["loops"])
    print(f"{b['name']}: loops begin at {heads} (mod 64); best round {on} "
          f"{b['best_ns_per_op'][on]} ns, {source} {b['best_ns_per_op'][source]} ns; "
          f"median gap {b['gap'] * 100:.1f} %")
print(f"wrote {path}")
EOF

#!/usr/bin/env bash
# Nodes per second of the engine's Lazy SMP search at 1 and 2 threads (or the counts given):
# every bench position searched for a fixed time through UCI (`setoption name Threads`,
# `ucinewgame`, `go movetime`), the nodes and time of each search's last `info depth` line added
# up, into reports/<machine>/threads-nps.md. The nodes are the main thread's and the helpers';
# the figure says how much searching the threads do together, not how much stronger they play
# (reports/match.sh measures that).
#
#   reports/threads-nps.sh MACHINE [MILLISECONDS [THREADS...]]
set -euo pipefail
cd "$(dirname "$0")/.."
machine=${1:?usage: reports/threads-nps.sh MACHINE [MILLISECONDS [THREADS...]]}
millis=${2:-2000}
threads=("${@:3}")
[ ${#threads[@]} -gt 0 ] || threads=(1 2)
out=reports/$machine/threads-nps.md
mkdir -p "reports/$machine"

cargo build -q --release -p qbb-engine
engine=target/release/qbb-engine
# The bench positions, as `qbb-engine bench` lists them (the FEN ends each position's line).
fens=$("$engine" bench 1 | sed -n 's/^position .* s  //p')

FENS=$fens python3 - "$engine" "$millis" "$machine" "${threads[@]}" >"$out" <<'PY'
import os, subprocess, sys

engine, millis, machine, counts = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
fens = [l for l in os.environ["FENS"].splitlines() if l.strip()]


def search(proc, threads, fen):
    """One search of `fen`: the nodes and milliseconds of its last `info depth` line."""
    send = lambda line: (proc.stdin.write(line + "\n"), proc.stdin.flush())
    send(f"setoption name Threads value {threads}")
    send("ucinewgame")
    send(f"position fen {fen}")
    send(f"go movetime {millis}")
    last = None
    for line in proc.stdout:
        words = line.split()
        if words[:2] == ["info", "depth"]:
            last = words
        elif words[:1] == ["bestmove"]:
            break
    if last is None:
        raise SystemExit(f"threads-nps: no info line for {fen}")
    return int(last[last.index("nodes") + 1]), int(last[last.index("time") + 1])


model = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
cores = os.cpu_count()
print(f"# qbb-engine nodes per second by thread count\n")
print(f"{model}, {cores} logical CPUs. Made by `reports/threads-nps.sh {machine} {millis}"
      f"{'' if counts == ['1', '2'] else ' ' + ' '.join(counts)}`: the {len(fens)} bench positions, "
      f"`go movetime {millis}` each after `ucinewgame`; nodes and time of each search's last "
      "`info depth` line, added up.\n")
print("| threads | nodes | seconds | nodes/s | against 1 thread |")
print("| ---: | ---: | ---: | ---: | ---: |")
first = None
proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for threads in counts:
    nodes = millis_total = 0
    for fen in fens:
        n, t = search(proc, threads, fen)
        nodes += n
        millis_total += t
    nps = nodes * 1000 // max(millis_total, 1)
    first = first or nps
    print(f"| {threads} | {nodes} | {millis_total / 1000:.1f} | {nps} | {nps / first:.2f} |")
proc.stdin.write("quit\n")
proc.stdin.flush()
proc.wait()
load = open("/proc/loadavg").read().split()[:3]
print(f"\nLoad average when it ended (1, 5, 15 minutes): {', '.join(load)}.")
PY
cat "$out"

#!/usr/bin/env python3
"""The measurements the book needs beyond `qbb compare`, for one machine:

    python3 book/tools/measure.py MACHINE [RUNS]
    python3 book/tools/measure.py MACHINE threads [RUNS]     # step 4 alone
    python3 book/tools/measure.py MACHINE instructions       # step 5 alone, into dispatch.json

1. Run-time dispatch against a native build: builds the lab twice — as shipped (x86-64 baseline,
   each backend entered through its feature region) and with RUSTFLAGS="-C target-cpu=native" (no
   feature boundary anywhere) — and runs the engine's perft through `qbb perft --json` on the start
   position (depth 6) and Kiwipete (depth 5) with every backend this CPU has, alternating the two
   builds RUNS times (default 5).
2. The inlining wall: `cargo bench -p qbb-benches --bench wall`, small AVX2 routines called from a
   loop inside their feature region and from the same loop compiled for the baseline.
3. Perft against the Rust chess crates: `cargo bench -p qbb-benches --bench perft`, the engine on
   every backend next to cozy-chess and shakmaty, built as shipped (baseline x86-64: the engine
   dispatches to its backends, the peers get no CPU extensions) and again with
   RUSTFLAGS="-C target-cpu=native" (the peers built for this CPU as well), so that the margin
   over the peers is reported both ways.

4. Threads: `qbb perft --threads N` on the same two positions with the backend automatic
   selection picks, for 1 thread and for every logical CPU, RUNS runs each (default 5).
5. Instructions per leaf: callgrind counts the two perfts of step 1 in the build as shipped, on
   the widest backend valgrind runs (avx2 where the CPU has it; valgrind does not run AVX-512), a
   perft of one ply counted apart as the start-up; the book sets them beside that build's speeds
   from step 1 and the clock of `qbb compare` (instructions per cycle). Left out without
   valgrind.

Writes reports/MACHINE/dispatch.json (1, 2 and 5), reports/MACHINE/perft.json and
perft-native.json (3) and threads.json (4), which
book/generate.sh turns into the tables of the dispatch and engine chapters. MACHINE is the folder
that `qbb compare` writes for this machine (it prints it), so that all files of a machine sit
together.
"""

import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
POSITIONS = [
    ("start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 6),
    ("Kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]
BUILDS = {
    "run-time dispatch": ("target", ""),
    "target-cpu=native": ("target/native", "-C target-cpu=native"),
}


def build(target_dir, rustflags):
    env = dict(os.environ, RUSTFLAGS=rustflags)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "qbb-lab", "--target-dir", target_dir],
        cwd=REPO, env=env, check=True,
    )
    return REPO / target_dir / "release" / "qbb"


def perft(qbb, backend, fen, depth, threads=1):
    """One `qbb perft --json`; returns (nodes, Mnps)."""
    out = subprocess.run(
        [str(qbb), "perft", str(depth), "--fen", fen, "--backend", backend, "--threads",
         str(threads), "--json"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout
    result = json.loads(out)
    return result["nodes"], result["mnps"]


def thread_scaling(report, qbb, runs):
    """Perft on one thread and on every logical CPU, alternating, with the automatic backend."""
    cpus = os.cpu_count() or 1
    counts = sorted({1, cpus})
    rows = []
    for title, position, depth in POSITIONS:
        samples = {n: [] for n in counts}
        for _ in range(runs):
            for n in counts:
                _nodes, mnps = perft(qbb, "auto", position, depth, n)
                samples[n].append(mnps)
        one = statistics.median(samples[1])
        for n, mnps in samples.items():
            rows.append({
                "position": title, "depth": depth, "threads": n, "mnps": sorted(mnps),
                "median_mnps": statistics.median(mnps),
                "speedup_vs_one_thread": statistics.median(mnps) / one,
            })
        print(f"{title} d{depth}: " + ", ".join(
            f"{n} threads {statistics.median(v):.1f} Mnps" for n, v in samples.items()
        ), file=sys.stderr)
    backend = json.loads(subprocess.run(
        [str(qbb), "perft", "1", "--json"], cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout)["backend"]
    path = report / "threads.json"
    path.write_text(json.dumps({
        "command": "qbb perft DEPTH --fen FEN --threads N --json",
        "backend": backend, "logical_cpus": cpus, "runs": runs, "rustc": rustc_version(),
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]), "rows": rows,
    }, indent=1) + "\n")
    print(f"measure: wrote {path}", file=sys.stderr)


def perft_instructions(qbb, backends):
    """Callgrind's instructions per leaf of each perft of POSITIONS on the widest backend valgrind
    runs, the start-up (a perft of one ply of the same position) taken off; None without
    valgrind."""
    backend = next((b for b in ("avx2", "sse2", "swar", "scalar") if b in backends), None)
    if shutil.which("valgrind") is None or backend is None:
        return None
    rows = []
    for title, position, depth in POSITIONS:
        counted = {}
        for d in (1, depth):
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(qbb),
                 "perft", str(d), "--fen", position, "--backend", backend, "--json"],
                cwd=REPO, check=True, capture_output=True, text=True,
            )
            collected = re.search(r"Collected : (\d+)", run.stderr)
            if collected is None:
                raise SystemExit(f"measure: callgrind printed no count for perft {d} ({title})")
            counted[d] = (json.loads(run.stdout)["nodes"], int(collected.group(1)))
        (leaves_1, startup), (leaves, instructions) = counted[1], counted[depth]
        per_leaf = (instructions - startup) / (leaves - leaves_1)
        rows.append({
            "position": title, "depth": depth, "leaves": leaves, "instructions": instructions,
            "startup": startup, "instructions_per_leaf": per_leaf,
        })
        print(f"{title} d{depth} {backend}: {per_leaf:.2f} instructions per leaf", file=sys.stderr)
    return {
        "backend": backend, "build": "run-time dispatch",
        "command": f"valgrind --tool=callgrind qbb perft DEPTH --fen FEN --backend {backend} "
                   "--json, and DEPTH 1 for the start-up",
        "valgrind": subprocess.run(["valgrind", "--version"], capture_output=True,
                                   text=True).stdout.strip(),
        "rows": rows,
    }


def available_backends(qbb):
    out = subprocess.run(
        [str(qbb), "backends", "--json"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout
    return [b["name"] for b in json.loads(out) if b["available"]]


def bench_json(bench, variable, path, build=BUILDS["run-time dispatch"]):
    """Runs `cargo bench --bench <bench>` with `<variable>=<path>`, built as `build` says (a
    target folder and RUSTFLAGS), and returns the JSON it wrote."""
    target_dir, rustflags = build
    subprocess.run(
        ["cargo", "bench", "--quiet", "-p", "qbb-benches", "--bench", bench,
         "--target-dir", target_dir],
        cwd=REPO, check=True,
        env=dict(os.environ, RUSTFLAGS=rustflags, **{variable: str(path)}),
    )
    return json.loads(path.read_text())


def wall_bench(report):
    """The wall bench, its JSON written next to the report, read back and removed."""
    path = report / "wall.json"
    wall = bench_json("wall", "QBB_WALL_JSON", path)
    path.unlink()
    return wall


def perft_peers(report):
    """The perft bench against cozy-chess and shakmaty, built both ways, each JSON kept in the
    report: perft.json as shipped (everything for baseline x86-64, the engine dispatching to its
    backends at run time, the peers without the CPU's extensions) and perft-native.json with
    `-C target-cpu=native` (the peers built for this CPU too, so neither side lacks POPCNT, BMI2
    or AVX2)."""
    for name, file in (("run-time dispatch", "perft.json"), ("target-cpu=native", "perft-native.json")):
        rustflags = BUILDS[name][1]
        path = report / file
        data = bench_json("perft", "QBB_PERFT_JSON", path, BUILDS[name])
        flags = f'RUSTFLAGS="{rustflags}" ' if rustflags else ""
        data["command"] = f"{flags}cargo bench -p qbb-benches --bench perft"
        data["build"] = name
        data["date"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        data["rustc"] = rustc_version()
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"measure: wrote {path}", file=sys.stderr)


def rustc_version():
    return subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip()


def main(argv):
    if len(argv) < 2:
        raise SystemExit(__doc__)
    machine = argv[1]
    step = argv[2] if len(argv) > 2 and argv[2] in ("threads", "instructions") else None
    rest = argv[3:] if step else argv[2:]
    runs = int(rest[0]) if rest else 5
    report = REPO / "reports" / machine
    report.mkdir(parents=True, exist_ok=True)
    if step == "threads":
        thread_scaling(report, build(*BUILDS["run-time dispatch"]), runs)
        return
    if step == "instructions":
        path = report / "dispatch.json"
        dispatched = build(*BUILDS["run-time dispatch"])
        result = json.loads(path.read_text())
        result["instructions"] = perft_instructions(dispatched, available_backends(dispatched))
        path.write_text(json.dumps(result, indent=1) + "\n")
        print(f"measure: wrote {path}", file=sys.stderr)
        return
    engines = {name: build(*how) for name, how in BUILDS.items()}  # name -> qbb binary
    backends = available_backends(engines["run-time dispatch"])
    rows = []
    for title, position, depth in POSITIONS:
        for backend in backends:
            samples = {name: [] for name in engines}
            nodes = None
            for _ in range(runs):
                for name, engine in engines.items():  # alternate: noise hits both builds
                    n, mnps = perft(engine, backend, position, depth)
                    if nodes not in (None, n):
                        raise SystemExit(f"measure: node counts differ ({backend}, {title})")
                    nodes = n
                    samples[name].append(mnps)
            for name, mnps in samples.items():
                rows.append({
                    "position": title, "depth": depth, "nodes": nodes, "backend": backend,
                    "build": name, "mnps": sorted(mnps), "median_mnps": statistics.median(mnps),
                })
            print(f"{title} d{depth} {backend}: " + ", ".join(
                f"{name} {statistics.median(v):.1f} Mnps" for name, v in samples.items()
            ), file=sys.stderr)
    cpu = next(
        (line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
         if line.startswith("model name")), "unknown CPU",
    )
    rustc = rustc_version()
    result = {
        "machine": machine,
        "cpu": cpu,
        "rustc": rustc,
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "load": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
        "command": "python3 book/tools/measure.py " + " ".join(argv[1:]),
        "method": f"`qbb perft DEPTH --fen FEN --backend NAME --json`, bulk counting, one thread; "
        f"{runs} runs per build, alternating",
        "rows": rows,
    }
    result["instructions"] = perft_instructions(engines["run-time dispatch"], backends)
    result["wall"] = wall_bench(report)
    result["wall_command"] = "cargo bench -p qbb-benches --bench wall"
    (report / "dispatch.json").write_text(json.dumps(result, indent=1) + "\n")
    print(f"measure: wrote {report / 'dispatch.json'}", file=sys.stderr)
    perft_peers(report)
    thread_scaling(report, engines["run-time dispatch"], runs)


if __name__ == "__main__":
    main(sys.argv)

"""The routines' real output: what `qbb show --routine` prints when a backend computes it.

A figure draws the steps of one backend's code, recomputed here; before it is drawn, the values it
reaches are compared with the grids and figures that the same backend prints through the lab's
command line (target/release/qbb, which book/generate.sh builds first). A figure that disagrees
with the routine stops the script.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def qbb():
    """The lab's command, QBB when set, else the release build of this repository."""
    path = Path(os.environ.get("QBB", REPO / "target/release/qbb"))
    if not path.is_file():
        raise SystemExit(f"diagrams: no {path}; build it first: cargo build --release -p qbb-lab")
    return path


def runs(backend):
    """Whether this CPU runs `backend`, as `qbb backends --json` says."""
    if not RUNNABLE:
        done = subprocess.run([str(qbb()), "backends", "--json"], capture_output=True, text=True,
                              check=True)
        RUNNABLE.update(b["name"] for b in json.loads(done.stdout) if b["available"])
    return backend in RUNNABLE


RUNNABLE = set()


def show(routine, backend, *args):
    """The text of `qbb show --routine ROUTINE --backend BACKEND ARGS`. On a CPU that does not run
    the backend, the scalar reference's (which the conformance kit holds every backend to)."""
    if not runs(backend):
        print(f"diagrams: this CPU does not run {backend}: {routine} checked against the scalar "
              "reference instead", file=sys.stderr)
        backend = "scalar"
    command = [str(qbb()), "show", "--routine", routine, "--backend", backend, *args]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"diagrams: `{' '.join(command[1:])}` failed: {done.stderr.strip()}")
    header = f"{routine} "
    if f"on the {backend} backend" not in done.stdout or header not in done.stdout:
        raise SystemExit(f"diagrams: `{' '.join(command[1:])}` did not run {backend}")
    return done.stdout


class Output:
    """One run of a routine: its grids by their headings, and its text."""

    def __init__(self, routine, backend, *args):
        self.routine = routine
        self.text = show(routine, backend, *args)
        self.blocks = grid_blocks(self.text)

    def grid(self, label, block=None):
        """The 64 cells (a1 = 0 .. h8 = 63) of the grid whose heading starts with `label`, in the
        first block that has one (or block number `block`)."""
        blocks = self.blocks if block is None else [self.blocks[block]]
        for grids in blocks:
            for heading, cells in grids:
                if heading.startswith(label):
                    return cells
        raise SystemExit(f"diagrams: qbb show --routine {self.routine} prints no grid {label!r}")

    def bitboard(self, label, block=None):
        """A grid of marks (1 or x) as a bitboard."""
        return sum(1 << s for s, c in enumerate(self.grid(label, block)) if c in "1x")

    def nibbles(self, label, block=None):
        """A grid of hex digits as 64 numbers."""
        return [int(c, 16) if c not in ". " else 0 for c in self.grid(label, block)]

    def quad(self, block):
        """The four planes of a block headed bb3 .. bb0."""
        return [self.bitboard(f"bb{p}", block) for p in range(4)]


def grid_blocks(text):
    """Every block of grids, each grid as its heading and its 64 cells (a1 = 0 .. h8 = 63)."""
    lines = text.split("\n")
    return [[(label, [lines[i][k] if k < len(lines[i]) else " " for i, k in places])
             for label, places in block] for block in grid_places(text)]


def grid_places(text):
    """Where the cells of every block of grids stand in the text, as (line, column) of each square.
    A block is a heading line, ranks 8 to 1, and the files line, whose letters stand exactly over
    the cells (`qbb show` draws `a b c`, `abc` and bracketed squares `.[1]|.`)."""
    lines = text.split("\n")
    blocks = []
    for i, line in enumerate(lines):
        if i < 9 or [r[:1] for r in lines[i - 8:i]] != list("87654321"):
            continue
        files = [k for k, c in enumerate(line)
                 if c == "a" and line[k:].replace(" ", "").startswith("abcdefgh")]
        if not files:
            continue
        heading = lines[i - 9]
        grids = []
        for n, start in enumerate(files):
            columns = [k for k in range(start, len(line)) if line[k] in "abcdefgh"][:8]
            end = files[n + 1] if n + 1 < len(files) else len(heading)
            label = heading[max(0, start - 1):end].strip()
            grids.append((label, [(i - 8 + 7 - s // 8, columns[s % 8]) for s in range(64)]))
        blocks.append(grids)
    return blocks

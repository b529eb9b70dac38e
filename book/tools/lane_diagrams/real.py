"""The routines' real output: what `qbb show --routine` prints when a backend computes it.

A figure draws the steps of one backend's code, recomputed here; before it is drawn, the values it
reaches are compared with the grids and figures that the same backend prints through the lab's
command line (target/release/qbb, which book/generate.sh builds first). A figure that disagrees
with the routine stops the script.
"""

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def qbb():
    """The lab's command, QBB when set, else the release build of this repository."""
    path = Path(os.environ.get("QBB", REPO / "target/release/qbb"))
    if not path.is_file():
        raise SystemExit(f"diagrams: no {path}; build it first: cargo build --release -p qbb-lab")
    return path


def show(routine, backend, *args):
    """The text of `qbb show --routine ROUTINE --backend BACKEND ARGS`."""
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
        self.routine, self.backend = routine, backend
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
        raise SystemExit(f"diagrams: {self.routine} on {self.backend} prints no grid {label!r}")

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
    """Every block of grids: a heading line, ranks 8 to 1, and the files line, whose letters stand
    exactly over the cells (`qbb show` draws `a b c`, `abc` and bracketed squares `.[1]|.`)."""
    lines = text.split("\n")
    blocks = []
    for i, line in enumerate(lines):
        if not line.lstrip().startswith("a") or "h" not in line or i < 9:
            continue
        files = [k for k, c in enumerate(line) if c == "a"]
        if not all(line[k:].replace(" ", "").startswith("abcdefgh") for k in files):
            continue
        ranks = lines[i - 8:i]
        if [r[:1] for r in ranks] != list("87654321"):
            continue
        heading = lines[i - 9]
        grids = []
        for n, start in enumerate(files):
            columns = [k for k in range(start, len(line)) if line[k] in "abcdefgh"][:8]
            end = files[n + 1] if n + 1 < len(files) else len(heading)
            label = heading[max(0, start - 1):end].strip()
            cells = [" "] * 64
            for r, rank_line in enumerate(ranks):
                for f, k in enumerate(columns):
                    cells[(7 - r) * 8 + f] = rank_line[k] if k < len(rank_line) else " "
            grids.append((label, cells))
        blocks.append(grids)
    return blocks

"""The lane diagrams hold to what the routines compute: each figure draws from `qbb show --routine`
as the lab prints it, and stops when one value of the routine's answer is changed.

    QBB=target/debug/qbb python3 -m unittest discover -s book/tools -p 'test_diagrams.py'

(QBB defaults to target/release/qbb; without either the tests are skipped.)
"""

import os
import re
import sys
import tempfile
import unittest
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ beside the tools
sys.path.insert(0, str(Path(__file__).resolve().parent))

from lane_diagrams import DIAGRAMS, main, real  # noqa: E402  (after the path above)
from lane_diagrams.quad import square  # noqa: E402

# Skipped only when QBB is not set and there is no release build; a QBB that names no file fails.
HAVE_QBB = "QBB" in os.environ or (real.REPO / "target/release/qbb").is_file()

# For each figure that reads a routine's answer: the routine, and one value of the answer that the
# figure checks: a grid's cell (block, grid, square) or a piece of text to change.
ANSWERS = {
    "piece-at-nibble.svg": ("piece-at", (0, 0, "e1")),
    "set-piece-lanes.svg": ("set-piece", (1, 2, "b8")),
    "piece-sets-lanes.svg": ("piece-sets", (1, 4, "e2")),
    "hex-sets-lanes.svg": ("hex-sets", (1, 2, "a2")),
    "gfni-transpose.svg": ("to-mailbox", "08 04 06 0A 0C"),
    "movemask-gather.svg": ("from-mailbox", (1, 2, "b1")),
    "move-delta-lanes.svg": ("move-delta", (1, 0, "f1")),
    "pshufb-mirror.svg": ("flip", (2, 3, "e4")),
    "kogge-stone.svg": ("occluded-fills", (2, 6, "c1")),
    "slider-lanes.svg": ("slider-attacks", (0, 3, "a1")),
    "knight-lanes.svg": ("knight-attacks", (1, 3, "a8")),
    "isenberg-lanes.svg": ("checks-and-pins", (1, 1, "e4")),
    "nibble-borrow.svg": ("nibble-sub", (0, 3, "d5")),
    "nibble-board-lanes.svg": ("to-nibble-board", "48 A6 6C 84"),
    "classical-lanes.svg": ("from-classical", (2, 0, "a1")),
    "manino-lanes.svg": ("hash-manino", "0x0E6E70D0EBB10087"),
    # the evaluation after the move, one digit longer
    "nnue-accumulator.svg": ("nnue-update", lambda text: re.sub(
        r"before the flip: -?\d+", lambda m: m.group(0) + "1", text)),
    "neon-addp-gather.svg": ("from-mailbox", (1, 2, "c1")),
    "neon-tbl-lookup.svg": ("to-mailbox", "08 04 06 0A 0C"),
}
# The figures that read no routine's answer: the layout of the quad in registers, and the table
# lookup of chapter 13, whose counts are checked against Python's own.
UNCHECKED = {"quad-registers.svg", "pshufb-popcount.svg"}


def changed(text, where):
    """The routine's answer with one value changed: a mark cleared or set, a digit moved on."""
    if callable(where):
        return where(text)
    if isinstance(where, str):
        if where not in text:  # not an AssertionError: that is the figure's to raise
            raise LookupError(f"the routine no longer prints {where!r}")
        return text.replace(where, where[:-1] + ("0" if where[-1] != "0" else "1"))
    block, grid, name = where
    line, column = real.grid_places(text)[block][grid][1][square(name)]
    lines = text.split("\n")
    cell = lines[line][column]
    new = {".": "1", "1": ".", "x": ".", "F": "0"}.get(cell) or f"{(int(cell, 16) + 1) % 16:X}"
    lines[line] = lines[line][:column] + new + lines[line][column + 1:]
    return "\n".join(lines)


@unittest.skipUnless(HAVE_QBB, "no qbb binary: cargo build --release -p qbb-lab, or set QBB")
class LaneDiagrams(unittest.TestCase):
    def test_every_figure_is_drawn_and_every_checked_one_asks_its_routine(self):
        asked = {}
        show = real.show
        try:
            for name, draw in DIAGRAMS.items():
                asked[name] = []
                real.show = lambda routine, *rest, name=name: (
                    asked[name].append(routine) or show(routine, *rest))
                self.assertTrue(draw().startswith("<svg"), name)
        finally:
            real.show = show
        self.assertEqual({n for n, routines in asked.items() if not routines}, UNCHECKED)
        for name, (routine, _) in ANSWERS.items():
            self.assertEqual(asked[name], [routine], name)
        with tempfile.TemporaryDirectory() as out:
            main(["diagrams.py", out])
            self.assertEqual(sorted(p.name for p in Path(out).iterdir()), sorted(DIAGRAMS))

    def test_a_figure_stops_when_the_routine_answers_otherwise(self):
        show = real.show
        try:
            for name, (routine, where) in ANSWERS.items():
                real.show = lambda *args, where=where: changed(show(*args), where)
                with self.subTest(figure=name), self.assertRaises(AssertionError):
                    DIAGRAMS[name]()
        finally:
            real.show = show


if __name__ == "__main__":
    unittest.main()

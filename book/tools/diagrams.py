#!/usr/bin/env python3
"""Draws the book's lane diagrams as SVG: what the backends' instructions do to the quad's bits.

Called by book/generate.sh with the output folder (book/src/generated/diagrams):

    python3 book/tools/diagrams.py OUT_DIR

Every value drawn is computed here, by the same steps as the backend code the figure names
(crates/qbb/src/backend/{sse2,avx2,avx512}/), and checked before it is drawn: a figure that
disagrees stops the script. The figures read the routine they draw as the lab runs it, `qbb show
--routine ROUTINE --backend BACKEND` (target/release/qbb, or $QBB; lane_diagrams/real.py), and
check their values against its answer; the table lookup of chapter 13 checks its counts against
Python's own. test_diagrams.py changes one value of each answer and sees each figure stop. (The
NNUE figure reads the engine's network file, through book/tools/nnue_net.py, and checks against
the routine when that network is not all zeros.) The SVGs have a viewBox and no fixed size, so
that they scale to the width of the page, and a white background, so that they stay readable
under the book's dark themes.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tools

from lane_diagrams import main  # noqa: E402  (after the line above, which it depends on)

if __name__ == "__main__":
    main(sys.argv)

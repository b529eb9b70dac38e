#!/usr/bin/env python3
"""Draws the book's lane diagrams as SVG: what the backends' instructions do to the quad's bits.

Called by book/generate.sh with the output folder (book/src/generated/diagrams):

    python3 book/tools/diagrams.py OUT_DIR

Every value drawn is computed here, by the same steps as the backend code the figure names
(crates/qbb/src/backend/{sse2,avx2,avx512}/), and checked before it is drawn: a figure that
disagrees stops the script. The figures of chapters 2-4, 7, 10, 11 and 14-17 take their inputs
from, and check their results against, what the routine itself computes on that backend, as the
lab's `qbb show --routine ROUTINE --backend BACKEND` prints it (target/release/qbb, or $QBB;
lane_diagrams/real.py); the others check theirs against a plain reference written here.
(The NNUE
figure reads the engine's network file, through book/tools/nnue_net.py.) The SVGs have a viewBox
and no fixed size, so that they scale to the width of the page, and a white background, so that
they stay readable under the book's dark themes.
"""

import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the tools

from lane_diagrams import main  # noqa: E402  (after the line above, which it depends on)

if __name__ == "__main__":
    main(sys.argv)

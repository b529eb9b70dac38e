"""The book's lane diagrams, as SVG: what the backends' instructions do to the quad's bits.

One module per group of chapters draws their figures; svg.py is the drawing they share, quad.py
the quad as the lab defines it, and real.py the routines' real output: every new figure runs the
routine it draws through the lab's own `qbb show --routine` and stops unless its own steps reach
the same values. See book/tools/diagrams.py, the command that writes them.
"""

import sys
from pathlib import Path

from . import attacks, boards, mailbox, nibbles, registers

DIAGRAMS = {
    "quad-registers.svg": registers.quad_registers,
    "piece-at-nibble.svg": registers.piece_at_nibble,
    "movemask-gather.svg": mailbox.movemask_gather,
    "pshufb-mirror.svg": mailbox.pshufb_mirror,
    "kogge-stone.svg": attacks.kogge_stone_diagram,
    "isenberg-lanes.svg": attacks.isenberg_diagram,
    "gfni-transpose.svg": mailbox.gfni_diagram,
    "pshufb-popcount.svg": nibbles.pshufb_popcount,
    "nnue-accumulator.svg": boards.nnue_accumulator,
    "nibble-borrow.svg": nibbles.nibble_borrow,
    "slider-lanes.svg": attacks.slider_lanes,
    "knight-lanes.svg": attacks.knight_lanes,
    "set-piece-lanes.svg": registers.set_piece_lanes,
    "move-delta-lanes.svg": mailbox.move_delta_lanes,
    "piece-sets-lanes.svg": registers.piece_sets_lanes,
    "hex-sets-lanes.svg": registers.hex_sets_lanes,
    "nibble-board-lanes.svg": nibbles.nibble_board_lanes,
    "classical-lanes.svg": boards.classical_lanes,
    "manino-lanes.svg": boards.manino_lanes,
}


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: diagrams.py OUT_DIR")
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, draw in DIAGRAMS.items():
        (out / name).write_text(draw())
    print(f"diagrams: {len(DIAGRAMS)} figures in {out}", file=sys.stderr)

"""The book's lane diagrams, as SVG: what the backends' instructions do to the quad's bits.

One module per group of chapters draws their figures (registers: 1-4, mailbox: 5-8, attacks:
9-12, nibbles: 13-15, boards: 16-18, neon: the NEON chapter); svg.py is the drawing they share,
quad.py the quad as the lab defines it, real.py the routines' real output. book/tools/diagrams.py
is the command.
"""

import sys
from pathlib import Path

from . import attacks, boards, mailbox, neon, nibbles, registers

# By chapter: the file each figure is written to, and the function that draws it.
DIAGRAMS = {
    "quad-registers.svg": registers.quad_registers,  # 1
    "piece-at-nibble.svg": registers.piece_at_nibble,  # 1
    "set-piece-lanes.svg": registers.set_piece_lanes,  # 2
    "piece-sets-lanes.svg": registers.piece_sets_lanes,  # 3
    "hex-sets-lanes.svg": registers.hex_sets_lanes,  # 4
    "gfni-transpose.svg": mailbox.gfni_diagram,  # 5
    "movemask-gather.svg": mailbox.movemask_gather,  # 6
    "move-delta-lanes.svg": mailbox.move_delta_lanes,  # 7
    "pshufb-mirror.svg": mailbox.pshufb_mirror,  # 8
    "kogge-stone.svg": attacks.kogge_stone_diagram,  # 9
    "slider-lanes.svg": attacks.slider_lanes,  # 10
    "knight-lanes.svg": attacks.knight_lanes,  # 11
    "isenberg-lanes.svg": attacks.isenberg_diagram,  # 12
    "pshufb-popcount.svg": nibbles.pshufb_popcount,  # 13
    "nibble-borrow.svg": nibbles.nibble_borrow,  # 14
    "nibble-board-lanes.svg": nibbles.nibble_board_lanes,  # 15
    "classical-lanes.svg": boards.classical_lanes,  # 16
    "manino-lanes.svg": boards.manino_lanes,  # 17
    "nnue-accumulator.svg": boards.nnue_accumulator,  # 18
    "neon-addp-gather.svg": neon.addp_gather,  # No movemask: porting to NEON
    "neon-tbl-lookup.svg": neon.tbl_lookup,  # No movemask: porting to NEON
}


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: diagrams.py OUT_DIR")
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, draw in DIAGRAMS.items():
        (out / name).write_text(draw())
    print(f"diagrams: {len(DIAGRAMS)} figures in {out}", file=sys.stderr)

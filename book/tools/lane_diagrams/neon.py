"""The NEON chapter: the mailbox's way back without a movemask, and `tbl` over the whole quad.

Both figures recompute the neon backend's steps (crates/qbb/src/backend/neon/mailbox.rs) on lists
of sixteen bytes, one list per register, and check what they reach against the routine's answer
(`qbb show --routine`; on a CPU without NEON the scalar reference's, which the conformance kit holds
neon to).
"""

from . import real
from .mailbox import mailbox_rank
from .quad import START, byte, codes_of, quad_of
from .svg import GREY, HIGHLIGHT, INK, LIGHT, PLANE, W, Svg, title

# `SQUARE_BIT` and `BYTE_OF_SQUARE` of neon/mailbox.rs.
SQUARE_BIT = [1 << (j % 8) for j in range(16)]
BYTE_OF_SQUARE = [j // 8 for j in range(16)]

# Where a row of sixteen bytes starts, and the width of each.
X0, CW = 86, 24


def cmtst(a, b):
    """`vtstq_u8`: all ones where the bytes share a bit."""
    return [0xFF if x & y else 0 for x, y in zip(a, b)]


def band(a, b):
    return [x & y for x, y in zip(a, b)]


def addp(a, b):
    """`vpaddq_u8`: neighbouring bytes of `a` then of `b` added, wrapping."""
    both = a + b
    return [(both[2 * i] + both[2 * i + 1]) & 0xFF for i in range(16)]


def tbl2(table, index):
    """`vqtbl2q_u8`: byte i = table[index[i]], or 0 past the table's 32 bytes."""
    return [table[i] if i < 32 else 0 for i in index]


def registers(codes):
    """The mailbox as four registers of sixteen bytes."""
    return [codes[16 * k:16 * k + 16] for k in range(4)]


def from_mailbox(codes):
    """neon's `from_mailbox`, step by step: the planes, and plane by plane what it went through."""
    squares = registers(codes)
    steps = {}

    def quarters(p):
        tested = [cmtst(s, [1 << p] * 16) for s in squares]
        w = [band(t, SQUARE_BIT) for t in tested]
        pairs = [addp(w[0], w[1]), addp(w[2], w[3])]
        steps[p] = (tested[0], w[0], pairs[0])
        return addp(pairs[0], pairs[1])

    q = [quarters(p) for p in range(4)]
    out = addp(q[0], q[1]) + addp(q[2], q[3])
    planes = [int.from_bytes(bytes(out[8 * p:8 * p + 8]), "little") for p in range(4)]
    return planes, steps, q


def byte_row(svg, x0, cw, y, values, label, sub, fill_of, shown=None):
    """One register of bytes as cells, each value in hex; returns the y below."""
    svg.text(8, y + 14, label, size=11, weight="bold", mono=True)
    if sub:
        svg.text(8, y + 26, sub, size=9.5, fill="#555")
    for i, v in enumerate(values):
        x = x0 + i * cw
        svg.rect(x + 1, y, cw - 2, 19, fill=fill_of(i, v), stroke=GREY, sw=0.8)
        if shown is None or shown(i):
            svg.text(x + cw / 2, y + 13.5, f"{v:02X}", size=9.5, anchor="middle", mono=True)
    return y + 19


# ---- the weighted pairwise adds that replace the movemask ---------------------------------------

def figure(alt, heading, note):
    """A figure's canvas with its title; the y below the title."""
    svg = Svg(W, alt)
    return svg, title(svg, heading, note)


def square_labels(svg, y):
    """The sixteen squares of a register (a1..h2) under or over its bytes, at `y`."""
    for i in range(16):
        svg.text(X0 + i * CW + CW / 2, y, "abcdefgh"[i % 8] + str(i // 8 + 1), size=9,
                 anchor="middle", mono=True, fill="#555")


def addp_gather():
    codes = codes_of(START)
    plane = 1  # P B Q, as chapter 6's figure
    planes, steps, q = from_mailbox(codes)
    assert planes == quad_of(START), "the steps must give the quad"
    run = real.Output("from-mailbox", "neon", START)
    assert run.bitboard(f"bb{plane}") == planes[plane], "the figure must match neon's from_mailbox"
    tested, weighted, pairs = steps[plane]
    quads = q[plane][:4]
    ranks = [byte(planes[plane], 0), byte(planes[plane], 1)]
    assert ranks == [0x2C, 0xFF], [hex(r) for r in ranks]

    svg, y = figure(
        "neon from_mailbox: weighted bytes summed by pairwise adds instead of a movemask",
        "neon from_mailbox, plane 1: no movemask, three rounds of pairwise adds",
        "The first of the mailbox's four registers (a1..h2 of the start position); "
        "the other three go through the same steps beside it.")
    x0, cw = X0, CW
    square_labels(svg, y + 8)
    y += 12
    y = byte_row(svg, x0, cw, y, codes[:16], "bytes", "codes",
                 lambda i, v: LIGHT[plane] if v & 2 else "#fff")
    y = arrow_step(svg, x0, y, "cmtst v, #2 (vtstq_u8)", "all ones where bit 1 of the code is set")
    y = byte_row(svg, x0, cw, y, tested, "tested", None,
                 lambda i, v: PLANE[plane] if v else "#fff")
    y = arrow_step(svg, x0, y, "and v, SQUARE_BIT", "the square's bit in its byte of the plane: "
                   "01 02 04 .. 80, twice")
    y = byte_row(svg, x0, cw, y, weighted, "weighted", None,
                 lambda i, v: LIGHT[plane] if v else "#fff")
    y_weighted = y

    def round_row(y, values, width, label, sub, note):
        """A row of sums, each `width` cells wide, with lines from the pair above it."""
        y += 30
        svg.text(8, y + 14, label, size=11, weight="bold", mono=True)
        svg.text(8, y + 26, sub, size=9.5, fill="#555")
        for i, v in enumerate(values):
            x = x0 + i * width * cw
            svg.rect(x + 1, y, width * cw - 2, 19, fill=LIGHT[plane] if v else "#fff",
                     stroke=INK, sw=1)
            svg.text(x + width * cw / 2, y + 13.5, f"{v:02X}", size=10, anchor="middle",
                     mono=True, weight="bold" if width == 8 else "normal")
            for half in (0, 1):
                px = x + (half + 0.5) * width * cw / 2
                svg.line(px, y - 30, x + width * cw / 2, y - 1, stroke=GREY, sw=0.9)
        svg.text(x0 + 16 * cw + 4, y + 13, note, size=9, fill="#555")
        return y + 19

    y = round_row(y_weighted, pairs[:8], 2, "addp", "round 1", "")
    y = round_row(y, quads, 4, "addp", "round 2", "")
    y = round_row(y, ranks, 8, "addp", "round 3", "")
    y = svg.para(10, y + 22, f"Round 1 makes bytes 0-7 of addp(w0, w1), round 2 bytes 0-3 of "
                 f"quarters(1). Round 3 pairs quarters(0) into lane 0 and quarters(1) into lane "
                 f"1: {ranks[0]:02X} and {ranks[1]:02X} are bytes 0 and 1 of bb1, ranks 1 and 2 "
                 "(P B Q). The weights are distinct powers of two, so no sum carries.",
                 size=11.5)
    return svg.render()


def arrow_step(svg, x0, y, instruction, note):
    """A short arrow down from the row above, the instruction and a note beside it."""
    svg.line(x0 + 10, y + 2, x0 + 10, y + 24, arrow=True)
    svg.text(x0 + 20, y + 12, instruction, size=11, mono=True, weight="bold")
    svg.text(x0 + 20, y + 24, note, size=9.5, fill="#444")
    return y + 30


# ---- tbl: the whole quad as one table -----------------------------------------------------------

def tbl_lookup():
    codes = codes_of(START)
    quad = quad_of(START)
    k, plane = 0, 1  # the first mailbox register, plane 1
    table = [byte(quad[p], b) for p in range(4) for b in range(8)]
    mailbox = []
    for reg in range(4):
        out = [0] * 16
        for p in range(4):
            index = [b + 8 * p + 2 * reg for b in BYTE_OF_SQUARE]
            looked = tbl2(table, index)
            bit = band(cmtst(looked, SQUARE_BIT), [1 << p] * 16)
            out = [o | b for o, b in zip(out, bit)]
            if (reg, p) == (k, plane):
                shown = (index, looked, cmtst(looked, SQUARE_BIT), bit)
        mailbox += out
    assert mailbox == codes, "the steps must give the mailbox"
    run = real.Output("to-mailbox", "neon", START)
    assert mailbox[:16] == mailbox_rank(run.text, 0) + mailbox_rank(run.text, 1), \
        "the figure must match neon's to_mailbox"
    index, looked, tested, bit = shown

    svg, y = figure(
        "tbl with a two-register table: the quad's 32 bytes looked up for 16 squares",
        "neon to_mailbox: one tbl reads the whole quad",
        "Plane 1 for the first mailbox register (a1..h2), start position. The table is the "
        "quad's two registers, 32 bytes, plane p at bytes 8p..8p+7.")
    x0, cw = X0, CW
    for r in range(2):
        regs = table[16 * r:16 * r + 16]
        heads = [f"bb{2 * r}", f"bb{2 * r + 1}"]
        for h, head in enumerate(heads):
            svg.text(x0 + (8 * h + 4) * cw, y + 10, head, size=10, anchor="middle",
                     weight="bold", fill=PLANE[2 * r + h])
        y = byte_row(svg, x0, cw, y + 14, regs, f"table {r}", f"bytes {16 * r}-{16 * r + 15}",
                     lambda i, v, r=r: HIGHLIGHT if 16 * r + i in (8, 9) else
                     LIGHT[2 * r + i // 8])
        for i in range(16):
            svg.text(x0 + i * cw + cw / 2, y + 10, 16 * r + i, size=8, anchor="middle",
                     fill="#555")
        y += 14
    y = byte_row(svg, x0, cw, y + 4, index, "index", None,
                 lambda i, v: "#fff")
    y = arrow_step(svg, x0, y, "tbl v.16b, {t0.16b, t1.16b}, index",
                   "index = BYTE_OF_SQUARE + 8; byte i = table[index[i]]: bb1's ranks 1, 2")
    y = byte_row(svg, x0, cw, y, looked, "tbl", None, lambda i, v: HIGHLIGHT)
    y = arrow_step(svg, x0, y, "cmtst v, SQUARE_BIT", "all ones where the square's own bit is set")
    y = byte_row(svg, x0, cw, y, tested, "tested", None,
                 lambda i, v: PLANE[plane] if v else "#fff")
    y = arrow_step(svg, x0, y, "and v, #2", "bit 1 of the code; orr merges the four planes")
    y = byte_row(svg, x0, cw, y, bit, "bit 1", None, lambda i, v: LIGHT[plane] if v else "#fff")
    y = byte_row(svg, x0, cw, y + 12, mailbox[:16], "codes", "all planes",
                 lambda i, v: LIGHT[plane] if v & 2 else "#fff")
    square_labels(svg, y + 11)
    svg.para(10, y + 30, "Any byte of the result may read any of the 32: the quad needs no "
             "arranging first. Four lookups per register (one per plane) make sixteen squares' "
             "codes; the mailbox is four registers.", size=11.5)
    return svg.render()


"""Chapters 5 to 8: the quad to and from the mailbox, move deltas, the flip."""

import re

from . import real
from .quad import CODES, E4, START, bits_of, byte, codes_of, occupied, quad_of, square
from .svg import (FAINT, GREY, HIGHLIGHT, INK, LIGHT, PLANE, W, step, strip_heads, strip_row, Svg,
                  title)


def mailbox_rank(text, rank):
    """Rank `rank` (0 = rank 1) of the mailbox bytes `qbb show --routine to-mailbox` prints."""
    rows = dict(re.findall(r"\s([1-8]) ((?:[0-9A-F]{2} ){7}[0-9A-F]{2})\s*$", text, re.M))
    return [int(b, 16) for b in rows[str(rank + 1)].split()]


# ---- chapter 5: the GFNI 8x8 bit-matrix transpose ------------------------------------------------

def gf2p8affine_byte(x, matrix):
    """Intel's pseudo-code for one byte: bit i = parity(matrix byte 7 - i & x)."""
    out = 0
    for i in range(8):
        row = (matrix >> (8 * (7 - i))) & 0xFF
        out |= (bin(row & x).count("1") & 1) << i
    return out


def gfni_diagram():
    quad = quad_of(START)
    rank = 0
    # vpermb with the write mask 0xF0: row 7 - p of lane `rank` = byte `rank` of plane p
    rows = [0] * 8
    for p in range(4):
        rows[7 - p] = byte(quad[p], rank)
    lane = sum(r << (8 * i) for i, r in enumerate(rows))
    result = [gf2p8affine_byte(1 << j, lane) for j in range(8)]
    assert result == codes_of(START)[8 * rank:8 * rank + 8], result
    run = real.Output("to-mailbox", "avx512", START)
    assert result == mailbox_rank(run.text, rank), "the figure must match avx512's to_mailbox"

    svg = Svg(W, "vgf2p8affineqb as an 8x8 bit-matrix transpose")
    y = title(svg, "avx512 to_mailbox: a rank's four plane bytes become its eight mailbox bytes",
              "One 64-bit lane per rank, all eight at once; rank 1 of the start position drawn.")
    y = svg.para(10, y + 4, "1. vpermb (write mask 0xF0 in each lane) gathers byte r of every "
                 "plane into lane r:", size=12)
    cw, xq = 12.5, 56
    for p in range(4):
        svg.text(xq + (8 * p + 4) * cw, y + 10, f"bb{p}", size=10.5, anchor="middle",
                 fill=PLANE[p], weight="bold")
    y += 16
    svg.text(xq - 6, y + 14, "quad", size=11, anchor="end", weight="bold")
    for k in range(32):
        p = k // 8
        svg.rect(xq + k * cw, y, cw, 19, fill=HIGHLIGHT if k % 8 == rank else LIGHT[p],
                 stroke="#fff", sw=1)
    for p in range(4):
        svg.rect(xq + 8 * p * cw, y, 8 * cw, 19, fill="none", stroke=PLANE[p], sw=2)
    ylane = y + 74
    lx, lw = 150, 36
    for i in range(8):
        x = lx + i * lw
        p = 7 - i
        svg.rect(x, ylane, lw, 21, fill=LIGHT[p] if i >= 4 else "#eee", stroke=GREY, sw=1)
        svg.text(x + lw / 2, ylane + 15, f"{rows[i]:02X}", size=11, anchor="middle", mono=True)
        svg.text(x + lw / 2, ylane + 33, i, size=9.5, anchor="middle", fill="#555")
        if i >= 4:
            sx = xq + (8 * p + rank) * cw + cw / 2
            svg.line(sx, y + 20, x + lw / 2, ylane - 2, stroke=PLANE[p], sw=1.2, arrow=True)
    svg.text(lx - 8, ylane + 15, "lane 0", size=11, anchor="end", mono=True, weight="bold")
    svg.text(lx - 8, ylane + 33, "row", size=9.5, anchor="end", fill="#555")
    y = svg.para(10, ylane + 52, "Framed: byte 0 of each plane, its rank 1, which goes to lane "
                 "0; byte r goes to lane r. Rows 0-3 are zeroed by the mask.", size=10.5,
                 fill="#444")

    y = svg.para(10, y + 10, "2. vgf2p8affineqb, with the bytes 01 02 04 .. 80 as data: byte j "
                 "of the result is column j, read from row 7 (bit 0) to row 0 (bit 7). The "
                 "lane's bit matrix, transposed:", size=12)
    c = 19

    def matrix(x, y, bit_of, row_label_of, col_label_of, heading, highlight, colour_of):
        for k, line in enumerate(heading):
            svg.text(x + 4 * c, y + 12 * k, line, size=10.5, anchor="middle", weight="bold")
        y += 12 * len(heading) + 12
        for j in range(8):
            svg.text(x + j * c + c / 2, y - 4, col_label_of(j), size=9, anchor="middle",
                     fill="#555")
        for i in range(8):
            svg.text(x - 4, y + i * c + 13, row_label_of(i), size=9, anchor="end", fill="#555",
                     mono=True)
            for j in range(8):
                on = bit_of(i, j)
                hl = highlight(i, j)
                svg.rect(x + j * c, y + i * c, c, c,
                         fill=colour_of(i, j) if on else ("#fff8dc" if hl else "#fff"),
                         stroke=INK if hl else FAINT, sw=1.3 if hl else 0.6)
                svg.text(x + j * c + c / 2, y + i * c + 13.5, on, size=10, anchor="middle",
                         mono=True, fill="#fff" if on else "#bbb")
        return y + 8 * c

    file_e = 4
    y += 8
    mx = 44
    bottom = matrix(mx, y, lambda i, j: (rows[i] >> j) & 1, lambda i: f"row {i}",
                    lambda j: "abcdefgh"[j], ["lane 0: rows = planes,", "columns = files"],
                    lambda i, j: j == file_e, lambda i, j: PLANE[7 - i] if i >= 4 else GREY)
    ox = mx + 8 * c + 84
    matrix(ox, y, lambda j, i: (result[j] >> i) & 1,
           lambda j: f"{result[j]:02X} {'abcdefgh'[j]}1", lambda i: f"b{i}",
           ["result: byte = square,", "bit p = plane p"], lambda j, i: j == file_e,
           lambda j, i: PLANE[i] if i < 4 else GREY)
    mid = y + 24 + 4 * c
    svg.line(mx + 8 * c + 6, mid, ox - 40, mid, sw=1.5, arrow=True)
    y = svg.para(10, bottom + 22, "Column e becomes byte 4: bits 0-3 = bb0..bb3 = 0 0 1 1, "
                 "code 1100B = C, the king on e1. The eight bytes 08 04 06 0A 0C 06 04 08 are "
                 "rank 1 of the mailbox: R N B Q K B N R.", size=11.5)
    return svg.render()


# ---- chapter 6: vpmovmskb as a gather ------------------------------------------------------------

def movemask_gather():
    codes = codes_of(START)
    plane, shift = 1, 6  # plane 1 = bit 1 of each byte; vpsllw by 7 - 1
    data = codes[:16]
    # vpsllw shifts each 16-bit word: byte 2j is the low half of word j, byte 2j + 1 the high
    shifted = []
    for j in range(8):
        word = ((data[2 * j + 1] << 8 | data[2 * j]) << shift) & 0xFFFF
        shifted += [word & 0xFF, word >> 8]
    mask = sum(((b >> 7) & 1) << i for i, b in enumerate(shifted))
    assert mask == quad_of(START)[plane] & 0xFFFF == 0xFF2C, hex(mask)
    run = real.Output("from-mailbox", "avx2", START)
    assert run.bitboard(f"bb{plane}") & 0xFFFF == mask, "the figure must match avx2's from_mailbox"

    svg = Svg(W, "vpmovmskb as a gather: one bit of every byte into one bitmask")
    y = title(svg, "avx2 from_mailbox, plane 1: bit 1 of every byte into one mask",
              "16 of the register's 32 mailbox bytes (a1..h2 of the start position), each byte "
              "drawn upright, bit 7 on top.")
    x0, cw, ch = 86, 24, 11

    def column_bytes(y, values, labels, marked_bit, carried=False):
        svg.text(8, y + 3 * ch, labels[0], size=11.5, weight="bold", mono=True)
        for k, sub in enumerate(labels[1:]):
            svg.text(8, y + 3 * ch + 14 + 12 * k, sub, size=9.5, fill="#555")
        for i, v in enumerate(values):
            x = x0 + i * cw
            for bit in range(8):
                yy = y + (7 - bit) * ch
                on = (v >> bit) & 1
                from_below = carried and i % 2 == 1 and bit < shift
                fill = (GREY if from_below else PLANE[plane]) if on else "#fff"
                if bit == marked_bit:
                    svg.rect(x + 2, yy, cw - 4, ch, fill=HIGHLIGHT, stroke=INK, sw=1.1)
                    svg.rect(x + 5, yy + 2, cw - 10, ch - 4, fill=fill, stroke="none")
                else:
                    svg.rect(x + 2, yy, cw - 4, ch, fill=fill, stroke=FAINT, sw=0.6)
            svg.text(x + cw / 2, y + 8 * ch + 11, f"{v:02X}", size=9.5, anchor="middle",
                     mono=True)
        return y + 8 * ch + 18

    for i in range(16):
        svg.text(x0 + i * cw + cw / 2, y + 8, "abcdefgh"[i % 8] + str(i // 8 + 1), size=9.5,
                 anchor="middle", mono=True)
    y = column_bytes(y + 13, data, ["bytes", "piece codes;", "bit 1 framed"], plane)

    def step(y, instruction, note):
        svg.line(x0 + 10, y, x0 + 10, y + 20, arrow=True)
        svg.text(x0 + 20, y + 9, instruction, size=11.5, mono=True, weight="bold")
        return svg.para(x0 + 20, y + 24, note, size=11, fill="#444") + 2

    y = step(y, f"vpsllw ymm, {shift}", "shifts 16-bit words: bit 1 of every byte becomes its "
             "top bit")
    y = column_bytes(y, shifted, ["shifted", "grey: carried", "in from the", "byte below"], 7,
                     carried=True)
    y = step(y, "vpmovmskb eax, ymm", "bit i of eax = the top bit of byte i")
    svg.text(8, y + 14, "eax", size=11.5, weight="bold", mono=True)
    for i in range(16):
        x = x0 + i * cw
        on = (mask >> i) & 1
        svg.rect(x + 2, y, cw - 4, 19, fill=PLANE[plane] if on else "#fff", stroke=INK, sw=1)
        svg.text(x + cw / 2, y + 14, on, size=11.5, anchor="middle", mono=True,
                 fill="#fff" if on else INK)
        svg.text(x + cw / 2, y + 31, i, size=9, anchor="middle", fill="#555")
    svg.text(8, y + 31, "bit", size=9, fill="#555")
    y = svg.para(10, y + 52, f"= {mask:#06x}: plane 1 (P B Q) of ranks 1 and 2, one bit per "
                 "square; the other 16 bytes give bits 16 to 31. The shift is at most 7, so "
                 "what is carried into the high byte of a word never reaches its top bit.",
                 size=11.5)
    return svg.render()


# ---- chapter 7: a move's delta from shifted unit quads -------------------------------------------

def unit(code):
    """UNIT[code]: the quad with `code` on a1 and nothing else."""
    return [(code >> p) & 1 for p in range(4)]


def move_delta_lanes():
    run = real.Output("move-delta", "sse2")
    before, delta, after = run.quad(0), run.quad(1), run.quad(2)
    board = run.grid("before")
    king, rook = CODES["K"], CODES["R"]
    assert board[square("e1")] == "K" and board[square("h1")] == "R"
    aspects = [("king leaves", "e1", king), ("king lands", "g1", king),
               ("nothing taken", "g1", 0), ("rook leaves", "h1", rook),
               ("rook lands", "f1", rook)]
    shifted = [[b << square(sq) for b in unit(code)] for _, sq, code in aspects]
    mine = [0] * 4
    for s in shifted:
        mine = [m ^ b for m, b in zip(mine, s)]  # pxor, one register pair at a time
    assert mine == delta and [b ^ d for b, d in zip(before, mine)] == after, \
        "the figure must match sse2's move_delta"
    assert delta == [0, 0, bits_of("e1 g1"), bits_of("e1 f1 g1 h1")]  # as the text says

    svg = Svg(W, "move_delta(e1g1) in two XMM registers: a unit quad per aspect, shifted")
    y = title(svg, "sse2 move_delta(e1g1): shifted unit quads, xor-ed into the delta",
              "White castles short in the chapter's picture. Rank 1 of each 64-bit lane; "
              "xmm0 holds planes 0 and 1, xmm1 planes 2 and 3.")
    heads = [(f"xmm{p // 2}: bb{p}", PLANE[p]) for p in range(4)]
    y = strip_heads(svg, y + 4, heads)
    y = strip_row(svg, y, f"UNIT[{king:X}]", "K on a1", unit(king), 0, PLANE)
    y = strip_row(svg, y, f"UNIT[{rook:X}]", "R on a1", unit(rook), 0, PLANE)
    y = svg.para(10, y + 4, "For each aspect, two movdqa of UNIT[code] and two psllq by the "
                 "square's index (one count for both lanes of a register):", size=11.5)
    y += 4
    for (what, sq, code), values in zip(aspects, shifted):
        y = strip_row(svg, y, f"psllq {square(sq)}", f"{what}, {sq}", values, 0, PLANE,
                      square(sq))
    y = step(svg, 60, y - 6, "pxor ×2, per aspect", "the xor of the five: the delta")
    y = strip_row(svg, y, "delta", None, delta, 0, PLANE, frame=True)
    svg.para(10, y + 6, "Plane 2 changes on e1 and g1 (the king's bit), plane 3 on e1 to h1 "
             "(the king's and the rook's): quad ^ delta makes the move, and the delta is the "
             "one qbb show --routine move-delta --backend sse2 prints. A capture of code 0 "
             "shifts an all-zero unit and adds nothing.", size=11.5)
    return svg.render()


# ---- chapter 8: a pshufb byte shuffle: the flip's mirror -----------------------------------------

def pshufb_mirror():
    quad = quad_of(E4)
    occ = occupied(quad)
    low = [byte(quad[0] ^ occ, k) for k in range(8)] + [byte(quad[1], k) for k in range(8)]
    index = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]
    out = [0 if i & 0x80 else low[i & 15] for i in index]
    # the reference flip: planes mirrored, colour bit toggled on occupied squares
    flipped0 = int.from_bytes((quad[0] ^ occ).to_bytes(8, "little")[::-1], "little")
    flipped1 = int.from_bytes(quad[1].to_bytes(8, "little")[::-1], "little")
    assert out == [byte(flipped0, k) for k in range(8)] + [byte(flipped1, k) for k in range(8)]
    run = real.Output("flip", "sse2")  # 1. e4, black to move: the command's default
    assert run.quad(1) == quad and run.quad(2)[:2] == [flipped0, flipped1], \
        "the figure must match sse2's flip"

    svg = Svg(W, "pshufb: each byte of the result picks the source byte its index names")
    y = title(svg, "sse2 flip: one pshufb mirrors two planes",
              "The low register after 1. e4 (black to move): plane 0 already xor-ed with the "
              "occupied squares, and plane 1.")
    x0, cw = 70, 25
    lane_fill = lambda i: LIGHT[0] if i < 8 else LIGHT[1]
    svg.text(x0 + 4 * cw, y + 10, "lane 0: bb0 ^ occupied", size=10.5, anchor="middle",
             fill=PLANE[0])
    svg.text(x0 + 12 * cw, y + 10, "lane 1: bb1", size=10.5, anchor="middle", fill=PLANE[1])
    rows = {"source": y + 18, "index": y + 96, "result": y + 170}

    def byte_row(y, values, label, sub, fmt, colours, ranks):
        svg.text(8, y + 15, label, size=11.5, weight="bold", mono=True)
        for k, line in enumerate(sub):
            svg.text(8, y + 28 + 11 * k, line, size=9.5, fill="#555")
        for i, v in enumerate(values):
            x = x0 + i * cw
            svg.rect(x + 1.5, y, cw - 3, 21, fill=colours(i), stroke=GREY, sw=1)
            svg.text(x + cw / 2, y + 15, fmt(v), size=10.5, anchor="middle", mono=True)
            if ranks:
                svg.text(x + cw / 2, y + 32, f"r{i % 8 + 1}", size=9, anchor="middle",
                         fill="#555")

    byte_row(rows["source"], low, "xmm", ["byte k:", "rank k+1"], lambda v: f"{v:02X}",
             lane_fill, True)
    byte_row(rows["index"], index, "mirror", ["indices"], str, lambda i: "#fff", False)
    byte_row(rows["result"], out, "result", ["pshufb", "xmm, mirror"], lambda v: f"{v:02X}",
             lane_fill, True)
    # arrows: result byte i <- source byte index[i], for a few bytes to keep it readable
    for i in (4, 6, 7, 9, 12):
        sx = x0 + index[i] * cw + cw / 2
        dx = x0 + i * cw + cw / 2
        svg.path(f"M{sx:g},{rows['source'] + 36} C{sx:g},{rows['index'] - 12} "
                 f"{dx:g},{rows['index'] - 24} {dx:g},{rows['index'] - 2}", stroke=PLANE[3],
                 sw=1.2)
        svg.line(dx, rows["index"] + 22, dx, rows["result"] - 3, stroke=PLANE[3], sw=1.2,
                 arrow=True)
    y = rows["result"] + 64
    y = svg.para(10, y, "result[i] = source[index[i] & 15], or 0 when bit 7 of index[i] is "
                 "set. The indices 7, 6, .. 0 and 15, 14, .. 8 reverse the bytes of each lane: "
                 "rank 1 <-> rank 8. avx2's vpshufb does the same in each 128-bit half and "
                 "cannot fetch across the halves.", size=11.5)
    return svg.render()

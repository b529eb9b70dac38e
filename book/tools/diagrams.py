#!/usr/bin/env python3
"""Draws the book's lane diagrams as SVG: what the backends' instructions do to the quad's bits.

Called by book/generate.sh with the output folder (book/src/generated/diagrams):

    python3 book/tools/diagrams.py OUT_DIR

Every value drawn is computed here from a position, by the same steps as the backend code the
figure names (crates/qbb/src/backend/{sse2,avx2,avx512}/), and checked against a plain
reference before it is drawn: a figure that disagrees with the code stops the script. (The NNUE
figure reads the engine's network file, through book/tools/nnue_net.py.) The SVGs have a viewBox
and no fixed size, so that they scale to the width of the page, and a white background, so that
they stay readable under the book's dark themes.
"""

import sys
from pathlib import Path

# ---- the quad, as the lab defines it -------------------------------------------------------------

CODES = {"P": 2, "N": 4, "B": 6, "R": 8, "Q": 10, "K": 12,
         "p": 3, "n": 5, "b": 7, "r": 9, "q": 11, "k": 13}
LETTERS = {code: letter for letter, code in CODES.items()}
MASK64 = (1 << 64) - 1
NOT_A = 0xFEFE_FEFE_FEFE_FEFE
NOT_H = 0x7F7F_7F7F_7F7F_7F7F

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"
# The position of chapters 9 and 12 (`qbb show --routine checks-and-pins`).
LINES = "4r1k1/5p2/8/b7/6N1/1BN5/8/4K1R1"


def codes_of(placement):
    """The nibble of every square, a1 = 0 .. h8 = 63."""
    codes = [0] * 64
    for i, rank_text in enumerate(placement.split("/")):
        rank, file = 7 - i, 0
        for c in rank_text:
            if c.isdigit():
                file += int(c)
            else:
                codes[rank * 8 + file] = CODES[c]
                file += 1
    return codes


def quad_of(placement):
    """The four planes: bit s of plane p = bit p of the nibble of square s."""
    codes = codes_of(placement)
    return [sum(((codes[s] >> p) & 1) << s for s in range(64)) for p in range(4)]


def square(name):
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def bits_of(names):
    return sum(1 << square(n) for n in names.split())


def byte(bb, k):
    return (bb >> (8 * k)) & 0xFF


def occupied(quad):
    return quad[1] | quad[2] | quad[3]


# ---- SVG -----------------------------------------------------------------------------------------

SANS = "DejaVu Sans, Helvetica, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
# One colour per plane, light and dark.
PLANE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759"]
LIGHT = ["#c6d6e8", "#fbd7b3", "#c9e4c4", "#f6c5c6"]
HIGHLIGHT = "#f1ce63"
INK = "#222"
GREY = "#999"
FAINT = "#ddd"


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# The width of every figure, in the units of its viewBox: about a phone's width in pixels, so that
# on a phone a figure is drawn near its own size and its smallest text stays readable; the book's
# stylesheet lets it grow a little on a wide page.
W = 480


class Svg:
    def __init__(self, width, title):
        self.width = width
        self.title = title
        self.items = []
        self.bottom = 0

    def _grow(self, y):
        self.bottom = max(self.bottom, y)

    def rect(self, x, y, w, h, fill="#fff", stroke=GREY, sw=1):
        if stroke == FAINT and sw < 1:
            paint = ' class="c"'  # a grid cell
        else:
            paint = f' stroke="{stroke}"' + (f' stroke-width="{sw:g}"' if sw != 1 else "")
        self.items.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
                          f'fill="{fill}"{paint}/>')
        self._grow(y + h)

    def text(self, x, y, s, size=14, anchor="start", mono=False, weight="normal", fill=INK,
             italic=False):
        extra = f' class="{"m" if mono else "s"}" font-size="{size:g}"'
        if anchor != "start":
            extra += f' text-anchor="{anchor}"'
        if weight != "normal":
            extra += f' font-weight="{weight}"'
        if fill != INK:
            extra += f' fill="{fill}"'
        if italic:
            extra += ' font-style="italic"'
        self.items.append(f'<text x="{x:g}" y="{y:g}"{extra}>{esc(s)}</text>')
        self._grow(y + size * 0.3)

    def para(self, x, y, text, size=12.5, width=None, italic=False, weight="normal",
             fill=INK, leading=1.35):
        """Text wrapped to `width` (the figure's right margin by default); returns the y below."""
        width = width or self.width - x - 8
        # DejaVu Sans averages about 0.55 em a character, its bold about 0.62
        per_line = max(10, int(width / (size * (0.62 if weight == "bold" else 0.55))))
        line = ""
        for word in text.split():
            if line and len(line) + 1 + len(word) > per_line:
                self.text(x, y, line, size=size, italic=italic, weight=weight, fill=fill)
                y += size * leading
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            self.text(x, y, line, size=size, italic=italic, weight=weight, fill=fill)
            y += size * leading
        return y

    def line(self, x1, y1, x2, y2, stroke=INK, sw=1.2, arrow=False, dash=None):
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        if dash:
            extra += f' stroke-dasharray="{dash}"'
        self.items.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
            f'stroke-width="{sw:g}"{extra}/>')
        self._grow(max(y1, y2))

    def path(self, d, stroke=INK, sw=1.2, arrow=True, fill="none"):
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        self.items.append(f'<path d="{d}" stroke="{stroke}" stroke-width="{sw:g}" '
                          f'fill="{fill}"{extra}/>')

    def render(self):
        height = self.bottom + 16
        return "\n".join([
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {height:g}" '
            f'fill="{INK}" role="img" aria-label="{esc(self.title)}">',
            f"<title>{esc(self.title)}</title>",
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{INK}"/></marker></defs>',
            f"<style>.s{{font-family:{SANS}}} .m{{font-family:{MONO}}} "
            f".c{{stroke:{FAINT};stroke-width:0.6}}</style>",
            f'<rect x="0" y="0" width="{self.width}" height="{height:g}" fill="#fff"/>',
            *self.items,
            "</svg>",
            "",
        ])


def mini_board(svg, x, y, cell, fill_of, letters=None, label=None, label_size=13):
    """An 8x8 board, rank 8 on top: `fill_of(sq)` gives each square's colour."""
    if label:
        svg.text(x + 4 * cell, y - 6, label, size=label_size, anchor="middle")
    svg.rect(x, y, 8 * cell, 8 * cell, fill="#fff", stroke="none")
    for sq in range(64):
        fill = fill_of(sq)
        if fill != "#fff":
            svg.rect(x + (sq % 8) * cell, y + (7 - sq // 8) * cell, cell, cell, fill=fill,
                     stroke="none")
    grid = "".join(f"M{x + k * cell:g},{y:g}v{8 * cell:g}M{x:g},{y + k * cell:g}h{8 * cell:g}"
                   for k in range(1, 8))
    svg.path(grid, stroke=FAINT, sw=0.6, arrow=False)
    if letters:
        for sq in range(64):
            if letters[sq]:
                svg.text(x + (sq % 8) * cell + cell / 2, y + (7 - sq // 8) * cell + cell * 0.72,
                         letters[sq], size=cell * 0.62, anchor="middle", mono=True, fill="#555")
    svg.rect(x, y, 8 * cell, 8 * cell, fill="none", stroke=GREY, sw=1)


# ---- 1. the quad in registers (chapter 1) --------------------------------------------------------

def title(svg, text, subtitle=None):
    """The figure's heading and an optional italic line under it; returns the y below."""
    y = svg.para(10, 22, text, size=13.5, weight="bold")
    if subtitle:
        y = svg.para(10, y + 1, subtitle, size=11.5, italic=True, fill="#444")
    return y + 6


def quad_registers():
    svg = Svg(W, "The quad in memory, in two XMM registers and in one YMM register")
    y = title(svg, "The quad in memory and in registers",
              "Quad { bb: [u64; 4] } is 32 bytes: byte 8p + r holds rank r + 1 of plane p, file "
              "a in bit 0. Lane 0 is drawn on the left, at the lowest address, as memory holds "
              "it.")
    x0, cw = 66, 12.5  # byte 0's left edge, the width of one byte
    names = ["black", "P B Q", "N B K", "R Q K"]
    for p in range(4):
        cx = x0 + (8 * p + 4) * cw
        svg.text(cx, y + 12, f"bb{p}", size=11.5, anchor="middle", fill=PLANE[p],
                 weight="bold")
        svg.text(cx, y + 25, names[p], size=10, anchor="middle", fill=PLANE[p])
    y += 32
    svg.text(x0 - 6, y + 14, "memory", size=11.5, weight="bold", anchor="end")
    for k in range(32):
        svg.rect(x0 + k * cw, y, cw, 20, fill=LIGHT[k // 8], stroke="#fff", sw=1)
    for p in range(4):
        svg.rect(x0 + 8 * p * cw, y, 8 * cw, 20, fill="none", stroke=PLANE[p], sw=2)
    svg.text(x0, y + 32, "rank 1 .. 8: one byte each", size=10, fill="#555")
    svg.text(x0 + 32 * cw, y + 32, "byte 31", size=10, fill="#555", anchor="end")

    def register(y, name, first, count):
        """A register over bytes first .. first + count, one box per 64-bit lane."""
        svg.text(x0 + first * cw - 6, y + 17, name, size=11.5, weight="bold", mono=True,
                 anchor="end")
        for lane in range(count // 8):
            p = first // 8 + lane
            x = x0 + (first + 8 * lane) * cw
            svg.rect(x, y, 8 * cw, 26, fill=LIGHT[p], stroke=PLANE[p], sw=2)
            svg.text(x + 4 * cw, y + 17, f"lane {lane}: bb{p}", size=11, anchor="middle")

    y += 58
    y = svg.para(10, y, "sse2: two registers, [bb0, bb1] and [bb2, bb3]", size=12)
    register(y, "xmm0", 0, 16)
    register(y + 32, "xmm1", 16, 16)
    y += 84
    y = svg.para(10, y, "avx2: one register, lane p = plane p (one aligned load)", size=12)
    register(y, "ymm0", 0, 32)
    half = x0 + 16 * cw
    svg.line(half, y - 6, half, y + 32, stroke=INK, sw=3)
    svg.text(x0 + 8 * cw, y + 44, "low 128-bit half", size=10.5, anchor="middle")
    svg.text(x0 + 24 * cw, y + 44, "high 128-bit half", size=10.5, anchor="middle")
    y += 66
    y = svg.para(10, y, "Shifts and logic act on each 64-bit lane (vpsllq, vpand): four planes "
                 "per instruction. Byte shuffles and unpacks stay inside a 128-bit half "
                 "(vpshufb, vpunpcklbw); vpermq crosses it.", size=12)
    return svg.render()


# ---- 2. the vertical nibble: piece_at in one register (chapter 1) --------------------------------

def piece_at_nibble():
    quad = quad_of(START)
    sq = square("e1")
    shift = 63 - sq
    shifted = [(bb << shift) & MASK64 for bb in quad]
    signs = 0
    for p, bb in enumerate(shifted):
        for k in range(8):
            signs |= ((bb >> (8 * k + 7)) & 1) << (8 * p + k)
    nibble = ((signs & 0x8080_8080) * 0x0020_4081 & 0xFFFF_FFFF) >> 28
    reference = sum(((quad[p] >> sq) & 1) << p for p in range(4))
    assert nibble == reference == 0b1100, (nibble, reference)

    svg = Svg(W, "piece_at(e1) in one YMM register: vpsllq, vpmovmskb, a multiply")
    y = title(svg, "avx2 piece_at(e1): the four bits of square 4 come from the four lanes",
              "Each lane drawn as 64 bits, bit 63 on the left; the start position.")
    x0, cw, ch = 70, 6, 13  # bit 63's left edge, one bit's width and height

    def lanes(y, values, mark):
        for p in range(4):
            yy = y + p * (ch + 5)
            svg.text(x0 - 8, yy + 10.5, f"bb{p}", size=11, mono=True, anchor="end",
                     fill=PLANE[p], weight="bold")
            for b in range(64):
                x = x0 + (63 - b) * cw
                on = (values[p] >> b) & 1
                fill = PLANE[p] if on else "#fff"
                if b == mark:
                    continue
                svg.rect(x, yy, cw, ch, fill=fill, stroke=FAINT, sw=0.5)
            x = x0 + (63 - mark) * cw
            on = (values[p] >> mark) & 1
            svg.rect(x - 1.5, yy - 1.5, cw + 3, ch + 3, fill=HIGHLIGHT, stroke=INK, sw=1.2)
            svg.rect(x + 1, yy + 1, cw - 2, ch - 2, fill=PLANE[p] if on else "#fff",
                     stroke="none")
            for k in range(1, 8):
                svg.line(x0 + 8 * k * cw, yy, x0 + 8 * k * cw, yy + ch, stroke=GREY, sw=0.8)
        bottom = y + 4 * (ch + 5) + 6
        svg.text(x0, bottom, "bit 63", size=9.5, fill="#555")
        svg.text(x0 + 64 * cw, bottom, "bit 0", size=9.5, anchor="end", fill="#555")
        return bottom + 8

    def step(y, instruction, note):
        svg.line(x0 + 14, y, x0 + 14, y + 20, arrow=True)
        svg.text(x0 + 24, y + 9, instruction, size=11.5, mono=True, weight="bold")
        return svg.para(x0 + 24, y + 24, note, size=11, fill="#444") + 4

    y = svg.para(10, y + 4, "ymm = the quad, lane p = plane p; e1 is bit 4 of every lane "
                 "(framed):", size=12)
    y = lanes(y + 2, quad, sq)
    y = step(y, f"vpsllq ymm, {shift}", "63 - sq: bit 4 becomes bit 63, the top bit of each "
             "lane")
    y = lanes(y + 2, shifted, 63)
    y = step(y, "vpmovmskb eax, ymm", "the top bit of each of the 32 bytes, bit 31 on the "
             "left")
    mw = 12
    svg.text(x0 - 8, y + 10.5, "eax", size=11, mono=True, weight="bold", anchor="end")
    for b in range(32):
        x = x0 + (31 - b) * mw
        on = (signs >> b) & 1
        fill = PLANE[b // 8] if on else "#fff"
        if b % 8 == 7:
            svg.rect(x - 1.5, y - 1.5, mw + 3, ch + 3, fill=HIGHLIGHT, stroke=INK, sw=1.2)
            svg.rect(x + 1.5, y + 1.5, mw - 3, ch - 3, fill=fill, stroke="none")
            svg.text(x + mw / 2, y + ch + 12, b, size=9.5, anchor="middle", mono=True)
        else:
            svg.rect(x, y, mw, ch, fill=fill, stroke=FAINT, sw=0.5)
    for k in range(1, 4):
        svg.line(x0 + 8 * k * mw, y, x0 + 8 * k * mw, y + ch, stroke=GREY, sw=0.8)
    y = svg.para(x0, y + ch + 28, f"= {signs:#010x}: bits 7, 15, 23, 31 are the top bits of "
                 "lanes 0, 1, 2, 3", size=11, fill="#444") + 2
    y = step(y, "and 0x80808080; imul 0x00204081; shr 28",
             "the four bits, side by side in the top nibble, then shifted down")
    svg.text(x0 - 8, y + 15, "al", size=11, mono=True, weight="bold", anchor="end")
    for i in range(4):
        p = 3 - i
        x = x0 + i * 28
        on = (nibble >> p) & 1
        svg.rect(x, y, 28, 21, fill=PLANE[p] if on else "#fff", stroke=INK, sw=1.2)
        svg.text(x + 14, y + 15, on, size=13, anchor="middle", mono=True,
                 fill="#fff" if on else INK)
        svg.text(x + 14, y + 33, f"bb{p}", size=10, anchor="middle", fill=PLANE[p])
    svg.text(x0 + 124, y + 15, f"= {nibble:04b}B = {nibble:X}: the white king", size=12.5)
    return svg.render()


# ---- 3. vpmovmskb as a gather (chapter 6) --------------------------------------------------------

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


# ---- 4. a pshufb byte shuffle: the flip's mirror (chapter 8) --------------------------------------

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


# ---- 5. Kogge-Stone over four planes (chapter 9) ---------------------------------------------------

def generators_of(placement):
    codes = codes_of(placement)
    def of(*letters):
        return sum(1 << s for s in range(64) if LETTERS.get(codes[s]) in letters)
    return [of("R", "Q"), of("K"), of("k"), of("r", "q")], ~of(*CODES) & MASK64


def slow_fill(gen, empty, step, wrap):
    fill = gen
    for _ in range(7):
        moved = (fill << step if step > 0 else fill >> -step) & MASK64 & wrap
        fill |= moved & empty
    return fill


# The grid of mini boards that figures 5 and 6 share: a column of row labels, four boards.
CELL, BX, GAP = 10, 96, 14
BW = 8 * CELL
COLS = [BX + i * (BW + GAP) for i in range(4)]


def row_label(svg, y, label, subs, colour=INK, mono=False):
    svg.text(8, y + 30, label, size=11, weight="bold", mono=mono, fill=colour)
    for k, sub in enumerate(subs):
        svg.text(8, y + 44 + 12 * k, sub, size=9.5, fill="#555")


def kogge_stone_diagram():
    gens, empty = generators_of(LINES)
    step, wrap = -1, NOT_H  # west: shift right by 1, 2, 4; nothing may land on the h-file
    shift = lambda bb, n: bb >> n
    pro = [empty & wrap]
    pro.append(pro[0] & shift(pro[0], 1))
    pro.append(pro[1] & shift(pro[1], 2))
    stages = [gens]
    for i, n in enumerate((1, 2, 4)):
        stages.append([f | (pro[i] & shift(f, n)) for f in stages[-1]])
    for g, fill in zip(gens, stages[-1]):
        assert fill == slow_fill(g, empty, step, wrap)
    letters = [LETTERS.get(c, "") for c in codes_of(LINES)]

    svg = Svg(W, "Kogge-Stone: a fill in three doubling steps, four planes at once")
    y = title(svg, "avx2 occluded fill westwards: four generator sets in one register",
              "fill |= pro & (fill >> n); pro &= pro >> n; for n = 1, 2, 4: each step reaches "
              "twice as far as the one before.")
    heads = ["generators", "step 1: >> 1", "step 2: >> 2", "step 3: >> 4"]
    for c, h in zip(COLS, heads):
        svg.text(c + BW / 2, y + 12, h, size=10.5, anchor="middle", weight="bold")
    y += 36
    row_label(svg, y, "propagator", ["empty squares,", "the same in", "every lane"])
    pro_titles = ["empty & notH", "pro & pro>>1", "pro & pro>>2"]
    for i in range(3):
        mini_board(svg, COLS[i + 1], y, CELL,
                   lambda s, i=i: "#bbb" if (pro[i] >> s) & 1 else "#fff", letters,
                   label=pro_titles[i], label_size=9.5)
    y += BW + 16
    subs = ["white R Q", "white K", "black K", "black R Q"]
    for p in range(4):
        row_label(svg, y, f"lane {p}: bb{p}", [subs[p]], colour=PLANE[p], mono=True)
        for i in range(4):
            now, before = stages[i][p], stages[i - 1][p] if i else 0
            def fill_of(s, now=now, before=before, i=i, p=p):
                if (gens[p] >> s) & 1:
                    return PLANE[p]
                if (now >> s) & 1:
                    return HIGHLIGHT if i and not (before >> s) & 1 else LIGHT[p]
                return "#fff"
            mini_board(svg, COLS[i], y, CELL, fill_of, letters)
        y += BW + 10
    svg.para(10, y + 12, "Dark: the generators. Yellow: what the step adds. Grey: the squares "
             "a step may cross, n at once only where all n are empty.", size=11.5)
    return svg.render()


# ---- 6. Isenberg's coding in four lanes (chapter 12) ---------------------------------------------

def ray(gen, empty, step, wrap):
    """The ray attacks: the occluded fill one step further (blockers included)."""
    fill = slow_fill(gen, empty, step, wrap)
    return ((fill << step if step > 0 else fill >> -step) & MASK64) & wrap


def isenberg_diagram():
    codes = codes_of(LINES)
    letters = [LETTERS.get(c, "") for c in codes]
    of = lambda *ls: sum(1 << s for s in range(64) if LETTERS.get(codes[s]) in ls)
    white, black = of(*"PNBRQK"), of(*"pnbrqk")
    empty = ~(white | black) & MASK64
    kings = [of("K"), of("k")]
    sliders = [of("R", "Q"), of("r", "q")]
    north = [ray(b, empty, 8, MASK64) for b in kings + sliders]
    south = [ray(b, empty, -8, MASK64) for b in kings + sliders]
    # between[us] = king north & enemy sliders south | king south & enemy sliders north
    between = [north[us] & south[2 + 1 - us] | south[us] & north[2 + 1 - us] for us in (0, 1)]
    checkers = [(north[us] | south[us]) & sliders[1 - us] for us in (0, 1)]
    assert between[0] == bits_of("e2 e3 e4 e5 e6 e7") and between[1] == bits_of("g4")
    assert checkers == [bits_of("e8"), 0]
    assert between[0] & white == 0 and between[1] & white == bits_of("g4")

    svg = Svg(W, "Isenberg's coding in four lanes: kings and sliders filled together")
    y = title(svg, "sse2 checks_and_pins: the quad as two registers",
              "The north-south line of the position of chapter 12; the loop does the same "
              "for the other three lines.")
    svg.text((COLS[0] + COLS[1] + BW) / 2, y + 12, "kings = [white, black]", size=10.5,
             anchor="middle", weight="bold", mono=True)
    svg.text((COLS[2] + COLS[3] + BW) / 2, y + 12, "sliders = [white, black]", size=10.5,
             anchor="middle", weight="bold", mono=True)
    lane_names = ["lane 0: K e1", "lane 1: k g8", "lane 0: R g1", "lane 1: r e8"]
    colours = [PLANE[1], PLANE[2], PLANE[0], PLANE[3]]  # the article's bb1, bb2, bb0, bb3
    lights = [LIGHT[1], LIGHT[2], LIGHT[0], LIGHT[3]]
    bases = kings + sliders
    y += 38

    def board_row(y, label, subs, sets, names=None):
        row_label(svg, y, label, subs)
        for i in range(4):
            mini_board(svg, COLS[i], y, CELL,
                       lambda s, i=i: colours[i] if (bases[i] >> s) & 1 else
                       (lights[i] if (sets[i] >> s) & 1 else "#fff"), letters,
                       label=names[i] if names else None, label_size=9.5)
        return y + BW + 12

    y = board_row(y, "the quad", ["Isenberg's bb1,", "bb2 and bb0,", "bb3"], [0, 0, 0, 0], lane_names)
    y = board_row(y, "north rays", ["the fill + one", "step: blocker", "included"], north)
    y = board_row(y, "south rays", ["the same,", "the other way"], south)
    y = svg.para(10, y + 8, "between = king rays & the sliders' opposite rays, lanes exchanged "
                 "(pshufd 0x4E): one pand for both kings.", size=11.5)
    y += 18
    for us in (0, 1):
        x = (COLS[2 * us] + COLS[2 * us + 1] + BW) / 2 - BW / 2
        mini_board(svg, x, y, CELL,
                   lambda s, us=us: HIGHLIGHT if (between[us] >> s) & 1 else
                   (colours[us] if (kings[us] >> s) & 1 else "#fff"), letters,
                   label=f"between, {'white' if us == 0 else 'black'} king", label_size=9.5)
    row_label(svg, y, "between", ["lane 0 | lane 1"])
    y += BW + 20
    svg.para(10, y, "White: e2..e7 are empty, so the rook on e8, which the king's ray reaches, "
             "gives check and these are the squares to block on. Black: between holds one white "
             "piece, the knight on g4, a discovered checker. The pins on c3 and f7 come from "
             "the diagonal lines.", size=11.5)
    return svg.render()


# ---- 7. the GFNI 8x8 bit-matrix transpose (chapter 5) ---------------------------------------------

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


# ---- 8. pshufb as a table lookup: nibble counts (chapter 13) -------------------------------------

def pshufb_popcount():
    table = [bin(i).count("1") for i in range(16)]
    bb1 = quad_of(E4)[1]  # pawns, bishops and queens after 1. e4
    data = [byte(bb1, k) for k in range(8)]
    low = [b & 15 for b in data]
    high = [b >> 4 for b in data]
    counts = [table[l] + table[h] for l, h in zip(low, high)]
    assert counts == [bin(b).count("1") for b in data] and sum(counts) == 22

    svg = Svg(W, "pshufb as a 16-entry table lookup: the population count of each byte")
    y = title(svg, "weighted_popcount (sse2, avx2): pshufb looks up the bit count of every "
              "nibble", "The set: bb1 after 1. e4 (pawns, bishops, queens), byte k = rank k + 1.")
    x0, cw = 76, 25
    ytable = y + 4
    svg.text(8, ytable + 15, "table", size=11.5, weight="bold", mono=True)
    svg.text(8, ytable + 28, "bits in 0..F", size=9.5, fill="#555")
    for i, t in enumerate(table):
        svg.rect(x0 + i * cw + 1, ytable, cw - 2, 21, fill=LIGHT[2], stroke=GREY, sw=1)
        svg.text(x0 + i * cw + cw / 2, ytable + 15, t, size=11, anchor="middle", mono=True)
        svg.text(x0 + i * cw + cw / 2, ytable + 33, f"{i:X}", size=9, anchor="middle",
                 fill="#555")
    bw = 50
    rows = [("bytes", data, lambda v: f"{v:02X}", "#fff"),
            ("low", low, lambda v: f"{v:X}", LIGHT[0]),
            ("high", high, lambda v: f"{v:X}", LIGHT[1])]
    y = ytable + 56
    ylow = y + 32
    for name, values, fmt, fill in rows:
        svg.text(8, y + 15, name, size=11.5, weight="bold", mono=True)
        for i, v in enumerate(values):
            svg.rect(x0 + i * bw + 4, y, bw - 8, 21, fill=fill, stroke=GREY, sw=1)
            svg.text(x0 + i * bw + bw / 2, y + 15, fmt(v), size=11, anchor="middle", mono=True)
        y += 32
    y = svg.para(x0, y + 4, "low = byte & 0x0F, high = (byte >> 4) & 0x0F (psrlw 4, pand)",
                 size=10.5, fill="#444")
    y += 4
    svg.text(8, y + 15, "counts", size=11.5, weight="bold", mono=True)
    svg.text(8, y + 28, "two pshufb", size=9.5, fill="#555")
    svg.text(8, y + 39, "and a paddb", size=9.5, fill="#555")
    for i, v in enumerate(counts):
        svg.rect(x0 + i * bw + 4, y, bw - 8, 21, fill=LIGHT[2], stroke=INK, sw=1.2)
        svg.text(x0 + i * bw + bw / 2, y + 15, f"{table[low[i]]}+{table[high[i]]}={v}",
                 size=10, anchor="middle", mono=True)
    # one lookup framed: byte 0 (0x2C), low nibble C, entry C of the table
    svg.rect(x0 + low[0] * cw - 0.5, ytable - 2, cw + 1, 25, fill="none", stroke=INK, sw=2)
    svg.rect(x0 + 2, ylow - 2, bw - 4, 25, fill="none", stroke=INK, sw=2)
    y = svg.para(10, y + 56, "result[i] = table[index[i]]: with the table as data and the "
                 "nibbles as indices, pshufb does sixteen lookups at once (32 with avx2's "
                 "vpshufb); framed, byte 0's low nibble C reading entry C, 2. psadbw against "
                 f"zero then adds the eight counts: {' + '.join(map(str, counts))} = "
                 f"{sum(counts)}, the set's population count.", size=11.5)
    return svg.render()


# ---- 9. the NNUE accumulator in YMM registers (chapter 18) --------------------------------------

def mix(colour, t):
    """`colour` at strength t in 0..1 over white."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 + (c - 255) * t):02x}" for c in rgb)


def nnue_accumulator():
    sys.dont_write_bytecode = True  # no __pycache__ beside the tools
    import nnue_net as nn

    net, _, _ = nn.read_network()
    if any(net.weights()):
        weights = "the network built into the engine"
    else:
        net = nn.tame_network()
        weights = ("the conformance kit's random network, weights -128 to 127 (the engine's own "
                   "network is still all zeros)")
    kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R"
    e5, f7 = square("e5"), square("f7")
    before = nn.relative_codes(kiwipete)
    assert nn.relative_name(before[e5]) == "our knight" and nn.relative_name(before[f7]) == "their pawn"
    after = list(before)
    after[e5], after[f7] = 0, before[e5]
    acc = nn.refresh(before, net)
    moved, edits = nn.update(acc, before, after, net)
    assert moved == nn.refresh(after, net), "the update must equal a refresh"
    # avx2's order: the rows that leave, then the rows that arrive (`edit`'s `out`, then `into`)
    us_edits = sorted(edits[0], key=lambda e: e[0] != "-")
    them_edits = sorted(edits[1], key=lambda e: e[0] != "-")
    assert [e[0] for e in us_edits] == ["-", "-", "+"]

    # The forward pass in avx2's grouping: sixteen registers of sixteen lanes, vpmaddwd pairs
    # added into eight i32 lanes, then folded.
    sums = [0] * 8
    for side in (0, 1):
        for r in range(8):
            x = moved[side][16 * r:16 * r + 16]
            w = net.output[side][16 * r:16 * r + 16]
            v = [min(max(a, 0), nn.QA) for a in x]
            vw = [nn.wrap16(a * b) for a, b in zip(v, w)]
            madd = [nn.wrap32(v[2 * i] * vw[2 * i] + v[2 * i + 1] * vw[2 * i + 1]) for i in range(8)]
            sums = [nn.wrap32(a + b) for a, b in zip(sums, madd)]
    halves = [nn.wrap32(sums[i] + sums[i + 4]) for i in range(4)]
    total = nn.wrap32(nn.wrap32(halves[0] + halves[2]) + nn.wrap32(halves[1] + halves[3]))
    assert total == nn.forward_sum(moved, net), "avx2's order must give the scalar sum"
    cp = nn.finish(total, net)

    svg = Svg(W, "The NNUE accumulator in eight YMM registers: a move's rows, then the forward pass")
    y = title(svg, "avx2 NNUE: one accumulator in eight YMM registers, a move's rows, the "
              "forward pass",
              f"Kiwipete, white to move, 1. Nxf7 (e5f7); the side to move's accumulator, us. "
              f"Weights: {weights}.")

    # 1. the accumulator as eight registers, a heat map of its 128 lanes
    y = svg.para(10, y + 2, "1. nnue_refresh: acc.us = the bias + one row per piece, 128 "
                 "lanes of i16; ymm k holds lanes 16k to 16k + 15, lane 0 on the left.", size=12)
    x0, cw, ch = 70, 24, 12
    scale = max(1, max(abs(a) for a in acc[0]))
    svg.text(x0 + cw / 2, y + 8, "0", size=9, anchor="middle", fill="#555")
    svg.text(x0 + 15.5 * cw, y + 8, "15", size=9, anchor="middle", fill="#555")
    y += 12
    for k in range(8):
        yy = y + k * (ch + 3)
        svg.text(x0 - 8, yy + 10, f"ymm{k}", size=10.5, mono=True, anchor="end", weight="bold")
        for i in range(16):
            a = acc[0][16 * k + i]
            fill = mix(PLANE[0] if a < 0 else PLANE[1], abs(a) / scale)
            svg.rect(x0 + i * cw, yy, cw, ch, fill=fill, stroke=FAINT, sw=0.5)
    svg.rect(x0 - 1.5, y - 1.5, 8 * cw + 3, ch + 3, fill="none", stroke=INK, sw=1.6)
    y += 8 * (ch + 3) + 6
    y = svg.para(x0, y + 8, f"Blue below zero, orange above, full colour at {scale}. Framed: "
                 "lanes 0 to 7, followed below. acc.them takes ymm8 to ymm15: the two "
                 "accumulators fill all sixteen YMM registers of AVX2.", size=10.5, fill="#444")

    # the rows of a table of eight lanes: a label of two lines, then the values
    lx, vx, vw = 8, 178, 36

    def lanes_row(y, op, note, values, fill="#fff", wide=False, frame=False):
        svg.text(lx, y + 11, op, size=10.5, mono=True, weight="bold")
        svg.text(lx, y + 23, note, size=9.5, fill="#555")
        per = 2 * vw if wide else vw
        for i, a in enumerate(values):
            svg.rect(vx + i * per + 1, y, per - 2, 20, fill=fill, stroke=INK if frame else GREY,
                     sw=1.4 if frame else 0.8)
            svg.text(vx + i * per + per / 2, y + 14, a, size=9, anchor="middle", mono=True)
        return y + 31

    def lane_numbers(y):
        for i in range(8):
            svg.text(vx + i * vw + vw / 2, y, f"lane {i}", size=8.5, anchor="middle", fill="#555")
        return y + 6

    def what(code, sq):
        return f"{nn.relative_name(code)} on {nn.square_name(sq)}"

    # 2. the move's edits
    y = svg.para(10, y + 12, "2. nnue_update: e5 goes from our knight to empty, f7 from their "
                 "pawn to our knight. Two rows out, one in; each row is one instruction per "
                 "register, the row a memory operand. Lanes 0 to 7 of ymm0:", size=12)
    y = lane_numbers(y + 4)
    y = lanes_row(y, "ymm0", "before the move", acc[0][:8], fill=LIGHT[0])
    for sign, f, sq, code in us_edits:
        op = ("vpsubw" if sign == "-" else "vpaddw") + f" ymm0, [row {f}]"
        verb = "leaves" if sign == "-" and code & 1 else "is taken" if sign == "-" else "arrives"
        y = lanes_row(y, op, f"{what(code, sq)} {verb}", net.rows[f][:8])
    y = lanes_row(y, "ymm0", "after: equal to a refresh", moved[0][:8], fill=LIGHT[0],
                  frame=True)
    them_rows = ", ".join(f"{'-' if s == '-' else '+'}row {f}" for s, f, _, _ in them_edits)
    y = svg.para(10, y + 10, f"[row f]: the network's row f, 256 bytes at W + 256 f; ymm k "
                 f"reads its bytes 32k to 32k + 31. The same three instructions edit ymm1 to "
                 f"ymm7; acc.them, on the mirrored board, takes {them_rows} in ymm8 to ymm15.",
                 size=10.5, fill="#444")

    # 3. the forward pass on the same eight lanes
    x = moved[0][:8]
    w = net.output[0][:8]
    v = [min(max(a, 0), nn.QA) for a in x]
    vwp = [nn.wrap16(a * b) for a, b in zip(v, w)]
    madd = [v[2 * i] * vwp[2 * i] + v[2 * i + 1] * vwp[2 * i + 1] for i in range(4)]
    y = svg.para(10, y + 12, "3. nnue_evaluate: SCReLU and the output layer, v · v · w "
                 "summed, in two multiplies. The same lanes after the move:", size=12)
    y = lane_numbers(y + 4)
    y = lanes_row(y, "vpmaxsw, vpminsw", "v = x clamped to 0 .. 255", v, fill=LIGHT[2])
    y = lanes_row(y, "[output row 0]", "w: the output weights of us", w)
    y = lanes_row(y, "vpmullw", "v · w, its low 16 bits", vwp)
    y = lanes_row(y, "vpmaddwd", "v · (v · w), pairs added: i32", madd, fill=LIGHT[1], wide=True)
    y = svg.para(10, y + 10, f"Sixteen registers, eight of us against output row 0 and eight "
                 f"of them against row 1, vpaddd into one register of eight i32 sums; "
                 f"vextracti128, vpaddd, vpshufd, vpaddd, vpshufd, vpaddd and vmovd fold them "
                 f"to {total}. Network::finish: ({total} / 255 + {net.output_bias}) · 400 / "
                 f"(255 · 64) = {cp} cp for the side that moved. The scalar loop adds the 256 "
                 f"products one at a time, in another order, and reaches the same {total}: "
                 f"wrapping i32 addition is associative.", size=11)
    return svg.render()


DIAGRAMS = {
    "quad-registers.svg": quad_registers,
    "piece-at-nibble.svg": piece_at_nibble,
    "movemask-gather.svg": movemask_gather,
    "pshufb-mirror.svg": pshufb_mirror,
    "kogge-stone.svg": kogge_stone_diagram,
    "isenberg-lanes.svg": isenberg_diagram,
    "gfni-transpose.svg": gfni_diagram,
    "pshufb-popcount.svg": pshufb_popcount,
    "nnue-accumulator.svg": nnue_accumulator,
}


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: diagrams.py OUT_DIR")
    out = Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, draw in DIAGRAMS.items():
        (out / name).write_text(draw())
    print(f"diagrams: {len(DIAGRAMS)} figures in {out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)

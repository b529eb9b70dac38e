"""Chapters 13 to 15: table lookups and arithmetic on nibbles."""

from . import real
from .quad import E4, MASK64, byte, quad_of, square_name
from .svg import GREY, HIGHLIGHT, INK, LIGHT, PLANE, W, lane_label, step, Svg, title


# ---- chapter 13: pshufb as a table lookup: nibble counts -----------------------------------------

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


# ---- chapter 14: the top bits keep each borrow inside its nibble ---------------------------------

H = 0x8888_8888_8888_8888


def words_of(nibbles):
    """A nibble board as the four u64 of its register: word k holds squares 16k to 16k + 15."""
    return [sum(nibbles[16 * k + j] << (4 * j) for j in range(16)) for k in range(4)]


def nibbles_of(words):
    return [(words[s // 16] >> (4 * (s % 16))) & 15 for s in range(64)]


def nibble_borrow():
    run = real.Output("nibble-sub", "avx2")
    x, y = words_of(run.nibbles("a: white N")), words_of(run.nibbles("b: black N"))
    # avx2's nibble_sub, lane by lane: vpor, vpandn, vpsubq, vpxor + vpandn, vpxor
    raised = [a | H for a in x]
    lowered = [b & ~H & MASK64 for b in y]
    low_diff = [(a - b) & MASK64 for a, b in zip(raised, lowered)]
    top = [~(a ^ b) & H for a, b in zip(x, y)]
    result = [d ^ t for d, t in zip(low_diff, top)]
    assert nibbles_of(result) == run.nibbles("a - b"), "the figure must match avx2's nibble_sub"
    plain = [(a - b) & MASK64 for a, b in zip(x, y)]  # what one vpsubq alone would give
    lane = 2  # squares a5 to h6: the chapter's word 2
    true = nibbles_of(result)[16 * lane:16 * lane + 16]
    # where x's nibble is below y's, the raised top bit pays for the borrow: the difference is < 8
    absorbed = [j for j in range(16) if (low_diff[lane] >> (4 * j)) & 15 < 8]
    wrong = [16 * lane + j for j in range(16) if (plain[lane] >> (4 * j)) & 15 != true[j]]
    first, last = (square_name(wrong[0]), square_name(wrong[-1])) if wrong else ("", "")

    svg = Svg(W, "nibble_sub: the top bit of every nibble keeps a borrow from crossing into the "
              "next")
    y0 = title(svg, "avx2 nibble_sub: the top bits keep each borrow inside its nibble",
               "a and b of the chapter's picture, the knights' counts of Kiwipete. Lane 2 of "
               "the two registers: squares a5 to h6, one nibble each, h6 (bit 63) on the left.")
    x0, cw = 86, 23.5

    def names(y):
        for j in range(16):
            svg.text(x0 + (15 - j) * cw + cw / 2, y, square_name(16 * lane + j),
                     size=9, anchor="middle", mono=True, fill="#555")
        return y + 5

    def nibbles(y, name, sub, word, marked=(), wrong=None, frame=False):
        lane_label(svg, y, name, sub)
        for j in range(16):
            v = (word >> (4 * j)) & 15
            x = x0 + (15 - j) * cw
            fill = HIGHLIGHT if j in marked else "#fce4e4" if wrong and v != wrong[j] else "#fff"
            svg.rect(x + 1, y, cw - 2, 30, fill=fill, stroke=INK if frame else GREY,
                     sw=1.3 if frame else 0.8)
            svg.text(x + cw / 2, y + 15, f"{v:X}", size=12, anchor="middle", mono=True)
            for b in range(4):  # the nibble's bits, bit 3 (H) on the left, as in the word
                on = (v >> (3 - b)) & 1
                colour = (PLANE[3] if b == 0 else PLANE[0]) if on else "#fff"
                svg.rect(x + 3.5 + b * 4.7, y + 21, 4.2, 5, fill=colour,
                         stroke=PLANE[3] if b == 0 else "#bbb", sw=0.5)
        return y + 36

    y0 = names(y0 + 10)
    y0 = nibbles(y0, "x = a", "lane 2, ymm0", x[lane])
    y0 = nibbles(y0, "y = b", "lane 2, ymm1", y[lane])
    y0 = step(svg, x0, y0, "vpor ymm0, H;  vpandn ymm1, H, ymm1",
              "x | H sets the top bit (red) of every nibble of x, y & !H clears it in y:")
    y0 = nibbles(y0, "x | H", None, raised[lane])
    y0 = nibbles(y0, "y & !H", None, lowered[lane])
    y0 = step(svg, x0, y0, "vpsubq ymm0, ymm0, ymm1",
              "one 64-bit subtraction: each nibble of x | H is at least 8, each of y & !H at "
              "most 7, so no nibble borrows from its neighbour. Yellow: the top bit took the "
              "borrow.")
    y0 = nibbles(y0, "difference", None, low_diff[lane], marked=absorbed)
    y0 = step(svg, x0, y0, "vpxor, vpandn: (x ^ !y) & H;  vpxor",
              "the true top bit of every difference, put back with a xor:")
    y0 = nibbles(y0, "a - b", None, result[lane], marked=absorbed, frame=True)
    negative = ", ".join(square_name(16 * lane + j) for j in absorbed)
    y0 = svg.para(x0, y0 + 8, f"{negative}: F, that is -1 in four bits, as qbb show --routine "
                  "nibble-sub --backend avx2 prints.", size=10.5, fill="#444")
    y0 = svg.para(10, y0 + 10, f"Without the masks, one vpsubq of x and y lets the borrow out "
                  f"of {negative.split(',')[0]} run on through every nibble from {first} up to "
                  f"{last} (pink: the nibbles it spoils).", size=11.5)
    y0 = nibbles(y0 + 4, "x - y", "vpsubq alone", plain[lane], wrong=true)
    return svg.render()


# ---- chapter 15: two squares to a byte, and the pack's 128-bit halves ----------------------------

def maddubs(data, weights):
    """vpmaddubsw: unsigned byte × signed byte, adjacent pairs added into 16-bit words (the
    saturation never bites: at most 15 + 16 × 15)."""
    return [data[2 * i] * weights[2 * i] + data[2 * i + 1] * weights[2 * i + 1]
            for i in range(len(data) // 2)]


def packus(a, b):
    """vpackuswb on 256 bits: in each 128-bit half, a's eight words then b's, clamped to bytes."""
    clamp = lambda w: max(0, min(255, w))
    return [clamp(w) for half in (0, 8) for w in a[half:half + 8] + b[half:half + 8]]


def printed_bytes(text):
    """The 32 bytes of the nibble board as `qbb show --routine to-nibble-board` prints them."""
    rows = [line.split() for line in text.split("\n") if line.startswith("rank ")]
    return [int(b, 16) for row in rows for b in row[4:8]]


def nibble_board_lanes():
    run = real.Output("to-nibble-board", "avx2")
    codes = run.nibbles("nibbles")
    weights = [1, 16] * 16
    low, high = maddubs(codes[:32], weights), maddubs(codes[32:], weights)
    packed = packus(low, high)
    lanes = [packed[8 * k:8 * k + 8] for k in range(4)]
    ordered = [b for k in (0, 2, 1, 3) for b in lanes[k]]  # vpermq 216: lanes 0, 2, 1, 3
    assert ordered == printed_bytes(run.text), "the figure must match avx2's to_nibble_board"

    svg = Svg(W, "to_nibble_board in YMM registers: vpmaddubsw pairs the squares, a pack and a "
              "permute put them in order")
    y = title(svg, "avx2 to_nibble_board: two squares to a byte",
              "The start position, the chapter's picture: rank 1 of the mailbox register "
              "(chapter 5), one byte per square.")
    x0, bw = 96, 45
    words = maddubs(codes[:8], weights[:8])

    def cells(y, label, sub, values, span, fmt, fill="#fff", heads=None):
        lane_label(svg, y, label, sub)
        for i, v in enumerate(values):
            x = x0 + i * span * bw
            svg.rect(x + 2, y, span * bw - 4, 21, fill=fill, stroke=GREY, sw=1)
            svg.text(x + span * bw / 2, y + 15, fmt(v), size=11.5, anchor="middle", mono=True)
            if heads:
                svg.text(x + span * bw / 2, y - 4, heads[i], size=9, anchor="middle",
                         mono=True, fill="#555")
        return y + 30

    y = cells(y + 18, "bytes", "a1 .. h1", codes[:8], 1, lambda v: f"{v:02X}", LIGHT[0],
              [square_name(s) for s in range(8)])
    y = cells(y, "weights", "set1_epi16", weights[:8], 1, str)
    y = step(svg, 60, y - 6, "vpmaddubsw ymm2, ymm2, ymm1", "each pair of products added "
             "into a 16-bit word: even square + 16 × odd square")
    y = cells(y + 2, "words", None, words, 2, lambda v: f"{v:04X}", LIGHT[2])
    y = step(svg, 60, y - 6, "vpackuswb ymm0, ymm2, ymm0", "each word narrowed to a byte: "
             "the two codes side by side, the odd square's on top")
    y = cells(y + 2, "bytes", None, packed[:4], 2, lambda v: f"{v:02X}", LIGHT[1])
    y = svg.para(10, y + 4, "But vpackuswb, like every AVX2 pack, works in each 128-bit half: "
                 "the half of each of its two sources, squares 0-31 and 32-63. The packed "
                 "register's 64-bit lanes, 16 squares each:", size=11.5)
    lw = 88
    order = [(0, 15), (32, 47), (16, 31), (48, 63)]

    def lane_boxes(y, spans, label):
        lane_label(svg, y, label)
        for k, (a, b) in enumerate(spans):
            x = x0 + k * (lw + 6)
            svg.rect(x, y, lw, 22, fill=LIGHT[a // 16], stroke=GREY, sw=1)
            svg.text(x + lw / 2, y + 15, f"{square_name(a)}-{square_name(b)}", size=10.5,
                     anchor="middle", mono=True)
        return y + 22

    top = lane_boxes(y + 6, order, "packed")
    svg.text(8, top + 18, "vpermq", size=11.5, mono=True, weight="bold")
    svg.text(8, top + 31, "216: 0, 2, 1, 3", size=9.5, mono=True)
    for k, j in enumerate((0, 2, 1, 3)):
        svg.line(x0 + j * (lw + 6) + lw / 2, top + 3, x0 + k * (lw + 6) + lw / 2, top + 37,
                 stroke=PLANE[3] if j != k else GREY, sw=1.3, arrow=True)
    y = lane_boxes(top + 42, [order[j] for j in (0, 2, 1, 3)], "ordered")
    svg.para(10, y + 16, f"Rank 1 reads 0x{int.from_bytes(bytes(ordered[:4]), 'little'):08X} "
             "as a u32, its nibbles right to left: the 32 bytes are those qbb show --routine "
             "to-nibble-board --backend avx2 prints.", size=11.5)
    return svg.render()

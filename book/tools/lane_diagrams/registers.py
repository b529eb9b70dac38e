"""Chapters 1 to 4: the quad in registers, reading, writing and splitting it."""

from . import real
from .quad import CODES, MASK64, START, quad_of, quad_of_nibbles, square
from .svg import (BW, COLS, FAINT, GREY, HIGHLIGHT, INK, LIGHT, PLANE, W, board_row, step,
                  strip_heads, strip_row, Svg, title)


# ---- chapter 1: the quad in registers ------------------------------------------------------------

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


# ---- chapter 1: the vertical nibble: piece_at in one register ------------------------------------

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
    run = real.Output("piece-at", "avx2")  # the start position and e1, the command's defaults
    assert run.quad(0) == quad and run.nibbles("piece_at")[sq] == nibble, \
        "the figure must match avx2's piece_at"

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


# ---- chapter 2: one clear and one select over four lanes -----------------------------------------

def plane_masks(code):
    """Row `code` of avx2's PLANE_MASKS: lane p all ones when the code has bit p."""
    return [MASK64 if (code >> p) & 1 else 0 for p in range(4)]


def set_piece_avx2(quad, sq, code):
    bit = [1 << sq] * 4  # vpbroadcastq
    cleared = [~b & q for b, q in zip(bit, quad)]  # vpandn
    kept = [b & m for b, m in zip(bit, plane_masks(code & 15))]  # vpand with the row
    return bit, cleared, kept, [c | k for c, k in zip(cleared, kept)]  # vpor


def set_piece_lanes():
    run = real.Output("set-piece", "avx2")
    before = run.quad(0)
    sq, code = square("b8"), 0b1010
    bit, cleared, kept, after = set_piece_avx2(before, sq, code)
    *_, both = set_piece_avx2(after, square("c7"), 0)
    assert both == run.quad(1), "the figure must match avx2's set_piece"

    svg = Svg(W, "set_piece(b8, 1010B) in one YMM register: a clear and a select in four lanes")
    y = title(svg, "avx2 set_piece(b8, 1010B): clear the square, then select the code's planes",
              "The chapter's picture; rank 8 of each 64-bit lane (bits 56 to 63); the other "
              "ranks pass unchanged. b8 framed.")
    rank, f = sq // 8, sq % 8
    heads = [(f"lane {p}: bb{p}", PLANE[p]) for p in range(4)]
    y = strip_heads(svg, y + 4, heads)
    mask_fill = ["#555"] * 4
    y = strip_row(svg, y, "square", "1 << 57, ×4", bit, rank, ["#555"] * 4, f)
    y = strip_row(svg, y, "quad", "before", before, rank, PLANE, f)
    y = step(svg, 60, y - 6, "vpandn ymm1, ymm0, [quad]", "!square & quad: b8 cleared in "
             "every plane, whatever was there (the black rook)")
    y = strip_row(svg, y, "cleared", None, cleared, rank, PLANE, f)
    masks = plane_masks(code)
    y = svg.para(10, y + 4, f"PLANE_MASKS[{code}], one 32-byte row per code: lane p all ones "
                 f"where bit p of {code:04b}B is set.", size=11, fill="#444")
    y = strip_row(svg, y + 2, "row 10", "the masks", masks, rank, mask_fill, f)
    y = step(svg, 60, y - 6, "vpand ymm0, ymm0, [row 10]", "square & masks: b8 kept in the "
             "planes the code selects, 1 and 3")
    y = strip_row(svg, y, "kept", None, kept, rank, PLANE, f)
    y = step(svg, 60, y - 6, "vpor ymm0, ymm0, ymm1", "the new quad, stored in one 32-byte "
             "store")
    y = strip_row(svg, y, "after", "b8 = 1010B, Q", after, rank, PLANE, f, frame=True)
    svg.para(10, y + 6, "The same eleven instructions clear c7 with row 0, all zeros; both "
             "writes give the planes qbb show --routine set-piece --backend avx2 prints.",
             size=11.5)
    return svg.render()


# ---- chapter 3: a lane-crossing permute, a blend and an AND --------------------------------------

def permute4x64(lanes, imm):
    """vpermq / vpermpd: lane i of the result is lane (imm >> 2i) & 3 of the source."""
    return [lanes[(imm >> (2 * i)) & 3] for i in range(4)]


def lane_arrows(svg, y_from, y_to, sources):
    """An arrow from the board of lane sources[i] down to the board of lane i."""
    for i, j in enumerate(sources):
        x1, x2 = COLS[j] + BW / 2, COLS[i] + BW / 2
        svg.line(x1, y_from, x2, y_to, stroke=PLANE[3] if i != j else GREY, sw=1.3, arrow=True)


def piece_sets_lanes():
    run = real.Output("piece-sets", "avx2")
    letters = [c if c != "." else "" for c in run.grid("board")]
    codes = [CODES.get(c, 0) for c in run.grid("board")]
    q = [sum(((codes[s] >> p) & 1) << s for s in range(64)) for p in range(4)]
    odd = q[1] ^ q[2] ^ q[3]
    imm = 0b11_01_10_01
    permuted = permute4x64(q, imm)
    blended = [odd, odd, q[2], odd]  # vpblendd 0b0011_0000: lane 2 from q
    row1 = [a & b for a, b in zip(permuted, blended)]
    names = ["pawns", "knights", "bishops", "rooks"]
    assert row1 == [run.bitboard(n) for n in names], "the figure must match avx2's piece_sets"

    svg = Svg(W, "piece_sets in one YMM register: vpermq crosses the lanes, an AND makes four sets")
    y = title(svg, "avx2 piece_sets: [pawns, knights, bishops, rooks] in three instructions",
              "Kiwipete, the chapter's position. Each lane drawn as a board; red arrows: a "
              "plane that moves to another lane.")
    sources = [(imm >> (2 * i)) & 3 for i in range(4)]

    def sets(values, colours):
        return [lambda s, v=v, c=c: c if (v >> s) & 1 else "#fff"
                for v, c in zip(values, colours)]

    y += 14
    top = board_row(svg, y, "q", ["the quad,", "one load"], [f"bb{p}" for p in range(4)],
                    sets(q, PLANE), letters)
    y = top + 40
    lane_arrows(svg, top - 12, y - 16, sources)
    svg.text(8, top + 10, "vpermpd", size=11.5, mono=True, weight="bold")
    svg.text(8, top + 23, f"ymm3, ymm0, {imm}", size=9.5, mono=True)
    y = board_row(svg, y, "permuted", [f"lanes {', '.join(map(str, sources))}", "of q: it",
                  "crosses the", "128-bit halves"], [f"bb{j}" for j in sources],
                  sets(permuted, [PLANE[j] for j in sources]), letters)
    y = step(svg, 60, y - 8, "vblendps ymm0, ymm1, ymm0, 48", "odd = bb1 ^ bb2 ^ bb3 in "
             "every lane, but lane 2 from q:")
    y = board_row(svg, y + 14, "blended", ["odd, odd,", "bb2, odd"], ["odd", "odd", "bb2", "odd"],
                  sets(blended, ["#777", "#777", PLANE[2], "#777"]), letters)
    y = step(svg, 60, y - 8, "vandps ymm0, ymm3, ymm0", "lane by lane:")
    y = board_row(svg, y + 14, "row 1", ["PieceSets'", "second row"],
                  ["bb1 & odd", "bb2 & odd", "bb1 & bb2", "bb3 & odd"],
                  sets(row1, ["#555"] * 4), letters)
    svg.para(10, y, "Pawns, knights, bishops and rooks, the four sets qbb show --routine "
             "piece-sets --backend avx2 prints; one 32-byte store writes them.", size=11.5)
    return svg.render()


# ---- chapter 4: the two-level tree on its side ---------------------------------------------------

def matching(a, b):
    """avx2's matching: lane j = the squares where planes (b, a) hold the two bits of j, each
    plane XOR-ed with all ones in the lanes that want its bit clear."""
    flip_a = [MASK64, 0, MASK64, 0]
    flip_b = [MASK64, MASK64, 0, 0]
    return [(a ^ fa) & (b ^ fb) for fa, fb in zip(flip_a, flip_b)]


def hex_sets_lanes():
    run = real.Output("hex-sets", "avx2")
    letters = [c if c != "." else "" for c in run.grid("board")]
    q = quad_of_nibbles(run.nibbles("nibbles"))
    low, high = matching(q[0], q[1]), matching(q[2], q[3])
    spread = [high[0]] * 4  # vpbroadcastq: lane 0 to every lane
    row0 = [a & b for a, b in zip(low, spread)]
    assert row0 == [run.bitboard(f"{c} ") for c in "0123"], "the figure must match avx2's hex_sets"

    svg = Svg(W, "hex_sets in YMM registers: sixteen sets as four rows of a 4 x 4 product")
    y = title(svg, "avx2 hex_sets: row 0, the codes 0 to 3, is low & high[0]",
              "Kiwipete, the chapter's position. low: lane j holds the squares whose planes 1, 0 "
              "spell j; high: the same for planes 3, 2.")
    grey = lambda values, colour: [lambda s, v=v: colour if (v >> s) & 1 else "#fff"
                                   for v in values]
    y = board_row(svg, y + 14, "low", ["matching", "(bb0, bb1)"],
                  ["!bb1 & !bb0", "!bb1 & bb0", "bb1 & !bb0", "bb1 & bb0"],
                  grey(low, PLANE[1]), letters)
    top = board_row(svg, y, "high", ["matching", "(bb2, bb3)"],
                    ["!bb3 & !bb2", "!bb3 & bb2", "bb3 & !bb2", "bb3 & bb2"],
                    grey(high, PLANE[3]), letters)
    svg.rect(COLS[0] - 2, top - BW - 16, BW + 4, BW + 4, fill="none", stroke=INK, sw=1.6)
    y = top + 40
    lane_arrows(svg, top - 12, y - 16, [0, 0, 0, 0])
    svg.text(8, top + 10, "vpbroadcastq", size=11.5, mono=True, weight="bold")
    svg.text(8, top + 23, "high[0] ×4", size=9.5, mono=True)
    y = board_row(svg, y, "high[0]", ["in every", "lane"], ["high[0]"] * 4,
                  grey(spread, PLANE[3]), letters)
    y = step(svg, 60, y - 8, "vpand", "low & high[0], lane by lane: the sets of codes 0 to 3")
    y = board_row(svg, y + 14, "row 0", ["codes 0-3"], ["0: empty", "1: no piece", "2: P",
                  "3: p"], grey(row0, "#555"), letters)
    svg.para(10, y, "Rows 1 to 3 take lanes 1, 2 and 3 of high (vpermq 0x55, 0xAA, 0xFF): "
             "four ANDs make the sixteen sets, which qbb show --routine hex-sets --backend "
             "avx2 prints, row 0 among them.", size=11.5)
    return svg.render()

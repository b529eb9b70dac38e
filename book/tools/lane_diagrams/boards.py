"""Chapters 16 to 18: other board representations, hashing, the NNUE accumulator."""

import re
import sys

from . import real
from .quad import CODES, MASK64, quad_of_nibbles, square
from .svg import BW, COLS, FAINT, GREY, INK, LIGHT, PLANE, W, board_row, mix, step, Svg, title


# ---- chapter 16: the classical board's pairs of sets become planes -------------------------------

def classical_lanes():
    run = real.Output("from-classical", "sse2")
    sets = {c: run.bitboard(f"{c} (") for c in "PNBRQKpnbrqk"}
    letters = [next((c for c in sets if (sets[c] >> s) & 1), "") for s in range(64)]
    # the six registers of two u64 each, as sse2 loads them
    w_pn, w_br, w_qk = [sets["P"], sets["N"]], [sets["B"], sets["R"]], [sets["Q"], sets["K"]]
    b_pn, b_br, b_qk = [sets["p"], sets["n"]], [sets["b"], sets["r"]], [sets["q"], sets["k"]]
    por = lambda *regs: [sum_or(r[0] for r in regs), sum_or(r[1] for r in regs)]
    pn, br, qk = por(w_pn, b_pn), por(w_br, b_br), por(w_qk, b_qk)
    black = por(b_pn, b_br, b_qk)
    planes_12 = por(pn, [br[0], br[0]], qk)  # punpcklqdq br, br
    black_rq = [black[0], br[1]]  # pblendw: lane 0 from black, lane 1 from br
    black_k = [black[1], qk[1]]  # punpckhqdq black, qk
    queens = [0, qk[0]]  # pslldq 8
    planes_03 = por(black_rq, black_k, queens)
    quad = [planes_03[0], planes_12[0], planes_12[1], planes_03[1]]  # the two unpacks
    assert quad == run.quad(2), "the figure must match sse2's from_classical"

    svg = Svg(W, "from_classical in XMM registers: pairs of sets, ORed and moved between lanes")
    y = title(svg, "sse2 from_classical: the last lane moves", "Kiwipete: the twelve sets load "
              "as six registers of two lanes, [P, N], [B, R], [Q, K] per colour; ORs make "
              "both colours' pairs. Each lane a board, two registers a row.")
    shade = lambda values, colours: [lambda s, v=v, c=c: c if (v >> s) & 1 else "#fff"
                                     for v, c in zip(values, colours)]
    grey = "#777"
    y = board_row(svg, y + 14, "pblendw", ["black_rq |", "punpckhqdq:", "black_k"],
                  ["bP|bB|bQ", "R", "bN|bR|bK", "K"],
                  shade(black_rq + black_k, [PLANE[0], PLANE[3], PLANE[0], PLANE[3]]), letters)
    y = board_row(svg, y, "pslldq 8", ["queens |", "por: the", "planes_12"],
                  ["0", "Q", "P|B|Q", "N|B|K"], shade(queens + planes_12,
                                                      [grey, PLANE[3], PLANE[1], PLANE[2]]),
                  letters)
    y = step(svg, 60, y - 8, "por ×2", "planes_03 = black_rq | black_k | queens: lane 0 "
             "every black piece, lane 1 R|Q|K")
    top = board_row(svg, y + 14, "inputs", ["planes_03 |", "planes_12"],
                    ["plane 0", "plane 3", "plane 1", "plane 2"],
                    shade(planes_03 + planes_12, [PLANE[0], PLANE[3], PLANE[1], PLANE[2]]),
                    letters)
    y = top + 40
    # punpcklqdq(planes_03, planes_12) = [plane 0, plane 1]; punpckhqdq(planes_12, planes_03)
    for src, dst in ((0, 0), (2, 1), (3, 2), (1, 3)):
        svg.line(COLS[src] + BW / 2, top - 12, COLS[dst] + BW / 2, y - 16,
                 stroke=PLANE[3] if src != dst else GREY, sw=1.3, arrow=True)
    svg.text(8, top + 8, "punpcklqdq", size=11, mono=True, weight="bold")
    svg.text(8, top + 21, "punpckhqdq", size=11, mono=True, weight="bold")
    y = board_row(svg, y, "the quad", ["xmm0 | xmm1"], [f"bb{p}" for p in range(4)],
                  shade(quad, PLANE), letters)
    svg.para(10, y, "The low lanes of the two registers make [bb0, bb1], the high lanes "
             "[bb2, bb3]: the planes qbb show --routine from-classical --backend sse2 prints.",
             size=11.5)
    return svg.render()


def sum_or(values):
    out = 0
    for v in values:
        out |= v
    return out


# ---- chapter 17: Manino's eight products in two vpmuludq per constant ----------------------------

def splitmix(state):
    """crates/qbb/src/hash.rs's SplitMix64 step: the next state and its output."""
    state = (state + 0x9E37_79B9_7F4A_7C15) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
    return state, z ^ (z >> 31)


def manino_constants():
    """MANINO_C, MANINO_A and MANINO_B, made as crates/qbb/src/hash.rs makes them."""
    out, state = [], 0x4D61_6E69_6E6F_2016
    for _ in range(9):
        state, key = splitmix(state)
        out.append(key | 1)
    return out[0], out[1:5], out[5:9]


def mul_64_by_32(half, k):
    """avx2's mul_64_by_32 in one lane: two vpmuludq (32 x 32 -> 64 bits), vpsllq, vpaddq."""
    lo32 = lambda v: v & 0xFFFF_FFFF
    low = lo32(half) * lo32(k)
    high = lo32(half) * lo32(k >> 32)
    return (low + (high << 32)) & MASK64


def manino_lanes():
    run = real.Output("hash-manino", "avx2")
    q = quad_of_nibbles([CODES.get(c, 0) for c in run.grid("board")])
    halves = {}  # the plane table qbb prints: bbP, lo32, hi32
    for t in map(str.split, run.text.split("\n")):
        if len(t) >= 3 and t[-3].startswith("bb") and t[-1].startswith("0x"):
            halves[int(t[-3][2:])] = (int(t[-2], 16), int(t[-1], 16))
    assert halves == {p: (b & 0xFFFF_FFFF, b >> 32) for p, b in enumerate(q)}
    _, A, B = manino_constants()
    low = [mul_64_by_32(b, a) for b, a in zip(q, A)]
    high_halves = [b >> 32 for b in q]  # vpsrlq 32
    high = [mul_64_by_32(h, k) for h, k in zip(high_halves, B)]
    products = [a ^ b for a, b in zip(low, high)]
    key = products[0] ^ products[1] ^ products[2] ^ products[3]  # state 0: nothing more
    shown = int(run.text.split("before")[1].split()[0], 16)
    assert key == shown, "the figure must match avx2's hash_manino"

    svg = Svg(W, "hash_manino in YMM registers: vpmuludq multiplies the low 32 bits of each lane")
    y = title(svg, "avx2 hash_manino: the halves of four planes times eight constants",
              "The start position, the chapter's picture. Lane p holds plane p: lanes 0 and 1 on "
              "the first line, 2 and 3 on the second, each as its high and low 32 bits in hex; "
              "grey: the half an instruction does not read.")
    x0, hw, gap = 30, 98, 30  # two lanes a line, so that the digits stay large on a phone

    def register(y, name, note, values, read_low=False):
        svg.text(8, y + 10, name, size=11.5, mono=True, weight="bold")
        if note and 18 + 7 * len(name) + 5.8 * len(note) < W - 8:
            svg.text(18 + 7.2 * len(name), y + 10, note, size=11, fill="#444")
        elif note:
            y += 15
            svg.text(8, y + 10, note, size=11, fill="#444")
        y += 16
        for lane, v in enumerate(values):
            x = x0 + (lane % 2) * (2 * hw + gap)
            yy = y + (lane // 2) * 26
            svg.text(x - 5, yy + 15, lane, size=10, anchor="end", weight="bold",
                     fill=PLANE[lane])
            for half, part in enumerate((v >> 32, v & 0xFFFF_FFFF)):
                faded = read_low and half == 0
                svg.rect(x + half * hw, yy, hw, 22, fill="#f4f4f4" if faded else LIGHT[lane],
                         stroke=GREY, sw=0.8)
                svg.text(x + half * hw + hw / 2, yy + 15.5, f"{part:08X}", size=12.5,
                         anchor="middle", mono=True, fill="#aaa" if faded else INK)
        return y + 60

    for lane in range(2):
        x = x0 + lane * (2 * hw + gap)
        svg.text(x + hw / 2, y + 12, "high 32 bits", size=10, anchor="middle", fill="#555")
        svg.text(x + 1.5 * hw, y + 12, "low 32 bits", size=10, anchor="middle", fill="#555")
    y += 8
    y = register(y + 18, "ymm0", "the quad (vmovdqa)", q, read_low=True)
    y = register(y, "[A]", "MANINO_A, lane by lane", A, read_low=True)
    y = register(y, "vpmuludq", "lo32(q) × lo32(A): the full 64-bit product",
                 [(b & 0xFFFF_FFFF) * (a & 0xFFFF_FFFF) for b, a in zip(q, A)])
    y = register(y, "vpmuludq, vpsllq 32, vpaddq", "+ lo32(q) × hi32(A), shifted up by 32: "
                 "lo32(q) × A modulo 2⁶⁴", low)
    y = register(y, "vpsrlq ymm0, 32", "the high halves move down", high_halves)
    y = register(y, "the same with [B]", None, high)
    y = register(y, "vpxor", "the eight products, two per lane", products)
    y = svg.para(10, y + 10, f"vextracti128, vpxor, vpshufd and vpxor fold the four lanes into "
                 f"0x{key:016X} (state 0, so state × C adds nothing): the key that qbb show "
                 "--routine hash-manino --backend avx2 prints.", size=11)
    return svg.render()


# ---- chapter 18: the NNUE accumulator in YMM registers -------------------------------------------

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
    assert nn.relative_name(before[e5]) == "our knight"
    assert nn.relative_name(before[f7]) == "their pawn"
    after = list(before)
    after[e5], after[f7] = 0, before[e5]
    acc = nn.refresh(before, net)
    moved, edits = nn.update(acc, before, after, net)
    assert moved == nn.refresh(after, net), "the update must equal a refresh"
    # avx2's order: the rows that leave, then the rows that arrive (`edit`'s `out`, then `into`)
    us_edits = sorted(edits[0], key=lambda e: e[0] != "-")
    them_edits = sorted(edits[1], key=lambda e: e[0] != "-")
    assert [e[0] for e in us_edits] == ["-", "-", "+"]

    # The forward pass in avx2's grouping: registers of sixteen lanes, us then them, each part
    # after the other, vpmaddwd pairs added into eight i32 lanes, then folded.
    registers = net.hidden // 16
    sums = [0] * 8
    for side in (0, 1):
        for r in range(registers):
            x = moved[side][16 * r:16 * r + 16]
            w = net.output[side][16 * r:16 * r + 16]
            v = [min(max(a, 0), nn.QA) for a in x]
            vw = [nn.wrap16(a * b) for a, b in zip(v, w)]
            madd = [nn.wrap32(v[2 * i] * vw[2 * i] + v[2 * i + 1] * vw[2 * i + 1])
                    for i in range(8)]
            sums = [nn.wrap32(a + b) for a, b in zip(sums, madd)]
    halves = [nn.wrap32(sums[i] + sums[i + 4]) for i in range(4)]
    total = nn.wrap32(nn.wrap32(halves[0] + halves[2]) + nn.wrap32(halves[1] + halves[3]))
    assert total == nn.forward_sum(moved, net), "avx2's order must give the scalar sum"
    cp = nn.finish(total, net)
    if weights == "the network built into the engine":  # the network qbb show computes with
        run = real.Output("nnue-update", "avx2")  # Kiwipete and e5f7, the command's defaults
        us = re.search(r"^ +us +(.*)$", run.text, re.M).group(1).split()
        mover = re.search(r"after the move, before the flip: (-?\d+) cp", run.text).group(1)
        assert [int(a) for a in us] == acc[0][:8] and int(mover) == cp, \
            "the figure must match avx2's nnue_refresh and nnue_update"

    parts = net.hidden // 128
    svg = Svg(W, "The NNUE accumulator in eight YMM registers: a move's rows, then the forward "
              "pass")
    y = title(svg, "avx2 NNUE: an accumulator part in eight YMM registers, a move's rows, the "
              "forward pass",
              f"Kiwipete, white to move, 1. Nxf7 (e5f7); the side to move's accumulator, us. "
              f"Weights: {weights}.")

    # 1. the first part of the accumulator as eight registers, a heat map of its 128 lanes
    words = {2: "two", 3: "three", 4: "four"}
    in_parts = (f", edited in {words.get(parts, parts)} parts of 128; in the first,"
                if parts > 1 else ";")
    y = svg.para(10, y + 2, f"1. nnue_refresh: acc.us = the bias + one row per piece, "
                 f"{net.hidden} lanes of i16{in_parts} ymm k holds lanes 16k to 16k + 15, lane "
                 "0 on the left.", size=12)
    x0, cw, ch = 70, 24, 12
    scale = max(1, max(abs(a) for a in acc[0][:128]))
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
    later = (f" The next part, lanes 128 to {net.hidden - 1}, goes through the same eight "
             "registers after it." if parts > 1 else "")
    y = svg.para(x0, y + 8, f"Blue below zero, orange above, full colour at {scale}. Framed: "
                 f"lanes 0 to 7, followed below.{later} acc.them is edited the same way.",
                 size=10.5, fill="#444")

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
    row_bytes = 2 * net.hidden
    y = svg.para(10, y + 10, f"[row f]: the network's row f, {row_bytes} bytes at W + "
                 f"{row_bytes} f; ymm k reads its bytes 32k to 32k + 31. The same three "
                 f"instructions edit ymm1 to ymm7, and every register of every part; acc.them, "
                 f"on the mirrored board, takes {them_rows}.", size=10.5, fill="#444")

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
    y = svg.para(10, y + 10, f"{2 * registers} registers' worth, {registers} of us against "
                 f"output row 0 and {registers} of them against row 1, vpaddd into one register "
                 f"of eight i32 sums; vextracti128, vpaddd, vpshufd, vpaddd, vpshufd, vpaddd and "
                 f"vmovd fold them to {total}. Network::finish: ({total} / 255 + "
                 f"{net.output_bias}) · 400 / (255 · 64) = {cp} cp for the side that moved. The "
                 f"scalar loop adds the {2 * net.hidden} products one at a time, in another "
                 f"order, and reaches the same {total}: wrapping i32 addition is associative.",
                 size=11)
    return svg.render()

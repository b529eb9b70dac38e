"""Chapters 9 to 12: fills, slider and knight attacks, checks and pins."""

from . import real
from .quad import (LETTERS, LINES, MASK64, NOT_A, NOT_H, bits_of, codes_of, generators_of,
                   ray, slow_fill, square_name)
from .svg import (BW, CELL, COLS, HIGHLIGHT, LIGHT, PLANE, W, board_row, mini_board, row_label,
                  step, Svg, title)


# ---- chapter 9: Kogge-Stone over four planes -----------------------------------------------------

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
    run = real.Output("occluded-fills", "avx2")  # the position of chapters 9 and 12
    assert [run.bitboard("W", 1 + p) for p in range(4)] == stages[-1], \
        "the figure must match avx2's occluded_fills"
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


# ---- chapter 10: eight directions in two registers -----------------------------------------------

UP_WRAP = [MASK64, NOT_A, NOT_A, NOT_H]
DOWN_WRAP = [MASK64, NOT_H, NOT_H, NOT_A]
STEP = [8, 1, 9, 7]


def rays_of(sliders, empty, left):
    """avx2's Rays: three doubling steps of a Kogge-Stone fill per lane, then one step more."""
    wrap = UP_WRAP if left else DOWN_WRAP
    steps = [[k * s for s in STEP] for k in (1, 2, 4)]
    pro = [empty & w for w in wrap]
    pros = [pro]
    for k in range(2):
        pros.append([p & q for p, q in zip(pros[-1], lanes_shift(pros[-1], steps[k], left))])
    fill = list(sliders)
    for pro, step in zip(pros, steps):
        fill = [f | (p & s) for f, p, s in zip(fill, pro, lanes_shift(fill, step, left))]
    return [s & w for s, w in zip(lanes_shift(fill, steps[0], left), wrap)]


def slider_lanes():
    run = real.Output("slider-attacks", "avx2")
    board = run.grid("board")
    letters = [c if c != "." else "" for c in board]
    orth, diag = run.bitboard("white orth"), run.bitboard("white diag")
    empty = run.bitboard("empty")
    sliders = [orth, orth, diag, diag]
    up, down = rays_of(sliders, empty, True), rays_of(sliders, empty, False)
    for lanes, steps in ((up, STEP), (down, [-s for s in STEP])):
        for s, r, n in zip(sliders, lanes, steps):
            wrap = NOT_A if n in (1, 9, -7) else NOT_H if n in (-1, -9, 7) else MASK64
            assert r == ray(s, empty, n, wrap), "avx2's rays must be the slow fill's"
    attacks = 0
    for r in up + down:
        attacks |= r
    assert attacks == run.bitboard("white attacks"), "the figure must match avx2's routine"

    svg = Svg(W, "slider_attacks in two YMM registers: eight directions, one lane each")
    y = title(svg, "avx2 slider_attacks: one register shifts left, one right, by a count per "
              "lane", "The chapter's position, the white sliders: orth = d5 and b1 (the rook "
              "and the queen), diag = b1. Lanes 0, 1 take orth, lanes 2, 3 diag.")
    kinds = [PLANE[3], PLANE[3], PLANE[1], PLANE[1]]
    lights = [LIGHT[3], LIGHT[3], LIGHT[1], LIGHT[1]]

    def fills(lanes):
        def fill_of(lane):
            def f(s):
                if (sliders[lane] >> s) & 1:
                    return kinds[lane]
                if (lanes[lane] >> s) & 1:
                    return HIGHLIGHT if not (empty >> s) & 1 else lights[lane]
                return "#fff"
            return f
        return [fill_of(lane) for lane in range(4)]

    y += 14
    y = board_row(svg, y, "vpsllvq", ["counts", "8, 1, 9, 7:", "north, east,", "NE, NW"],
                  ["N: << 8", "E: << 1", "NE: << 9", "NW: << 7"], fills(up), letters)
    y = board_row(svg, y + 6, "vpsrlvq", ["the same", "counts: south,", "west, SW, SE"],
                  ["S: >> 8", "W: >> 1", "SW: >> 9", "SE: >> 7"], fills(down), letters)
    row_label(svg, y + 6, "vpor", ["the eight", "lanes folded"], mono=True)
    mini_board(svg, COLS[0], y + 6, CELL,
               lambda s: HIGHLIGHT if ((attacks & ~empty) >> s) & 1 else
               LIGHT[0] if (attacks >> s) & 1 else "#fff", letters)
    svg.para(COLS[1], y + 20, "Each lane runs the fill of chapter 9 in its own direction: the "
             "three doubling steps and one step more shift by 1, 2, 4 and 1 times the lane's "
             "count, and the lane's wrap mask cuts what crosses the board's edge. Yellow: the "
             "first piece a ray meets, attacked whatever its colour. The union is the white "
             "attacks of qbb show --routine slider-attacks --backend avx2.", size=11,
             width=W - COLS[1] - 8)
    return svg.render()


# ---- chapter 11: eight knight jumps in one register ----------------------------------------------

NOT_AB, NOT_GH = 0xFCFC_FCFC_FCFC_FCFC, 0x3F3F_3F3F_3F3F_3F3F
JUMPS = [10, 17, 15, 6]
JUMP_MASKS = {True: [NOT_AB, NOT_A, NOT_H, NOT_GH], False: [NOT_GH, NOT_H, NOT_A, NOT_AB]}
FILE_NAMES = {NOT_AB: "not a, b", NOT_A: "not a", NOT_H: "not h", NOT_GH: "not g, h"}


def knight_lanes():
    run = real.Output("knight-attacks", "avx2")
    letters = [c if c != "." else "" for c in run.grid("board")]
    (_, black_grid), (_, black_attacks) = run.blocks[1][2], run.blocks[1][3]
    knights = sum(1 << s for s, c in enumerate(black_grid) if c == "x")
    shifted = {up: lanes_shift([knights] * 4, JUMPS, up) for up in (True, False)}
    kept = {up: [b & m for b, m in zip(shifted[up], JUMP_MASKS[up])] for up in (True, False)}
    attacks = 0
    for lanes in kept.values():
        for b in lanes:
            attacks |= b
    assert attacks == sum(1 << s for s, c in enumerate(black_attacks) if c == "x"), \
        "the figure must match avx2's knight_attacks"
    cut = [square_name(s) for up in (True, False) for b, k in zip(shifted[up], kept[up])
           for s in range(64) if (b & ~k) >> s & 1]

    svg = Svg(W, "knight_attacks in one YMM register: four jumps up, four down, a wrap mask each")
    y = title(svg, "avx2 knight_attacks: a shift count and a wrap mask per lane",
               "The black knights of the chapter's picture, b6 and f6, broadcast to the four "
               f"lanes; b6 is near the edge, so {len(cut)} of its jumps wrap.")

    def fills(up):
        def fill_of(lane):
            def f(s):
                if (knights >> s) & 1:
                    return PLANE[2]
                if (kept[up][lane] >> s) & 1:
                    return LIGHT[2]
                if (shifted[up][lane] >> s) & 1:
                    return PLANE[3]
                return "#fff" if (JUMP_MASKS[up][lane] >> s) & 1 else "#eee"
            return f
        return [fill_of(lane) for lane in range(4)]

    heads = lambda op, up: [f"{op} {n}, {FILE_NAMES[m]}" for n, m in zip(JUMPS, JUMP_MASKS[up])]
    y = board_row(svg, y + 14, "vpsllvq", ["counts 10,", "17, 15, 6;", "vpand the", "masks"],
                  heads("<<", True), fills(True), letters)
    y = board_row(svg, y + 6, "vpsrlvq", ["the same", "counts;", "vpand the", "masks"],
                  heads(">>", False), fills(False), letters)
    row_label(svg, y + 6, "vpor, fold", ["the eight", "lanes into", "one set"], mono=True)
    mini_board(svg, COLS[0], y + 6, CELL,
               lambda s: PLANE[2] if (knights >> s) & 1 else
               LIGHT[2] if (attacks >> s) & 1 else "#fff", letters)
    svg.para(COLS[1], y + 20, f"Grey: the files a lane's mask clears. Red: a jump that wrapped "
             f"round the board's edge ({', '.join(cut)}), cleared by its lane's mask. The union, "
             f"{bin(attacks).count('1')} squares, is what qbb show --routine knight-attacks "
             "--backend avx2 prints for the black knights.", size=11, width=W - COLS[1] - 8)
    return svg.render()


# ---- chapter 12: Isenberg's coding in four lanes -------------------------------------------------

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
    run = real.Output("checks-and-pins", "sse2")  # the same position
    assert run.bitboard("checkers", 1) == checkers[0] and \
        run.bitboard("check_mask", 1) == between[0] | checkers[0] and \
        run.bitboard("discoverers", 2) == between[1] & white, \
        "the figure must match sse2's checks_and_pins"

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

    y = board_row(y, "the quad", ["Isenberg's bb1,", "bb2 and bb0,", "bb3"], [0, 0, 0, 0],
                  lane_names)
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


def lanes_shift(bbs, counts, left):
    return [((b << n) & MASK64) if left else b >> n for b, n in zip(bbs, counts)]

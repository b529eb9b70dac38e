"""Chapters 9 to 12: fills, slider and knight attacks, checks and pins."""

from .quad import *
from .svg import *


# ---- 5. Kogge-Stone over four planes (chapter 9) ---------------------------------------------------

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

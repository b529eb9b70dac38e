"""The quad as the lab defines it, and the plain bitboard steps the figures share."""

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


def ray(gen, empty, step, wrap):
    """The ray attacks: the occluded fill one step further (blockers included)."""
    fill = slow_fill(gen, empty, step, wrap)
    return ((fill << step if step > 0 else fill >> -step) & MASK64) & wrap



def square_name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def quad_of_nibbles(codes):
    """The four planes of 64 nibbles, a1 = 0 .. h8 = 63."""
    return [sum(((codes[s] >> p) & 1) << s for s in range(64)) for p in range(4)]

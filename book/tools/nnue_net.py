"""The engine's NNUE in Python, for the book's figure and generated pages: the network file as
`qbb::nnue::Network::from_bytes` reads it, the tests' random network, and the scalar reference's
refresh, update and forward pass (crates/qbb/src/backend/scalar/nnue.rs), lane by lane and with
the same wrapping i16/i32 arithmetic. Nothing here is measured; every number follows from a file
of the repository or from a fixed seed.
"""

import struct
from pathlib import Path

from lane_diagrams.quad import codes_of

REPO = Path(__file__).resolve().parents[2]
EMBEDDED = REPO / "crates" / "qbb-engine" / "nets" / "default.nnue"

# crates/qbb/src/nnue.rs (HIDDEN: the lab's width) and crates/qbb-engine/src/eval/nnue.rs
INPUTS, HIDDEN, QA, QB, SCALE = 768, 128, 255, 64, 400
ENGINE_HIDDEN = 256
MAGIC, VERSION = b"QBBNNUE\0", 1
HEADER_BYTES = len(MAGIC) + 6 * 4
MASK64 = (1 << 64) - 1


def payload_bytes(hidden):
    return 2 * hidden * (INPUTS + 3) + 4


def wrap16(x):
    return ((x + 0x8000) & 0xFFFF) - 0x8000


def wrap32(x):
    return ((x + 0x8000_0000) & 0xFFFF_FFFF) - 0x8000_0000


def trunc_div(a, b):
    """Integer division rounding towards zero, as Rust's `/` on i64."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def fnv1a(data):
    h = 0xCBF2_9CE4_8422_2325
    for byte in data:
        h = ((h ^ byte) * 0x0000_0100_0000_01B3) & MASK64
    return h


class Network:
    def __init__(self, rows, bias, output, output_bias, source):
        self.rows = rows            # INPUTS rows of HIDDEN i16: the feature transformer
        self.bias = bias            # HIDDEN i16
        self.output = output        # two rows of HIDDEN i16: us, them
        self.output_bias = output_bias
        self.source = source        # how the book names it

    @property
    def hidden(self):
        return len(self.bias)

    def weights(self):
        """Every weight and bias, in file order."""
        out = [v for row in self.rows for v in row] + list(self.bias)
        return out + [v for row in self.output for v in row] + [self.output_bias]


def read_network(path=EMBEDDED, hidden=ENGINE_HIDDEN):
    """A network file of width `hidden`, checked as the engine checks it (magic, version, shape,
    length, checksum); returns the network and the file's size and checksum."""
    data = Path(path).read_bytes()
    if data[:len(MAGIC)] != MAGIC:
        raise SystemExit(f"nnue: {path} is not a qbb network file")
    words = struct.unpack_from("<6I", data, len(MAGIC))
    if words != (VERSION, INPUTS, hidden, QA, QB, SCALE):
        raise SystemExit(f"nnue: {path}: version and shape {words}, the book knows "
                         f"{(VERSION, INPUTS, hidden, QA, QB, SCALE)}")
    payload = payload_bytes(hidden)
    if len(data) != HEADER_BYTES + payload + 8:
        raise SystemExit(f"nnue: {path}: {len(data)} bytes, a network file has "
                         f"{HEADER_BYTES + payload + 8}")
    stored = struct.unpack_from("<Q", data, len(data) - 8)[0]
    if fnv1a(data[:-8]) != stored:
        raise SystemExit(f"nnue: {path}: the checksum does not match")
    values = struct.unpack_from(f"<{hidden * (INPUTS + 3)}h", data, HEADER_BYTES)
    rows = [list(values[i * hidden:(i + 1) * hidden]) for i in range(INPUTS + 3)]
    output_bias = struct.unpack_from("<i", data, HEADER_BYTES + payload - 4)[0]
    rel = Path(path).resolve().relative_to(REPO)
    net = Network(rows[:INPUTS], rows[INPUTS], rows[INPUTS + 1:], output_bias, f"`{rel}`")
    return net, len(data), stored


class SplitMix64:
    """crates/qbb/src/conformance.rs and hash.rs."""

    def __init__(self, state):
        self.state = state

    def next_u64(self):
        self.state = (self.state + 0x9E37_79B9_7F4A_7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n):
        return (self.next_u64() * n) >> 64


def tame_network():
    """The conformance kit's first sample network at the lab's width (`Sample for &'static
    Network<N>`): every weight `below(256) - 128` from SplitMix64(0x4E4E_5545), filled in
    `Network::random`'s order."""
    rng = SplitMix64(0x4E4E_5545)
    weight = lambda: rng.below(256) - 128
    rows = [[weight() for _ in range(HIDDEN)] for _ in range(INPUTS)]
    bias = [weight() for _ in range(HIDDEN)]
    output = [[weight() for _ in range(HIDDEN)] for _ in range(2)]
    output_bias = weight() * QB
    return Network(rows, bias, output, output_bias,
                   "the conformance kit's random network (SplitMix64 seed 0x4E4E5545, weights "
                   "from -128 to 127)")


# ---- the position, in the engine's relative reading ----------------------------------------------

TYPES = ["pawn", "knight", "bishop", "rook", "queen", "king"]


def square(name):
    return (int(name[1]) - 1) * 8 + "abcdefgh".index(name[0])


def square_name(sq):
    return "abcdefgh"[sq % 8] + str(sq // 8 + 1)


def relative_codes(placement, white_to_move=True):
    """The nibble of every square of the relative board (`Quad::to_relative`): the side to move's
    pieces carry the colour bit, and the board is mirrored when black is to move."""
    codes = codes_of(placement)
    if white_to_move:
        return [c ^ 1 if c > 1 else c for c in codes]
    return [codes[sq ^ 56] for sq in range(64)]


def relative_name(code):
    kind = code >> 1
    if kind == 0:
        return "empty"
    return f"{'our' if code & 1 else 'their'} {TYPES[kind - 1]}"


def feature(code, sq, perspective):
    """`qbb::nnue::feature`: perspective 0 is `us`, 1 is `them` (the board mirrored)."""
    kind = (code >> 1) & 7
    if kind in (0, 7):
        return None
    colour = code & 1
    side, where = (1 - colour, sq) if perspective == 0 else (colour, sq ^ 56)
    return (side * 6 + kind - 1) * 64 + where


def add(lanes, row):
    return [wrap16(a + r) for a, r in zip(lanes, row)]


def sub(lanes, row):
    return [wrap16(a - r) for a, r in zip(lanes, row)]


def refresh(codes, net):
    """Both accumulators, [us, them]: the bias plus one row per piece."""
    acc = [list(net.bias), list(net.bias)]
    for sq, code in enumerate(codes):
        for p in (0, 1):
            f = feature(code, sq, p)
            if f is not None:
                acc[p] = add(acc[p], net.rows[f])
    return acc


def changes(before, after):
    """The squares a move changes, in square order, with the codes before and after."""
    return [(sq, b, a) for sq, (b, a) in enumerate(zip(before, after)) if b != a]


def update(acc, before, after, net):
    """The scalar reference's `nnue_update`: per change, the old piece's row out, the new one's in;
    returns the accumulators and, per perspective, the edits as (sign, feature, square, code)."""
    acc = [list(acc[0]), list(acc[1])]
    edits = ([], [])
    for sq, old, new in changes(before, after):
        for p in (0, 1):
            f = feature(old, sq, p)
            if f is not None:
                acc[p] = sub(acc[p], net.rows[f])
                edits[p].append(("-", f, sq, old))
            f = feature(new, sq, p)
            if f is not None:
                acc[p] = add(acc[p], net.rows[f])
                edits[p].append(("+", f, sq, new))
    return acc, edits


def forward_sum(acc, net):
    """The scalar reference's sum: `v * (v * w)` lane by lane, the inner product kept to 16 bits,
    the sum in i32, wrapping."""
    total = 0
    for lanes, weights in zip(acc, net.output):
        for x, w in zip(lanes, weights):
            v = min(max(x, 0), QA)
            total = wrap32(total + v * wrap16(v * w))
    return total


def finish(total, net):
    """`Network::finish`: the raw sum (scale QA * QA * QB) to centipawns."""
    value = (trunc_div(total, QA) + net.output_bias) * SCALE
    return wrap32(trunc_div(value, QA * QB))


def evaluate(acc, net):
    return finish(forward_sum(acc, net), net)

"""What the book knows of the lab's catalogue: the backends with sources, in the book's order; the
routine groups, one per anchor and chapter, with their catalogue rows and probes; and the
implementations the measured tables show (the backends and the scalar-class code built again for
x86-64-v3), in their order and with their labels.
"""

# The backends in the order the book presents them (scalar first: the reference), each with its
# own sources.
BACKENDS = ["scalar", "swar", "sse2", "avx2", "avx512", "portable"]


# One group per anchor: the anchor name used in every backend's source, the catalogue row, and the
# probe functions (= Backend methods) it covers. Routine ids are the probe names with '-' for '_'.
GROUPS = [
    ("piece_at", 1, ["piece_at"]),
    ("set_piece", 2, ["set_piece"]),
    ("piece_sets", 3, ["piece_sets"]),
    ("hex_sets", 4, ["hex_sets"]),
    ("to_mailbox", 5, ["to_mailbox"]),
    ("from_mailbox", 6, ["from_mailbox"]),
    ("move_delta", 7, ["move_delta"]),
    ("flip", 8, ["flip"]),
    ("occluded_fills", 9, ["occluded_fills"]),
    ("slider_attacks", 10, ["slider_attacks"]),
    ("knight_attacks", 11, ["knight_attacks"]),
    ("checks_and_pins", 12, ["checks_and_pins"]),
    ("weighted_popcount", 13, ["weighted_popcount"]),
    ("nibble_arith", 14, ["nibble_add", "nibble_sub", "nibble_avg"]),
    ("nibble_board", 15, ["to_nibble_board", "from_nibble_board"]),
    ("classical", 16, ["to_classical", "from_classical"]),
    ("dense", 16, ["to_dense", "from_dense"]),
    ("hash", 17, ["hash_manino", "hash_zobrist"]),
    ("nnue", 18, ["nnue_refresh", "nnue_update", "nnue_evaluate"]),
]


def routine_id(probe):
    return probe.replace("_", "-")


# The implementations the measured tables show, in this order: the scalar reference and SWAR, the
# same two built for x86-64-v3 (the baseline candidates), then the SIMD backends. BACKENDS above
# are the backends with sources; scalar-v3 and swar-v3 are scalar's and swar's code compiled again.
IMPLEMENTATIONS = ["scalar", "swar", "scalar-v3", "swar-v3", "sse2", "avx2", "avx512", "portable"]
SIMD = ["sse2", "avx2", "avx512", "portable"]


# The x86-64 level a backend's code is built for, where its name does not say it: the `sse2`
# backend needs SSSE3, SSE4.1/4.2 and POPCNT as well (x86-64-v2), as `qbb compare` labels it.
ISA_LEVEL = {"sse2": "x86-64-v2", "avx2": "x86-64-v3", "avx512": "x86-64-v4+"}


def label(implementation):
    """An implementation's name for a table header or row: with its x86-64 level if it hides it."""
    level = ISA_LEVEL.get(implementation)
    return f"{implementation} ({level})" if level else implementation


def ordered(names):
    """Implementation names in the tables' order; names the book does not know go last."""
    names = list(dict.fromkeys(names))
    return [b for b in IMPLEMENTATIONS if b in names] + [b for b in names if b not in IMPLEMENTATIONS]

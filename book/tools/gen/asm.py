"""Generates asm/: every probe's machine code per routine group, with its instruction counts (and
those of the functions it calls) per backend, the overview of the counts across every routine,
counts.json, and the inlining wall: the same AVX2 routines compiled inside the AVX2 region and
called across it.
"""

import json
import sys

from .catalogue import GROUPS, routine_id
from .code import load_support
from .inputs import HEADER, OUT, write
from .listings import find_function, listing_of, parse_functions


# The probe modules whose machine code the book shows, with their column titles. The portable
# backend appears three times: compiled for the x86-64 baseline, and inside the AVX2 and AVX-512
# regions in which it runs on CPUs that have them.
PROBES = [
    ("scalar", "scalar"),
    ("swar", "swar"),
    ("sse2", "sse2"),
    ("avx2", "avx2"),
    ("avx512", "avx512"),
    ("portable", "portable (baseline)"),
    ("portable_avx2", "portable (AVX2)"),
    ("portable_avx512", "portable (AVX-512)"),
]


def probe_backend(module):
    """The backend whose routines a probe module compiles."""
    return module.split("_")[0]


def listing_block(title, count, extra, blocks, inherited, language="x86asm"):
    summary = f"{title}, {count} instructions"
    if extra:
        summary += f" + {extra} in the functions it calls"
    if inherited:
        summary += " (inherited)"
    body = "\n\n".join(f"{n}:\n" + "\n".join(lines) for n, lines in blocks)
    return f"<details>\n<summary>{summary}</summary>\n\n```{language}\n{body}\n```\n\n</details>\n\n"


NOT_LISTED = (
    "*The listings this page was generated from hold no probe of {probes}. `book/generate.sh` "
    "makes the listings from the current sources (`cargo asm -p qbb --features asm-probes`), and "
    "this section then shows every backend's machine code for them, with its counts.*\n"
)


def compiler_of(listing):
    """The compiler a listing names on its first line (`# rustc ...`), or None."""
    with open(listing) as f:
        first = f.readline().strip()
    return first[2:] if first.startswith("# rustc") else None


def write_asm(listings, support_json):
    """asm/: the probes' machine code and counts, per routine group and over all of them."""
    functions = {}
    for listing in listings:
        # The first listing's function wins where two listings have it (generate.sh puts the
        # compiler that timed the book's machine first).
        for name, lines in parse_functions(listing).items():
            functions.setdefault(name, lines)
    compiler = compiler_of(listings[0]) if listings else None
    support = load_support(support_json) if support_json else {}
    out = OUT / "asm"
    summary = {}
    header = "| routine | " + " | ".join(title for _, title in PROBES) + " |\n"
    header += "| --- |" + " ---: |" * len(PROBES) + "\n"
    for anchor, _row, probes in GROUPS:
        if not any(find_function(functions, f"qbb::probes::{module}::{probe}")
                   for module, _ in PROBES for probe in probes):
            print(f"generate: no probe of {anchor} in the listings", file=sys.stderr)
            write(out / f"{anchor}.md", HEADER.format(source="`cargo asm` on the asm-probes of crate qbb")
                  + NOT_LISTED.format(probes=", ".join(f"`{p}`" for p in probes)))
            continue
        table = header
        details = ""
        for probe in probes:
            cells = []
            for module, title in PROBES:
                name = find_function(functions, f"qbb::probes::{module}::{probe}")
                if name is None:
                    cells.append("not built")
                    continue
                count, extra, blocks = listing_of(name, functions)
                summary.setdefault(module, {})[probe] = {"instructions": count, "in_callees": extra}
                state = (support.get(probe_backend(module)) or {}).get(routine_id(probe), "native")
                inherited = state != "native"
                cells.append(
                    f"{count}" + (f" + {extra}" if extra else "") + (" (inherited)" if inherited else "")
                )
                details += listing_block(
                    f"{title}: <code>{probe}</code>", count, extra, blocks, inherited
                )
            table += f"| `{probe}` | " + " | ".join(cells) + " |\n"
        text = HEADER.format(source="`cargo asm` on the asm-probes of crate qbb")
        text += f"Compiled by {compiler}.\n\n" if compiler else ""
        text += table + "\n" + details
        write(out / f"{anchor}.md", text)
    write(out / "counts.json", json.dumps(summary, indent=1, sort_keys=True) + "\n")

    overview = HEADER.format(source="`cargo asm` on the asm-probes of crate qbb") + header
    for _anchor, _row, probes in GROUPS:
        for probe in probes:
            cells = []
            for module, _title in PROBES:
                entry = summary.get(module, {}).get(probe)
                if entry is None:
                    cells.append("not built")
                else:
                    n, extra = entry["instructions"], entry["in_callees"]
                    cells.append(f"{n}" + (f" + {extra}" if extra else ""))
            overview += f"| `{probe}` | " + " | ".join(cells) + " |\n"
    write(out / "overview.md", overview)

    # The inlining wall: the same AVX2 routines called from code compiled without AVX2.
    wall = HEADER.format(source="`cargo asm` on the asm-probes of crate qbb")
    for routine in ("piece_sets", "flip"):
        for module, title in (("avx2", "inside the AVX2 region"), ("wall", "across the wall")):
            probe = routine if module == "avx2" else f"avx2_{routine}"
            name = find_function(functions, f"qbb::probes::{module}::{probe}")
            if name is None:
                raise SystemExit(f"generate: no probe qbb::probes::{module}::{probe}")
            count, extra, blocks = listing_of(name, functions)
            wall += listing_block(f"<code>{routine}</code> {title}", count, extra, blocks, False)
    write(out / "wall.md", wall)

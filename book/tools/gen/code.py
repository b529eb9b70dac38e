"""Generates code/: one page per routine group, each backend's implementation included from its
sources by anchor, with what `qbb backends --json` says of the routines it inherits from another
backend instead of writing them.
"""

import re
import sys
from pathlib import Path

from .catalogue import BACKENDS, GROUPS, routine_id
from .formatting import and_list
from .inputs import HEADER, OUT, REPO, read_json, write


# Anchors around helpers that chapters include themselves (not one of a routine's anchors).
INCLUDED_BY_CHAPTERS = {"occluded_fill", "ray_attacks", "token", "kogge_stone"}


def backend_sources(backend):
    """The source files of a backend: `backend/<name>.rs` or every file of `backend/<name>/`."""
    root = REPO / "crates" / "qbb" / "src" / "backend"
    single = root / f"{backend}.rs"
    return [single] if single.exists() else sorted((root / backend).glob("**/*.rs"))


def anchors_in(path):
    if not path.exists():
        return set()
    text = path.read_text()
    starts = set(re.findall(r"ANCHOR:\s*(\w+)\s*$", text, re.M))
    ends = set(re.findall(r"ANCHOR_END:\s*(\w+)\s*$", text, re.M))
    return starts & ends


def anchor_file(backend, anchor):
    """The file of `backend` that holds `anchor`, if any."""
    found = [f for f in backend_sources(backend) if anchor in anchors_in(f)]
    if len(found) > 1:
        raise SystemExit(f"generate: anchor {anchor} appears in several files of {backend}")
    return found[0] if found else None


def load_support(backends_json):
    """backend -> routine id -> "native" or "inherited: from X (why)"."""
    data = read_json(Path(backends_json))
    return {b["name"]: b.get("routines", {}) for b in data}


def support_line(backend, probes, support):
    """What the backend matrix says about the routines of one group, in one sentence."""
    routines = support.get(backend) or {}
    states = {p: routines.get(routine_id(p)) for p in probes}
    if all(s == "native" for s in states.values()):
        return None
    # Routines inherited from the same backend for the same reason share one sentence.
    reasons = {}
    for probe, state in states.items():
        if state is None:
            raise SystemExit(f"generate: `qbb backends` says nothing about {backend} {probe}")
        if state == "native":
            continue
        m = re.fullmatch(r"inherited: from (\w+) \((.*)\)", state)
        if not m:
            raise SystemExit(f"generate: cannot read `{state}` ({backend} {probe})")
        reasons.setdefault((m.group(1), m.group(2)), []).append(f"`{probe}`")
    parts = []
    for (source, why), probes in reasons.items():
        verb = "is" if len(probes) == 1 else "are"
        parts.append(f"{and_list(probes)} {verb} inherited from `{source}`: {why}.")
    return " ".join(parts)


def write_code(backends_json):
    """code/: one page per routine group."""
    support = load_support(backends_json)
    out = OUT / "code"
    for anchor, _row, probes in GROUPS:
        text = HEADER.format(source="`qbb backends --json` and the anchors in the backend sources")
        for backend in BACKENDS[1:]:
            source = anchor_file(backend, anchor)
            has_anchor = source is not None
            if backend not in support or not support[backend]:
                # Not built into the stable lab (portable needs nightly): the source decides.
                line = None if has_anchor else "Not built into the stable lab, and no anchor in its sources."
            else:
                line = support_line(backend, probes, support)
            text += f"### {backend}\n\n"
            if line:
                text += f"{line}\n\n"
            if has_anchor:
                rel = Path("../../../..") / source.relative_to(REPO)
                text += f"```rust\n{{{{#include {rel}:{anchor}}}}}\n```\n\n"
            elif not line:
                raise SystemExit(
                    f"generate: {backend} writes {anchor} natively but none of its sources has "
                    f"`// ANCHOR: {anchor}` around it"
                )
        write(out / f"{anchor}.md", text)
    # Anchors around helpers (not routines) are included by the chapters themselves; list them so
    # that a new one is not forgotten.
    routine_anchors = {anchor for anchor, _, _ in GROUPS} | INCLUDED_BY_CHAPTERS
    for backend in BACKENDS:
        for f in backend_sources(backend):
            for extra in sorted(anchors_in(f) - routine_anchors):
                print(f"generate: helper anchor {extra} in {f.relative_to(REPO)}", file=sys.stderr)

"""Reads the machine-code listings of `cargo asm` (the asm-probes of crate qbb): the functions of a
listing by name, their instructions, the labels something jumps to, the functions a probe calls,
and the names cleaned of the crate disambiguators, symbol hashes and generic arguments that
`--full-name` keeps. The asm, mca and model pages all read their probes through it.
"""

import re
from pathlib import Path


FUNCTION = re.compile(r"^([^\s.].*):$")
# x86-64's call and jmp, AArch64's bl and b (a tail call); a jump to a local label is not a call.
CALL = re.compile(r"^\s+(?:call|jmp|bl|b)\s+(?!qword|\.L)(.+?)\s*$")
NOT_EXPANDED = ("panicking", "fmt::", "unwrap_failed", "expect_failed", "slice_index", "alloc::")


def without_generic_args(text):
    """Drops `::<...>` generic argument lists (the nightly toolchain's symbols spell them out)."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if depth == 0 and text.startswith("::<", i):
            depth, i = 1, i + 3
            continue
        if depth > 0:
            depth += {"<": 1, ">": -1}.get(text[i], 0)
            i += 1
            continue
        out.append(text[i])
        i += 1
    return "".join(out)


def clean_name(name):
    """Drops the crate disambiguators and symbol hashes that --full-name keeps."""
    name = re.sub(r"\[[0-9a-f]{16}\]", "", name)
    return re.sub(r"::h[0-9a-f]{16}$", "", name)


def parse_functions(listing):
    """name -> list of lines of the function (labels and instructions)."""
    functions = {}
    current = None
    for line in Path(listing).read_text().splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(1)
            functions[current] = []
        elif line.startswith(".Lfunc_end"):
            current = None
        elif current is not None and line.strip():
            functions[current].append(line.rstrip())
    return functions


def is_instruction(line):
    s = line.strip()
    return line.startswith(("\t", " ")) and not s.startswith(".") and not s.endswith(":")


def tidy(lines):
    """Keeps instructions and the labels something jumps to; cleans the names."""
    body = "\n".join(lines)
    out = []
    for line in lines:
        s = line.strip()
        if s.endswith(":") and s.startswith(".L"):
            label = s[:-1]
            if not re.search(re.escape(label) + r"(?![\w])", body.replace(s, "", 1)):
                continue
            out.append(label + ":")
        elif is_instruction(line):
            out.append("    " + clean_name_in(s))
    return out


def clean_name_in(text):
    text = re.sub(r"\[[0-9a-f]{16}\]", "", text)
    return without_generic_args(re.sub(r"::h[0-9a-f]{16}", "", text))


def callees(lines, functions):
    found = []
    for line in lines:
        m = CALL.match(line)
        if m and m.group(1) in functions and m.group(1) not in found:
            found.append(m.group(1))
    return found


def listing_of(probe_name, functions):
    """The probe's lines and those of the functions it calls (two levels), and the counts."""
    own = functions[probe_name]
    count = sum(1 for line in own if is_instruction(line))
    blocks = [(without_generic_args(clean_name(probe_name)), tidy(own))]
    extra = 0
    seen = {probe_name}
    frontier = [probe_name]
    for _depth in range(2):
        nxt = []
        for f in frontier:
            for callee in callees(functions[f], functions):
                if callee in seen or any(k in callee for k in NOT_EXPANDED):
                    continue
                seen.add(callee)
                nxt.append(callee)
                body = functions[callee]
                extra += sum(1 for line in body if is_instruction(line))
                blocks.append((without_generic_args(clean_name(callee)), tidy(body)))
        frontier = nxt
    return count, extra, blocks


def find_function(functions, name):
    matches = [f for f in functions if clean_name(f) == name]
    return matches[0] if matches else None

#!/usr/bin/env python3
"""An mdBook preprocessor that removes the common indentation of every fenced code block.

`{{#include file.rs:anchor}}` copies the anchor's lines as they stand in the source, so a method
keeps the four spaces of its `impl` block while a free function sits flush left. This runs after
mdBook's own `links` preprocessor (book.toml), when the includes are expanded, and shifts each
code block left until its least indented line starts in the block's first column. Relative
indentation inside the block is kept; a block that already starts flush left is not changed.

mdBook calls it twice: `dedent.py supports <renderer>` (exit 0: every renderer is fine), and
`dedent.py` with `[context, book]` as JSON on standard input, the book to write back on standard
output. The book is walked generically, so that the shape of the JSON (which mdBook 0.4 and 0.5
spell differently) does not matter: every object with a string `content` and a list `sub_items`
is a chapter.
"""

import json
import re
import sys

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")


def dedent_blocks(markdown):
    lines = markdown.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or (m.group(2)[0] == "`" and "`" in m.group(3)):
            out.append(lines[i])
            i += 1
            continue
        indent, fence = len(m.group(1)), m.group(2)
        closing = re.compile(r"^ {0,3}" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$")
        end = i + 1
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        body = lines[i + 1:end]
        # Only spaces count; a block with a tab-indented line is left as it is.
        widths = [len(line) - len(line.lstrip(" ")) for line in body if line.strip()]
        shift = min(widths, default=0) - indent
        if shift > 0 and not any(line.startswith("\t") for line in body):
            body = [line[:indent] + line[indent + shift:] if line.strip() else "" for line in body]
        out.append(lines[i])
        out.extend(body)
        if end < len(lines):
            out.append(lines[end])
        i = end + 1
    return "\n".join(out)


def walk(node):
    if isinstance(node, dict):
        if isinstance(node.get("content"), str) and isinstance(node.get("sub_items"), list):
            node["content"] = dedent_blocks(node["content"])
        for value in node.values():
            walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)


def main(argv):
    if len(argv) > 1 and argv[1] == "supports":
        return 0
    _context, book = json.load(sys.stdin)
    walk(book)
    json.dump(book, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""Checks that the built book says a thing once: no sentence of twenty words or more appears on
more than three pages.

A sentence repeated in every chapter (a provenance note, a caveat) belongs on one page that the
chapters link to. The check reads the built HTML (what a reader sees, the included generated
files too), takes each page's main text outside code blocks, splits it into sentences and
counts the pages each long sentence appears on.

Usage: said_once.py BUILT_BOOK_DIR      (prints one line per sentence; exits 1 if any)
"""

import html
import re
import sys
from collections import defaultdict
from pathlib import Path

LONG = 20
MOST_PAGES = 3
SKIPPED = {"print.html", "404.html", "toc.html"}


def page_text(markup):
    main = re.search(r"<main>(.*)</main>", markup, re.S)
    if not main:
        return ""
    text = re.sub(r"<pre.*?</pre>", " ", main.group(1), flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    return re.sub(r"\s+", " ", html.unescape(text))


def sentences(text):
    for sentence in re.split(r"(?<=[.!?:])\s+(?=[A-Z(`*“])", text):
        sentence = sentence.strip()
        if len(sentence.split()) >= LONG:
            yield sentence


def repeated(book):
    pages_of = defaultdict(set)
    for page in sorted(book.rglob("*.html")):
        if page.name in SKIPPED:
            continue
        for sentence in sentences(page_text(page.read_text())):
            pages_of[sentence].add(page.relative_to(book).as_posix())
    return {s: sorted(p) for s, p in pages_of.items() if len(p) > MOST_PAGES}


def main(argv):
    if len(argv) != 2:
        print("usage: said_once.py BUILT_BOOK_DIR", file=sys.stderr)
        return 2
    found = repeated(Path(argv[1]))
    for sentence, pages in sorted(found.items(), key=lambda item: -len(item[1])):
        shown = sentence if len(sentence) < 100 else sentence[:97] + "..."
        print(f"book: on {len(pages)} pages ({', '.join(pages[:3])}, ...): \"{shown}\"",
              file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

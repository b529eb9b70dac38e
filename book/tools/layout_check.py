"""Loads the built book in headless Chromium and reports what does not fit.

Two rules, one line per breach:
  - at 1280 px, no table of a technique chapter is wider than the text column (`main`): a table
    that is, scrolls sideways inside its box and hides its right-hand columns;
  - at 420 px, no page is wider than the window and nothing reaches past its right edge outside a
    scrolling box: a wide table may scroll inside its own box there, the page itself never does.
Folded `<details>` blocks are opened first, so that a table folded away must fit too.

Usage (book/layout-check.sh sets it up and calls it):
  python3 layout_check.py BOOK_DIR [--report-only] [--screenshots DIR PAGE...]
BOOK_DIR is mdBook's output (book/book/). The exit status is 1 when anything does not fit, unless
--report-only. --screenshots also saves each PAGE (e.g. techniques/05-to-mailbox.html) as a whole-
page PNG at both widths, folded blocks folded, named PAGE-WIDTH.png in DIR.
"""

import argparse
import functools
import http.server
import pathlib
import sys
import tempfile
import threading

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

WIDE = 1280
NARROW = 420
HEIGHT = 900
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# What sticks out by less than this is rounding of sub-pixel layout, not a table that scrolls.
SLACK_PX = 1

OPEN_DETAILS = "document.querySelectorAll('main details').forEach(d => { d.open = true; });"

# Every table of `main` wider than `main`: its first header cells, its width, the column's.
WIDE_TABLES = """
const column = document.querySelector('main').getBoundingClientRect().width;
return [...document.querySelectorAll('main table')].map(table => ({
    header: [...table.querySelectorAll('thead th')].slice(0, 3).map(th => th.textContent.trim()),
    width: table.getBoundingClientRect().width,
    column: column,
}));
"""

# The document's width against the window's, and the outermost elements that stick out past the
# window's right edge with no scrolling box around them: they make the page scroll, or, since
# mdBook's body hides what overflows it sideways, they are cut off where no scroll bar reaches.
PAGE_WIDTH = """
const view = document.documentElement.clientWidth;
const main = document.querySelector('main');
// A box of the text that scrolls sideways (a table's wrapper, a listing); mdBook's column itself
// (.content) can scroll too, but that moves the whole page, which is what this check is about.
const inScrollBox = el => {
    for (let p = el.parentElement; p && main.contains(p); p = p.parentElement) {
        const x = getComputedStyle(p).overflowX;
        if (x === 'auto' || x === 'scroll') return true;
    }
    return false;
};
const culprits = [];
for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= view + %d || inScrollBox(el)) continue;
    if (culprits.some(c => c.el.contains(el))) continue;
    culprits.push({el: el, right: r.right});
}
const content = main.parentElement;
return {
    document: Math.max(document.documentElement.scrollWidth,
                       content.scrollWidth + (view - content.clientWidth)),
    view: view,
    culprits: culprits.slice(0, 3).map(c =>
        c.el.tagName.toLowerCase() + (c.el.className ? '.' + c.el.className.split(' ')[0] : '')
        + ' "' + c.el.textContent.trim().slice(0, 30).replace(/\\s+/g, ' ') + '"'
        + ' to ' + Math.round(c.right) + ' px'),
};
""" % SLACK_PX


def serve(directory):
    """Serves `directory` on a free port of 127.0.0.1 in a daemon thread; returns its base URL."""
    handler = functools.partial(Quiet, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


class Quiet(http.server.SimpleHTTPRequestHandler):
    """The book's files, served without a log line per request."""

    def log_message(self, *args):
        pass


def browser(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                 f"--user-data-dir={profile}"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))


def set_width(driver, width, height=HEIGHT):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1,
                            "mobile": False})


def load(driver, url, open_details=True):
    driver.get(url)
    # Measured after the web fonts are in: the widths depend on them.
    driver.execute_async_script("document.fonts.ready.then(arguments[arguments.length - 1]);")
    if open_details:
        driver.execute_script(OPEN_DETAILS)


def wide_tables(driver, base, page):
    """At the wide window: one line per table of `page` wider than the text column."""
    load(driver, base + page)
    problems = []
    for table in driver.execute_script(WIDE_TABLES):
        if table["width"] > table["column"] + SLACK_PX:
            header = " | ".join(table["header"]) or "(no header)"
            problems.append(f"{WIDE} px: {page}: table [{header} ...] is "
                            f"{table['width']:.0f} px wide, the column {table['column']:.0f} px")
    return problems


def page_too_wide(driver, base, page):
    """At the narrow window: a line if `page` is wider than the window or anything outside a
    scrolling box reaches past its right edge, naming what does."""
    load(driver, base + page)
    width = driver.execute_script(PAGE_WIDTH)
    if width["document"] <= width["view"] + SLACK_PX and not width["culprits"]:
        return []
    return [f"{NARROW} px: {page}: the page is {width['document']} px wide, the window "
            f"{width['view']} px; past its right edge: {'; '.join(width['culprits']) or '(none)'}"]


def screenshot(driver, base, page, width, path):
    """The whole page as a reader first sees it (folded blocks folded), `width` px wide."""
    set_width(driver, width)
    load(driver, base + page, open_details=False)
    height = driver.execute_script("return document.documentElement.scrollHeight;")
    set_width(driver, width, height)
    driver.save_screenshot(str(path))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("book", type=pathlib.Path, help="mdBook's output directory (book/book)")
    parser.add_argument("--report-only", action="store_true",
                        help="print what does not fit but exit 0")
    parser.add_argument("--screenshots", nargs="+", metavar=("DIR", "PAGE"),
                        help="also save whole-page PNGs of these pages at both widths in DIR")
    args = parser.parse_args()

    book = args.book
    if not (book / "index.html").is_file():
        sys.exit(f"layout: {book} holds no built book (no index.html); run `mdbook build book`")
    techniques = sorted(p.relative_to(book).as_posix() for p in book.glob("techniques/*.html"))
    # Every page of the book; print.html is all of them at once, 404.html and toc.html are frames.
    pages = sorted(p.relative_to(book).as_posix() for p in book.rglob("*.html")
                   if p.name not in ("print.html", "404.html", "toc.html"))
    if not techniques:
        sys.exit(f"layout: {book} has no technique chapters (techniques/*.html)")

    base = serve(book)
    problems = []
    with tempfile.TemporaryDirectory(prefix="layout-check-") as profile:
        driver = browser(profile)
        try:
            driver.set_script_timeout(30)
            set_width(driver, WIDE)
            for page in techniques:
                problems += wide_tables(driver, base, page)
            set_width(driver, NARROW)
            for page in pages:
                problems += page_too_wide(driver, base, page)
            if args.screenshots:
                out = pathlib.Path(args.screenshots[0])
                out.mkdir(parents=True, exist_ok=True)
                for page in args.screenshots[1:]:
                    for width in (WIDE, NARROW):
                        name = page.replace("/", "-").removesuffix(".html") + f"-{width}.png"
                        screenshot(driver, base, page, width, out / name)
                        print(f"layout: saved {out / name}")
        finally:
            driver.quit()

    for line in problems:
        print(f"layout: {line}")
    wide = sum(line.startswith(f"{WIDE} px") for line in problems)
    narrow = len(problems) - wide
    print(f"layout: {wide} table(s) wider than the column at {WIDE} px in {len(techniques)} "
          f"technique chapters; {narrow} page(s) wider than the window at {NARROW} px "
          f"of {len(pages)}")
    if problems and not args.report_only:
        sys.exit(1)


if __name__ == "__main__":
    main()

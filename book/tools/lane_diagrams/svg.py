"""The drawing every figure shares: the SVG writer, the colours, the fonts, the mini boards."""

SANS = "DejaVu Sans, Helvetica, Arial, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"
# One colour per plane, light and dark.
PLANE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759"]
LIGHT = ["#c6d6e8", "#fbd7b3", "#c9e4c4", "#f6c5c6"]
HIGHLIGHT = "#f1ce63"
INK = "#222"
GREY = "#999"
FAINT = "#ddd"


def esc(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# The width of every figure, in the units of its viewBox: about a phone's width in pixels, so that
# on a phone a figure is drawn near its own size and its smallest text stays readable; the book's
# stylesheet lets it grow a little on a wide page.
W = 480


class Svg:
    def __init__(self, width, title):
        self.width = width
        self.title = title
        self.items = []
        self.bottom = 0

    def _grow(self, y):
        self.bottom = max(self.bottom, y)

    def rect(self, x, y, w, h, fill="#fff", stroke=GREY, sw=1):
        if stroke == FAINT and sw < 1:
            paint = ' class="c"'  # a grid cell
        else:
            paint = f' stroke="{stroke}"' + (f' stroke-width="{sw:g}"' if sw != 1 else "")
        self.items.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" '
                          f'fill="{fill}"{paint}/>')
        self._grow(y + h)

    def text(self, x, y, s, size=14, anchor="start", mono=False, weight="normal", fill=INK,
             italic=False):
        extra = f' class="{"m" if mono else "s"}" font-size="{size:g}"'
        if anchor != "start":
            extra += f' text-anchor="{anchor}"'
        if weight != "normal":
            extra += f' font-weight="{weight}"'
        if fill != INK:
            extra += f' fill="{fill}"'
        if italic:
            extra += ' font-style="italic"'
        self.items.append(f'<text x="{x:g}" y="{y:g}"{extra}>{esc(s)}</text>')
        self._grow(y + size * 0.3)

    def para(self, x, y, text, size=12.5, width=None, italic=False, weight="normal",
             fill=INK, leading=1.35):
        """Text wrapped to `width` (the figure's right margin by default); returns the y below."""
        width = width or self.width - x - 8
        # DejaVu Sans averages about 0.55 em a character, its bold about 0.62
        per_line = max(10, int(width / (size * (0.62 if weight == "bold" else 0.55))))
        line = ""
        for word in text.split():
            if line and len(line) + 1 + len(word) > per_line:
                self.text(x, y, line, size=size, italic=italic, weight=weight, fill=fill)
                y += size * leading
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            self.text(x, y, line, size=size, italic=italic, weight=weight, fill=fill)
            y += size * leading
        return y

    def line(self, x1, y1, x2, y2, stroke=INK, sw=1.2, arrow=False, dash=None):
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        if dash:
            extra += f' stroke-dasharray="{dash}"'
        self.items.append(
            f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
            f'stroke-width="{sw:g}"{extra}/>')
        self._grow(max(y1, y2))

    def path(self, d, stroke=INK, sw=1.2, arrow=True, fill="none"):
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        self.items.append(f'<path d="{d}" stroke="{stroke}" stroke-width="{sw:g}" '
                          f'fill="{fill}"{extra}/>')

    def render(self):
        height = self.bottom + 16
        return "\n".join([
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {self.width} {height:g}" '
            f'fill="{INK}" role="img" aria-label="{esc(self.title)}">',
            f"<title>{esc(self.title)}</title>",
            '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{INK}"/></marker></defs>',
            f"<style>.s{{font-family:{SANS}}} .m{{font-family:{MONO}}} "
            f".c{{stroke:{FAINT};stroke-width:0.6}}</style>",
            f'<rect x="0" y="0" width="{self.width}" height="{height:g}" fill="#fff"/>',
            *self.items,
            "</svg>",
            "",
        ])


def mini_board(svg, x, y, cell, fill_of, letters=None, label=None, label_size=13):
    """An 8x8 board, rank 8 on top: `fill_of(sq)` gives each square's colour."""
    if label:
        svg.text(x + 4 * cell, y - 6, label, size=label_size, anchor="middle")
    svg.rect(x, y, 8 * cell, 8 * cell, fill="#fff", stroke="none")
    for sq in range(64):
        fill = fill_of(sq)
        if fill != "#fff":
            svg.rect(x + (sq % 8) * cell, y + (7 - sq // 8) * cell, cell, cell, fill=fill,
                     stroke="none")
    grid = "".join(f"M{x + k * cell:g},{y:g}v{8 * cell:g}M{x:g},{y + k * cell:g}h{8 * cell:g}"
                   for k in range(1, 8))
    svg.path(grid, stroke=FAINT, sw=0.6, arrow=False)
    if letters:
        for sq in range(64):
            if letters[sq]:
                svg.text(x + (sq % 8) * cell + cell / 2, y + (7 - sq // 8) * cell + cell * 0.72,
                         letters[sq], size=cell * 0.62, anchor="middle", mono=True, fill="#555")
    svg.rect(x, y, 8 * cell, 8 * cell, fill="none", stroke=GREY, sw=1)


def title(svg, text, subtitle=None):
    """The figure's heading and an optional italic line under it; returns the y below."""
    y = svg.para(10, 22, text, size=13.5, weight="bold")
    if subtitle:
        y = svg.para(10, y + 1, subtitle, size=11.5, italic=True, fill="#444")
    return y + 6


def mix(colour, t):
    """`colour` at strength t in 0..1 over white."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 + (c - 255) * t):02x}" for c in rgb)



# The grid of mini boards that figures 5 and 6 share: a column of row labels, four boards.
CELL, BX, GAP = 10, 96, 14
BW = 8 * CELL
COLS = [BX + i * (BW + GAP) for i in range(4)]


def row_label(svg, y, label, subs, colour=INK, mono=False):
    svg.text(8, y + 30, label, size=11, weight="bold", mono=mono, fill=colour)
    for k, sub in enumerate(subs):
        svg.text(8, y + 44 + 12 * k, sub, size=9.5, fill="#555")



def step(svg, x, y, instruction, note=None):
    """A downward arrow at `x`, the instruction beside it and a note under that; returns the y
    below."""
    svg.line(x + 10, y, x + 10, y + 20, arrow=True)
    svg.text(x + 20, y + 9, instruction, size=11.5, mono=True, weight="bold")
    if note:
        return svg.para(x + 20, y + 24, note, size=11, fill="#444") + 2
    return y + 26


def lane_label(svg, y, name, sub=None, colour=INK):
    """A register's name at the left margin, and a grey line under it."""
    svg.text(8, y + 14, name, size=11.5, weight="bold", mono=True, fill=colour)
    if sub:
        svg.text(8, y + 27, sub, size=9.5, fill="#555")


# Four 64-bit lanes side by side, each drawn as one rank of the board, a to h: the registers of
# the figures that follow one square's byte through a few instructions.
SX, SC, SGAP = 96, 10.5, 10


def strip_x(lane):
    return SX + lane * (8 * SC + SGAP)


def strip_heads(svg, y, heads):
    """The lanes' names over the strips, and the files under them; returns the y below."""
    for lane, (head, colour) in enumerate(heads):
        x = strip_x(lane)
        svg.text(x + 4 * SC, y + 10, head, size=10, anchor="middle", weight="bold", fill=colour)
        for f in range(8):
            svg.text(x + f * SC + SC / 2, y + 23, "abcdefgh"[f], size=8, anchor="middle",
                     mono=True, fill="#555")
    return y + 27


def strip_row(svg, y, name, sub, values, rank, colours, marked=None, frame=False):
    """One register: lane p's byte `rank` as eight cells, set bits in colours[p]; the square
    `marked` framed. Returns the y below."""
    svg.text(8, y + 11, name, size=11, weight="bold", mono=True)
    if sub:
        svg.text(8, y + 23, sub, size=9.5, fill="#555")
    for lane, value in enumerate(values):
        x = strip_x(lane)
        for f in range(8):
            on = (value >> (8 * rank + f)) & 1
            svg.rect(x + f * SC, y, SC, 14, fill=colours[lane] if on else "#fff",
                     stroke=FAINT, sw=0.6)
        if marked is not None:
            svg.rect(x + marked * SC, y, SC, 14, fill="none", stroke=INK, sw=1.3)
        svg.rect(x, y, 8 * SC, 14, fill="none", stroke=INK if frame else GREY,
                 sw=1.4 if frame else 0.8)
    return y + 31


def board_row(svg, y, label, subs, heads, fills, letters, colour=INK):
    """One register as four mini boards, lane 0 on the left; returns the y below."""
    row_label(svg, y, label, subs, colour=colour, mono=True)
    for c, head, fill_of in zip(COLS, heads, fills):
        mini_board(svg, c, y, CELL, fill_of, letters, label=head, label_size=9.5)
    return y + BW + 14

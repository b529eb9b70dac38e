//! Text pictures: 8x8 grids of sets, nibbles and bytes, laid side by side in rows.
//!
//! Every grid is drawn rank 8 on top and file a on the left, as a board is printed. A block is a
//! list of lines (a title, the eight ranks, the files); [`row`] puts blocks side by side.

use qbb::{Piece, Quad, Square};

/// A picture's lines are at most this wide where possible, so that a phone shows them whole
/// (checked by the tests).
#[cfg(test)]
pub const WIDTH: usize = 74;

/// A block of text lines, drawn as a unit.
pub type Block = Vec<String>;

/// How a grid spaces its cells.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    /// One character per cell and a space between cells, with a margin column on both sides
    /// where a marked square gets its brackets: ` x . [x] . ` (17 columns).
    Spaced,
    /// One character per cell, no spaces (8 columns): eight boards fit in a line.
    Compact,
    /// Two hex digits per cell, a space between cells, margins as in `Spaced` (25 columns).
    Bytes,
}

/// One grid: `cell(sq)` is the text of square `sq` (one character, two for `Bytes`); `marks`
/// are the squares to bracket (`Spaced` and `Bytes` only); `ranks` puts the rank numbers on the
/// left (the first grid of a row).
pub fn grid(
    title: &str,
    style: Style,
    ranks: bool,
    marks: u64,
    cell: impl Fn(Square) -> String,
) -> Block {
    let prefix = |label: char| match (ranks, style) {
        (false, _) => String::new(),
        // the margin column of a spaced grid separates the number from the first cell
        (true, Style::Spaced | Style::Bytes) => label.to_string(),
        (true, Style::Compact) => format!("{label} "),
    };
    let pad = prefix(' ');
    let title_margin = if style == Style::Compact { "" } else { " " };
    let mut lines = vec![format!("{pad}{title_margin}{title}")];
    for rank in (0..8u8).rev() {
        let mut line = prefix(char::from(b'1' + rank));
        let marked = |file: i32| {
            (0..8).contains(&file)
                && marks
                    & Square::from_file_rank(file as u8, rank)
                        .expect("on the board")
                        .bit()
                    != 0
        };
        for file in 0..8u8 {
            let sq = Square::from_file_rank(file, rank).expect("on the board");
            if style != Style::Compact {
                line.push(separator(
                    marked(i32::from(file) - 1),
                    marked(i32::from(file)),
                ));
            }
            line.push_str(&cell(sq));
        }
        if style != Style::Compact {
            line.push(separator(marked(7), false));
        }
        lines.push(line);
    }
    lines.push(match style {
        Style::Spaced => format!("{pad} a b c d e f g h"),
        Style::Compact => format!("{pad}abcdefgh"),
        Style::Bytes => format!("{pad}  a  b  c  d  e  f  g  h"),
    });
    lines
}

/// The character between two cells: a bracket where a marked cell begins or ends.
fn separator(left_marked: bool, right_marked: bool) -> char {
    match (left_marked, right_marked) {
        (false, false) => ' ',
        (false, true) => '[',
        (true, false) => ']',
        (true, true) => '|',
    }
}

/// A set as `x` (in the set) and `.` (not).
pub fn set(title: &str, style: Style, ranks: bool, bits: u64) -> Block {
    set_marked(title, style, ranks, bits, 0)
}

/// A set with squares bracketed.
pub fn set_marked(title: &str, style: Style, ranks: bool, bits: u64, marks: u64) -> Block {
    grid(title, style, ranks, marks, |sq| {
        if bits & sq.bit() != 0 { "x" } else { "." }.to_string()
    })
}

/// One plane as `1` and `.`, as the article draws the planes.
pub fn plane(title: &str, ranks: bool, bits: u64, marks: u64) -> Block {
    grid(title, Style::Spaced, ranks, marks, |sq| {
        if bits & sq.bit() != 0 { "1" } else { "." }.to_string()
    })
}

/// The four planes of a quad side by side, `bb3` first as in the article, with their titles.
pub fn planes(quad: &Quad, titles: [&str; 4], marks: u64) -> String {
    let blocks: Vec<Block> = [3usize, 2, 1, 0]
        .iter()
        .enumerate()
        .map(|(i, &p)| plane(titles[p], i == 0, quad.bb[p], marks))
        .collect();
    row(&blocks, 1)
}

/// The plane titles of the absolute reading.
pub const PLANES: [&str; 4] = ["bb0 black", "bb1 P B Q", "bb2 NB  K", "bb3 RQK"];

/// 64 nibbles in hex, one digit per square.
pub fn nibbles(title: &str, ranks: bool, codes: &[u8; 64], marks: u64) -> Block {
    grid(title, Style::Spaced, ranks, marks, |sq| {
        format!("{:X}", codes[sq.index()] & 15)
    })
}

/// 64 bytes in hex, two digits per square.
pub fn bytes(title: &str, ranks: bool, bytes: &[u8; 64]) -> Block {
    grid(title, Style::Bytes, ranks, 0, |sq| {
        format!("{:02X}", bytes[sq.index()])
    })
}

/// The board with piece letters (`.` empty, `?` for the codes 1, 14, 15 that name no piece).
pub fn board(title: &str, ranks: bool, codes: &[u8; 64], marks: u64) -> Block {
    grid(title, Style::Spaced, ranks, marks, |sq| {
        match codes[sq.index()] & 15 {
            0 => ".".to_string(),
            code => Piece::from_code(code).map_or("?".to_string(), |p| p.letter().to_string()),
        }
    })
}

/// The nibble of every square of a quad, read plane by plane (no routine involved).
pub fn codes_of(quad: &Quad) -> [u8; 64] {
    std::array::from_fn(|s| quad.nibble(Square::new(s as u8).expect("below 64")))
}

/// Blocks side by side, `gap` spaces apart, each padded to its widest line; the lines of the
/// row end without trailing spaces.
pub fn row(blocks: &[Block], gap: usize) -> String {
    let height = blocks.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = blocks
        .iter()
        .map(|b| b.iter().map(|l| l.chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for i in 0..height {
        let mut line = String::new();
        for (b, block) in blocks.iter().enumerate() {
            if b > 0 {
                line.push_str(&" ".repeat(gap));
            }
            let text = block.get(i).map_or("", String::as_str);
            line.push_str(text);
            line.push_str(&" ".repeat(widths[b] - text.chars().count()));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Lines of text as a block.
pub fn text<S: AsRef<str>>(lines: &[S]) -> Block {
    lines.iter().map(|l| l.as_ref().to_string()).collect()
}

/// The squares of a set by name, `a1 b1 ...`, or `-` for none.
pub fn squares(bits: u64) -> String {
    if bits == 0 {
        return "-".to_string();
    }
    qbb::Squares(bits)
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A set of squares from names (for tests and defaults).
#[cfg(test)]
pub fn set_of(names: &str) -> u64 {
    names
        .split_whitespace()
        .map(|n| n.parse::<Square>().expect("a square name").bit())
        .fold(0, |a, b| a | b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaced_grid_brackets_marked_squares() {
        let block = set_marked(
            "t",
            Style::Spaced,
            true,
            set_of("e1 f1 a8"),
            set_of("e1 f1 h8"),
        );
        assert_eq!(block[0], "  t");
        assert_eq!(block[1], "8 x . . . . . .[.]");
        assert_eq!(block[8], "1 . . . .[x|x]. . ");
        assert_eq!(block[9], "  a b c d e f g h");
    }

    #[test]
    fn compact_grids_fit_eight_in_a_line() {
        let blocks: Vec<Block> = (0..8)
            .map(|i| set("NE", Style::Compact, i == 0, 0x8000_0000_0000_0001))
            .collect();
        let text = row(&blocks, 1);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[1], format!("8 {}", [".......x"; 8].join(" ")));
        assert_eq!(lines[8], format!("1 {}", ["x......."; 8].join(" ")));
        assert!(lines.iter().all(|l| l.len() <= WIDTH), "{text}");
    }

    #[test]
    fn squares_are_named_in_index_order() {
        assert_eq!(squares(set_of("e8 a1 c3")), "a1 c3 e8");
        assert_eq!(squares(0), "-");
    }
}

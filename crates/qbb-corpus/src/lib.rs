//! The public perft suites, embedded in the binary so that tests and benchmarks need no files at
//! run time. One position per line: `FEN ;D1 n ;D2 n ...` (`;Dk n` = leaf nodes at depth k).
//!
//! | suite | positions | what |
//! | --- | --- | --- |
//! | [`Suite::Standard`] | 128 | classic hard cases (castling, en passant, promotions, pins, checks) |
//! | [`Suite::Random`] | 6838 | positions from random games |
//! | [`Suite::Tricky`] | 19 | small, nasty positions |
//! | [`Suite::Fischer`] | 960 | the Chess960 start positions, Shredder-FEN castling |

use std::fmt;

/// One of the embedded suites.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suite {
    Standard,
    Random,
    Tricky,
    Fischer,
}

impl Suite {
    pub const ALL: [Suite; 4] = [
        Suite::Standard,
        Suite::Random,
        Suite::Tricky,
        Suite::Fischer,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Suite::Standard => "standard",
            Suite::Random => "random",
            Suite::Tricky => "tricky",
            Suite::Fischer => "fischer",
        }
    }

    /// The suite's text, as published.
    pub const fn text(self) -> &'static str {
        match self {
            Suite::Standard => include_str!("../data/standard.epd"),
            Suite::Random => include_str!("../data/random.epd"),
            Suite::Tricky => include_str!("../data/tricky.epd"),
            Suite::Fischer => include_str!("../data/fischer.epd"),
        }
    }

    /// The suite's entries. The embedded data is known to parse (a test checks it).
    pub fn entries(self) -> Vec<EpdEntry<'static>> {
        parse_epd(self.text()).expect("embedded suites parse")
    }

    /// The first FEN field (the piece placement) of every entry.
    pub fn placements(self) -> impl Iterator<Item = &'static str> {
        self.text()
            .lines()
            .filter_map(|l| l.split_whitespace().next())
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One line of a perft suite: a FEN and the expected leaf counts by depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdEntry<'a> {
    pub fen: &'a str,
    /// `(depth, nodes)`, in the order given.
    pub counts: Vec<(u32, u64)>,
}

impl EpdEntry<'_> {
    /// The expected count at `depth`, if the line gives one.
    pub fn nodes_at(&self, depth: u32) -> Option<u64> {
        self.counts
            .iter()
            .find(|(d, _)| *d == depth)
            .map(|&(_, n)| n)
    }

    /// The deepest depth whose count is at most `budget`.
    pub fn deepest_within(&self, budget: u64) -> Option<u32> {
        self.counts
            .iter()
            .filter(|(_, n)| *n <= budget)
            .map(|&(d, _)| d)
            .max()
    }
}

/// What is wrong with a line of a perft suite.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EpdError {
    #[error("line {line}: expected `;Dk n` after the FEN, found `{field}`")]
    BadCount { line: usize, field: String },
    #[error("line {line}: no FEN before the first `;`")]
    MissingFen { line: usize },
}

/// Parses one line: `FEN ;D1 n ;D2 n ...`.
pub fn parse_epd_line(text: &str, line: usize) -> Result<EpdEntry<'_>, EpdError> {
    let mut fields = text.split(';');
    let fen = fields.next().map(str::trim).unwrap_or("");
    if fen.is_empty() {
        return Err(EpdError::MissingFen { line });
    }
    let counts = fields
        .map(|field| {
            let bad = || EpdError::BadCount {
                line,
                field: field.trim().to_string(),
            };
            let mut parts = field.split_whitespace();
            let depth = parts
                .next()
                .and_then(|d| d.strip_prefix('D'))
                .ok_or_else(bad)?;
            let depth: u32 = depth.parse().map_err(|_| bad())?;
            let nodes: u64 = parts.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
            if parts.next().is_some() {
                return Err(bad());
            }
            Ok((depth, nodes))
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(EpdEntry { fen, counts })
}

/// Parses a whole suite; blank lines and `#` comments are skipped. Line numbers start at 1.
pub fn parse_epd(text: &str) -> Result<Vec<EpdEntry<'_>>, EpdError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| parse_epd_line(l, i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_parse_with_their_sizes() {
        let sizes = [
            (Suite::Standard, 128),
            (Suite::Random, 6838),
            (Suite::Tricky, 19),
            (Suite::Fischer, 960),
        ];
        for (suite, n) in sizes {
            let entries = suite.entries();
            assert_eq!(entries.len(), n, "{suite}");
            assert!(entries.iter().all(|e| !e.counts.is_empty()), "{suite}");
            assert_eq!(suite.placements().count(), n);
        }
        let start = &Suite::Standard.entries()[0];
        assert_eq!(start.nodes_at(5), Some(4_865_609));
        assert_eq!(start.deepest_within(200_000), Some(4));
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            parse_epd_line(" ;D1 20", 3),
            Err(EpdError::MissingFen { line: 3 })
        );
        assert!(matches!(
            parse_epd_line("8/8/8/8/8/8/8/8 w - - ;D1 x", 1),
            Err(EpdError::BadCount { .. })
        ));
        assert!(matches!(
            parse_epd_line("8/8/8/8/8/8/8/8 w - - ;X1 2", 1),
            Err(EpdError::BadCount { .. })
        ));
    }
}

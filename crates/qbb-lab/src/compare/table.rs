//! The comparison as a table, routines down and backends across: nanoseconds per call, the
//! speed-up over scalar, the fastest backend of each row marked. The same cells feed the terminal
//! (tabled) and `results.md`; the instruction counts are laid out by the same grid.

use tabled::builder::Builder;
use tabled::settings::object::{Columns, Object, Rows};
use tabled::settings::{Alignment, Style};

use super::results::{Results, Row, fastest};

/// The mark of the fastest cell of a row in the terminal table.
pub const BEST: &str = "*";
/// The mark of a cell whose backend runs another tier's code for this routine.
pub const INHERITED: &str = "†";

/// One cell, before it is written for a terminal or markdown.
pub struct Cell {
    pub text: String,
    /// The best cell of its row (fastest, fewest instructions): starred or bold.
    pub best: bool,
}

impl Cell {
    pub fn plain(text: impl Into<String>) -> Cell {
        Cell {
            text: text.into(),
            best: false,
        }
    }
}

/// The header and the cells of every row.
fn cells(results: &Results) -> (Vec<String>, Vec<Vec<Cell>>) {
    let backends = results.backends();
    let mut header = vec!["benchmark".to_string()];
    header.extend(backends.iter().cloned());
    let rows = results
        .by_benchmark()
        .into_iter()
        .map(|(id, rows)| {
            let best = fastest(&rows).map(|r| r.backend.as_str());
            let mut line = vec![Cell::plain(id)];
            line.extend(backends.iter().map(|backend| {
                match rows.iter().find(|r| &r.backend == backend) {
                    Some(row) => Cell {
                        text: cell_text(row),
                        best: best == Some(backend.as_str()) && rows.len() > 1,
                    },
                    None => Cell::plain("-"),
                }
            }));
            line
        })
        .collect();
    (header, rows)
}

/// `4.10 ns 3.0×`, with the speed-up left out for scalar and a dagger for inherited code.
fn cell_text(row: &Row) -> String {
    let mut text = format!("{} ns", three_digits(row.ns_per_op));
    if let Some(s) = row.speedup_vs_scalar.filter(|_| row.backend != "scalar") {
        text.push_str(&format!(" {}×", format_ratio(s)));
    }
    if row.is_inherited() {
        text.push_str(INHERITED);
    }
    text
}

/// Three significant digits or so: `0.912`, `4.10`, `12.3`, `250`.
pub fn three_digits(x: f64) -> String {
    if x < 1.0 {
        format!("{x:.3}")
    } else if x < 10.0 {
        format!("{x:.2}")
    } else if x < 100.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.0}")
    }
}

/// `0.52`, `3.0`, `14`.
pub fn format_ratio(r: f64) -> String {
    if r < 1.0 {
        format!("{r:.2}")
    } else if r < 10.0 {
        format!("{r:.1}")
    } else {
        format!("{r:.0}")
    }
}

/// A ratio that may be far below 1 with two significant digits (`0.62`, `0.033`, `0.0099`), as
/// [`format_ratio`] from 1 up.
pub fn format_fraction(r: f64) -> String {
    if r >= 1.0 || r <= 0.0 || !r.is_finite() {
        return format_ratio(r);
    }
    // Rounded to two significant digits first, so that 0.0999 reads 0.10 and 0.9999 reads 1.0.
    let unit = 10f64.powf(r.log10().floor() - 1.0);
    let rounded = (r / unit).round() * unit;
    if rounded >= 1.0 {
        return format_ratio(rounded);
    }
    let decimals = (1.0 - rounded.log10().floor()) as usize;
    format!("{rounded:.decimals$}")
}

/// The table for a terminal.
pub fn terminal(results: &Results) -> String {
    let (header, rows) = cells(results);
    terminal_grid(
        header,
        rows,
        &format!(
            "{BEST} fastest of the row; {INHERITED} the backend runs another tier's code for this \
             routine (see `qbb backends`); n× = speed-up over scalar"
        ),
    )
}

/// The table in markdown, the fastest cell of each row in bold.
pub fn markdown(results: &Results) -> String {
    let (header, rows) = cells(results);
    markdown_grid(&header, rows)
}

/// A grid for a terminal: the best cell of each row starred, `legend` underneath.
pub fn terminal_grid(header: Vec<String>, rows: Vec<Vec<Cell>>, legend: &str) -> String {
    let mut builder = Builder::default();
    builder.push_record(header);
    for row in rows {
        builder.push_record(row.into_iter().map(|c| {
            if c.best {
                format!("{} {BEST}", c.text)
            } else {
                c.text
            }
        }));
    }
    let mut table = builder.build();
    table
        .with(Style::rounded())
        .modify(Columns::new(1..).not(Rows::first()), Alignment::right());
    format!("{table}\n{legend}\n")
}

/// A grid in markdown, the first column left-aligned, the best cell of each row in bold.
pub fn markdown_grid(header: &[String], rows: Vec<Vec<Cell>>) -> String {
    let mut out = format!("| {} |\n", header.join(" | "));
    out.push_str(&format!(
        "| --- |{}\n",
        " ---: |".repeat(header.len().saturating_sub(1))
    ));
    for row in rows {
        let texts: Vec<String> = row
            .into_iter()
            .map(|c| {
                if c.best {
                    format!("**{}**", c.text)
                } else {
                    c.text
                }
            })
            .collect();
        out.push_str(&format!("| {} |\n", texts.join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::sample;
    use super::*;

    #[test]
    fn numbers_keep_about_three_digits() {
        assert_eq!(three_digits(0.9123), "0.912");
        assert_eq!(three_digits(4.1), "4.10");
        assert_eq!(three_digits(12.34), "12.3");
        assert_eq!(three_digits(250.4), "250");
        assert_eq!(format_ratio(0.523), "0.52");
        assert_eq!(format_ratio(3.04), "3.0");
        assert_eq!(format_ratio(14.2), "14");
        assert_eq!(format_fraction(0.6171), "0.62");
        assert_eq!(format_fraction(0.0334), "0.033");
        assert_eq!(format_fraction(0.00991), "0.0099");
        assert_eq!(format_fraction(1.54), "1.5");
        assert_eq!(format_fraction(0.0999), "0.10");
        assert_eq!(format_fraction(0.99995), "1.0");
    }

    #[test]
    fn the_markdown_marks_the_fastest_backend_of_each_row() {
        let md = markdown(&sample());
        let lines: Vec<&str> = md.lines().collect();
        assert_eq!(lines[0], "| benchmark | scalar | swar | avx2 |");
        assert_eq!(lines[1], "| --- | ---: | ---: | ---: |");
        assert_eq!(lines[2], "| piece-at | 1.00 ns | - | - |");
        assert!(
            lines[3].starts_with("| hex-sets | 10.0 ns | 5.00 ns 2.0×† | **2.00 ns 5.0×** |"),
            "{}",
            lines[3]
        );
        assert_eq!(lines[4], "| flip | **3.00 ns** | - | 6.00 ns 0.50× |");
    }

    #[test]
    fn the_terminal_table_has_a_line_per_benchmark_and_a_legend() {
        let text = terminal(&sample());
        assert!(text.contains("2.00 ns 5.0× *"), "{text}");
        assert!(text.contains("fastest of the row"));
        assert_eq!(text.matches("hex-sets").count(), 1);
    }
}

//! A report as a table, benchmarks down and implementations across: each cell holds the figure
//! and its ratio (to the baseline or to scalar, as the report's rows say), and the best cell of
//! each row is marked, with every cell tied with it inside the run's noise. The same cells feed
//! the terminal (tabled) and the markdown page.

use tabled::builder::Builder;
use tabled::settings::object::{Columns, Object, Rows};
use tabled::settings::{Alignment, Style};

use qbb_benches::Implementation;

use super::machine::Machine;
use super::{Against, Figure, Report, best};

/// The mark of the best cell of a row in the terminal table (markdown puts it in bold).
pub const BEST: &str = "*";
/// The mark of a cell whose backend runs another tier's code for this routine.
pub const INHERITED: &str = "†";
/// The mark of the cell the row's ratios are taken against, when that is the baseline.
pub const BASELINE: &str = "°";

/// One cell, before it is written for a terminal or markdown.
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Debug)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<Cell>>,
}

impl<R: Figure> Report<R> {
    /// The table of the report: a row per benchmark, a column per implementation, `-` where
    /// one was not measured. The best cell of a row is marked, and so is every cell tied with it:
    /// as the row says where it can ([`Figure::tied_with_best`]), else within the run's noise.
    pub fn table(&self) -> Table {
        let backends = self.backends();
        let mut header = vec!["benchmark".to_string()];
        header.extend(backends.iter().map(|b| column_label(b)));
        let tie = 1.0 + self.noise.unwrap_or(0.0);
        let rows = self
            .by_benchmark()
            .into_iter()
            .map(|(id, rows)| {
                let best_value = best(&rows).map(|r| r.value());
                let mut line = vec![Cell::plain(id)];
                line.extend(backends.iter().map(|backend| {
                    match rows.iter().find(|r| &r.subject().backend == backend) {
                        Some(row) => Cell {
                            text: cell_text(*row),
                            best: rows.len() > 1
                                && row.tied_with_best().unwrap_or_else(|| {
                                    best_value.is_some_and(|best| row.value() <= best * tie)
                                }),
                        },
                        None => Cell::plain("-"),
                    }
                }));
                line
            })
            .collect();
        Table { header, rows }
    }
}

/// A column's header: the implementation, and the x86-64 level its code is built for where the
/// name does not say it (`sse2 (x86-64-v2)`: the backend needs SSSE3, SSE4.1 and POPCNT too).
pub fn column_label(name: &str) -> String {
    match Implementation::from_name(name) {
        Some(on) if !on.is_raised() && on.code.isa_level() != "x86-64" => {
            format!("{name} ({})", on.code.isa_level())
        }
        _ => name.to_string(),
    }
}

/// `4.10 ns 3.0×`: the figure and its ratio, a degree sign on the baseline itself (whose ratio,
/// 1, is left out, as is the reference's), a dagger for inherited code.
fn cell_text<R: Figure>(row: &R) -> String {
    let subject = row.subject();
    let mut text = row.value_text();
    let is_against = match R::AGAINST {
        Against::Reference => subject.is_reference(),
        Against::Baseline => row.against() == Some(subject.backend.as_str()),
    };
    match row.ratio() {
        Some(_) if is_against && R::AGAINST == Against::Baseline => text.push_str(BASELINE),
        Some(ratio) if !is_against => text.push_str(&format!(" {}×", R::RATIO.text(ratio))),
        _ => {}
    }
    if subject.is_inherited() {
        text.push_str(INHERITED);
    }
    text
}

impl Table {
    /// The texts of each row, the best cell's as `mark_best` writes it.
    fn texts(&self, mark_best: impl Fn(&str) -> String) -> impl Iterator<Item = Vec<String>> {
        self.rows.iter().map(move |row| {
            row.iter()
                .map(|c| {
                    if c.best {
                        mark_best(&c.text)
                    } else {
                        c.text.clone()
                    }
                })
                .collect()
        })
    }

    /// The table for a terminal: the best cell of each row starred, `legend` underneath.
    pub fn terminal(&self, legend: &str) -> String {
        let mut builder = Builder::default();
        builder.push_record(self.header.clone());
        for texts in self.texts(|text| format!("{text} {BEST}")) {
            builder.push_record(texts);
        }
        let mut table = builder.build();
        table
            .with(Style::rounded())
            .modify(Columns::new(1..).not(Rows::first()), Alignment::right());
        format!("{table}\n{legend}\n")
    }

    /// The table in markdown: the first column left-aligned, the figures right-aligned, the
    /// best cell of each row in bold.
    pub fn markdown(&self) -> String {
        let mut out = format!("| {} |\n", self.header.join(" | "));
        out.push_str(&format!(
            "| --- |{}\n",
            " ---: |".repeat(self.header.len().saturating_sub(1))
        ));
        for texts in self.texts(|text| format!("**{text}**")) {
            out.push_str(&format!("| {} |\n", texts.join(" | ")));
        }
        out
    }
}

/// The legend under a terminal table: what the best mark means (`fastest`, `fewest`), the
/// inherited mark, and what `n×` divides.
pub fn legend(best: &str, ratio: &str) -> String {
    format!(
        "{BEST} {best} of the row; {INHERITED} the backend runs another tier's code for this \
         routine (see `qbb backends`); n× = {ratio}"
    )
}

/// What the timing tables' ratios are: over the baseline, and which implementations compete
/// for it.
pub const BASELINE_RATIO: &str = "speed-up over the row's baseline (°), the fastest of \
     scalar and swar built for x86-64 and for x86-64-v3 (scalar-v3, swar-v3)";

/// The markdown table of the machine. `compilers` and `conditions` are the rows in which the
/// reports differ: the compiler (`rustc`, or one per backend) and what else bore on the run
/// (the load, or when the runs started).
pub fn machine_table(
    machine: &Machine,
    compilers: (&str, String),
    conditions: (&str, String),
    corpus: &str,
) -> String {
    let mut table = "| machine | |\n| --- | --- |\n".to_string();
    for (key, value) in [
        ("CPU", format!("{} ({})", machine.cpu, machine.cpu_details)),
        ("features", machine.features.join(", ")),
        ("missing", machine.missing_features.join(", ")),
        compilers,
        ("flags", machine.flags.clone()),
        ("OS", machine.os.clone()),
        conditions,
        ("corpus", corpus.to_string()),
    ] {
        table.push_str(&format!("| {key} | {value} |\n"));
    }
    table
}

/// Three significant digits or so: `0.912`, `4.10`, `12.3`, `250`.
pub fn three_digits(x: f64) -> String {
    decimals_by_magnitude(x, 3)
}

/// `0.52`, `3.0`, `14`.
pub fn format_ratio(r: f64) -> String {
    decimals_by_magnitude(r, 2)
}

/// `x` with `most` decimals below 1 and one fewer for each digit before the point, down to none:
/// about `most` significant digits from 1 up, while a figure below 1 keeps a fixed width.
fn decimals_by_magnitude(x: f64, most: usize) -> String {
    let mut decimals = most;
    let mut next_digit = 1.0;
    while decimals > 0 && x >= next_digit {
        decimals -= 1;
        next_digit *= 10.0;
    }
    format!("{x:.decimals$}")
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

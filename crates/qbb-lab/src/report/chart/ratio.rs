//! A report's overview: every benchmark's ratio, a group per benchmark, a bar per
//! implementation, with the band of ties around 1× and each row's interval where it has them.

use anyhow::{Result, anyhow};

use super::{Bar, BarChart, Group, render};
use crate::report::{Against, Figure, Ratio, Report};

/// The width of every chart of the lab, in pixels.
pub const WIDTH: f64 = 900.0;

/// The captions of an overview: what is particular to each report.
#[derive(Debug)]
pub struct RatioChart<'a> {
    pub title: &'a str,
    /// What the ratio divides, and which way is better.
    pub caption: &'a str,
    pub footer: String,
}

/// A bar's label: its ratio (a speed-up to three digits, a share as the tables write it), or
/// `baseline` on the row the others are divided by.
pub fn value_label<R: Figure>(row: &R, ratio: f64) -> String {
    if row.against() == Some(row.subject().backend.as_str()) {
        return "baseline".to_string();
    }
    let text = match R::RATIO {
        Ratio::ReferenceOverRow => three_significant(ratio),
        Ratio::RowOverReference => R::RATIO.text(ratio),
    };
    format!("{text}×")
}

/// `x` to three significant digits but at most four decimals, as `results.json` keeps a ratio:
/// `1.42`, `27.3`, `233`, `0.0053`; 0.9996 is `1.00`.
pub fn three_significant(x: f64) -> String {
    let digits = |x: f64| (2 - x.log10().floor() as i32).min(4);
    let scale = 10f64.powi(digits(x));
    let rounded = (x * scale).round() / scale;
    let decimals = digits(rounded).max(0) as usize;
    format!("{rounded:.decimals$}")
}

/// A row's bar, when it has a ratio.
pub fn bar<R: Figure>(row: &R) -> Option<Bar> {
    let ratio = row.ratio().filter(|r| r.is_finite() && *r > 0.0)?;
    Some(Bar {
        implementation: row.subject().backend.clone(),
        ratio,
        interval: row.ratio_interval(),
        inherited: row.subject().is_inherited(),
        label: value_label(row, ratio),
    })
}

impl<R: Figure> Report<R> {
    /// The bars of one benchmark's rows, in backend order; against the reference, the reference
    /// itself has none (its ratio is 1 by definition).
    pub fn bars(&self, rows: &[&R]) -> Vec<Bar> {
        rows.iter()
            .filter(|r| R::AGAINST == Against::Baseline || !r.subject().is_reference())
            .filter_map(|r| bar(*r))
            .collect()
    }

    /// Every benchmark's ratio, a group per benchmark in the report's order.
    pub fn ratio_chart(&self, spec: &RatioChart<'_>) -> Result<String> {
        let groups: Vec<Group> = self
            .by_benchmark()
            .into_iter()
            .map(|(id, rows)| Group {
                heading: format!("{id}: {}", rows[0].subject().title),
                bars: self.bars(&rows),
                band: self.tie_band(),
                empty: "no ratio".to_string(),
            })
            .filter(|g| !g.bars.is_empty())
            .collect();
        if groups.is_empty() {
            return Err(anyhow!(
                "a ratio chart needs a benchmark with a ratio: scalar and at least one other backend"
            ));
        }
        render(&BarChart {
            title: spec.title.to_string(),
            caption: spec.caption.to_string(),
            groups,
            footer: spec.footer.clone(),
            width: WIDTH,
        })
    }
}

//! The log axis of a chart: where a ratio lies, how much room the value labels need beside the
//! bars, and the grid lines with their labels.

use anyhow::{Result, bail};

use super::layout::{Anchor, GAP, Label, MARGIN, Rect, Role};
use super::{Bar, BarChart, LABEL_PX, TieBand, text_width};

/// The least room between two tick labels of the axis.
const TICK_ROOM: f64 = 12.0;

/// The log axis: a ratio's x and back.
#[derive(Clone, Copy, Debug)]
pub struct Axis {
    /// `ln` of the ratio at pixel `x0`, and pixels per unit of `ln`.
    ln_at_x0: f64,
    x0: f64,
    per_ln: f64,
}

impl Axis {
    pub fn x(&self, ratio: f64) -> f64 {
        self.x0 + (ratio.ln() - self.ln_at_x0) * self.per_ln
    }

    fn ratio(&self, x: f64) -> f64 {
        (self.ln_at_x0 + (x - self.x0) / self.per_ln).exp()
    }
}

/// A bar's label goes right of the bar when the ratio is 1 or more, else left of it; from the
/// bar's or its whisker's outer end.
pub fn label_end(bar: &Bar) -> (bool, f64) {
    let right = bar.ratio >= 1.0;
    let [low, high] = bar.interval.unwrap_or([bar.ratio, bar.ratio]);
    if right {
        (true, bar.ratio.max(high))
    } else {
        (false, bar.ratio.min(low))
    }
}

/// The ratios a tie band covers, around 1.
pub fn band(tie: TieBand) -> [f64; 2] {
    [1.0 / (1.0 + tie.gap()), 1.0 + tie.gap()]
}

/// The log axis across the plot: the ratios, their intervals, 1× and the tie bands span the
/// middle, and beside them as much room as the widest label left or right of a bar needs.
pub fn axis(chart: &BarChart, (left, right): (f64, f64)) -> Result<Axis> {
    let (mut low, mut high): (f64, f64) = (1.0 / 1.15, 1.15);
    let (mut left_room, mut right_room) = (0.0, 0.0);
    for group in &chart.groups {
        if let Some(tie) = group.band.filter(|_| !group.bars.is_empty()) {
            let [l, h] = band(tie);
            (low, high) = (low.min(l), high.max(h));
        }
        for bar in &group.bars {
            let [l, h] = bar.interval.unwrap_or([bar.ratio, bar.ratio]);
            (low, high) = (low.min(l).min(bar.ratio), high.max(h).max(bar.ratio));
            let room = GAP + text_width(&bar.label, LABEL_PX) + 2.0;
            if label_end(bar).0 {
                right_room = f64::max(right_room, room);
            } else {
                left_room = f64::max(left_room, room);
            }
        }
    }
    let (x0, x1) = (left + left_room + 4.0, right - right_room - 4.0);
    if x1 - x0 < 0.3 * (right - left) {
        bail!(
            "a chart {} px wide has no room for its bars beside their labels",
            chart.width
        );
    }
    Ok(Axis {
        ln_at_x0: low.ln(),
        x0,
        per_ln: (x1 - x0) / (high.ln() - low.ln()),
    })
}

/// The values of a tick sequence between `low` and `high`: `multiples` of the powers of `base`.
fn sequence(low: f64, high: f64, base: f64, multiples: &[f64]) -> Vec<f64> {
    let (first, last) = (
        low.log(base).floor() as i32 - 1,
        high.log(base).ceil() as i32 + 1,
    );
    (first..=last)
        .flat_map(|k| multiples.iter().map(move |m| m * base.powi(k)))
        .filter(|v| (low..=high).contains(v))
        .collect()
}

/// Grid lines at powers of 2 on a short axis, at 1, 2 and 5 times the powers of 10 on a longer
/// one, at powers of 10 (or of 100...) where those would crowd: each sequence lies symmetric
/// about 1×. Labelled at the top and the bottom of the plot where a label fits; returns their x.
pub fn ticks(axis: &Axis, plot: &Rect, rows: [f64; 2], labels: &mut Vec<Label>) -> Vec<f64> {
    let (low, high) = (axis.ratio(plot.x0), axis.ratio(plot.x1));
    // Wide enough for the longest tick labels (`0.005×`) side by side.
    let room = |step: f64| step.ln() * axis.per_ln >= 64.0;
    let values = if high / low <= 64.0 && room(2.0) {
        sequence(low, high, 2.0, &[1.0])
    } else if room(2.0) {
        sequence(low, high, 10.0, &[1.0, 2.0, 5.0])
    } else {
        let base = [10.0, 100.0, 1000.0]
            .into_iter()
            .find(|&b| room(b))
            .unwrap_or(1e4);
        sequence(low, high, base, &[1.0])
    };
    let mut xs = Vec::new();
    for value in values {
        let x = axis.x(value);
        let text = format!("{}×", tick_text(value));
        let fits = |label: &Label| {
            label.rect.x0 >= 0.0
                && label.rect.x1 <= plot.x1 + MARGIN
                && labels
                    .iter()
                    .rev()
                    .take(2)
                    .all(|l| l.role != Role::Tick || l.rect.x1 + TICK_ROOM <= label.rect.x0)
        };
        let pair = rows.map(|y| Label::new(&text, Role::Tick, Anchor::Centre, (x, y)));
        if pair.iter().all(fits) {
            labels.extend(pair);
        }
        xs.push(x);
    }
    xs
}

/// A tick as it is written: `0.25`, `1`, `64`, `0.005`.
fn tick_text(value: f64) -> String {
    if value >= 1.0 {
        format!("{value:.0}")
    } else {
        // A tick below 1 is a short exact decimal (a power of 2, or 1, 2 or 5 over a power of
        // 10): print its digits, without the rounding error of the multiplication.
        let text = format!("{value:.12}");
        text.trim_end_matches('0').to_string()
    }
}

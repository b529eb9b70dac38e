//! The lab's charts: horizontal bars of a ratio on a log axis, grouped (by benchmark in the
//! overviews, by machine in a benchmark's chart), one colour per implementation.
//!
//! A chart is described by a [`BarChart`] (what to draw), laid out by [`layout`] in pixels (every
//! text gets a box, computed from a conservative width per character, and the axis is stretched
//! until no value label can touch another or leave the plot), checked, and only then drawn by
//! [`draw`] as SVG through plotters. [`ratio`] makes a report's overview of this kind.

mod axis;
mod draw;
pub mod layout;
mod ratio;

use anyhow::anyhow;
use plotters::style::RGBColor;

pub use ratio::{RatioChart, WIDTH};

pub const FONT: &str = "sans-serif";

/// Text sizes in pixels, as the SVG shows them.
pub const TITLE_PX: f64 = 19.0;
pub const TEXT_PX: f64 = 13.0;
pub const LABEL_PX: f64 = 12.0;

/// The Okabe–Ito palette (Okabe and Ito, "Color Universal Design", 2008): eight colours that
/// stay apart for readers with any of the common colour-vision deficiencies. One per
/// implementation, the same in every chart; the scalar-class ones take the dark and the warm
/// colours, the SIMD tiers the cool ones.
pub fn color(implementation: &str) -> RGBColor {
    match implementation {
        "scalar" => RGBColor(0, 0, 0),
        "scalar-v3" => RGBColor(0, 114, 178),
        "swar" => RGBColor(230, 159, 0),
        "swar-v3" => RGBColor(213, 94, 0),
        "sse2" => RGBColor(86, 180, 233),
        "avx2" => RGBColor(0, 158, 115),
        "avx512" => RGBColor(204, 121, 167),
        "portable" => RGBColor(240, 228, 66),
        _ => RGBColor(153, 153, 153),
    }
}

/// The colour of a bar: inherited code (another tier's routine) is drawn pale, the colour
/// blended two parts in three with white, which every SVG viewer shows alike.
pub fn fill(implementation: &str, inherited: bool) -> RGBColor {
    let RGBColor(r, g, b) = color(implementation);
    if inherited {
        let pale = |c: u8| (u16::from(c) + 2 * 255).div_ceil(3) as u8;
        RGBColor(pale(r), pale(g), pale(b))
    } else {
        RGBColor(r, g, b)
    }
}

/// Plotters' drawing errors, as the lab reports them.
pub fn plot_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("drawing a chart: {e}")
}

/// What one chart shows: groups of bars, each bar one implementation's ratio, on a log axis
/// around 1×.
#[derive(Clone, Debug)]
pub struct BarChart {
    pub title: String,
    /// What the axis measures and which way is better, under the title (wrapped).
    pub caption: String,
    pub groups: Vec<Group>,
    /// Where the figures come from, under the plot (wrapped).
    pub footer: String,
    pub width: f64,
}

/// A group of bars under a heading: a benchmark, or a machine.
#[derive(Clone, Debug)]
pub struct Group {
    pub heading: String,
    pub bars: Vec<Bar>,
    /// The ratios around 1× that are ties, shaded across the group's rows.
    pub band: Option<TieBand>,
    /// Said in place of the bars when there are none.
    pub empty: String,
}

/// Which ratios around 1× are ties: each is a relative gap, shaded from `1 / (1 + gap)` to
/// `1 + gap`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum TieBand {
    /// Rows timed in turns: a row ties when its interval reaches into the margin.
    Margin(f64),
    /// Rows without intervals: a ratio within the run's noise floor ties.
    NoiseFloor(f64),
}

impl TieBand {
    pub fn gap(self) -> f64 {
        match self {
            TieBand::Margin(gap) | TieBand::NoiseFloor(gap) => gap,
        }
    }

    /// What the shading means, for the legend.
    pub fn legend(self) -> String {
        match self {
            TieBand::Margin(gap) => format!(
                "shaded: within {} of 1× (a whisker reaching in is a tie)",
                crate::report::percent(gap)
            ),
            TieBand::NoiseFloor(_) => "shaded: the run's noise floor".to_string(),
        }
    }
}

/// One implementation's ratio.
#[derive(Clone, Debug)]
pub struct Bar {
    pub implementation: String,
    pub ratio: f64,
    /// The ratio's 95 % interval, drawn as a whisker.
    pub interval: Option<[f64; 2]>,
    /// The implementation runs another tier's code: drawn pale.
    pub inherited: bool,
    /// The text at the end of the bar: the ratio (`1.42×`) or what the row is (`baseline`).
    pub label: String,
}

/// The width a text takes at `px` pixels, estimated from above: every character is given at
/// least the advance of the widest sans-serif fonts (DejaVu Sans) for its class, so the text
/// drawn by any viewer fits the box.
pub fn text_width(text: &str, px: f64) -> f64 {
    let em: f64 = text
        .chars()
        .map(|c| match c {
            '.' | ',' | ':' | ';' | '\'' | '!' | '|' | 'i' | 'j' | 'l' | 'I' | 'f' | 't' | 'r'
            | '(' | ')' | '[' | ']' | ' ' => 0.42,
            'm' | 'w' | 'M' | 'W' | '%' | '@' | '×' | '—' | '±' => 1.0,
            c if c.is_ascii_uppercase() => 0.8,
            _ => 0.66,
        })
        .sum();
    em * px
}

/// `text` broken at spaces into lines no wider than `width` at `px` pixels (a word wider than
/// the line keeps a line of its own); a no-break space holds its words together.
pub fn wrap(text: &str, px: f64, width: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split([' ', '\n']).filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), px) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Lays the chart out and draws it: an error, not a chart, if any two texts would touch or a
/// value label would leave the plot.
pub fn render(chart: &BarChart) -> anyhow::Result<String> {
    let laid = layout::lay_out(chart)?;
    laid.check()?;
    draw::svg(&laid)
}

#[cfg(test)]
mod tests;

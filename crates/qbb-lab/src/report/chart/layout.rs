//! Where everything of a [`BarChart`] goes, in pixels, before anything is drawn: the title and
//! the caption wrapped to the width, the legend flowed in lines, a row per bar, and the log axis
//! stretched so that every value label fits beside its bar inside the plot. Each text gets the
//! box its conservative width ([`text_width`]) gives it, and [`Layout::check`] refuses a layout
//! in which two boxes touch.

use anyhow::{Result, bail};

use super::axis::{axis, band, label_end, ticks};
use super::{BarChart, LABEL_PX, TEXT_PX, TITLE_PX, TieBand, text_width, wrap};
use crate::report::backends_in_order;

/// The white space around the chart.
pub const MARGIN: f64 = 14.0;
/// A bar's row: its name, its bar and its value label.
const ROW: f64 = 17.0;
/// Between the end of a bar (or its whisker) and its label.
pub const GAP: f64 = 5.0;
/// Text is given a box this many times its size high, centred on its line.
const BOX_HEIGHT: f64 = 1.24;
/// Bold text is this much wider than regular.
const BOLD: f64 = 1.1;

/// An axis-aligned box, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
}

impl Rect {
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    pub fn inside(&self, outer: &Rect) -> bool {
        self.x0 >= outer.x0 && self.x1 <= outer.x1 && self.y0 >= outer.y0 && self.y1 <= outer.y1
    }
}

/// What a text is, which decides its size and where it may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Title,
    Caption,
    Legend,
    Heading,
    /// An implementation's name, left of its bar (or a group's note when it has no bars).
    Name,
    /// The ratio at the end of a bar.
    Value,
    Tick,
    Footer,
}

/// Which point of its box a text is drawn from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Left,
    Centre,
    Right,
}

/// A text and its box.
#[derive(Clone, Debug)]
pub struct Label {
    pub text: String,
    pub role: Role,
    pub px: f64,
    pub bold: bool,
    pub anchor: Anchor,
    pub rect: Rect,
}

impl Label {
    /// A text drawn from `x` (by `anchor`) on the line through `y`.
    pub fn new(text: &str, role: Role, anchor: Anchor, (x, y): (f64, f64)) -> Label {
        let px = match role {
            Role::Title => TITLE_PX,
            Role::Caption | Role::Legend | Role::Heading => TEXT_PX,
            Role::Name | Role::Value | Role::Tick | Role::Footer => LABEL_PX,
        };
        let bold = matches!(role, Role::Heading);
        let width = text_width(text, px) * if bold { BOLD } else { 1.0 };
        let x0 = match anchor {
            Anchor::Left => x,
            Anchor::Centre => x - width / 2.0,
            Anchor::Right => x - width,
        };
        let half = px * BOX_HEIGHT / 2.0;
        Label {
            text: text.to_string(),
            role,
            px,
            bold,
            anchor,
            rect: Rect {
                x0,
                y0: y - half,
                x1: x0 + width,
                y1: y + half,
            },
        }
    }

    /// The point the text is drawn from.
    pub fn anchor_point(&self) -> (f64, f64) {
        let x = match self.anchor {
            Anchor::Left => self.rect.x0,
            Anchor::Centre => (self.rect.x0 + self.rect.x1) / 2.0,
            Anchor::Right => self.rect.x1,
        };
        (x, (self.rect.y0 + self.rect.y1) / 2.0)
    }
}

/// A glyph of the legend.
#[derive(Clone, Debug, PartialEq)]
pub enum Swatch {
    Implementation(String),
    /// A pale bar: inherited code.
    Pale,
    /// The shaded band of the ties.
    Band,
    Whisker,
}

/// A bar, and its interval's whisker `(x_low, x_high)` on the bar's middle line.
#[derive(Clone, Debug)]
pub struct BarShape {
    pub implementation: String,
    pub inherited: bool,
    pub rect: Rect,
    pub whisker: Option<(f64, f64)>,
}

/// A chart in pixels.
#[derive(Clone, Debug)]
pub struct Layout {
    pub width: f64,
    pub height: f64,
    /// Where the bars and their labels go.
    pub plot: Rect,
    /// Where 1× is.
    pub one: f64,
    /// The axis' grid lines.
    pub ticks: Vec<f64>,
    pub labels: Vec<Label>,
    pub legend: Vec<(Swatch, Rect)>,
    pub bars: Vec<BarShape>,
    /// The tie band of each group that has one, across its rows.
    pub bands: Vec<Rect>,
    /// Each group's rows, top to bottom: the grid lines run there, not through the headings.
    pub spans: Vec<(f64, f64)>,
}

/// Lays `chart` out.
pub fn lay_out(chart: &BarChart) -> Result<Layout> {
    let bars = chart.groups.iter().flat_map(|g| &g.bars);
    if let Some(bad) = bars
        .clone()
        .find(|b| !(b.ratio.is_finite() && b.ratio > 0.0))
    {
        bail!(
            "a chart's ratio must be positive: {} has {}",
            bad.implementation,
            bad.ratio
        );
    }
    let width = chart.width;
    let inner = width - 2.0 * MARGIN;
    let mut labels = Vec::new();
    let mut y = MARGIN;
    let mut lines = |text: &str, role: Role, px: f64, step: f64, y: &mut f64| {
        for line in wrap(text, px, inner) {
            labels.push(Label::new(
                &line,
                role,
                Anchor::Left,
                (MARGIN, *y + step / 2.0),
            ));
            *y += step;
        }
    };
    lines(&chart.title, Role::Title, TITLE_PX, TITLE_PX * 1.4, &mut y);
    lines(
        &chart.caption,
        Role::Caption,
        TEXT_PX,
        TEXT_PX * 1.45,
        &mut y,
    );
    y += 6.0;
    let legend = legend(chart, &mut labels, &mut y, inner);
    y += 4.0;

    // The names' column, then the plot.
    let names = bars
        .clone()
        .map(|b| text_width(&b.implementation, LABEL_PX));
    let name_column = names.fold(40.0, f64::max) + 10.0;
    let tick_strip = LABEL_PX * 1.6;
    let top_ticks = y + tick_strip / 2.0;
    y += tick_strip;
    let plot_x = (MARGIN + name_column, width - MARGIN);
    let axis = axis(chart, plot_x)?;
    let plot_y0 = y;
    let mut shapes = Vec::new();
    let mut bands = Vec::new();
    let mut spans = Vec::new();
    for group in &chart.groups {
        y += 4.0;
        for line in wrap(&group.heading, TEXT_PX * BOLD, inner) {
            let step = TEXT_PX * 1.45;
            labels.push(Label::new(
                &line,
                Role::Heading,
                Anchor::Left,
                (MARGIN, y + step / 2.0),
            ));
            y += step;
        }
        let rows_top = y;
        if group.bars.is_empty() {
            labels.push(Label::new(
                &group.empty,
                Role::Name,
                Anchor::Left,
                (plot_x.0, y + ROW / 2.0),
            ));
            y += ROW;
        }
        for bar in &group.bars {
            let middle = y + ROW / 2.0;
            let name = Label::new(
                &bar.implementation,
                Role::Name,
                Anchor::Right,
                (plot_x.0 - 6.0, middle),
            );
            labels.push(name);
            let (from, to) = (axis.x(1.0), axis.x(bar.ratio));
            let rect = Rect {
                x0: from.min(to),
                y0: y + 3.0,
                x1: from.max(to).max(from.min(to) + 1.0),
                y1: y + ROW - 3.0,
            };
            let whisker = bar.interval.map(|[low, high]| (axis.x(low), axis.x(high)));
            let (right, end) = label_end(bar);
            let (anchor, x) = if right {
                (Anchor::Left, axis.x(end) + GAP)
            } else {
                (Anchor::Right, axis.x(end) - GAP)
            };
            labels.push(Label::new(&bar.label, Role::Value, anchor, (x, middle)));
            shapes.push(BarShape {
                implementation: bar.implementation.clone(),
                inherited: bar.inherited,
                rect,
                whisker,
            });
            y += ROW;
        }
        spans.push((rows_top, y));
        if let Some(tie) = group.band.filter(|_| !group.bars.is_empty()) {
            let [low, high] = band(tie);
            bands.push(Rect {
                x0: axis.x(low),
                y0: rows_top,
                x1: axis.x(high),
                y1: y,
            });
        }
        y += 4.0;
    }
    let plot = Rect {
        x0: plot_x.0,
        y0: plot_y0,
        x1: plot_x.1,
        y1: y,
    };
    let bottom_ticks = y + tick_strip / 2.0;
    y += tick_strip + 6.0;
    let ticks = ticks(&axis, &plot, [top_ticks, bottom_ticks], &mut labels);
    let mut footer_y = y;
    for line in wrap(&chart.footer, LABEL_PX, inner) {
        labels.push(Label::new(
            &line,
            Role::Footer,
            Anchor::Left,
            (MARGIN, footer_y + LABEL_PX * 0.7),
        ));
        footer_y += LABEL_PX * 1.4;
    }
    Ok(Layout {
        width,
        height: (footer_y + MARGIN).ceil(),
        plot,
        one: axis.x(1.0),
        ticks,
        labels,
        legend,
        bars: shapes,
        bands,
        spans,
    })
}

/// The legend, in lines under the caption: a swatch per implementation, in the lab's order, then
/// what pale bars, the band and the whiskers mean, where the chart has them.
fn legend(
    chart: &BarChart,
    labels: &mut Vec<Label>,
    y: &mut f64,
    inner: f64,
) -> Vec<(Swatch, Rect)> {
    let bars: Vec<&super::Bar> = chart.groups.iter().flat_map(|g| &g.bars).collect();
    let mut items: Vec<(Swatch, String)> =
        backends_in_order(bars.iter().map(|b| b.implementation.as_str()))
            .into_iter()
            .map(|name| (Swatch::Implementation(name.clone()), name))
            .collect();
    for bar in &bars {
        let known = items.iter().any(|(_, name)| *name == bar.implementation);
        if !known {
            items.push((
                Swatch::Implementation(bar.implementation.clone()),
                bar.implementation.clone(),
            ));
        }
    }
    if bars.iter().any(|b| b.inherited) {
        items.push((
            Swatch::Pale,
            "pale: inherited (another tier's code)".to_string(),
        ));
    }
    let mut legends: Vec<String> = Vec::new();
    for group in chart.groups.iter().filter(|g| !g.bars.is_empty()) {
        if let Some(text) = group.band.map(TieBand::legend)
            && !legends.contains(&text)
        {
            legends.push(text);
        }
    }
    items.extend(legends.into_iter().map(|text| (Swatch::Band, text)));
    if bars.iter().any(|b| b.interval.is_some()) {
        items.push((Swatch::Whisker, "whisker: 95 % interval".to_string()));
    }
    let step = TEXT_PX * 1.6;
    let (mut x, mut marks) = (MARGIN, Vec::new());
    *y += step / 2.0;
    for (swatch, text) in items {
        let room = 16.0 + 5.0 + text_width(&text, TEXT_PX);
        if x > MARGIN && x + room > MARGIN + inner {
            x = MARGIN;
            *y += step;
        }
        marks.push((
            swatch,
            Rect {
                x0: x,
                y0: *y - 6.0,
                x1: x + 16.0,
                y1: *y + 6.0,
            },
        ));
        labels.push(Label::new(
            &text,
            Role::Legend,
            Anchor::Left,
            (x + 21.0, *y),
        ));
        x += room + 16.0;
    }
    *y += step / 2.0;
    marks
}

impl Layout {
    /// Refuses the layout if two texts' boxes touch, a text leaves the drawing, a value label
    /// leaves the plot, or a value label covers a bar.
    pub fn check(&self) -> Result<()> {
        let page = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: self.width,
            y1: self.height,
        };
        for (i, a) in self.labels.iter().enumerate() {
            if !a.rect.inside(&page) {
                bail!("the chart's text \"{}\" leaves the drawing", a.text);
            }
            if a.role == Role::Value && !a.rect.inside(&self.plot) {
                bail!("the value label \"{}\" leaves the plot", a.text);
            }
            if let Some(b) = self.labels[i + 1..]
                .iter()
                .find(|b| a.rect.overlaps(&b.rect))
            {
                bail!(
                    "the chart's texts \"{}\" and \"{}\" overlap",
                    a.text,
                    b.text
                );
            }
            let covered = self.bars.iter().any(|bar| bar.rect.overlaps(&a.rect));
            if a.role == Role::Value && covered {
                bail!("the value label \"{}\" covers a bar", a.text);
            }
        }
        Ok(())
    }
}

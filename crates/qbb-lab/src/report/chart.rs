//! The look every chart of the lab shares (fonts, one colour per backend, pale bars for inherited
//! code, the footer) and the ratio chart both reports draw: every benchmark's ratio to scalar,
//! one horizontal bar per backend starting at 1×, on a log scale. SVG, through plotters.

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::table::format_ratio;
use super::{Figure, REFERENCE, Report};

pub const FONT: &str = "sans-serif";
/// Plotters writes SVG text at 0.65 of the nominal size; these sizes give 13, 14.5 and 19 px.
pub const SMALL: u32 = 20;
pub const MEDIUM: u32 = 22;
pub const LARGE: u32 = 29;
/// The height of the footer line.
pub const FOOTER: u32 = 30;

/// One colour per backend, the same in every chart.
pub fn color(backend: &str) -> RGBColor {
    match backend {
        "scalar" => RGBColor(127, 127, 127),
        "swar" => RGBColor(230, 126, 34),
        "sse2" => RGBColor(52, 101, 164),
        "avx2" => RGBColor(46, 139, 87),
        "avx512" => RGBColor(142, 68, 173),
        "portable" => RGBColor(192, 57, 43),
        _ => RGBColor(0, 0, 0),
    }
}

/// Inherited code is drawn pale (the colour blended with white, which every SVG viewer shows
/// alike): the bar measures another tier's routine.
pub fn bar_style(backend: &str, inherited: bool) -> ShapeStyle {
    let RGBColor(r, g, b) = color(backend);
    if inherited {
        let pale = |c: u8| (u16::from(c) + 2 * 255).div_ceil(3) as u8;
        RGBColor(pale(r), pale(g), pale(b)).filled()
    } else {
        RGBColor(r, g, b).filled()
    }
}

/// The faint grid behind the bars.
pub fn grid() -> ShapeStyle {
    BLACK.mix(0.08).stroke_width(1)
}

/// Plotters' drawing errors, as the lab reports them.
pub fn plot_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("drawing a chart: {e}")
}

/// The footer line under every chart, cut to the width of the narrowest chart.
pub fn footer(area: &DrawingArea<SVGBackend<'_>, Shift>, text: &str) -> Result<()> {
    let mut text = text.to_string();
    if text.chars().count() > 110 {
        text = text.chars().take(109).collect::<String>() + "…";
    }
    area.draw(&Text::new(
        text,
        (12, 8),
        (FONT, SMALL).into_font().color(&BLACK.mix(0.75)),
    ))
    .map_err(plot_error)
}

/// The captions of a ratio chart: what is particular to each report.
#[derive(Debug)]
pub struct RatioChart<'a> {
    pub title: &'a str,
    /// The description under the axis: what the ratio divides.
    pub x_desc: &'a str,
    pub footer: String,
    /// The corner of the legend: on the side of 1× the bars of the last benchmarks leave free.
    pub legend: SeriesLabelPosition,
}

impl<R: Figure> Report<R> {
    /// Every benchmark's ratio to scalar, one horizontal bar per backend starting at 1×, on a
    /// log scale; the first benchmark at the top, the backends in legend order.
    pub fn ratio_chart(&self, spec: &RatioChart<'_>) -> Result<String> {
        let groups = self.by_benchmark();
        let all_backends = self.backends();
        // The reference has no bar: its ratio is 1× by definition.
        let backends: Vec<&String> = all_backends
            .iter()
            .filter(|b| b.as_str() != REFERENCE.name())
            .collect();
        if groups.is_empty() || backends.is_empty() {
            return Err(anyhow!(
                "a ratio chart needs scalar and at least one other backend"
            ));
        }
        let ratios: Vec<f64> = self
            .results
            .iter()
            .filter_map(R::ratio)
            .filter(|s| s.is_finite() && *s > 0.0)
            .collect();
        let low = ratios.iter().copied().fold(0.5, f64::min) * 0.8;
        let high = ratios.iter().copied().fold(2.0, f64::max) * 1.25;

        let per_bar = 11u32;
        let group_height = per_bar * backends.len() as u32 + 10;
        let width = 1000u32;
        let height = 150 + FOOTER + group_height * groups.len() as u32;
        let label_width = 190u32;
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
            root.fill(&WHITE).map_err(plot_error)?;
            let (main, bottom) = root.split_vertically(height - FOOTER);
            footer(&bottom, &spec.footer)?;
            let n = groups.len() as f64;
            let mut chart = ChartBuilder::on(&main)
                .caption(spec.title, (FONT, LARGE))
                .margin(14)
                .x_label_area_size(46)
                .y_label_area_size(label_width)
                .build_cartesian_2d((low..high).log_scale(), 0f64..n)
                .map_err(plot_error)?;
            chart
                .configure_mesh()
                .disable_y_mesh()
                .light_line_style(TRANSPARENT)
                .bold_line_style(grid())
                .y_labels(0)
                .x_desc(spec.x_desc)
                .axis_desc_style((FONT, MEDIUM))
                .label_style((FONT, SMALL))
                .x_label_formatter(&|x| format!("{}×", format_ratio(*x)))
                .draw()
                .map_err(plot_error)?;

            let k = backends.len() as f64;
            for (j, backend) in backends.iter().enumerate() {
                let bars: Vec<(f64, f64, bool, Option<[f64; 2]>)> = groups
                    .iter()
                    .enumerate()
                    .filter_map(|(i, (_, rows))| {
                        let row = rows.iter().find(|r| &r.subject().backend == *backend)?;
                        let ratio = row.ratio()?;
                        // The first benchmark at the top, its backends top-down in legend order.
                        let y0 = n - 1.0 - i as f64 + 0.08 + 0.84 * (k - 1.0 - j as f64) / k;
                        let inherited = row.subject().is_inherited();
                        Some((y0, ratio, inherited, row.ratio_interval()))
                    })
                    .collect();
                let fill = color(backend);
                let height = 0.84 / k * 0.9;
                chart
                    .draw_series(bars.iter().map(|&(y0, ratio, inherited, _)| {
                        Rectangle::new(
                            [(1.0, y0), (ratio, y0 + height)],
                            bar_style(backend, inherited),
                        )
                    }))
                    .map_err(plot_error)?
                    .label(backend.as_str())
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 6), (x + 14, y + 6)], fill.filled())
                    });
                // The ratio's interval, where the report has one, as a line through the bar.
                chart
                    .draw_series(bars.iter().filter_map(|&(y0, _, _, interval)| {
                        let [low, high] = interval?;
                        let y = y0 + height / 2.0;
                        Some(PathElement::new(
                            [(low, y), (high, y)],
                            BLACK.mix(0.7).stroke_width(1),
                        ))
                    }))
                    .map_err(plot_error)?;
            }
            chart
                .draw_series(LineSeries::new(
                    [(1.0, 0.0), (1.0, n)],
                    BLACK.stroke_width(1),
                ))
                .map_err(plot_error)?;
            chart
                .configure_series_labels()
                .position(spec.legend.clone())
                .background_style(WHITE.mix(0.9))
                .border_style(BLACK.mix(0.4))
                .label_font((FONT, SMALL))
                .draw()
                .map_err(plot_error)?;

            let label_style =
                TextStyle::from((FONT, SMALL).into_font()).pos(Pos::new(HPos::Right, VPos::Center));
            for (i, (id, _)) in groups.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(low, n - 0.5 - i as f64));
                root.draw(&Text::new(id.to_string(), (x - 8, y), label_style.clone()))
                    .map_err(plot_error)?;
            }
            root.present().map_err(plot_error)?;
        }
        Ok(svg)
    }
}

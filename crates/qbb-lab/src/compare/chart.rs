//! The charts of a comparison, as SVG (plotters): one bar chart per benchmark (nanoseconds per
//! call of each backend, the spread of the samples as an error bar) and an overview of every
//! benchmark's speed-up over scalar on a log scale, drawn by the ratio chart that also shows the
//! instruction counts. Each names the machine in its footer.

use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::results::{Results, Row};
use super::table::{format_ratio, three_digits};

const FONT: &str = "sans-serif";
/// Plotters writes SVG text at 0.65 of the nominal size; these sizes give 13, 14.5 and 19 px.
const SMALL: u32 = 20;
const MEDIUM: u32 = 22;
const LARGE: u32 = 29;
const FOOTER: u32 = 30;

/// One colour per backend, the same in every chart.
fn color(backend: &str) -> RGBColor {
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
fn bar_style(backend: &str, inherited: bool) -> ShapeStyle {
    let RGBColor(r, g, b) = color(backend);
    if inherited {
        let pale = |c: u8| (u16::from(c) + 2 * 255).div_ceil(3) as u8;
        RGBColor(pale(r), pale(g), pale(b)).filled()
    } else {
        RGBColor(r, g, b).filled()
    }
}

/// An axis value without needless decimals: `0`, `2.5`, `400`.
fn axis_number(y: f64) -> String {
    let text = format!("{y:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The faint grid behind the bars.
fn grid() -> ShapeStyle {
    BLACK.mix(0.08).stroke_width(1)
}

fn plot_error(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!("drawing a chart: {e}")
}

/// The footer of a comparison's charts: the machine and the source of the numbers in brief (the
/// full command is in results.md).
fn footer_text(results: &Results) -> String {
    let source = match results.source.split_once(" (") {
        Some(("criterion", _)) => "criterion (cargo bench)",
        _ => results.source.as_str(),
    };
    format!("{}; {source}", results.machine.caption())
}

/// The footer line under every chart, cut to the width of the narrowest chart.
fn footer(area: &DrawingArea<SVGBackend<'_>, Shift>, text: &str) -> Result<()> {
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

/// The bar chart of one benchmark: `rows` are its backends in order.
pub fn benchmark(results: &Results, rows: &[&Row]) -> Result<String> {
    let first = rows.first().ok_or_else(|| anyhow!("a chart needs rows"))?;
    let (width, height) = (880u32, 460u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_error)?;
        let (main, bottom) = root.split_vertically(height - FOOTER);
        footer(&bottom, &footer_text(results))?;
        let top = rows
            .iter()
            .map(|r| r.ns_max.max(r.ns_per_op))
            .fold(0.0, f64::max);
        let names: Vec<String> = rows.iter().map(|r| r.backend.clone()).collect();
        let title = format!("{}: {}", first.benchmark, first.title);
        let mut chart = ChartBuilder::on(&main)
            .caption(title, (FONT, LARGE))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(70)
            // A segmented range `0..n` has n + 1 segments; the last backend is `n - 1`.
            .build_cartesian_2d((0..rows.len() - 1).into_segmented(), 0f64..top * 1.2)
            .map_err(plot_error)?;
        let what = if first.is_latency() {
            "latency"
        } else {
            "throughput"
        };
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(grid())
            .x_desc("backend (pale: inherits another tier's code)")
            .y_desc(format!("ns per call, {what} (lower is better)"))
            .axis_desc_style((FONT, MEDIUM))
            .label_style((FONT, SMALL))
            .x_label_formatter(&|v| match v {
                SegmentValue::CenterOf(i) => names.get(*i).cloned().unwrap_or_default(),
                _ => String::new(),
            })
            .y_label_formatter(&|y| axis_number(*y))
            .draw()
            .map_err(plot_error)?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                let mut bar = Rectangle::new(
                    [
                        (SegmentValue::Exact(i), 0.0),
                        (SegmentValue::Exact(i + 1), r.ns_per_op),
                    ],
                    bar_style(&r.backend, r.is_inherited()),
                );
                bar.set_margin(0, 0, 18, 18);
                bar
            }))
            .map_err(plot_error)?;
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                ErrorBar::new_vertical(
                    SegmentValue::CenterOf(i),
                    r.ns_min,
                    r.ns_per_op,
                    r.ns_max,
                    BLACK.mix(0.6).stroke_width(1),
                    10,
                )
            }))
            .map_err(plot_error)?;
        let label_style =
            TextStyle::from((FONT, SMALL).into_font()).pos(Pos::new(HPos::Center, VPos::Bottom));
        chart
            .draw_series(rows.iter().enumerate().map(|(i, r)| {
                let mut label = format!("{} ns", three_digits(r.ns_per_op));
                if let Some(s) = r.speedup_vs_scalar.filter(|_| r.backend != "scalar") {
                    label.push_str(&format!(", {}×", format_ratio(s)));
                }
                Text::new(
                    label,
                    (
                        SegmentValue::CenterOf(i),
                        r.ns_max.max(r.ns_per_op) + top * 0.02,
                    ),
                    label_style.clone(),
                )
            }))
            .map_err(plot_error)?;
        root.present().map_err(plot_error)?;
    }
    Ok(svg)
}

/// Every benchmark's speed-up over scalar, one horizontal bar per backend starting at 1×, on a
/// log scale: right of the line is faster than scalar, left is slower.
pub fn overview(results: &Results) -> Result<String> {
    let groups = results
        .by_benchmark()
        .into_iter()
        .map(|(id, rows)| {
            let bars = rows
                .iter()
                .filter_map(|r| {
                    let ratio = r.speedup_vs_scalar?;
                    Some(RatioBar {
                        backend: r.backend.clone(),
                        ratio,
                        inherited: r.is_inherited(),
                    })
                })
                .collect();
            (id.to_string(), bars)
        })
        .collect();
    ratio_chart(&RatioChart {
        title: "Speed-up over scalar of every benchmark (log scale; right of 1× is faster)",
        x_desc: "speed-up over scalar = scalar ns per call / backend ns per call (pale: inherited code)",
        backends: results.backends(),
        groups,
        footer: footer_text(results),
        // Speed-ups mostly reach right of 1×, the latency rows at the bottom left of it.
        legend: SeriesLabelPosition::LowerRight,
    })
}

/// One backend's bar in a ratio chart: its figure relative to scalar's.
#[derive(Debug)]
pub struct RatioBar {
    pub backend: String,
    pub ratio: f64,
    /// Drawn pale: the backend runs another tier's code.
    pub inherited: bool,
}

/// Every benchmark's ratio to scalar, one horizontal bar per backend starting at 1×, on a log
/// scale.
#[derive(Debug)]
pub struct RatioChart<'a> {
    pub title: &'a str,
    /// The description under the axis: what the ratio divides.
    pub x_desc: &'a str,
    /// The backends in legend order; scalar, the reference, has no bar.
    pub backends: Vec<String>,
    /// The benchmarks top-down, each with its bars.
    pub groups: Vec<(String, Vec<RatioBar>)>,
    pub footer: String,
    /// The corner of the legend: on the side of 1× the bars of the last benchmarks leave free.
    pub legend: SeriesLabelPosition,
}

pub fn ratio_chart(spec: &RatioChart<'_>) -> Result<String> {
    let groups = &spec.groups;
    let backends: Vec<&String> = spec.backends.iter().filter(|b| *b != "scalar").collect();
    if groups.is_empty() || backends.is_empty() {
        return Err(anyhow!(
            "the overview needs scalar and at least one other backend"
        ));
    }
    let ratios: Vec<f64> = groups
        .iter()
        .flat_map(|(_, bars)| bars.iter().map(|b| b.ratio))
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
            let bars: Vec<(f64, &RatioBar)> = groups
                .iter()
                .enumerate()
                .filter_map(|(i, (_, bars))| {
                    let bar = bars.iter().find(|b| &b.backend == *backend)?;
                    // The first benchmark at the top, its backends top-down in legend order.
                    let y0 = n - 1.0 - i as f64 + 0.08 + 0.84 * (k - 1.0 - j as f64) / k;
                    Some((y0, bar))
                })
                .collect();
            let fill = color(backend);
            chart
                .draw_series(bars.iter().map(|&(y0, bar)| {
                    Rectangle::new(
                        [(1.0, y0), (bar.ratio, y0 + 0.84 / k * 0.9)],
                        bar_style(&bar.backend, bar.inherited),
                    )
                }))
                .map_err(plot_error)?
                .label(backend.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], fill.filled()));
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

#[cfg(test)]
mod tests {
    use super::super::results::tests::sample;
    use super::*;

    #[test]
    fn a_benchmark_chart_names_routine_units_backends_and_machine() {
        let results = sample();
        let groups = results.by_benchmark();
        let (_, rows) = &groups[1];
        let svg = benchmark(&results, rows).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        for text in [
            "hex-sets: quad -&gt; 16 sets",
            "ns per call",
            "avx2",
            "swar",
            "5.0×",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
        assert!(svg.contains(&results.machine.id));
    }

    #[test]
    fn the_overview_has_a_bar_label_per_benchmark_and_a_legend() {
        let results = sample();
        let svg = overview(&results).unwrap();
        for text in [
            "hex-sets",
            "flip",
            "piece-at-latency",
            "log scale",
            "avx2",
            "swar",
        ] {
            assert!(svg.contains(text), "missing {text}");
        }
    }

    #[test]
    fn axis_numbers_drop_needless_decimals() {
        assert_eq!(axis_number(0.0), "0");
        assert_eq!(axis_number(400.0), "400");
        assert_eq!(axis_number(2.5), "2.5");
        assert_eq!(axis_number(0.25), "0.25");
    }

    #[test]
    fn the_overview_needs_another_backend_than_scalar() {
        let mut results = sample();
        results.results.retain(|r| r.backend == "scalar");
        assert!(overview(&results).is_err());
    }
}

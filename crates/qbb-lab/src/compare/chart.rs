//! The charts of the timings, as SVG: one bar chart per benchmark (nanoseconds per call of each
//! backend, the spread of the samples as an error bar) and the overview of every benchmark's
//! speed-up over its baseline, drawn by the report's ratio chart. Each names the machine in its footer.

use anyhow::{Result, anyhow};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::results::{Results, Row};
use crate::report::Figure;
use crate::report::chart::{
    FONT, FOOTER, LARGE, MEDIUM, RatioChart, SMALL, bar_style, footer, grid, plot_error,
};

/// An axis value without needless decimals: `0`, `2.5`, `400`.
fn axis_number(y: f64) -> String {
    let text = format!("{y:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
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
        let names: Vec<String> = rows.iter().map(|r| r.subject.backend.clone()).collect();
        let title = format!("{}: {}", first.subject.benchmark, first.subject.title);
        let mut chart = ChartBuilder::on(&main)
            .caption(title, (FONT, LARGE))
            .margin(14)
            .x_label_area_size(46)
            .y_label_area_size(70)
            // A segmented range `0..n` has n + 1 segments; the last backend is `n - 1`.
            .build_cartesian_2d((0..rows.len() - 1).into_segmented(), 0f64..top * 1.2)
            .map_err(plot_error)?;
        let what = if first.subject.is_latency() {
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
                    bar_style(&r.subject.backend, r.subject.is_inherited()),
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
                let mut label = r.value_text();
                if let Some(s) = r.speedup_vs_scalar.filter(|_| !r.subject.is_reference()) {
                    label.push_str(&format!(", {}×", Row::RATIO.text(s)));
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

/// Every benchmark's speed-up over its baseline, one horizontal bar per implementation starting
/// at 1×, on a log scale, with its 95 % interval as a line through the bar where the run has one:
/// right of the line is faster than the best scalar-class code.
pub fn overview(results: &Results) -> Result<String> {
    let paired = results.results.iter().any(|r| r.speedup_interval.is_some());
    results.ratio_chart(&RatioChart {
        title: "Speed-up over the baseline of every benchmark (log scale; right of 1× is faster)",
        x_desc: if paired {
            "speed-up over the baseline (fastest of scalar, swar, scalar-v3, swar-v3): the median \
             of the turns' ratios, its 95 % interval as a line (pale: inherited)"
        } else {
            "speed-up = baseline ns per call / ns per call; baseline = fastest of scalar, swar, \
             scalar-v3, swar-v3 (pale: inherited)"
        },
        footer: footer_text(results),
        // Speed-ups mostly reach right of 1×, the latency rows at the bottom left of it.
        legend: SeriesLabelPosition::LowerRight,
    })
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::sample;
    use super::*;
    use crate::testing::{assert_contains_all, assert_writes};

    #[test]
    fn a_benchmark_chart_names_routine_units_backends_and_machine() {
        let results = sample();
        let groups = results.by_benchmark();
        let (_, rows) = &groups[1];
        let svg = benchmark(&results, rows).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        let title = "hex-sets: quad -&gt; 16 sets";
        let machine = results.machine.id.as_str();
        assert_contains_all(
            &svg,
            &[title, "ns per call", "avx2", "swar", "5.0×", machine],
        );
    }

    #[test]
    fn the_overview_has_a_bar_label_per_benchmark_and_a_legend() {
        let results = sample();
        let svg = overview(&results).unwrap();
        let texts = [
            "hex-sets",
            "flip",
            "piece-at-latency",
            "log scale",
            "avx2",
            "swar",
        ];
        assert_contains_all(&svg, &texts);
    }

    #[test]
    fn axis_numbers_drop_needless_decimals() {
        assert_writes(
            axis_number,
            &[(0.0, "0"), (400.0, "400"), (2.5, "2.5"), (0.25, "0.25")],
        );
    }

    #[test]
    fn the_overview_needs_another_backend_than_scalar() {
        let mut results = sample();
        results.results.retain(|r| r.subject.is_reference());
        assert!(overview(&results).is_err());
    }
}

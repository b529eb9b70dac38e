//! The charts' layout: no two texts touch, none leaves the drawing, no value label leaves the
//! plot, on crowded charts of every shape the lab draws.

use super::layout::{Layout, Rect, Role, lay_out};
use super::*;

fn bar(implementation: &str, ratio: f64, interval: Option<[f64; 2]>, inherited: bool) -> Bar {
    Bar {
        implementation: implementation.to_string(),
        ratio,
        interval,
        inherited,
        label: if ratio == 1.0 {
            "baseline".to_string()
        } else {
            format!("{ratio:.3}×")
        },
    }
}

/// A benchmark like nibble-add: scalar a hundredth of the baseline, the SIMD tiers hundreds of
/// times faster, several bars within a few per cent of each other.
fn crowded_group(heading: &str, band: Option<TieBand>) -> Group {
    Group {
        heading: heading.to_string(),
        bars: vec![
            bar("scalar", 0.0103, None, false),
            bar("swar", 0.99, Some([0.97, 1.01]), true),
            bar("scalar-v3", 0.0102, None, false),
            bar("swar-v3", 1.0, Some([1.0, 1.0]), false),
            bar("sse2", 1.02, Some([0.98, 1.05]), false),
            bar("avx2", 233.0, Some([230.0, 236.0]), false),
            bar("avx512", 1480.0, Some([1400.0, 1560.0]), false),
            bar("portable", 231.5, None, true),
        ],
        band,
        empty: String::new(),
    }
}

/// A small generator of ratios, so the charts below are the same on every run.
fn ratios(seed: u64, n: usize) -> Vec<f64> {
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // From 1/1000 to 1000, log-uniform.
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            (unit * 6.0 - 3.0) * std::f64::consts::LN_10
        })
        .map(f64::exp)
        .collect()
}

/// Charts of every shape: a machine per group and a benchmark per group, narrow and wide, long
/// headings and captions, a group with no bars, random ratios and intervals.
fn charts() -> Vec<BarChart> {
    let long = "A caption long enough to need several lines: what the ratio divides, which way \
                is better, where the interval comes from, and what the band around 1× means.";
    let mut all = Vec::new();
    for width in [560.0, 900.0] {
        let empty = Group {
            heading: "amd-epyc-f23m1: AMD EPYC, family 23, model 1; rustc 1.97.0, 2026-11-25"
                .to_string(),
            bars: Vec::new(),
            band: Some(TieBand::NoiseFloor(0.03)),
            empty: "not measured in this report".to_string(),
        };
        all.push(BarChart {
            title: "nibble-add: SWAR nibble add, on every machine with a report".to_string(),
            caption: long.to_string(),
            groups: vec![
                crowded_group(
                    "amd-epyc-f26m2: AMD EPYC, family 26, model 2",
                    Some(TieBand::Margin(0.01)),
                ),
                crowded_group(
                    "amd-epyc-f25m1: AMD EPYC, family 25, model 1",
                    Some(TieBand::NoiseFloor(0.29)),
                ),
                empty,
            ],
            footer: long.repeat(2),
            width,
        });
        for seed in 1..6 {
            let groups = (0..12)
                .map(|g| {
                    let names = ["scalar", "swar", "scalar-v3", "swar-v3", "sse2", "avx2"];
                    let bars = names
                        .iter()
                        .zip(ratios(seed * 100 + g, names.len()))
                        .enumerate()
                        .map(|(i, (name, r))| {
                            let interval = (i % 2 == 0).then_some([r * 0.8, r * 1.3]);
                            bar(name, r, interval, i % 3 == 0)
                        })
                        .collect();
                    Group {
                        heading: format!("benchmark-{g}: a routine"),
                        bars,
                        band: Some(TieBand::NoiseFloor(0.05 * seed as f64)),
                        empty: String::new(),
                    }
                })
                .collect();
            all.push(BarChart {
                title: "Every benchmark".to_string(),
                caption: long.to_string(),
                groups,
                footer: "made-up".to_string(),
                width,
            });
        }
    }
    all
}

fn value_labels(layout: &Layout) -> impl Iterator<Item = &layout::Label> {
    layout.labels.iter().filter(|l| l.role == Role::Value)
}

#[test]
fn no_two_texts_overlap_and_none_leaves_the_drawing_or_its_plot() {
    for chart in charts() {
        let layout = lay_out(&chart).unwrap();
        let page = Rect {
            x0: 0.0,
            y0: 0.0,
            x1: layout.width,
            y1: layout.height,
        };
        let bars: usize = chart.groups.iter().map(|g| g.bars.len()).sum();
        assert_eq!(value_labels(&layout).count(), bars);
        for (i, a) in layout.labels.iter().enumerate() {
            assert!(a.rect.inside(&page), "{a:?} leaves the {page:?}");
            if a.role == Role::Value {
                assert!(a.rect.inside(&layout.plot), "{a:?} leaves the plot");
                for shape in &layout.bars {
                    assert!(!a.rect.overlaps(&shape.rect), "{a:?} covers {shape:?}");
                }
            }
            for b in &layout.labels[i + 1..] {
                assert!(!a.rect.overlaps(&b.rect), "{a:?} overlaps {b:?}");
            }
        }
        assert!(layout.check().is_ok());
    }
}

#[test]
fn the_check_refuses_labels_that_touch_or_leave_the_plot() {
    let chart = &charts()[0];
    let layout = lay_out(chart).unwrap();
    let mut touching = layout.clone();
    let first = touching
        .labels
        .iter()
        .position(|l| l.role == Role::Value)
        .unwrap();
    let next = touching.labels[first + 1..]
        .iter()
        .position(|l| l.role == Role::Value)
        .unwrap()
        + first
        + 1;
    touching.labels[next].rect = touching.labels[first].rect;
    assert!(
        touching
            .check()
            .unwrap_err()
            .to_string()
            .contains("overlap")
    );
    let mut outside = layout.clone();
    let label = outside
        .labels
        .iter_mut()
        .find(|l| l.role == Role::Value)
        .unwrap();
    let shift = layout.plot.x1 - label.rect.x0 - 1.0;
    (label.rect.x0, label.rect.x1) = (label.rect.x0 + shift, label.rect.x1 + shift);
    assert!(outside.check().is_err());
}

#[test]
fn labels_sit_beyond_their_bars_and_whiskers() {
    let chart = &charts()[0];
    let layout = lay_out(chart).unwrap();
    let values: Vec<&layout::Label> = value_labels(&layout).collect();
    for (label, shape) in values.iter().zip(&layout.bars) {
        let (low, high) = shape.whisker.unwrap_or((shape.rect.x0, shape.rect.x1));
        let beyond =
            label.rect.x0 >= shape.rect.x1.max(high) || label.rect.x1 <= shape.rect.x0.min(low);
        assert!(beyond, "{label:?} on {shape:?}");
    }
    // The axis is a log axis: 2× and 0.5× lie as far from 1× on either side.
    let ticks = &layout.ticks;
    let one = ticks
        .iter()
        .position(|&x| (x - layout.one).abs() < 1e-9)
        .unwrap();
    let (left, right) = (layout.one - ticks[one - 1], ticks[one + 1] - layout.one);
    assert!((left - right).abs() < 1e-6, "{left} {right}");
}

#[test]
fn the_legend_is_at_the_top_and_names_every_implementation_and_pale_bars() {
    let chart = &charts()[0];
    let layout = lay_out(chart).unwrap();
    let legend: Vec<&str> = layout
        .labels
        .iter()
        .filter(|l| l.role == Role::Legend)
        .map(|l| l.text.as_str())
        .collect();
    assert_eq!(
        &legend[..8],
        [
            "scalar",
            "swar",
            "scalar-v3",
            "swar-v3",
            "sse2",
            "avx2",
            "avx512",
            "portable"
        ]
    );
    assert!(legend[8].starts_with("pale: inherited"), "{legend:?}");
    // One group shaded by the tie margin, one by its noise floor: the legend says both, once.
    assert_eq!(
        &legend[9..11],
        [
            "shaded: within 1 % of 1× (a whisker reaching in is a tie)",
            "shaded: the run's noise floor"
        ]
    );
    assert_eq!(legend[11], "whisker: 95 % interval");
    let bottom = layout.legend.iter().map(|(_, r)| r.y1).fold(0.0, f64::max);
    assert!(bottom < layout.plot.y0);
}

#[test]
fn implementations_have_distinct_colours() {
    let names = [
        "scalar",
        "swar",
        "scalar-v3",
        "swar-v3",
        "sse2",
        "avx2",
        "avx512",
        "portable",
    ];
    for (i, a) in names.iter().enumerate() {
        for b in &names[i + 1..] {
            assert_ne!(color(a), color(b), "{a} and {b}");
        }
    }
}

#[test]
fn value_labels_have_three_significant_digits() {
    let cases = [
        (1.4249, "1.42"),
        (27.34, "27.3"),
        (233.4, "233"),
        (0.0053, "0.0053"),
        (0.9996, "1.00"),
    ];
    for (x, text) in cases {
        assert_eq!(ratio::three_significant(x), text);
    }
}

#[test]
fn wrapped_lines_fit_and_keep_every_word() {
    let text = "the quick brown fox jumps over the lazy dog ".repeat(5);
    let lines = wrap(&text, TEXT_PX, 200.0);
    assert!(lines.len() > 3);
    assert!(lines.iter().all(|l| text_width(l, TEXT_PX) <= 200.0));
    assert_eq!(lines.join(" "), text.trim_end());
    let held = wrap(
        "run by qbb\u{a0}compare\u{a0}--repeat\u{a0}2",
        TEXT_PX,
        90.0,
    );
    assert_eq!(
        held.last().unwrap(),
        "qbb\u{a0}compare\u{a0}--repeat\u{a0}2"
    );
}

#[test]
fn the_svg_holds_every_text_of_the_layout() {
    let chart = &charts()[0];
    let svg = render(chart).unwrap();
    for label in lay_out(chart).unwrap().labels {
        let text = label.text.replace('\'', "&apos;");
        assert!(svg.contains(&text), "{text}");
    }
}

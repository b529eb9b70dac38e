//! The charts of the timings, as SVG: one chart per benchmark (each implementation's speed-up
//! over the benchmark's baseline, a group per machine: one in a machine's own report, every
//! report's side by side in `qbb charts`) and the overview of one run (a group per benchmark).
//! Both are the report's bar charts on a log axis, the speed-up's interval as a whisker and the
//! ratios that are ties as a band around 1× ([`Report::tie_band`](crate::report::Report)).

use anyhow::{Result, anyhow};

use super::results::{Results, Row};
use crate::report::chart::{BarChart, Group, RatioChart, render};
use crate::report::machine::short_compiler;

/// What every speed-up in these charts is.
const SPEEDUP: &str = "Speed-up over the baseline, the fastest of scalar, swar, scalar-v3 and \
    swar-v3 for the benchmark on that machine; log scale, right of 1× is faster. A run timed in \
    turns gives the median of the turns' paired ratios, an older run the ratio of the medians.";

/// Where a run's figures come from, in brief (the full command is in results.md).
fn source(results: &Results) -> &str {
    match results.source.split_once(" (") {
        Some(("criterion", _)) => "criterion (cargo bench)",
        _ => results.source.as_str(),
    }
}

/// The footer of a chart: each run's machine and source.
fn footer(reports: &[&Results]) -> String {
    let runs: Vec<String> = reports
        .iter()
        // A command is not broken across lines: its spaces do not break.
        .map(|r| format!("{}: {}", r.machine.id, source(r).replace(' ', "\u{a0}")))
        .collect();
    format!("From results.json of {}", runs.join("; "))
}

/// A machine's group heading: its report's folder name, its CPU, the compiler, the day and the
/// run's noise floor.
fn heading(results: &Results) -> String {
    let m = &results.machine;
    // `family 26, model 2, stepping 1, ...`: the first two name the CPU's generation.
    let generation: Vec<&str> = m
        .cpu_details
        .split(", ")
        .take_while(|part| part.starts_with("family") || part.starts_with("model"))
        .collect();
    let cpu = if generation.is_empty() {
        m.cpu.clone()
    } else {
        format!("{}, {}", m.cpu, generation.join(", "))
    };
    let noise = results.noise.map_or(String::new(), |n| {
        format!("; noise floor {:.1} %", n * 100.0)
    });
    format!(
        "{}: {cpu}; {}, {}{noise}",
        m.id,
        short_compiler(&m.rustc),
        m.day()
    )
}

/// The chart of benchmark `id`: a group per report, in the order given.
pub fn benchmark(reports: &[&Results], id: &str) -> Result<String> {
    fn rows_of<'a>(results: &'a Results, id: &str) -> Vec<&'a Row> {
        let rows = results.results.iter();
        rows.filter(|r| r.subject.benchmark == id).collect()
    }
    let title = reports
        .iter()
        .find_map(|r| rows_of(r, id).first().map(|row| row.subject.title.clone()))
        .ok_or_else(|| anyhow!("no report has a row of the benchmark `{id}`"))?;
    let groups = reports
        .iter()
        .map(|results| {
            let rows = rows_of(results, id);
            Group {
                heading: heading(results),
                bars: results.bars(&rows),
                band: results.tie_band(),
                empty: if rows.is_empty() {
                    "not measured in this report".to_string()
                } else {
                    "no speed-up over a baseline in this report".to_string()
                },
            }
        })
        .collect();
    render(&BarChart {
        title: format!("{id}: {title}"),
        caption: SPEEDUP.to_string(),
        groups,
        footer: footer(reports),
        width: crate::report::chart::WIDTH,
    })
}

/// Every benchmark's speed-up over its baseline, a group per benchmark.
pub fn overview(results: &Results) -> Result<String> {
    let footer = format!("{}. {}", heading(results), footer(&[results]));
    results.ratio_chart(&RatioChart {
        title: "Speed-up over the baseline of every benchmark",
        caption: SPEEDUP,
        footer,
    })
}

#[cfg(test)]
mod tests {
    use super::super::results::tests::sample;
    use super::*;
    use crate::testing::assert_contains_all;

    #[test]
    fn a_benchmark_chart_has_a_group_per_report_and_no_naive_ratio() {
        let results = sample();
        let mut other = sample();
        other.machine.id = "other-machine".to_string();
        other.results.retain(|r| r.subject.benchmark != "hex-sets");
        let svg = benchmark(&[&results, &other], "hex-sets").unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
        let machine = results.machine.id.as_str();
        // hex-sets: swar is the baseline, avx2 2.5 times faster, scalar at half swar's speed.
        let texts = [
            "hex-sets: quad -&gt; 16 sets",
            machine,
            "other-machine",
            "not measured in this report",
            "baseline",
            "2.50×",
            "0.500×",
        ];
        assert_contains_all(&svg, &texts);
        // avx2's naive ratio over scalar (5×) is no label.
        assert!(!svg.contains("5.00×") && !svg.contains(">5×"), "{svg}");
        assert!(benchmark(&[&results], "nibble-add").is_err());
    }

    #[test]
    fn the_overview_has_a_group_per_benchmark_and_a_legend() {
        let results = sample();
        let svg = overview(&results).unwrap();
        let texts = [
            "hex-sets: quad",
            "flip: ",
            "piece-at-latency",
            "log scale",
            "avx2",
            "swar",
            "pale: inherited",
        ];
        assert_contains_all(&svg, &texts);
    }

    #[test]
    fn scalar_alone_is_its_own_baseline() {
        let mut results = sample();
        results.results.retain(|r| r.subject.is_reference());
        assert!(overview(&results).unwrap().contains("baseline"));
    }
}

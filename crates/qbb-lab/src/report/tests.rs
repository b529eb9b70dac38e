//! The generic report on a figure of its own: a tally per call, ratios taken either way.

use std::fs;
use std::path::PathBuf;

use qbb::BackendKind;
use serde::{Deserialize, Serialize};

use super::chart::RatioChart;
use super::files::{cargo_command, out_dir, write};
use super::machine::Machine;
use super::table::{
    BEST, Cell, INHERITED, format_fraction, format_ratio, legend, machine_table, three_digits,
};
use super::*;
use crate::testing::{
    assert_contains_all, assert_fails_with, assert_writes, made_up_report, scratch, swar_inherits,
};

/// A row of a made-up report: a tally, its ratio a speed-up or a share as `SPEEDUP` says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Tally<const SPEEDUP: bool> {
    #[serde(flatten)]
    subject: Subject,
    tally: f64,
    ratio: Option<f64>,
}

impl<const SPEEDUP: bool> Figure for Tally<SPEEDUP> {
    const RATIO: Ratio = if SPEEDUP {
        Ratio::ReferenceOverRow
    } else {
        Ratio::RowOverReference
    };
    const AGAINST: Against = Against::Reference;

    subject_and_ratio_fields!(ratio);

    fn value(&self) -> f64 {
        self.tally
    }

    fn value_text(&self) -> String {
        format!("{} t", self.tally)
    }
}

/// A row of a made-up report; swar is marked as inheriting, whatever the backends say today.
fn tally<const SPEEDUP: bool>(bench: &str, backend: &str, tally: f64) -> Tally<SPEEDUP> {
    let kind: BackendKind = backend.parse().unwrap();
    let mut subject = Subject::new(bench.parse().unwrap(), kind);
    swar_inherits(&mut subject);
    Tally {
        subject,
        tally,
        ratio: None,
    }
}

/// Rows out of order: `flip` has no scalar row, `hex-sets` ties swar with sse2, swar inherits.
fn report<const SPEEDUP: bool>() -> Report<Tally<SPEEDUP>> {
    made_up_report(
        "tallies",
        vec![
            tally("flip", "avx2", 5.0),
            tally("hex-sets", "sse2", 4.0),
            tally("hex-sets", "scalar", 12.0),
            tally("hex-sets", "swar", 4.0),
            tally("piece-at", "scalar", 3.0),
            tally("piece-at", "avx2", 9.0),
        ],
    )
}

fn keys<R: Figure>(rows: &[&R]) -> Vec<String> {
    rows.iter()
        .map(|r| format!("{} {}", r.subject().benchmark, r.subject().backend))
        .collect()
}

#[test]
fn rows_are_sorted_by_benchmark_then_backend_and_grouped() {
    let report = report::<true>();
    let all: Vec<&Tally<true>> = report.results.iter().collect();
    assert_eq!(
        keys(&all),
        [
            "piece-at scalar",
            "piece-at avx2",
            "hex-sets scalar",
            "hex-sets swar",
            "hex-sets sse2",
            "flip avx2",
        ]
    );
    let groups = report.by_benchmark();
    let ids: Vec<&str> = groups.iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, ["piece-at", "hex-sets", "flip"]);
    assert_eq!(groups[1].1.len(), 3);
    assert_eq!(report.backends(), ["scalar", "swar", "sse2", "avx2"]);
}

#[test]
fn ratios_are_taken_against_scalar_either_way_and_rounded() {
    let speedups: Vec<Option<f64>> = report::<true>().results.iter().map(|r| r.ratio).collect();
    assert_eq!(
        speedups,
        [
            Some(1.0),
            Some(0.3333),
            Some(1.0),
            Some(3.0),
            Some(3.0),
            None
        ]
    );
    let shares: Vec<Option<f64>> = report::<false>().results.iter().map(|r| r.ratio).collect();
    assert_eq!(
        shares,
        [
            Some(1.0),
            Some(3.0),
            Some(1.0),
            Some(0.3333),
            Some(0.3333),
            None
        ]
    );
    assert_eq!(Ratio::ReferenceOverRow.of(2.0, 10.0), 5.0);
    assert_eq!(Ratio::RowOverReference.of(2.0, 10.0), 0.2);
    // A share may be far below 1 and keeps its second digit there; a speed-up so low does not.
    assert_eq!(Ratio::ReferenceOverRow.text(0.0334), "0.03");
    assert_eq!(Ratio::RowOverReference.text(0.0334), "0.033");
    assert_eq!(round4(2.0 / 3.0), 0.6667);
}

#[test]
fn the_best_row_is_the_lowest_finite_figure_the_first_of_equals() {
    let mut report = report::<true>();
    let groups = report.by_benchmark();
    assert_eq!(best(&groups[1].1).unwrap().subject.backend, "swar");
    assert_eq!(best(&groups[0].1).unwrap().subject.backend, "scalar");
    report.results[0].tally = f64::NAN;
    let groups = report.by_benchmark();
    assert_eq!(best(&groups[0].1).unwrap().subject.backend, "avx2");
    assert!(best::<Tally<true>>(&[]).is_none());
}

#[test]
fn the_table_has_a_column_per_backend_and_marks_the_best_cell() {
    let table = report::<true>().table();
    assert_eq!(
        table.header,
        [
            "benchmark",
            "scalar",
            "swar",
            "sse2 (x86-64-v2)",
            "avx2 (x86-64-v3)"
        ]
    );
    let cell = |text: &str, best: bool| Cell {
        text: text.to_string(),
        best,
    };
    assert_eq!(
        table.rows[0],
        [
            Cell::plain("piece-at"),
            cell("3 t", true),
            Cell::plain("-"),
            Cell::plain("-"),
            cell("9 t 0.33×", false),
        ]
    );
    // The reference's own ratio is left out; the inherited cell carries the dagger.
    assert_eq!(table.rows[1][1], cell("12 t", false));
    assert_eq!(
        table.rows[1][2],
        cell(&format!("4 t 3.0×{INHERITED}"), true)
    );
    // Equal figures are a tie: both are marked.
    assert_eq!(table.rows[1][3], cell("4 t 3.0×", true));
    // A benchmark measured on one backend only has no best cell, nor a ratio without scalar.
    assert_eq!(table.rows[2][4], cell("5 t", false));
}

#[test]
fn markdown_and_terminal_write_the_same_cells() {
    let table = report::<false>().table();
    let md = table.markdown();
    let lines: Vec<&str> = md.lines().collect();
    assert_eq!(
        lines[0],
        "| benchmark | scalar | swar | sse2 (x86-64-v2) | avx2 (x86-64-v3) |"
    );
    assert_eq!(lines[1], "| --- | ---: | ---: | ---: | ---: |");
    assert_eq!(lines[2], "| piece-at | **3 t** | - | - | 9 t 3.0× |");
    assert_eq!(lines[4], "| flip | - | - | - | 5 t |");
    assert_eq!(lines.len(), 5);

    let text = table.terminal("the legend");
    assert!(text.contains("│ piece-at "), "{text}");
    assert!(text.contains(&format!("3 t {BEST}")), "{text}");
    assert!(text.ends_with("╯\nthe legend\n"), "{text}");
    // The top border, the header and its rule, a line per benchmark, the bottom, the legend.
    assert_eq!(text.lines().count(), 3 + 3 + 1 + 1);
}

#[test]
fn the_legend_says_what_the_marks_and_the_ratio_mean() {
    assert_eq!(
        legend("fastest", "speed-up over scalar"),
        "* fastest of the row; † the backend runs another tier's code for this routine (see \
         `qbb backends`); n× = speed-up over scalar"
    );
}

#[test]
fn the_machine_table_takes_the_rows_that_differ() {
    let mut machine = Machine::current();
    machine.cpu = "CPU X".to_string();
    machine.cpu_details = "family 1".to_string();
    machine.features = vec!["sse2".to_string(), "avx2".to_string()];
    machine.missing_features = vec![];
    let table = machine_table(
        &machine,
        ("rustc", "rustc 1".to_string()),
        ("load at start", "0.1".to_string()),
        "ten positions",
    );
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(lines[..2], ["| machine | |", "| --- | --- |"]);
    assert_eq!(lines[2], "| CPU | CPU X (family 1) |");
    assert_eq!(lines[3], "| features | sse2, avx2 |");
    assert_eq!(lines[4], "| missing |  |");
    assert_eq!(lines[5], "| rustc | rustc 1 |");
    assert_eq!(lines[8], "| load at start | 0.1 |");
    assert_eq!(lines[9], "| corpus | ten positions |");
    assert_eq!(lines.len(), 10);
}

#[test]
fn numbers_keep_about_three_digits() {
    assert_writes(
        three_digits,
        &[
            (0.9123, "0.912"),
            (4.1, "4.10"),
            (12.34, "12.3"),
            (250.4, "250"),
        ],
    );
    assert_writes(
        format_ratio,
        &[(0.523, "0.52"), (3.04, "3.0"), (14.2, "14")],
    );
    // Rounded to two significant digits before the decimals are chosen: 0.0999 reads 0.10.
    assert_writes(
        format_fraction,
        &[
            (0.6171, "0.62"),
            (0.0334, "0.033"),
            (0.00991, "0.0099"),
            (1.54, "1.5"),
            (0.0999, "0.10"),
            (0.99995, "1.0"),
        ],
    );
}

#[test]
fn the_ratio_chart_draws_a_bar_per_backend_but_scalar() {
    let spec = RatioChart {
        title: "Tallies relative to scalar",
        caption: "tally / scalar's tally",
        footer: "made-up machine".to_string(),
    };
    let svg = report::<false>().ratio_chart(&spec).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80]);
    let captions = [
        "Tallies relative to scalar",
        "tally / scalar",
        "made-up machine",
    ];
    assert_contains_all(&svg, &captions);
    // flip has no scalar row, so no ratio and no group; each bar is labelled with its share.
    let labels = [
        "piece-at: ",
        "hex-sets: ",
        "swar",
        "sse2",
        "avx2",
        "3.0×",
        "0.33×",
    ];
    assert_contains_all(&svg, &labels);
    assert!(!svg.contains("flip"), "{svg}");
    // Scalar, the reference, has no row of its own.
    assert!(!svg.contains(">\nscalar\n</text>"), "a scalar row: {svg}");
    // Swar inherits: its bar is pale orange, its swatch in the legend the full colour.
    assert!(svg.contains("fill=\"#F7DFAA\"") && svg.contains("fill=\"#E69F00\""));

    let mut alone = report::<false>();
    alone.results.retain(|r| r.subject.is_reference());
    assert_fails_with(alone.ratio_chart(&spec), "at least one other backend");
}

#[test]
fn a_report_survives_its_json_file_and_names_a_wrong_one() {
    let dir = scratch("report-json");
    fs::create_dir_all(&dir).unwrap();
    let report = report::<true>();
    let text = report.to_json().unwrap();
    assert!(text.ends_with("}\n"));
    // The subject's fields come first in each row, the figure's after them.
    let row = text.split("\"results\": [").nth(1).unwrap();
    let order: Vec<usize> = ["\"routine\"", "\"support\"", "\"tally\"", "\"ratio\""]
        .iter()
        .map(|key| row.find(key).unwrap())
        .collect();
    assert!(order.is_sorted(), "{row}");
    let path = dir.join("tallies.json");
    write(&path, &text).unwrap();
    assert_eq!(Report::read_json(&path, "a tallies.json").unwrap(), report);

    write(&path, "{\"machine\": 1}").unwrap();
    let err = Report::<Tally<true>>::read_json(&path, "a tallies.json").unwrap_err();
    assert!(
        err.to_string()
            .ends_with("tallies.json` is not a tallies.json of qbb"),
        "{err}"
    );
    let missing = dir.join("missing.json");
    let read = Report::<Tally<true>>::read_json(&missing, "a tallies.json");
    assert_fails_with(read, "reading `");
    assert_fails_with(write(&dir.join("no/such/folder"), "x"), "writing `");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_out_path_that_is_a_file_is_refused() {
    let file = scratch("out-file");
    fs::write(&file, "x").unwrap();
    assert_fails_with(out_dir(Some(&file), &Machine::current()), "not a folder");
    let default: PathBuf = out_dir(None, &Machine::current()).unwrap();
    assert!(default.starts_with("reports"));
    fs::remove_file(&file).unwrap();
}

#[test]
fn the_cargo_command_names_nightly_only_for_the_portable_feature() {
    assert_eq!(
        cargo_command("profile release, no RUSTFLAGS", "compare --quick"),
        "cargo run --release -p qbb-lab -- compare --quick"
    );
    assert_eq!(
        cargo_command("profile release, feature portable-simd", "instructions"),
        "cargo +nightly run --release -p qbb-lab --features portable-simd -- instructions"
    );
}

#[test]
fn the_reference_is_scalar() {
    let subject = Subject::new("flip".parse().unwrap(), BackendKind::Scalar);
    assert!(subject.is_reference());
    assert_eq!(subject.support, "native");
    assert!(!subject.is_inherited());
    assert_eq!(subject.benchmark, "flip");
    let latency = Subject::new("flip-latency".parse().unwrap(), BackendKind::Swar);
    assert!(latency.is_latency() && !latency.is_reference());
    assert_eq!(latency.routine, "flip");
}

#[test]
fn a_file_is_replaced_whole_and_a_failed_write_leaves_nothing_behind() {
    let dir = scratch("write-whole");
    fs::create_dir_all(dir.join("taken")).unwrap();
    let path = dir.join("results.json");
    write(&path, "old").unwrap();
    write(&path, "new").unwrap();
    assert_eq!(fs::read_to_string(&path).unwrap(), "new");
    // A folder where the file would go: the text is written beside it, the rename fails, and the
    // partial file is removed.
    assert_fails_with(write(&dir.join("taken"), "x"), "writing `");
    let mut names: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["results.json", "taken"]);
    fs::remove_dir_all(&dir).unwrap();
}

//! `qbb compare --repeat N` and `qbb report --agree-with`: how well runs of the same job agree.
//! Each ratio is taken against one fixed implementation (the raised SWAR code where it ran), not
//! against each run's baseline, which may itself change from run to run.

use qbb_benches::estimate::{self, TIE_MARGIN, Verdict};

use super::core_state::{core_state, one_state};
use super::results::{Results, Row};
use crate::report::{Agreement, RatioDifference, percent, round4};

/// The references in order of preference: the first that every run timed is used.
const REFERENCES: [&str; 4] = ["swar-v3", "scalar-v3", "swar", "scalar"];

/// How many of the widest differences are kept.
const WIDEST: usize = 5;

/// The agreement of `first` with every run in `others` (each timed the same benchmarks), all
/// timed in `processes` processes.
pub fn agreement(first: &Results, others: &[Results], processes: usize) -> Option<Agreement> {
    let reference = REFERENCES
        .into_iter()
        .find(|name| first.results.iter().any(|r| r.subject.backend == *name))?;
    let mut differences: Vec<(f64, RatioDifference)> = Vec::new();
    let mut verdict_changes = Vec::new();
    let mut without_margin = Vec::new();
    let mut tie_changes = 0;
    for other in others {
        for row in &first.results {
            let Some(again) = same_row(other, row) else {
                continue;
            };
            if row.subject.backend != reference
                && let (Some(a), Some(b)) = (
                    ratio_to(first, row, reference),
                    ratio_to(other, again, reference),
                )
            {
                let difference = RatioDifference {
                    benchmark: row.subject.benchmark.clone(),
                    backend: row.subject.backend.clone(),
                    first: round4(a),
                    other: round4(b),
                };
                differences.push(((a / b).ln().abs().exp() - 1.0, difference));
            }
            match change(row, again, TIE_MARGIN) {
                Some(Change::Flip(text)) => verdict_changes.push(text),
                Some(Change::ToOrFromTie) => tie_changes += 1,
                None => {}
            }
            if let Some(Change::Flip(text)) = change(row, again, 0.0) {
                without_margin.push(text);
            }
        }
    }
    differences.sort_by(|a, b| b.0.total_cmp(&a.0));
    let usual_states = std::iter::once(first)
        .chain(others)
        .map(|run| core_state(run).map(|state| round4(state.figure)))
        .collect::<Option<Vec<f64>>>()
        .unwrap_or_default();
    let mut gaps: Vec<f64> = differences.iter().map(|(gap, _)| *gap).collect();
    gaps.reverse();
    Some(Agreement {
        runs: 1 + others.len(),
        processes: Some(processes),
        reference: reference.to_string(),
        ratios: gaps.len(),
        median: round4(estimate::median(&mut gaps.clone())),
        p90: round4(percentile(&gaps, 0.9)),
        max: round4(gaps.last().copied().unwrap_or(f64::NAN)),
        widest: differences
            .into_iter()
            .take(WIDEST)
            .map(|(_, d)| d)
            .collect(),
        tie_margin: TIE_MARGIN,
        verdict_changes,
        tie_changes,
        verdict_changes_without_margin: Some(without_margin),
        usual_states,
    })
}

/// How a row's verdict moved from one run to another, ties decided with `margin`.
enum Change {
    /// A win became a loss or the other way round: the sentence that says so.
    Flip(String),
    ToOrFromTie,
}

fn change(row: &Row, again: &Row, margin: f64) -> Option<Change> {
    match (verdict(row, margin)?, verdict(again, margin)?) {
        (a, b) if a == b => None,
        (Verdict::Tie, _) | (_, Verdict::Tie) => Some(Change::ToOrFromTie),
        (a, b) => Some(Change::Flip(format!(
            "{} on {}: {} then {}",
            row.subject.benchmark,
            row.subject.backend,
            verdict_word(a),
            verdict_word(b)
        ))),
    }
}

/// The row of the same benchmark and implementation in another run.
fn same_row<'a>(run: &'a Results, row: &Row) -> Option<&'a Row> {
    run.results.iter().find(|r| r.subject == row.subject)
}

/// `row`'s speed-up over `reference` in its run: paired turn by turn where the rows have turns.
fn ratio_to(run: &Results, row: &Row, reference: &str) -> Option<f64> {
    let reference = run
        .results
        .iter()
        .find(|r| r.subject.benchmark == row.subject.benchmark && r.subject.backend == reference)?;
    let ratio = match row.paired_over(reference) {
        Some(e) => e.median,
        None => reference.ns_per_op / row.ns_per_op,
    };
    ratio.is_finite().then_some(ratio)
}

/// Where a row's speed-up over its baseline stands, by its interval and `margin`.
fn verdict(row: &Row, margin: f64) -> Option<Verdict> {
    let [low, high] = row.speedup_interval?;
    if row.baseline.as_deref() == Some(row.subject.backend.as_str()) {
        return None;
    }
    Some(estimate::Interval { low, high }.verdict_within(margin))
}

fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Above => "faster than the baseline",
        Verdict::Tie => "tied with it",
        Verdict::Below => "slower than the baseline",
    }
}

/// The value below which a fraction `q` of the sorted `values` lie (nearest rank).
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// The agreement in one sentence, for the terminal and the machine table.
pub fn describe(a: &Agreement) -> String {
    let verdicts = match a.verdict_changes.len() {
        0 => "no verdict changed".to_string(),
        n => format!("{n} verdicts changed ({})", a.verdict_changes.join("; ")),
    };
    let margin = if a.tie_margin > 0.0 {
        format!(
            ", a tie being an interval within {} of 1",
            percent(a.tie_margin)
        )
    } else {
        String::new()
    };
    let without = match &a.verdict_changes_without_margin {
        Some(flips) if a.tie_margin > 0.0 && flips.len() != a.verdict_changes.len() => {
            format!("; without that margin {} would have changed", flips.len())
        }
        _ => String::new(),
    };
    let processes = match a.processes {
        Some(1) => " in one process",
        Some(_) => ", each in a process of its own",
        None => "",
    };
    format!(
        "{} runs{processes}: the {} ratios against {} differed by {:.1} % at the median, {:.1} % at the \
         90th percentile and {:.1} % at most; {verdicts} ({} moved between a tie and a win or \
         loss{margin}{without}){}",
        a.runs,
        a.ratios,
        a.reference,
        a.median * 100.0,
        a.p90 * 100.0,
        a.max * 100.0,
        a.tie_changes,
        states_text(&a.usual_states)
    )
}

/// Whether the runs' cores were in one state, by their usual probe figures; empty without them.
fn states_text(figures: &[f64]) -> String {
    if figures.is_empty() {
        return String::new();
    }
    let listed = figures
        .iter()
        .map(|f| format!("{f:.1}"))
        .collect::<Vec<_>>()
        .join(", ");
    if one_state(figures) {
        format!(
            "; the cores were in one state (the probe's usual figures {listed} additions per ns)"
        )
    } else {
        format!(
            "; the cores were not in one state (the probe's usual figures {listed} additions per \
             ns), so these differences include the neighbour's"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{made_up_report, swar_inherits};
    use qbb_benches::Implementation;

    /// A row of eight turns of `ns` each, times `wobble` in every other turn.
    fn row(bench: &str, backend: &str, ns: f64, wobble: f64) -> Row {
        let turns: Vec<f64> = (0..8)
            .map(|t| if t % 2 == 0 { ns } else { ns * wobble })
            .collect();
        let on = Implementation::from_name(backend).unwrap();
        let mut row = Row::new(bench.parse().unwrap(), on, &turns, 64, None);
        row.turn_ns = turns;
        swar_inherits(&mut row.subject);
        row
    }

    fn run(avx2_ns: f64) -> Results {
        run_wobbling(avx2_ns, 1.01)
    }

    /// flip's avx2 row at `avx2_ns`, times `wobble` in every other turn (swar-v3, the baseline,
    /// takes 2 ns).
    fn run_wobbling(avx2_ns: f64, wobble: f64) -> Results {
        let mut r = made_up_report(
            "ns",
            vec![
                row("flip", "swar-v3", 2.0, 1.0),
                row("flip", "scalar", 3.0, 1.0),
                row("flip", "avx2", avx2_ns, wobble),
                row("hex-sets", "swar-v3", 4.0, 1.0),
                row("hex-sets", "avx2", 4.0, 1.0),
            ],
        );
        r.add_paired_estimates();
        r
    }

    #[test]
    fn runs_that_agree_differ_by_nothing() {
        let a = agreement(&run(1.0), &[run(1.0)], 1).unwrap();
        assert_eq!((a.runs, a.reference.as_str(), a.ratios), (2, "swar-v3", 3));
        assert_eq!((a.median, a.p90, a.max), (0.0, 0.0, 0.0));
        assert!(a.verdict_changes.is_empty());
        assert_eq!(a.tie_changes, 0);
    }

    #[test]
    fn a_ratio_that_moved_and_a_verdict_that_flipped_are_reported() {
        // avx2's flip: 2.0x over swar-v3 in the first run, 0.8x in the second.
        let a = agreement(&run(1.0), &[run(2.5)], 1).unwrap();
        assert_eq!(a.max, 1.5);
        assert_eq!(a.widest[0].backend, "avx2");
        assert_eq!((a.widest[0].first, a.widest[0].other), (1.9901, 0.796));
        assert_eq!(a.median, 0.0);
        assert_eq!(
            a.verdict_changes,
            ["flip on avx2: faster than the baseline then slower than the baseline"]
        );
        assert!(
            describe(&a).contains("1 verdicts changed"),
            "{}",
            describe(&a)
        );
    }

    #[test]
    fn a_difference_under_the_margin_that_changes_sides_is_no_flip() {
        // avx2 0.5 % ahead of swar-v3, then 0.5 % behind, each interval clear of 1: both ties.
        let a = agreement(
            &run_wobbling(2.0 / 1.005, 1.0),
            &[run_wobbling(2.0 / 0.995, 1.0)],
            2,
        )
        .unwrap();
        assert_eq!(a.processes, Some(2));
        assert!(describe(&a).starts_with("2 runs, each in a process of its own:"));
        assert_eq!(a.tie_margin, TIE_MARGIN);
        assert!(a.verdict_changes.is_empty());
        assert_eq!(a.tie_changes, 0);
        assert_eq!(
            a.verdict_changes_without_margin.as_deref(),
            Some(
                &[
                    "flip on avx2: faster than the baseline then slower than the baseline"
                        .to_string()
                ][..]
            )
        );
        let text = describe(&a);
        assert!(
            text.contains("no verdict changed") && text.contains("without that margin 1 would"),
            "{text}"
        );
    }

    /// `run(1.0)` with every turn's probe at `figure`.
    fn run_probed(figure: f64) -> Results {
        let mut r = run(1.0);
        for row in &mut r.results {
            row.turn_probe = vec![figure; row.turn_ns.len()];
        }
        r
    }

    #[test]
    fn the_runs_core_states_are_compared() {
        let a = agreement(&run_probed(10.8), &[run_probed(10.2)], 2).unwrap();
        assert_eq!(a.usual_states, [10.8, 10.2]);
        let one = "; the cores were in one state (the probe's usual figures 10.8, 10.2 additions \
                   per ns)";
        assert!(describe(&a).ends_with(one), "{}", describe(&a));
        let a = agreement(&run_probed(10.8), &[run_probed(6.5)], 2).unwrap();
        assert!(
            describe(&a).contains("not in one state (the probe's usual figures 10.8, 6.5"),
            "{}",
            describe(&a)
        );
        let a = agreement(&run_probed(10.8), &[run(1.0)], 2).unwrap();
        assert!(a.usual_states.is_empty());
        assert!(!describe(&a).contains("state"));
    }

    #[test]
    fn the_nearest_rank_percentile() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.9), 9.0);
        assert_eq!(percentile(&v, 0.5), 5.0);
        assert_eq!(percentile(&v[..1], 0.9), 1.0);
        assert!(percentile(&[], 0.9).is_nan());
    }
}

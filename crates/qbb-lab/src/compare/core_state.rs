//! The state the core was in during a run, as the neighbour probe beside every turn saw it.
//! Two runs' ratios are comparable only where their states agree: a neighbour that takes another
//! share of the core slows wide code by another share.

use qbb_benches::{estimate, neighbour};

use super::results::Results;

/// Below this share of the turns in the usual state, the run is flagged: the neighbour came and
/// went so often that a second run may find the core in another mixture of states.
const UNSETTLED_SHARE: f64 = 0.5;

/// A run's usual state, every benchmark's turns pooled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CoreState {
    /// The median probe of the turns in the usual state, in independent additions per ns.
    pub figure: f64,
    /// The share of the turns in it.
    pub share: f64,
    /// The highest turn's probe.
    pub highest: f64,
}

/// The run's usual state; `None` for a run without probes.
pub fn core_state(results: &Results) -> Option<CoreState> {
    let probes: Vec<f64> = results
        .by_benchmark()
        .iter()
        .flat_map(|(_, rows)| {
            let per_row: Vec<&[f64]> = rows.iter().map(|r| &r.turn_probe[..]).collect();
            neighbour::turn_probes(&per_row)
        })
        .collect();
    let usual = neighbour::usual_figure(&probes)?;
    let mut in_state: Vec<f64> = neighbour::turns_near(&probes, usual)
        .into_iter()
        .map(|t| probes[t])
        .collect();
    Some(CoreState {
        share: in_state.len() as f64 / probes.len() as f64,
        figure: estimate::median(&mut in_state),
        highest: probes.iter().copied().fold(0.0, f64::max),
    })
}

impl CoreState {
    /// The state in one sentence, for the terminal and the machine table.
    pub fn describe(&self) -> String {
        format!(
            "the neighbour probe's usual figure, {:.1} independent additions per ns, in {:.0} % \
             of the turns (the highest turn {:.1}): a run whose core was in another state gives \
             other ratios",
            self.figure,
            self.share * 100.0,
            self.highest
        )
    }

    /// A warning when the usual state held for under half the run, else `None`.
    pub fn unsettled(&self) -> Option<String> {
        (self.share < UNSETTLED_SHARE).then(|| {
            format!(
                "the core was in its usual state in only {:.0} % of the turns: a neighbour's \
                 load came and went during the run, so a second run may give other ratios; run \
                 again when the machine is quieter",
                self.share * 100.0
            )
        })
    }
}

/// Whether runs with these usual figures (first run first) were in one state: every figure
/// within the probe's band of the first.
pub fn one_state(figures: &[f64]) -> bool {
    figures
        .split_first()
        .is_some_and(|(first, rest)| rest.iter().all(|f| neighbour::same_state(*first, *f)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Row;
    use crate::testing::made_up_report;
    use qbb_benches::Implementation;

    /// A run of two benchmarks on two implementations each, every turn of a benchmark probed
    /// at `probes[benchmark][turn]`.
    fn run(probes: [&[f64]; 2]) -> Results {
        let rows = [("flip", probes[0]), ("hex-sets", probes[1])]
            .into_iter()
            .flat_map(|(bench, probes)| {
                ["swar-v3", "avx2"].map(|backend| {
                    let on = Implementation::from_name(backend).unwrap();
                    let mut row = Row::new(bench.parse().unwrap(), on, &[1.0; 4], 64, None);
                    row.turn_probe = probes.to_vec();
                    row
                })
            })
            .collect();
        made_up_report("ns", rows)
    }

    #[test]
    fn the_state_pools_every_benchmarks_turns() {
        // Five of the eight turns near 10.8, three near 6.5, spread over both benchmarks.
        let state = core_state(&run([&[10.8, 10.7, 6.5, 10.9], &[6.6, 10.8, 10.6, 6.4]]));
        assert_eq!(
            state,
            Some(CoreState {
                figure: 10.8,
                share: 0.625,
                highest: 10.9
            })
        );
        assert_eq!(core_state(&run([&[], &[]])), None);
    }

    #[test]
    fn runs_are_in_one_state_when_their_figures_lie_within_a_tenth() {
        assert!(one_state(&[10.8, 10.2, 11.5]));
        assert!(!one_state(&[10.8, 6.5]));
        assert!(!one_state(&[]));
    }

    #[test]
    fn a_run_mostly_outside_its_usual_state_is_flagged() {
        let state = |share| CoreState {
            figure: 10.8,
            share,
            highest: 11.0,
        };
        assert_eq!(state(0.71).unsettled(), None);
        let warning = state(0.42).unsettled().unwrap();
        assert!(warning.contains("only 42 % of the turns"), "{warning}");
        assert!(
            state(0.71)
                .describe()
                .contains("10.8 independent additions per ns, in 71 %")
        );
    }
}

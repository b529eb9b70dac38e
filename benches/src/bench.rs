//! The benchmark list: every routine of the catalogue as throughput over the corpus, plus the
//! single-call latency of the routines where latency is what matters.

use std::fmt;
use std::str::FromStr;

use qbb::{BackendError, BackendKind, Routine};

use crate::corpus::Corpus;
use crate::implementation::Implementation;
use crate::kernels;

/// What a benchmark measures.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Measure {
    /// Independent calls, one per position: how many the core gets through (ns per call).
    Throughput,
    /// Each call waits for the previous one's result: how long one call takes (ns per call).
    Latency,
}

impl Measure {
    pub const fn name(self) -> &'static str {
        match self {
            Measure::Throughput => "throughput",
            Measure::Latency => "latency",
        }
    }
}

/// One benchmark: a routine and what is measured of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bench {
    routine: Routine,
    measure: Measure,
}

/// Every benchmark, in catalogue order, the latency ones last.
pub static ALL: [Bench; Routine::ALL.len() + 2] = {
    let mut all = [Bench::throughput(Routine::PieceAt); Routine::ALL.len() + 2];
    let mut i = 0;
    while i < Routine::ALL.len() {
        all[i] = Bench::throughput(Routine::ALL[i]);
        i += 1;
    }
    all[Routine::ALL.len()] = Bench::latency(Routine::PieceAt);
    all[Routine::ALL.len() + 1] = Bench::latency(Routine::Flip);
    all
};

impl Bench {
    pub const fn throughput(routine: Routine) -> Bench {
        Bench {
            routine,
            measure: Measure::Throughput,
        }
    }

    /// Only the routines [`ALL`] lists have a latency kernel.
    const fn latency(routine: Routine) -> Bench {
        Bench {
            routine,
            measure: Measure::Latency,
        }
    }

    pub const fn routine(self) -> Routine {
        self.routine
    }

    pub const fn measure(self) -> Measure {
        self.measure
    }

    /// The name used by criterion (group), by gungraun and on the command line: the routine's
    /// id, with `-latency` appended for latency benchmarks.
    pub fn id(self) -> String {
        match self.measure {
            Measure::Throughput => self.routine.id().to_string(),
            Measure::Latency => format!("{}-latency", self.routine.id()),
        }
    }

    /// A short human description.
    pub fn title(self) -> String {
        match self.measure {
            Measure::Throughput => self.routine.title().to_string(),
            Measure::Latency => format!("{} (latency)", self.routine.title()),
        }
    }

    /// Runs `rounds` passes over `corpus` on an implementation (a backend, or a raised
    /// baseline): `rounds * corpus.len()` calls. The one dispatch happens here, outside the timed
    /// loop.
    pub fn run(
        self,
        on: impl Into<Implementation>,
        corpus: &Corpus,
        rounds: u64,
    ) -> Result<(), BackendError> {
        self.run_placed(on, corpus, rounds, 0)
    }

    /// [`Bench::run`] on the copy of the loop at `placement`
    /// ([`PLACEMENTS`](crate::implementation::PLACEMENTS) copies, each placed differently).
    pub fn run_placed(
        self,
        on: impl Into<Implementation>,
        corpus: &Corpus,
        rounds: u64,
        placement: usize,
    ) -> Result<(), BackendError> {
        let on = on.into();
        let at = placement;
        match self.measure {
            Measure::Throughput => {
                qbb::for_each_routine!(throughput, self.routine, on, corpus, rounds, at)
            }
            Measure::Latency => match self.routine {
                Routine::PieceAt => on.run::<kernels::PieceAtLatency>(corpus, rounds, at),
                Routine::Flip => on.run::<kernels::FlipLatency>(corpus, rounds, at),
                _ => unreachable!("`Bench::latency` is private to `ALL`"),
            },
        }
    }
}

/// The throughput kernel of each routine: `kernels::<Variant>`, from the catalogue's table.
macro_rules! throughput {
    ([$routine:expr, $on:expr, $corpus:expr, $rounds:expr, $at:expr]
     $( $(#[$doc:meta])* row $row:literal, $module:ident, $variant:ident = $id:literal,
        $title:literal: fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*)
        $(-> $ret:ty)?; )*) => {
        match $routine {
            $( Routine::$variant => $on.run::<kernels::$variant>($corpus, $rounds, $at), )*
        }
    };
}
use throughput;

impl fmt::Display for Bench {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.id())
    }
}

/// A benchmark name that is not in the list.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a benchmark (a routine id such as `hex-sets`, or `piece-at-latency`, `flip-latency`)"
)]
pub struct ParseBenchError(pub String);

impl FromStr for Bench {
    type Err = ParseBenchError;

    fn from_str(s: &str) -> Result<Bench, ParseBenchError> {
        ALL.iter()
            .copied()
            .find(|b| b.id() == s)
            .ok_or_else(|| ParseBenchError(s.to_string()))
    }
}

/// The backends this binary can run on this CPU, weakest first.
pub fn available_backends() -> Vec<BackendKind> {
    BackendKind::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}

/// What `qbb compare` and `cargo bench` time on this CPU: the baseline candidates (scalar and
/// SWAR, also raised to x86-64-v3), then the other backends, weakest first.
pub fn available_implementations() -> Vec<Implementation> {
    let mut all = Implementation::baselines();
    all.extend(
        available_backends()
            .into_iter()
            .map(Implementation::native)
            .filter(|i| !i.is_baseline_candidate()),
    );
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_routine_is_benchmarked_once_for_throughput() {
        for &routine in Routine::ALL {
            let n = ALL
                .iter()
                .filter(|b| **b == Bench::throughput(routine))
                .count();
            assert_eq!(n, 1, "{routine}");
        }
        let latency: Vec<String> = ALL
            .iter()
            .filter(|b| b.measure == Measure::Latency)
            .map(|b| b.id())
            .collect();
        assert_eq!(latency, ["piece-at-latency", "flip-latency"]);
    }

    #[test]
    fn ids_parse_back_and_bad_names_are_named() {
        for b in &ALL {
            assert_eq!(b.id().parse::<Bench>(), Ok(*b));
        }
        let err = "hex_sets".parse::<Bench>().unwrap_err();
        assert!(err.to_string().contains("`hex_sets`"));
    }

    #[test]
    fn every_benchmark_runs_on_every_available_implementation() {
        let corpus = Corpus::from_positions(&crate::corpus::standard_positions()[..64]);
        for on in available_implementations() {
            for b in &ALL {
                b.run(on, &corpus, 2)
                    .unwrap_or_else(|e| panic!("{b} on {on}: {e}"));
            }
        }
    }

    #[test]
    fn an_unavailable_backend_is_an_error_not_a_panic() {
        let corpus = Corpus::from_positions(&crate::corpus::standard_positions()[..8]);
        for kind in BackendKind::ALL {
            if !kind.is_available() {
                assert!(ALL[0].run(kind, &corpus, 1).is_err(), "{kind}");
            }
        }
    }
}

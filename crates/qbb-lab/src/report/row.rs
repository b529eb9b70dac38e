//! A row of a report: the [`Subject`] every report shares, and the [`Figure`] trait through
//! which the generic code reads a pipeline's own figures.

use qbb::{BackendKind, Routine};
use qbb_benches::{Bench, Implementation, Measure};
use serde::{Deserialize, Serialize};

use super::REFERENCE;
use super::table::{format_fraction, format_ratio};

/// Which benchmark ran on which backend, and whose code that was. A pipeline's row holds it
/// with `#[serde(flatten)]`, so that these fields open every row of its JSON file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Subject {
    /// The routine id of the catalogue (`hex-sets`).
    pub routine: String,
    /// `throughput` (independent calls) or `latency` (each call waits for the previous one).
    pub measure: String,
    /// The benchmark id: the routine id, `-latency` appended for latency.
    pub benchmark: String,
    /// The routine's row in the catalogue, see `qbb::Routine::row`.
    pub catalogue_row: u8,
    pub title: String,
    /// The implementation: a backend (`avx2`), or a scalar-class backend raised to x86-64-v3
    /// (`scalar-v3`, see `qbb_benches::Implementation`).
    pub backend: String,
    /// `native`, `inherited: from <backend> (<why>)` or `raised: ...`: whose code ran.
    pub support: String,
}

impl Subject {
    pub fn new(bench: Bench, on: impl Into<Implementation>) -> Subject {
        let on = on.into();
        let routine = bench.routine();
        Subject {
            routine: routine.id().to_string(),
            measure: bench.measure().name().to_string(),
            benchmark: bench.id(),
            catalogue_row: routine.row(),
            title: bench.title(),
            backend: on.name(),
            support: if on.is_raised() {
                format!("raised: {}", on.instruction_sets())
            } else {
                support(on.code, routine)
            },
        }
    }

    /// The implementation the row names, if this build of the lab knows it.
    pub fn implementation(&self) -> Option<Implementation> {
        Implementation::from_name(&self.backend)
    }

    /// Scalar-class code, which may be the benchmark's baseline.
    pub fn is_baseline_candidate(&self) -> bool {
        self.implementation()
            .is_some_and(Implementation::is_baseline_candidate)
    }

    /// The backend ran another tier's code for this routine.
    pub fn is_inherited(&self) -> bool {
        self.support.starts_with("inherited")
    }

    /// Whose code the backend ran, when it inherited the routine.
    pub fn inherited_from(&self) -> Option<BackendKind> {
        let from = self.support.strip_prefix("inherited: from ")?;
        from.split_whitespace().next()?.parse().ok()
    }

    pub fn is_latency(&self) -> bool {
        self.measure == Measure::Latency.name()
    }

    /// The row of the backend the ratios are taken against.
    pub fn is_reference(&self) -> bool {
        self.backend == REFERENCE.name()
    }
}

/// `native`, or `inherited: from <backend> (<why>)`, as this build of the lab knows it.
fn support(backend: BackendKind, routine: Routine) -> String {
    backend.support(routine).map_or_else(
        || "not built into this binary".to_string(),
        |s| s.to_string(),
    )
}

/// Which row of a benchmark the ratios are taken against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// The scalar reference: the plainest code, the conformance oracle.
    Reference,
    /// The benchmark's baseline: the best of the scalar-class implementations (scalar, SWAR,
    /// either built for x86-64-v3), so that a ratio measures SIMD rather than a newer ISA.
    Baseline,
}

/// Which way a row's figure is divided by the reference's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ratio {
    /// The reference's figure over the row's: a speed-up, above 1 is better.
    ReferenceOverRow,
    /// The row's figure over the reference's: a share, below 1 is better.
    RowOverReference,
}

impl Ratio {
    /// The ratio of a row's figure `value` and the reference's figure `reference`.
    pub fn of(self, value: f64, reference: f64) -> f64 {
        match self {
            Ratio::ReferenceOverRow => reference / value,
            Ratio::RowOverReference => value / reference,
        }
    }

    /// A ratio as a table cell writes it, before its `×`: a speed-up to two digits or so (`3.0`,
    /// `0.52`); a share, which may be far below 1, to two significant digits (`0.033`).
    pub fn text(self, ratio: f64) -> String {
        match self {
            Ratio::ReferenceOverRow => format_ratio(ratio),
            Ratio::RowOverReference => format_fraction(ratio),
        }
    }
}

/// What the generic tables and charts need of a pipeline's row. A row holds its [`Subject`] and
/// its ratio in fields of its own, which [`subject_and_ratio_fields!`] reads; the rest of an impl
/// is the pipeline's figure.
pub trait Figure {
    /// How the row's ratio to the reference is taken, and written.
    const RATIO: Ratio;

    /// Which row the ratio is taken against.
    const AGAINST: Against;

    fn subject(&self) -> &Subject;

    /// The figure that ranks the backends of a benchmark (lower is better) and that the ratio
    /// divides: nanoseconds per call, instructions per pass.
    fn value(&self) -> f64;

    /// The ratio to the reference's figure, as [`super::Report::new`] filled it in.
    fn ratio(&self) -> Option<f64>;

    fn set_ratio(&mut self, ratio: Option<f64>);

    /// Records which implementation the ratio was taken against (for [`Against::Baseline`]).
    fn set_against(&mut self, _implementation: Option<&str>) {}

    /// The implementation the ratio was taken against, as recorded (for [`Against::Baseline`]).
    fn against(&self) -> Option<&str> {
        None
    }

    /// The 95 % interval of the ratio, where the row has one (paired timings).
    fn ratio_interval(&self) -> Option<[f64; 2]> {
        None
    }

    /// Whether the row ties with its benchmark's best row, where the row itself can tell
    /// (paired timings); `None` leaves it to the report's noise floor.
    fn tied_with_best(&self) -> Option<bool> {
        None
    }

    /// The figure as a table cell writes it: `4.10 ns`, `16.8`.
    fn value_text(&self) -> String;
}

/// The methods of a [`Figure`] impl that only read and write fields, the same in every row: the
/// subject is the field `subject`, the ratio the field named (each JSON file names its ratio its
/// own way: `speedup_vs_scalar`, `vs_scalar`).
macro_rules! subject_and_ratio_fields {
    ($ratio:ident) => {
        fn subject(&self) -> &$crate::report::Subject {
            &self.subject
        }

        fn ratio(&self) -> Option<f64> {
            self.$ratio
        }

        fn set_ratio(&mut self, ratio: Option<f64>) {
            self.$ratio = ratio;
        }
    };
}
pub(crate) use subject_and_ratio_fields;

/// Four decimals: far below the noise of a timing or the resolution of a ratio, and such short
/// decimals read back from JSON to exactly the same number.
pub fn round4(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

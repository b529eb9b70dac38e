//! A row of a report: the [`Subject`] every report shares, and the [`Figure`] trait through
//! which the generic code reads a pipeline's own figures.

use qbb::{BackendKind, Routine};
use qbb_benches::{Bench, Measure};
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
    pub backend: String,
    /// `native`, or `inherited: from <backend> (<why>)`: whose code ran.
    pub support: String,
}

impl Subject {
    pub fn new(bench: Bench, backend: BackendKind) -> Subject {
        let routine = bench.routine();
        Subject {
            routine: routine.id().to_string(),
            measure: bench.measure().name().to_string(),
            benchmark: bench.id(),
            catalogue_row: routine.row(),
            title: bench.title(),
            backend: backend.name().to_string(),
            support: support(backend, routine),
        }
    }

    /// The backend ran another tier's code for this routine.
    pub fn is_inherited(&self) -> bool {
        self.support.starts_with("inherited")
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

    fn subject(&self) -> &Subject;

    /// The figure that ranks the backends of a benchmark (lower is better) and that the ratio
    /// divides: nanoseconds per call, instructions per pass.
    fn value(&self) -> f64;

    /// The ratio to the reference's figure, as [`super::Report::new`] filled it in.
    fn ratio(&self) -> Option<f64>;

    fn set_ratio(&mut self, ratio: Option<f64>);

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

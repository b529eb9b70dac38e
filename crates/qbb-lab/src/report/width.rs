//! Which copy of a backend's code ran. The portable backend compiles each job once per width
//! (`qbb::backend::portable::Width`) and runs the widest the CPU reports, so one backend name
//! covers several copies of the code: a count and a timing describe the same code only when they
//! ran the same copy.
//!
//! Valgrind hides AVX-512 from the program it runs, so on a CPU with AVX-512 the callgrind bench
//! ran the portable backend's AVX2 copy while `qbb compare` timed its AVX-512 copy. Both widths
//! follow from the CPU's features, which every report holds: older files without a recorded
//! width are read through the same rule.

use qbb::BackendKind;
use qbb::backend::{AVX2_FEATURES, AVX512_FEATURES};

/// The widths, named after the backend whose feature set each one compiles for.
pub const BASELINE: &str = "baseline";
pub const AVX2: &str = "avx2";
pub const AVX512: &str = "avx512";

/// The backend picks its width at run time: its name alone does not say which code ran.
pub fn picks_its_width(backend: &str) -> bool {
    backend == BackendKind::Portable.name()
}

/// The width the portable backend runs at on a CPU with `features` (as `Width::detect` picks it).
pub fn widest(features: &[String]) -> &'static str {
    if has_all(features, AVX512_FEATURES) {
        AVX512
    } else {
        under_valgrind(features)
    }
}

/// The width the portable backend runs at under valgrind on a CPU with `features`: valgrind
/// neither runs nor reports AVX-512, so the widest it leaves is AVX2.
pub fn under_valgrind(features: &[String]) -> &'static str {
    if has_all(features, AVX2_FEATURES) {
        AVX2
    } else {
        BASELINE
    }
}

fn has_all(features: &[String], wanted: &[&str]) -> bool {
    wanted.iter().all(|w| features.iter().any(|f| f == w))
}

/// A count of other code than the one timed: the copy it was counted in, and its instructions
/// per call. Kept apart from the figures of the timed code so that no reader divides them.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CountOfAnotherCopy {
    /// The width of the copy counted (`avx2`).
    pub width: String,
    pub instructions_per_op: f64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::owned;

    #[test]
    fn valgrind_caps_the_width_at_avx2() {
        let avx512: Vec<&str> = AVX2_FEATURES
            .iter()
            .chain(AVX512_FEATURES)
            .copied()
            .collect();
        assert_eq!(widest(&owned(&avx512)), AVX512);
        assert_eq!(under_valgrind(&owned(&avx512)), AVX2);
        assert_eq!(widest(&owned(AVX2_FEATURES)), AVX2);
        assert_eq!(under_valgrind(&owned(AVX2_FEATURES)), AVX2);
        assert_eq!(widest(&owned(&["sse2"])), BASELINE);
        assert!(picks_its_width("portable") && !picks_its_width("avx2"));
    }
}

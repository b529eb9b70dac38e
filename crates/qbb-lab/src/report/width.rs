//! Which copy of a backend's code ran. The portable backend compiles each job once per width
//! (`qbb::backend::width::Width`) and runs the widest the CPU reports, so one backend name
//! covers several copies of the code: a count and a timing describe the same code only when they
//! ran the same copy.
//!
//! Valgrind hides AVX-512 from the program it runs, so on a CPU with AVX-512 the callgrind bench
//! ran the portable backend's AVX2 copy while `qbb compare` timed its AVX-512 copy. Both widths
//! follow from the CPU's features, which every report holds: older files without a recorded
//! width are read through the same rule.

use qbb::BackendKind;
use qbb::backend::width::Width;

/// The backend picks its width at run time: its name alone does not say which code ran.
pub fn picks_its_width(backend: &str) -> bool {
    backend == BackendKind::Portable.name()
}

/// The width the portable backend runs at on a CPU with `features` (`Width::detect`'s rule).
pub fn widest(features: &[String]) -> &'static str {
    Width::widest(|kind| has_all(features, kind.required_features())).name()
}

/// The width the portable backend runs at under valgrind on a CPU with `features`: valgrind
/// neither runs nor reports AVX-512, so the widest it leaves is AVX2.
pub fn under_valgrind(features: &[String]) -> &'static str {
    Width::widest(|kind| kind != BackendKind::Avx512 && has_all(features, kind.required_features()))
        .name()
}

/// The copy a figure of `backend` is of: none for a backend with one copy; else the one recorded
/// with the figure, or, in a file written before widths were recorded, the one `on_this_cpu`
/// gives for the report's machine (the same rule applied to the same features).
pub fn copy_of(
    backend: &str,
    recorded: Option<&String>,
    on_this_cpu: impl FnOnce() -> &'static str,
) -> Option<String> {
    picks_its_width(backend).then(|| {
        recorded
            .cloned()
            .unwrap_or_else(|| on_this_cpu().to_string())
    })
}

/// A count (instructions per call, and the copy counted) beside a timing of the copy `timed`:
/// the count when it is of the timed code, else kept apart as a count of another copy. A count
/// of no recorded copy beside a timing of one is neither.
pub fn pair(
    count: Option<(f64, Option<String>)>,
    timed: Option<&String>,
) -> (Option<f64>, Option<CountOfAnotherCopy>) {
    match count {
        Some((instructions, counted)) if counted.as_ref() == timed => (Some(instructions), None),
        Some((instructions, Some(width))) => (
            None,
            Some(CountOfAnotherCopy {
                width,
                instructions_per_op: instructions,
            }),
        ),
        Some((_, None)) | None => (None, None),
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
    use qbb::backend::{AVX2_FEATURES, AVX512_FEATURES};

    const AVX2: &str = "avx2";
    const AVX512: &str = "avx512";

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
        assert_eq!(widest(&owned(&["sse2"])), "baseline");
        assert!(picks_its_width("portable") && !picks_its_width("avx2"));
    }

    #[test]
    fn a_count_pairs_with_a_timing_of_its_own_copy_only() {
        let (avx2, avx512) = (Some(AVX2.to_string()), Some(AVX512.to_string()));
        assert_eq!(
            pair(Some((18.0, avx2.clone())), avx2.as_ref()),
            (Some(18.0), None)
        );
        assert_eq!(pair(Some((17.0, None)), None), (Some(17.0), None));
        let other = CountOfAnotherCopy {
            width: AVX2.to_string(),
            instructions_per_op: 18.0,
        };
        assert_eq!(
            pair(Some((18.0, avx2)), avx512.as_ref()),
            (None, Some(other))
        );
        assert_eq!(pair(Some((18.0, None)), avx512.as_ref()), (None, None));
        assert_eq!(copy_of("avx2", None, || AVX512), None);
        assert_eq!(copy_of("portable", None, || AVX512), avx512);
        assert_eq!(
            copy_of("portable", Some(&AVX2.to_string()), || AVX512).as_deref(),
            Some(AVX2)
        );
    }
}

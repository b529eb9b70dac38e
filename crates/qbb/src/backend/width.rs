//! The widths of the portable backend: which instruction set a job of it is compiled for. Written
//! outside `portable` (which needs nightly) so that code built without it, the lab reading a
//! report's feature list, applies the same rule.

use crate::backend::BackendKind;

/// The instructions a job of the portable backend is compiled for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Width {
    /// The architecture's baseline (SSE2 on x86-64): runs everywhere.
    Baseline,
    /// The avx2 backend's features: AVX2, BMI1/2, LZCNT, POPCNT.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// The avx512 backend's features: AVX-512 F/BW/VL/VBMI/VBMI2, GFNI, VPOPCNTDQ, BITALG and
    /// the AVX2 set.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

impl Width {
    /// The widest this CPU runs.
    pub fn detect() -> Width {
        Width::widest(BackendKind::is_available)
    }

    /// The widest width whose backend `runs` says the CPU runs: the rule of [`Width::detect`],
    /// for a CPU known only by a description (a report's feature list).
    pub fn widest(runs: impl Fn(BackendKind) -> bool) -> Width {
        #[cfg(target_arch = "x86_64")]
        {
            if runs(BackendKind::Avx512) {
                return Width::Avx512;
            }
            if runs(BackendKind::Avx2) {
                return Width::Avx2;
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = runs;
        Width::Baseline
    }

    /// The name reports give the width: `baseline`, `avx2` or `avx512`.
    pub const fn name(self) -> &'static str {
        match self {
            Width::Baseline => "baseline",
            #[cfg(target_arch = "x86_64")]
            Width::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            Width::Avx512 => "avx512",
        }
    }
}

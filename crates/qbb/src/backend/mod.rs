//! The backend trait that every routine of the catalogue goes through, the backends, and run-time
//! selection.
//!
//! Two rules make SIMD both safe and fast here:
//!
//! 1. **A backend value is proof that the CPU has its instructions.** Each backend is a zero-sized
//!    token whose only public constructor, `new() -> Option<Self>`, checks the CPU first; so its
//!    methods can be safe, and each `unsafe` block inside them rests on that proof.
//! 2. **Dispatch once, at the top.** A `#[target_feature]` function is not inlined into a caller
//!    compiled without that feature. [`Backend::with_features`] runs a whole job (a benchmark loop, a
//!    perft, a search) inside one function compiled with the backend's features, and everything below
//!    it (`#[inline]` routines, generic engine code) inlines into it. [`with_backend!`](crate::with_backend) does this
//!    for a backend chosen at run time.
//!
//! The feature sets of the backends with target features (the x86 tiers, NEON) are written once,
//! in the `qbb-macros` crate: `#[features(avx2)]` stamps the avx2 set on a function, and
//! [`AVX2_FEATURES`] is the same list, the one detection checks. The test `tests/feature_sets.rs` reads every backend's sources and fails if a function
//! enables more than its backend's token proves.

use std::fmt;

use crate::routine::types::*;
use crate::routine::{Routine, Support};

pub mod cpu_model;
pub(crate) mod plain;
pub mod scalar;
pub mod swar;
pub mod width;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub mod sse2;

#[cfg(target_arch = "aarch64")]
pub mod neon;
// Neon's inherited routines, declared once and compiled on every architecture: the backend's
// declaration reads them on AArch64, and the lab models neon's listings on x86-64 too.
#[path = "neon/inherited.rs"]
pub(crate) mod neon_inherited;

#[cfg(feature = "portable-simd")]
pub mod portable;

pub use scalar::Scalar;
pub use swar::Swar;

#[cfg(target_arch = "x86_64")]
pub use {avx2::Avx2, avx512::Avx512, sse2::Sse2};

#[cfg(target_arch = "aarch64")]
pub use neon::Neon;

#[cfg(feature = "portable-simd")]
pub use portable::Portable;

/// The routines as methods of [`Backend`], from the catalogue's table.
macro_rules! trait_methods {
    ([] $( $(#[$doc:meta])* row $row:literal, $module:ident, $variant:ident = $id:literal,
           $title:literal: fn $name:ident $(<const $width:ident>)? ($($arg:ident: $ty:ty),*)
           $(-> $ret:ty)?; )*) => {
        $(
            $(#[$doc])*
            ///
            #[doc = concat!("Catalogue row ", $row, ", [`Routine::", stringify!($variant), "`] (`", $id, "`).")]
            fn $name $(<const $width: usize>)? (self $(, $arg: $ty)*) $(-> $ret)?;
        )*
    };
}

// ANCHOR: backend_trait
/// The routines of the catalogue ([`for_each_routine!`](crate::for_each_routine)), implemented
/// once per instruction set.
///
/// Every method must return exactly what [`Scalar`] returns, for any input (not only chess
/// positions); the conformance kit ([`crate::conformance`]) checks that.
///
/// # Safety
///
/// An implementation promises that a value of the type exists only on a CPU that has every
/// instruction its methods use: `new` returns `Some` only after checking, and no other safe way
/// of making a value exists.
// The routines are named after the catalogue (`from_mailbox` reads "quad from mailbox"), and the
// backend token, not the data, is the receiver.
#[allow(clippy::wrong_self_convention)]
pub unsafe trait Backend: Copy + Send + Sync + fmt::Debug + 'static {
    /// Which backend this is.
    const KIND: BackendKind;

    /// The routines this backend takes from a lower tier, each with the reason; all others are
    /// native.
    const INHERITED: &'static [(Routine, BackendKind, &'static str)];

    /// The backend, if this CPU has its instructions.
    fn new() -> Option<Self>;

    /// Runs `job` inside a function compiled with this backend's target features, so that the
    /// backend's routines inline into it (rule 2 above).
    fn with_features<R>(self, job: impl FnOnce(Self) -> R) -> R;
    // ANCHOR_END: backend_trait

    /// How this backend provides `routine`.
    fn support(routine: Routine) -> Support {
        support_in(Self::INHERITED, routine)
    }

    crate::for_each_routine!(trait_methods);
}

/// `routine`'s line in a backend's table of inherited routines, or native.
fn support_in(inherited: &[(Routine, BackendKind, &'static str)], routine: Routine) -> Support {
    match inherited.iter().find(|(r, _, _)| *r == routine) {
        Some(&(_, from, why)) => Support::Inherited { from, why },
        None => Support::Native,
    }
}

/// The backends of the lab, weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendKind {
    Scalar,
    Swar,
    Sse2,
    Avx2,
    Avx512,
    Neon,
    Portable,
}

/// The CPU features each x86 backend needs; `with_features` enables exactly these.
pub const SSE2_FEATURES: &[&str] = qbb_macros::feature_list!(sse2);
pub const AVX2_FEATURES: &[&str] = qbb_macros::feature_list!(avx2);
pub const AVX512_FEATURES: &[&str] = qbb_macros::feature_list!(avx512);
/// The CPU features of the AArch64 backend.
pub const NEON_FEATURES: &[&str] = qbb_macros::feature_list!(neon);

/// `#[features(tier)]`: compiles a function with the target features of the tier `sse2`,
/// `avx2`, `avx512` or `neon` (the lists above).
pub(crate) use qbb_macros::features;

impl BackendKind {
    pub const ALL: [BackendKind; 7] = [
        BackendKind::Scalar,
        BackendKind::Swar,
        BackendKind::Sse2,
        BackendKind::Avx2,
        BackendKind::Avx512,
        BackendKind::Neon,
        BackendKind::Portable,
    ];

    /// Best first, the order automatic selection tries (each architecture's backends are
    /// unavailable on the other).
    const PREFERENCE: [BackendKind; 6] = [
        BackendKind::Neon,
        BackendKind::Avx512,
        BackendKind::Avx2,
        BackendKind::Sse2,
        BackendKind::Swar,
        BackendKind::Scalar,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            BackendKind::Scalar => "scalar",
            BackendKind::Swar => "swar",
            BackendKind::Sse2 => "sse2",
            BackendKind::Avx2 => "avx2",
            BackendKind::Avx512 => "avx512",
            BackendKind::Neon => "neon",
            BackendKind::Portable => "portable",
        }
    }

    /// What the backend may use, for people.
    pub const fn instruction_sets(self) -> &'static str {
        match self {
            BackendKind::Scalar => "none (the reference)",
            BackendKind::Swar => "plain u64 arithmetic",
            BackendKind::Sse2 => "SSE2, SSSE3, SSE4.1/4.2, POPCNT (x86-64-v2)",
            BackendKind::Avx2 => "AVX2, BMI1/2, LZCNT, POPCNT (x86-64-v3)",
            BackendKind::Avx512 => {
                "AVX-512 F/BW/VL/VBMI/VBMI2, GFNI, VPOPCNTDQ, BITALG (x86-64-v4 and more)"
            }
            BackendKind::Neon => "NEON (Advanced SIMD, AArch64)",
            BackendKind::Portable => {
                if cfg!(target_arch = "aarch64") {
                    "std::simd (nightly), built for the baseline AArch64"
                } else {
                    "std::simd (nightly), built for the baseline x86-64"
                }
            }
        }
    }

    /// The instruction-set level the backend's code is built for, short, for table headers: the
    /// `sse2` backend needs more than SSE2 (SSSE3's `pshufb`, SSE4.1, POPCNT), which its name
    /// hides. The portable backends are built for the baseline of the architecture compiled for.
    pub const fn isa_level(self) -> &'static str {
        match self {
            BackendKind::Scalar | BackendKind::Swar | BackendKind::Portable => BASELINE,
            BackendKind::Sse2 => "x86-64-v2",
            BackendKind::Avx2 => "x86-64-v3",
            BackendKind::Avx512 => "x86-64-v4+",
            BackendKind::Neon => "armv8-a",
        }
    }

    /// The CPU features the backend needs (empty for the ones that run everywhere).
    pub const fn required_features(self) -> &'static [&'static str] {
        match self {
            BackendKind::Scalar | BackendKind::Swar | BackendKind::Portable => &[],
            BackendKind::Sse2 => SSE2_FEATURES,
            BackendKind::Avx2 => AVX2_FEATURES,
            BackendKind::Avx512 => AVX512_FEATURES,
            BackendKind::Neon => NEON_FEATURES,
        }
    }

    /// `Ok` if the backend can be used here, or why not.
    pub fn availability(self) -> Result<(), Unavailable> {
        match self {
            BackendKind::Scalar | BackendKind::Swar => Ok(()),
            BackendKind::Portable => {
                if cfg!(feature = "portable-simd") {
                    Ok(())
                } else {
                    Err(Unavailable::NotBuilt(
                        "built without the `portable-simd` feature (needs nightly: \
                         cargo +nightly ... --features portable-simd)",
                    ))
                }
            }
            BackendKind::Sse2 | BackendKind::Avx2 | BackendKind::Avx512
                if !cfg!(target_arch = "x86_64") =>
            {
                Err(Unavailable::NotBuilt(
                    "an x86-64 backend, not built for this architecture",
                ))
            }
            BackendKind::Neon if !cfg!(target_arch = "aarch64") => Err(Unavailable::NotBuilt(
                "an AArch64 backend, not built for this architecture",
            )),
            BackendKind::Sse2 | BackendKind::Avx2 | BackendKind::Avx512 | BackendKind::Neon => {
                let missing = missing_cpu_features(self.required_features());
                if missing.is_empty() {
                    Ok(())
                } else {
                    Err(Unavailable::MissingFeatures(missing))
                }
            }
        }
    }

    pub fn is_available(self) -> bool {
        self.availability().is_ok()
    }

    /// The best backend this CPU runs: neon on AArch64, avx512 > avx2 > sse2 > swar on x86-64
    /// (portable only when forced), except that avx2 is passed over where PDEP and PEXT are microcode (AMD Zen 1 and Zen 2,
    /// see [`cpu_model`]): sse2 is faster there.
    pub fn detect_best() -> BackendKind {
        Self::PREFERENCE
            .into_iter()
            .filter(|&k| k != BackendKind::Avx2 || !cpu_model::pdep_is_microcoded())
            .find(|k| k.is_available())
            .unwrap_or(BackendKind::Scalar)
    }

    /// The backend named by `QBB_BACKEND`, if set (`auto` or empty means "not forced").
    pub fn from_env() -> Result<Option<BackendKind>, BackendError> {
        match std::env::var(ENV_VAR) {
            Ok(v) if v.trim().is_empty() || v.trim().eq_ignore_ascii_case("auto") => Ok(None),
            Ok(v) => v.trim().parse().map(Some),
            Err(std::env::VarError::NotPresent) => Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => Err(BackendError::Unknown(format!(
                "{ENV_VAR} is not valid UTF-8"
            ))),
        }
    }

    /// The backend to use: the one `QBB_BACKEND` forces (which must be available), or the best.
    pub fn selected() -> Result<BackendKind, BackendError> {
        match Self::from_env()? {
            Some(kind) => kind.check_available().map(|()| kind),
            None => Ok(Self::detect_best()),
        }
    }

    /// `Ok` or the error that names what is missing.
    pub fn check_available(self) -> Result<(), BackendError> {
        self.availability()
            .map_err(|why| BackendError::Unavailable { kind: self, why })
    }

    /// How this backend provides `routine`, or `None` if the backend is not built into this
    /// binary (portable without its feature, x86 backends on other architectures; neon's table is
    /// known everywhere).
    pub fn support(self, routine: Routine) -> Option<Support> {
        match self {
            BackendKind::Scalar => Some(Scalar::support(routine)),
            BackendKind::Swar => Some(Swar::support(routine)),
            #[cfg(target_arch = "x86_64")]
            BackendKind::Sse2 => Some(Sse2::support(routine)),
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx2 => Some(Avx2::support(routine)),
            #[cfg(target_arch = "x86_64")]
            BackendKind::Avx512 => Some(Avx512::support(routine)),
            #[cfg(target_arch = "aarch64")]
            BackendKind::Neon => Some(Neon::support(routine)),
            #[cfg(not(target_arch = "aarch64"))]
            BackendKind::Neon => Some(support_in(neon_inherited::INHERITED, routine)),
            #[cfg(feature = "portable-simd")]
            BackendKind::Portable => Some(Portable::support(routine)),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}

/// The baseline instruction set of the architecture compiled for.
const BASELINE: &str = if cfg!(target_arch = "aarch64") {
    "aarch64"
} else {
    "x86-64"
};

/// The environment variable that forces a backend: `QBB_BACKEND=sse2`.
pub const ENV_VAR: &str = "QBB_BACKEND";

crate::display_and_parse_by_name!(BackendKind, name, BackendError = BackendError::Unknown);

/// Why a backend cannot run here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// The CPU lacks these features.
    MissingFeatures(Vec<&'static str>),
    /// The backend is not compiled into this binary.
    NotBuilt(&'static str),
}

impl fmt::Display for Unavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unavailable::MissingFeatures(m) => write!(f, "this CPU lacks {}", m.join(", ")),
            Unavailable::NotBuilt(why) => f.write_str(why),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BackendError {
    #[error(
        "unknown backend `{0}` (expected one of scalar, swar, sse2, avx2, avx512, neon, portable, \
         auto)"
    )]
    Unknown(String),
    #[error("backend `{kind}` is not available: {why}")]
    Unavailable { kind: BackendKind, why: Unavailable },
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn missing_cpu_features(features: &[&'static str]) -> Vec<&'static str> {
    features.iter().copied().filter(|f| !cpu_has(f)).collect()
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn missing_cpu_features(features: &[&'static str]) -> Vec<&'static str> {
    features.to_vec()
}

// Run-time detection of every feature a tier needs, from the tiers' lists in `qbb-macros`: a
// token can only prove what detection can see.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
qbb_macros::cpu_has_fn!();

// ANCHOR: feature_region
/// Defines a function compiled with the tier's features that runs a job on a backend token:
/// the body of `with_features` for a backend with target features.
macro_rules! feature_region {
    ($backend:ty, $tier:ident) => {
        #[inline(always)]
        fn with_features<R>(self, job: impl FnOnce(Self) -> R) -> R {
            #[crate::backend::features($tier)]
            fn region<R>(backend: $backend, job: impl FnOnce($backend) -> R) -> R {
                job(backend)
            }
            // SAFETY: `self` exists, so the CPU has the backend's features (trait contract).
            unsafe { region(self, job) }
        }
    };
}
// ANCHOR_END: feature_region
pub(crate) use feature_region;

// ANCHOR: impl_backend
/// A backend's `impl Backend`, with its routines declared once:
///
/// ```text
/// impl_backend! {
///     // SAFETY: ...
///     unsafe impl Backend for Sse2 {
///         const KIND ...; fn new() ...; fn with_features ... (or feature_region!)
///     }
///     own: feature_fns;
///     inherited: {
///         slider_attacks from Swar: "one set per direction: ...",
///     }
/// }
/// ```
///
/// completes the impl with `INHERITED` (the table `qbb backends`, the reports and the book read)
/// and one method per routine of the catalogue. An inherited routine's method calls the other
/// backend's, on the token [`Proves`] gives; every other routine's calls the function of the same
/// name in its module of the backend's folder (`module::name`): `own: feature_fns` for the
/// `#[features(tier)]` functions of a backend with target features, `own: fns` for the safe
/// functions of one without. So a routine is forwarded exactly when its reason is in the table: a
/// misspelt name fails the build (in `Routine::of_method`), a module function left behind for an
/// inherited routine is dead code (a warning), a native routine without one does not compile.
///
/// The methods are `#[inline(always)]`, so that a routine compiles with the features of the
/// region it is called from: the benchmarks' baselines run scalar and swar inside the avx2 region
/// (`scalar-v3`, `swar-v3`), and with plain `#[inline]` LLVM kept the largest routines (checks and
/// pins, the fills, swar's Zobrist hash) out of line, compiled for baseline x86-64.
///
/// How: the declaration defines, in the backend's module, a macro with one arm per inherited
/// routine (its name is the pattern) and a last arm for all others, and hands it every row of the
/// catalogue (`for_each_routine!`). A macro that defines a macro needs `$` for the inner one's
/// variables; it passes itself the token as `$d`.
macro_rules! impl_backend {
    (
        $(#[$meta:meta])*
        $unsafe:tt impl Backend for $backend:ident { $($body:tt)* }
        own: $own:ident;
        inherited: { $($name:ident from $from:ident: $why:expr),* $(,)? }
    ) => {
        crate::backend::impl_backend! {
            @with ($) $(#[$meta])* $unsafe $backend { $($body)* } $own [$($name $from $why),*]
        }
    };
    // `$unsafe` is the declaration's own `unsafe`, so that its `// SAFETY:` line stays above it.
    (@with ($d:tt) $(#[$meta:meta])* $unsafe:tt $backend:ident { $($body:tt)* } $own:ident
     [$($name:ident $from:ident $why:expr),*]) => {
        macro_rules! routine_method {
            ([] $d( $d(#[$d doc:meta])* row $d row:literal, $d module:ident,
                    $d variant:ident = $d id:literal, $d title:literal:
                    fn $d name:ident $d(<const $d width:ident>)? ($d($d arg:ident: $d ty:ty),*)
                    $d(-> $d ret:ty)?; )*) => {
                $d( routine_method!(
                    $d name $d module [$d($d width)?] ($d($d arg: $d ty),*) $d(-> $d ret)?
                ); )*
            };
            $( ($name $d($d row:tt)*) => {
                crate::backend::impl_backend!(@inherited $from $name $d($d row)*);
            }; )*
            ($d name:ident $d($d row:tt)*) => {
                crate::backend::impl_backend!(@$own $d name $d($d row)*);
            };
        }

        $(#[$meta])*
        $unsafe impl crate::backend::Backend for $backend {
            $($body)*

            const INHERITED: &'static [(
                crate::routine::Routine,
                crate::backend::BackendKind,
                &'static str,
            )] = &[$((
                crate::routine::Routine::of_method(stringify!($name)),
                <crate::backend::$from as crate::backend::Backend>::KIND,
                $why,
            )),*];

            crate::for_each_routine!(routine_method);
        }
    };
    // An inherited routine: the other backend's method, on its token.
    (@inherited $from:ident $name:ident $module:ident [$($width:ident)?] ($($arg:ident: $ty:ty),*)
     $(-> $ret:ty)?) => {
        #[inline(always)]
        fn $name $(<const $width: usize>)? (self $(, $arg: $ty)*) $(-> $ret)? {
            <Self as crate::backend::Proves<crate::backend::$from>>::token(self).$name($($arg),*)
        }
    };
    // ANCHOR: forward_to_feature_fns
    // A routine of the backend's own, a `#[features(tier)]` function of its module. Sound because a
    // token exists only on a CPU with the backend's features (its `new` checks them), which is
    // what the function's target features require (`tests/feature_sets.rs` checks that they enable
    // no more).
    (@feature_fns $name:ident $module:ident [$($width:ident)?] ($($arg:ident: $ty:ty),*)
     $(-> $ret:ty)?) => {
        #[inline(always)]
        fn $name $(<const $width: usize>)? (self $(, $arg: $ty)*) $(-> $ret)? {
            // SAFETY: `self` exists, so the CPU has the backend's features (`new` checked
            // them), the ones the module's function is compiled with.
            unsafe { $module::$name($($arg),*) }
        }
    };
    // ANCHOR_END: forward_to_feature_fns
    // A routine of the backend's own, a safe function of its module (scalar, swar, portable).
    (@fns $name:ident $module:ident [$($width:ident)?] ($($arg:ident: $ty:ty),*)
     $(-> $ret:ty)?) => {
        #[inline(always)]
        fn $name $(<const $width: usize>)? (self $(, $arg: $ty)*) $(-> $ret)? {
            $module::$name($($arg),*)
        }
    };
}
// ANCHOR_END: impl_backend
pub(crate) use impl_backend;

/// Holding a token of `Self` proves that the CPU runs `B`'s code, so `Self` may inherit routines
/// from `B` (see [`impl_backend!`]) and make `B`'s token to run them.
///
/// # Safety
///
/// An implementation promises that wherever a value of `Self` exists, the CPU has every feature
/// `B` needs.
pub(crate) unsafe trait Proves<B: Backend>: Backend {
    /// The token of `B`.
    fn token(self) -> B;
}

// SAFETY: the scalar reference needs no feature.
unsafe impl<T: Backend> Proves<Scalar> for T {
    #[inline(always)]
    fn token(self) -> Scalar {
        Scalar
    }
}

// SAFETY: swar needs no feature.
unsafe impl<T: Backend> Proves<Swar> for T {
    #[inline(always)]
    fn token(self) -> Swar {
        Swar::TOKEN
    }
}

// ANCHOR: with_backend
/// Runs a job on the backend `kind` chosen at run time, inside the backend's target features:
/// `with_backend!(kind, |b| body)` binds `b` to the backend's token and evaluates `body` in a
/// closure run by [`Backend::with_features`], so every routine `body` calls inlines into one
/// function compiled for the backend. Returns `Ok(body's value)`, or the [`BackendError`] that
/// names why `kind` cannot run here.
///
/// ```
/// use qbb::{Backend, BackendKind, Quad, Square};
///
/// let start = Quad::start_position();
/// let kind = BackendKind::detect_best();
/// let code = qbb::with_backend!(kind, |b| b.piece_at(&start, Square::E1)).unwrap();
/// assert_eq!(code, 0b1100); // the white king
/// ```
///
/// `body` is compiled once per backend (Rust has no generic closures: each arm of the expansion
/// is its own closure, with `b` of that backend's type). It is a closure's body: `return` and `?`
/// leave the job, not the caller.
#[macro_export]
macro_rules! with_backend {
    ($kind:expr, |$b:ident| $body:expr) => {
        $crate::__dispatch!($kind, $b, $body)
    };
}
// ANCHOR_END: with_backend

/// The arms of [`with_backend!`]: the portable backend's arm only where it is built (the macro is
/// expanded in other crates, whose features are not this crate's).
#[cfg(feature = "portable-simd")]
#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch {
    ($kind:expr, $b:ident, $body:expr) => {
        match $kind {
            $crate::BackendKind::Portable => $crate::backend::enter::<$crate::Portable, _>(
                #[inline(always)]
                |$b| $body,
            ),
            kind => $crate::__dispatch_native!(kind, $b, $body),
        }
    };
}

#[cfg(not(feature = "portable-simd"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch {
    ($kind:expr, $b:ident, $body:expr) => {
        $crate::__dispatch_native!($kind, $b, $body)
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch_native {
    ($kind:expr, $b:ident, $body:expr) => {
        match $kind {
            $crate::BackendKind::Scalar => $crate::backend::enter::<$crate::Scalar, _>(
                #[inline(always)]
                |$b| $body,
            ),
            $crate::BackendKind::Swar => $crate::backend::enter::<$crate::Swar, _>(
                #[inline(always)]
                |$b| $body,
            ),
            #[cfg(target_arch = "x86_64")]
            $crate::BackendKind::Sse2 => $crate::backend::enter::<$crate::Sse2, _>(
                #[inline(always)]
                |$b| $body,
            ),
            #[cfg(target_arch = "x86_64")]
            $crate::BackendKind::Avx2 => $crate::backend::enter::<$crate::Avx2, _>(
                #[inline(always)]
                |$b| $body,
            ),
            #[cfg(target_arch = "x86_64")]
            $crate::BackendKind::Avx512 => $crate::backend::enter::<$crate::Avx512, _>(
                #[inline(always)]
                |$b| $body,
            ),
            #[cfg(target_arch = "aarch64")]
            $crate::BackendKind::Neon => $crate::backend::enter::<$crate::Neon, _>(
                #[inline(always)]
                |$b| $body,
            ),
            #[allow(unreachable_patterns)]
            kind => Err($crate::backend::not_built(kind)),
        }
    };
}

/// Makes the backend `B` (if this CPU has it) and runs `job` on it inside its target features:
/// the one dispatch at the top of a job, for [`with_backend!`].
#[doc(hidden)]
#[inline(always)]
pub fn enter<B: Backend, R>(job: impl FnOnce(B) -> R) -> Result<R, BackendError> {
    match B::new() {
        Some(backend) => Ok(backend.with_features(job)),
        None => Err(B::KIND
            .check_available()
            .err()
            .unwrap_or_else(|| not_built(B::KIND))),
    }
}

/// The error for a backend that is not compiled into this binary or refused to construct.
#[doc(hidden)]
pub fn not_built(kind: BackendKind) -> BackendError {
    match kind.check_available() {
        Err(error) => error,
        Ok(()) => BackendError::Unavailable {
            kind,
            why: Unavailable::NotBuilt("not built into this binary"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neons_inherited_routines_are_known_on_every_architecture() {
        assert!(matches!(
            BackendKind::Neon.support(Routine::PieceSets),
            Some(Support::Inherited {
                from: BackendKind::Swar,
                ..
            })
        ));
        assert!(matches!(
            BackendKind::Neon.support(Routine::Flip),
            Some(Support::Native)
        ));
    }
}

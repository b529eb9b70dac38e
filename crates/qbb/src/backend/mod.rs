//! The backend trait that every routine of the catalogue goes through, the backends, and run-time
//! selection.
//!
//! Two rules make SIMD both safe and fast here (DESIGN.md section 4):
//!
//! 1. **A backend value is proof that the CPU has its instructions.** Each backend is a zero-sized
//!    token whose only public constructor, `new() -> Option<Self>`, checks the CPU first; so its
//!    methods can be safe, and each `unsafe` block inside them rests on that proof.
//! 2. **Dispatch once, at the top.** A `#[target_feature]` function is not inlined into a caller
//!    compiled without that feature. [`Backend::with_features`] runs a whole job (a benchmark loop, a
//!    perft, a search) inside one function compiled with the backend's features, and everything below
//!    it (`#[inline]` routines, generic engine code) inlines into it. [`run_on`] does this for a
//!    [`BackendTask`] chosen at run time.

use std::fmt;
use std::str::FromStr;

use crate::aspects::MoveAspects;
use crate::king_safety::{KingSafety, SliderPosition};
use crate::quad::Quad;
use crate::repr::{ClassicalBoard, DenseBoard, HexSets, Mailbox, NibbleBoard, PieceSets};
use crate::routine::{Routine, Support};
use crate::square::Square;

pub mod scalar;
pub mod swar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub mod sse2;

#[cfg(feature = "portable-simd")]
pub mod portable;

pub use scalar::Scalar;
pub use swar::Swar;

#[cfg(target_arch = "x86_64")]
pub use {avx2::Avx2, avx512::Avx512, sse2::Sse2};

#[cfg(feature = "portable-simd")]
pub use portable::Portable;

// ANCHOR: backend_trait
/// The routines of the catalogue (DESIGN.md section 3), implemented once per instruction set.
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
        match Self::INHERITED.iter().find(|(r, _, _)| *r == routine) {
            Some(&(_, from, why)) => Support::Inherited { from, why },
            None => Support::Native,
        }
    }

    // ---- 1, 2: one square -------------------------------------------------------------------

    /// Row 1: The nibble of `sq` (the article's `getPiece`).
    fn piece_at(self, quad: &Quad, sq: Square) -> u8;

    /// Row 2: Write `code & 15` into the nibble of `sq` (code 0 clears the square).
    fn set_piece(self, quad: &mut Quad, sq: Square, code: u8);

    // ---- 3, 4: sets -------------------------------------------------------------------------

    /// Row 3: The disjoint piece sets of the article (see [`PieceSets`] for the formulas).
    fn piece_sets(self, quad: &Quad) -> PieceSets;

    /// Row 4: The 16 sets of `quad2hexBB`: set `c` holds the squares whose nibble is `c`.
    fn hex_sets(self, quad: &Quad) -> HexSets;

    // ---- 5, 6: mailbox ----------------------------------------------------------------------

    /// Row 5: Byte `s` = the nibble of square `s` (`quadBB2Board`).
    fn to_mailbox(self, quad: &Quad) -> Mailbox;

    /// Row 6: The inverse of 5; only the low nibble of each byte is read.
    fn from_mailbox(self, mailbox: &Mailbox) -> Quad;

    // ---- 7, 8: make/unmake and flip ---------------------------------------------------------

    /// Row 7: The delta quad of a move: the xor of its aspects (the piece leaving `from`, the piece or
    /// its promotion arriving on `to`, the captured piece leaving its square, the castling rook).
    /// `quad ^ delta` makes the move; xor-ing the delta again unmakes it.
    fn move_delta(self, aspects: &MoveAspects) -> Quad;

    /// Row 8: The colour flip: mirror all planes vertically (byte swap) and toggle the colour bit of
    /// every occupied square (type bits not all zero).
    fn flip(self, quad: &Quad) -> Quad;

    // ---- 9..12: attacks ---------------------------------------------------------------------

    /// Row 9: Kogge-Stone occluded fills of four generator sets at once, in all eight directions:
    /// `out[d.index()]` holds, per plane, the generators plus the squares they reach through
    /// `empty` in direction `d` (blockers excluded, no wrap around the board's edges).
    fn occluded_fills(self, generators: &Quad, empty: u64) -> [Quad; 8];

    /// Row 10: The union of the ray attacks of the rook-wise sliders `orth` in the four orthogonal
    /// directions and the bishop-wise sliders `diag` in the four diagonal ones; rays stop at (and
    /// include) the first square not in `empty`.
    fn slider_attacks(self, orth: u64, diag: u64, empty: u64) -> u64;

    /// Row 11: The squares attacked by any knight of `knights`.
    fn knight_attacks(self, knights: u64) -> u64;

    /// Row 12: Checks and pins of both kings by Isenberg's coding; `out[colour]` is about the king of
    /// that colour (see [`KingSafety`] for the exact sets).
    fn checks_and_pins(self, position: &SliderPosition) -> [KingSafety; 2];

    // ---- 13, 14: counting and nibble arithmetic ---------------------------------------------

    /// Row 13: `sum popcount(sets[i]) * weights[i]` (`popCountWeight8`).
    fn weighted_popcount(self, sets: &[u64; 8], weights: &[i16; 8]) -> i32;

    /// Row 14: Lane-wise `a + b` mod 16 of 64 nibbles, carries never crossing lanes.
    fn nibble_add(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;

    /// Row 14: Lane-wise `a - b` mod 16.
    fn nibble_sub(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;

    /// Row 14: Lane-wise `(a + b) / 2`, rounded down, without overflow.
    fn nibble_avg(self, a: &NibbleBoard, b: &NibbleBoard) -> NibbleBoard;

    // ---- 15, 16: other representations ------------------------------------------------------

    /// Row 15: The vertical nibbles of the quad laid out horizontally: a bit transpose.
    fn to_nibble_board(self, quad: &Quad) -> NibbleBoard;

    /// Row 15: The inverse of `to_nibble_board`.
    fn from_nibble_board(self, board: &NibbleBoard) -> Quad;

    /// Row 16: The classical twelve bitboards (codes 2..=13; see [`ClassicalBoard`]).
    fn to_classical(self, quad: &Quad) -> ClassicalBoard;

    /// Row 16: Plane `p` = the union of the sets whose piece code has bit `p` (any input).
    fn from_classical(self, board: &ClassicalBoard) -> Quad;

    /// Row 16: The denser board of two colour and six type sets (see [`DenseBoard`]).
    fn to_dense(self, quad: &Quad) -> DenseBoard;

    /// Row 16: Plane 0 = `black & (types)`, plane `p > 0` = the union of the type sets whose type has
    /// bit `p - 1` (any input; the white set is implied).
    fn from_dense(self, board: &DenseBoard) -> Quad;

    // ---- 17: hashing ------------------------------------------------------------------------

    /// Row 17: Manino's hash from scratch: `state * C ^ xor_i (lo32(bb[i]) * A[i] ^ hi32(bb[i]) * B[i])`,
    /// with the constants of [`crate::hash`].
    fn hash_manino(self, quad: &Quad, state: u64) -> u64;

    /// Row 17: Zobrist from scratch: the xor of `ZOBRIST[nibble][square]` over all squares.
    fn hash_zobrist(self, quad: &Quad) -> u64;
}

/// The backends of the lab, weakest first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendKind {
    Scalar,
    Swar,
    Sse2,
    Avx2,
    Avx512,
    Portable,
}

/// The CPU features each x86 backend needs; `with_features` enables exactly these.
pub const SSE2_FEATURES: &[&str] = &["sse2", "ssse3", "sse4.1", "sse4.2", "popcnt"];
pub const AVX2_FEATURES: &[&str] = &["avx2", "bmi1", "bmi2", "lzcnt", "popcnt"];
pub const AVX512_FEATURES: &[&str] = &[
    "avx512f",
    "avx512bw",
    "avx512vl",
    "avx512vbmi",
    "avx512vbmi2",
    "gfni",
    "avx512vpopcntdq",
    "avx512bitalg",
    "avx2",
    "bmi1",
    "bmi2",
    "lzcnt",
    "popcnt",
];

impl BackendKind {
    pub const ALL: [BackendKind; 6] = [
        BackendKind::Scalar,
        BackendKind::Swar,
        BackendKind::Sse2,
        BackendKind::Avx2,
        BackendKind::Avx512,
        BackendKind::Portable,
    ];

    /// Best first, the order automatic selection tries.
    const PREFERENCE: [BackendKind; 5] = [
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
            BackendKind::Portable => "portable",
        }
    }

    /// What the backend may use, for people.
    pub const fn instruction_sets(self) -> &'static str {
        match self {
            BackendKind::Scalar => "none (the reference)",
            BackendKind::Swar => "plain u64 arithmetic",
            BackendKind::Sse2 => "SSE2 (+SSSE3, SSE4.1/4.2, POPCNT)",
            BackendKind::Avx2 => "AVX2, BMI1/2, LZCNT, POPCNT",
            BackendKind::Avx512 => "AVX-512 F/BW/VL/VBMI/VBMI2, GFNI, VPOPCNTDQ, BITALG",
            BackendKind::Portable => "std::simd (nightly)",
        }
    }

    /// The CPU features the backend needs (empty for the ones that run everywhere).
    pub const fn required_features(self) -> &'static [&'static str] {
        match self {
            BackendKind::Scalar | BackendKind::Swar | BackendKind::Portable => &[],
            BackendKind::Sse2 => SSE2_FEATURES,
            BackendKind::Avx2 => AVX2_FEATURES,
            BackendKind::Avx512 => AVX512_FEATURES,
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
            BackendKind::Sse2 | BackendKind::Avx2 | BackendKind::Avx512 => {
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

    /// The best backend this CPU runs: avx512 > avx2 > sse2 > swar (portable only when forced).
    pub fn detect_best() -> BackendKind {
        Self::PREFERENCE
            .into_iter()
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
    /// binary (portable without its feature, x86 backends on other architectures).
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
            #[cfg(feature = "portable-simd")]
            BackendKind::Portable => Some(Portable::support(routine)),
            #[allow(unreachable_patterns)]
            _ => None,
        }
    }
}

/// The environment variable that forces a backend: `QBB_BACKEND=sse2`.
pub const ENV_VAR: &str = "QBB_BACKEND";

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BackendKind {
    type Err = BackendError;

    fn from_str(s: &str) -> Result<BackendKind, BackendError> {
        BackendKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| BackendError::Unknown(s.to_string()))
    }
}

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
        "unknown backend `{0}` (expected one of scalar, swar, sse2, avx2, avx512, portable, auto)"
    )]
    Unknown(String),
    #[error("backend `{kind}` is not available: {why}")]
    Unavailable { kind: BackendKind, why: Unavailable },
}

#[cfg(target_arch = "x86_64")]
fn missing_cpu_features(features: &[&'static str]) -> Vec<&'static str> {
    features.iter().copied().filter(|f| !cpu_has(f)).collect()
}

#[cfg(not(target_arch = "x86_64"))]
fn missing_cpu_features(features: &[&'static str]) -> Vec<&'static str> {
    features.to_vec()
}

/// Run-time detection of one feature by name (the macro wants a literal).
#[cfg(target_arch = "x86_64")]
pub fn cpu_has(feature: &str) -> bool {
    macro_rules! detect {
        ($($name:tt),*) => {
            match feature {
                $( $name => std::arch::is_x86_feature_detected!($name), )*
                _ => false,
            }
        };
    }
    detect!(
        "sse2",
        "ssse3",
        "sse4.1",
        "sse4.2",
        "popcnt",
        "avx",
        "avx2",
        "bmi1",
        "bmi2",
        "lzcnt",
        "avx512f",
        "avx512bw",
        "avx512vl",
        "avx512vbmi",
        "avx512vbmi2",
        "gfni",
        "avx512vpopcntdq",
        "avx512bitalg"
    )
}

/// A job that runs on whichever backend is chosen at run time; Rust has no generic closures, so
/// the job is a type with a generic method.
pub trait BackendTask {
    type Output;
    fn run<B: Backend>(self, backend: B) -> Self::Output;
}

// ANCHOR: run_on
/// Constructs the backend `kind` (if this CPU has it) and runs `task` on it inside the backend's
/// target features: the one dispatch at the top of a job.
pub fn run_on<T: BackendTask>(kind: BackendKind, task: T) -> Result<T::Output, BackendError> {
    fn go<B: Backend, T: BackendTask>(
        kind: BackendKind,
        task: T,
    ) -> Result<T::Output, BackendError> {
        match B::new() {
            // Without the attribute the closure is the compiler's to inline or not, and a
            // backend with several regions (portable: one per vector width) gives it several
            // callers: then LLVM may keep it out of line, compiled without the region's features.
            Some(backend) => Ok(backend.with_features(
                #[inline(always)]
                |b| task.run(b),
            )),
            None => Err(kind
                .check_available()
                .err()
                .unwrap_or(BackendError::Unavailable {
                    kind,
                    why: Unavailable::NotBuilt("the backend refused to construct"),
                })),
        }
    }
    kind.check_available()?;
    match kind {
        BackendKind::Scalar => go::<Scalar, T>(kind, task),
        BackendKind::Swar => go::<Swar, T>(kind, task),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Sse2 => go::<Sse2, T>(kind, task),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Avx2 => go::<Avx2, T>(kind, task),
        #[cfg(target_arch = "x86_64")]
        BackendKind::Avx512 => go::<Avx512, T>(kind, task),
        #[cfg(feature = "portable-simd")]
        BackendKind::Portable => go::<Portable, T>(kind, task),
        #[allow(unreachable_patterns)]
        _ => Err(BackendError::Unavailable {
            kind,
            why: Unavailable::NotBuilt("not built for this architecture"),
        }),
    }
}
// ANCHOR_END: run_on

// ANCHOR: feature_region
/// Defines a function compiled with `features` that runs a job on a backend token: the body of
/// `with_features` for a backend with target features.
macro_rules! feature_region {
    ($backend:ty, $features:literal) => {
        #[inline(always)]
        fn with_features<R>(self, job: impl FnOnce(Self) -> R) -> R {
            #[target_feature(enable = $features)]
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

// ANCHOR: forward_to_feature_fns
/// The trait methods of a backend whose routines are `#[target_feature]` functions of its
/// submodules: each `fn name(self, args) -> T => module;` becomes a method that calls
/// `module::name(args)`. Sound because a backend token exists only on a CPU with the backend's
/// features (its `new` checks them), which is what the functions' target features require.
macro_rules! forward_to_feature_fns {
    ($( fn $name:ident(self $(, $arg:ident: $ty:ty)*) $(-> $ret:ty)? => $module:ident; )*) => {
        $(
            #[inline(always)]
            fn $name(self $(, $arg: $ty)*) $(-> $ret)? {
                // SAFETY: `self` exists, so the CPU has the backend's features (`new` checked
                // them), the ones the submodule's function is compiled with.
                unsafe { $module::$name($($arg),*) }
            }
        )*
    };
}
// ANCHOR_END: forward_to_feature_fns
pub(crate) use forward_to_feature_fns;

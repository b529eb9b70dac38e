//! The CPU features of each backend with target features (the x86 tiers and NEON), written once.
//!
//! A backend token proves that the CPU has its backend's features, and every `#[target_feature]`
//! function below the token may enable at most those: one feature more, on one function, compiles
//! and is undefined behaviour on a CPU without it. So no backend spells a feature list out. The
//! lists live in [`TIERS`], and two macros hand them out:
//!
//! - `#[features(avx2)]` on a function stamps `#[target_feature(enable = "avx2,bmi1,…")]` on it;
//! - `feature_list!(avx2)` is the same list as a `&[&str]`, the one run-time detection checks
//!   before a token is made;
//! - `cpu_has_fn!()` defines `cpu_has(name)`, run-time detection of every feature of every tier
//!   of the architecture being compiled for (the standard `is_x86_feature_detected!` and
//!   `is_aarch64_feature_detected!` want a literal, so each gets its own arm).
//!
//! The `qbb` crate's test `feature_sets` reads every source file under its backends and checks that
//! each function enables a subset of what its backend's token proves.

use proc_macro::{Delimiter, Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Each tier: the name used in `#[features(name)]`, the architecture it belongs to, and its
/// features, each one a name that the architecture's detection macro knows.
const TIERS: &[(&str, Arch, &[&str])] = &[
    // x86-64-v2: SSE2 to SSE4.2 and POPCNT (the `sse2` backend's routines use SSSE3's `pshufb`,
    // SSE4.1's blends and extracts, and POPCNT).
    (
        "sse2",
        X86,
        &["sse2", "ssse3", "sse4.1", "sse4.2", "popcnt"],
    ),
    // x86-64-v3 without FMA and MOVBE, which no routine uses.
    ("avx2", X86, &["avx2", "bmi1", "bmi2", "lzcnt", "popcnt"]),
    // The Ice Lake generation's AVX-512 and the whole avx2 tier.
    (
        "avx512",
        X86,
        &[
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
        ],
    ),
    // ANCHOR: neon_tier
    // Advanced SIMD, which every AArch64 core of the A profile has; detected all the same, so
    // that the neon token proves what its functions enable exactly as the x86 tokens do.
    ("neon", Aarch64, &["neon"]),
    // ANCHOR_END: neon_tier
];

/// The architecture of a tier: which `target_arch` its detection compiles for.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Arch {
    X86,
    Aarch64,
}

use Arch::{Aarch64, X86};

impl Arch {
    /// The `target_arch` value and the standard detection macro.
    fn detection(self) -> (&'static str, &'static str) {
        match self {
            X86 => ("x86_64", "is_x86_feature_detected"),
            Aarch64 => ("aarch64", "is_aarch64_feature_detected"),
        }
    }
}

/// The tier names, for error messages.
const TIER_NAMES: &str = "sse2, avx2, avx512 or neon";

/// `#[features(tier)]`: compiles the function with the tier's target features.
#[proc_macro_attribute]
pub fn features(attr: TokenStream, item: TokenStream) -> TokenStream {
    let features = match tier(attr) {
        Ok(features) => features,
        Err(error) => return error,
    };
    // #[target_feature(enable = "a,b,c")]
    let enable: TokenStream = [
        TokenTree::Ident(Ident::new("enable", Span::call_site())),
        TokenTree::Punct(Punct::new('=', Spacing::Alone)),
        TokenTree::Literal(Literal::string(&features.join(","))),
    ]
    .into_iter()
    .collect();
    let attribute: TokenStream = [
        TokenTree::Ident(Ident::new("target_feature", Span::call_site())),
        TokenTree::Group(Group::new(Delimiter::Parenthesis, enable)),
    ]
    .into_iter()
    .collect();
    let mut out: TokenStream = [
        TokenTree::Punct(Punct::new('#', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Bracket, attribute)),
    ]
    .into_iter()
    .collect();
    out.extend(item);
    out
}

/// `feature_list!(tier)`: the tier's features as a `&'static [&'static str]` expression.
#[proc_macro]
pub fn feature_list(input: TokenStream) -> TokenStream {
    let features = match tier(input) {
        Ok(features) => features,
        Err(error) => return error,
    };
    let mut items = TokenStream::new();
    for feature in features {
        items.extend([
            TokenTree::Literal(Literal::string(feature)),
            TokenTree::Punct(Punct::new(',', Spacing::Alone)),
        ]);
    }
    [
        TokenTree::Punct(Punct::new('&', Spacing::Alone)),
        TokenTree::Group(Group::new(Delimiter::Bracket, items)),
    ]
    .into_iter()
    .collect()
}

/// `cpu_has_fn!()`: `pub fn cpu_has(feature: &str) -> bool`, detecting each feature of the tiers
/// of the architecture being compiled for at run time (each arm carries its `cfg`), and answering
/// `false` for any other name.
#[proc_macro]
pub fn cpu_has_fn(input: TokenStream) -> TokenStream {
    if !input.is_empty() {
        return compile_error("cpu_has_fn!() takes no arguments", None);
    }
    let mut names: Vec<(&str, Arch)> = TIERS
        .iter()
        .flat_map(|&(_, arch, features)| features.iter().map(move |&f| (f, arch)))
        .collect();
    names.sort_unstable_by_key(|&(f, _)| f);
    names.dedup_by_key(|&mut (f, _)| f);
    let arms: String = names
        .iter()
        .map(|&(f, arch)| {
            let (target, detect) = arch.detection();
            format!("#[cfg(target_arch = {target:?})] {f:?} => ::std::arch::{detect}!({f:?}),")
        })
        .collect();
    format!(
        "/// Run-time detection of one feature of this architecture's tiers by name; `false` for \
         any other name.\n\
         pub fn cpu_has(feature: &str) -> bool {{ match feature {{ {arms} _ => false, }} }}"
    )
    .parse()
    .unwrap_or_else(|_| compile_error("cpu_has_fn!: generated code does not parse", None))
}

/// The features of the tier named by `input` (one identifier), or a `compile_error!`.
fn tier(input: TokenStream) -> Result<&'static [&'static str], TokenStream> {
    let tokens: Vec<TokenTree> = input.into_iter().collect();
    let (name, span) = match tokens.as_slice() {
        [TokenTree::Ident(ident)] => (ident.to_string(), ident.span()),
        _ => {
            return Err(compile_error(
                &format!("expected one tier name: {TIER_NAMES}"),
                None,
            ));
        }
    };
    TIERS
        .iter()
        .find(|(tier, _, _)| *tier == name)
        .map(|&(_, _, features)| features)
        .ok_or_else(|| {
            compile_error(
                &format!("unknown tier `{name}`: expected {TIER_NAMES}"),
                Some(span),
            )
        })
}

/// `compile_error!("message")`, pointing at `span` where there is one.
fn compile_error(message: &str, span: Option<Span>) -> TokenStream {
    let span = span.unwrap_or_else(Span::call_site);
    let mut literal = Literal::string(message);
    literal.set_span(span);
    let mut bang = Punct::new('!', Spacing::Alone);
    bang.set_span(span);
    let mut args = Group::new(Delimiter::Parenthesis, TokenTree::Literal(literal).into());
    args.set_span(span);
    [
        TokenTree::Ident(Ident::new("compile_error", span)),
        TokenTree::Punct(bang),
        TokenTree::Group(args),
    ]
    .into_iter()
    .collect()
}

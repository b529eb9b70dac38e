//! The two instruction sets the model reads: x86-64 (Intel syntax) and AArch64. A CPU is of one,
//! a listing is of one, and a CPU's probes come from a listing of its instruction set.

use qbb::BackendKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Isa {
    X86_64,
    Aarch64,
}

/// Mnemonics only AArch64 has, by which a listing without a `# target` line is told apart.
const AARCH64_ONLY: [&str; 8] = ["ldr", "str", "ldp", "stp", "adrp", "bl", "cbz", "cbnz"];

impl Isa {
    pub const fn name(self) -> &'static str {
        match self {
            Isa::X86_64 => "x86-64",
            Isa::Aarch64 => "aarch64",
        }
    }

    /// llvm-mca's `-mtriple`.
    pub const fn triple(self) -> &'static str {
        match self {
            Isa::X86_64 => "x86_64",
            Isa::Aarch64 => "aarch64",
        }
    }

    /// What llvm-mca's input starts with: cargo asm prints x86-64 in Intel syntax.
    pub const fn prelude(self) -> &'static str {
        match self {
            Isa::X86_64 => ".intel_syntax noprefix\n",
            Isa::Aarch64 => "",
        }
    }

    /// The backends modelled on a CPU of this instruction set, in the tables' order: all the
    /// lab has there (the portable backend only on x86-64, where a nightly listing has it).
    pub const fn backends(self) -> &'static [BackendKind] {
        match self {
            Isa::X86_64 => &[
                BackendKind::Scalar,
                BackendKind::Swar,
                BackendKind::Sse2,
                BackendKind::Avx2,
                BackendKind::Avx512,
                BackendKind::Portable,
            ],
            Isa::Aarch64 => &[BackendKind::Scalar, BackendKind::Swar, BackendKind::Neon],
        }
    }

    /// The instruction set of a listing: its `# target <triple>` line (written by `qbb model`
    /// above the listings it makes), else AArch64 when an instruction only AArch64 has appears.
    pub fn of_listing(text: &str) -> Isa {
        let named = text.lines().find_map(|l| {
            let target = l.trim().strip_prefix("# target ")?;
            Some(if target.starts_with("aarch64") {
                Isa::Aarch64
            } else {
                Isa::X86_64
            })
        });
        named.unwrap_or_else(|| {
            let aarch64 = text
                .lines()
                .filter(|l| l.starts_with('\t'))
                .filter_map(|l| l.split_whitespace().next())
                .any(|mnemonic| AARCH64_ONLY.contains(&mnemonic));
            if aarch64 { Isa::Aarch64 } else { Isa::X86_64 }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_are_told_apart_by_their_instructions_or_target_line() {
        assert_eq!(
            Isa::of_listing("f:\n\tldp q1, q2, [x0]\n\tret\n"),
            Isa::Aarch64
        );
        assert_eq!(
            Isa::of_listing("f:\n\tmov rax, qword ptr [rdi]\n\tret\n"),
            Isa::X86_64
        );
        assert_eq!(
            Isa::of_listing("# target aarch64-unknown-linux-gnu\nf:\n\tret\n"),
            Isa::Aarch64
        );
    }

    #[test]
    fn only_aarch64_cores_model_neon() {
        assert!(Isa::Aarch64.backends().contains(&BackendKind::Neon));
        assert!(!Isa::X86_64.backends().contains(&BackendKind::Neon));
        assert!(!Isa::Aarch64.backends().contains(&BackendKind::Avx2));
    }
}

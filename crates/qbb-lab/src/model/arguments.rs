//! Independent calls in llvm-mca's loop.
//!
//! llvm-mca repeats the probe's block, so a register the block overwrites reaches the next pass
//! as its input. A probe's inputs are its argument registers, and many probes reuse them once
//! read (swar's `nibble_add` loads `[rdx + 8]` into `rdx`, avx2's `piece_at` flips the square
//! in `sil`): repeated, each pass would wait for the previous one, a chain the benchmark's
//! independent calls do not have. Each pass therefore starts by giving such a register a value
//! of its own, `mov r32, 0`, which waits for nothing. It costs an integer operation each, as the
//! benchmark's loop spends one on each argument it advances. (The `xor` zero idiom would cost no
//! execution unit, but LLVM 19's Sapphire Rapids model does not treat it as independent.)

use super::registers::{ARGUMENTS, mentions, names_of};

/// Instructions whose first operand is read, not written.
const READ_ONLY_FIRST: [&str; 5] = ["cmp", "test", "bt", "push", "call"];

/// Instructions that write their first operand without reading it (when it is a whole 32- or
/// 64-bit register).
const WRITE_ONLY_FIRST: [&str; 12] = [
    "mov", "movabs", "movzx", "movsx", "movsxd", "lea", "pop", "shlx", "shrx", "sarx", "pdep",
    "pext",
];

/// The instructions to put before `instructions`: one per argument register that the block
/// reads before it overwrites it.
pub fn resets(instructions: &[String]) -> Vec<String> {
    // `mov r32, 0`: writing the 32-bit name sets the whole register.
    ARGUMENTS
        .iter()
        .map(|a| names_of(a))
        .filter(|names| read_then_overwritten(instructions, names))
        .map(|names| format!("mov {}, 0", names[1]))
        .collect()
}

/// The register is an input of the block (read at or before its first write) and the block
/// writes it.
fn read_then_overwritten(instructions: &[String], names: &[&str; 5]) -> bool {
    let split = |i: &'_ str| -> (String, String) {
        let (mnemonic, operands) = i.split_once(' ').unwrap_or((i, ""));
        (mnemonic.to_string(), operands.to_string())
    };
    let written = |i: &String| {
        let (mnemonic, operands) = split(i);
        writes(&mnemonic, &operands, names)
    };
    for instruction in instructions {
        let (mnemonic, operands) = split(instruction);
        let first = operands.split(',').next().unwrap_or("").trim();
        let rest = operands.get(first.len()..).unwrap_or("");
        let writes = writes(&mnemonic, &operands, names);
        let whole = first == names[0] || first == names[1];
        // `xor ecx, ecx` (and `sub`) only sets the register: the zero idiom.
        let zeroes = matches!(mnemonic.as_str(), "xor" | "sub")
            && rest.trim_start_matches(',').trim() == first;
        if zeroes && whole {
            return false;
        }
        let reads = mentions(rest, names)
            || (mentions(first, names) && !writes)
            || (writes && !(whole && WRITE_ONLY_FIRST.contains(&mnemonic.as_str())));
        if reads {
            return instructions.iter().any(written);
        }
        if writes {
            return false; // set before it is read: not an input
        }
    }
    false
}

/// The instruction writes the register, explicitly as its first operand or implicitly.
fn writes(mnemonic: &str, operands: &str, names: &[&str; 5]) -> bool {
    let first = operands.split(',').next().unwrap_or("").trim();
    // One-operand multiplies and divides, and sign extensions into rdx, write rdx implicitly;
    // string instructions move rdi, rsi and rcx.
    let implicit_rdx = matches!(mnemonic, "mul" | "div" | "idiv" | "cqo" | "cdq" | "cwd")
        || (mnemonic == "imul" && !operands.contains(','));
    let explicit = names.contains(&first)
        && !implicit_rdx
        && !READ_ONLY_FIRST.contains(&mnemonic)
        && !mnemonic.starts_with('j');
    let string = mnemonic.starts_with("rep");
    explicit
        || (implicit_rdx && names[0] == "rdx")
        || (string && matches!(names[0], "rdi" | "rsi" | "rcx"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::owned;

    #[test]
    fn only_overwritten_arguments_are_reset() {
        // swar's nibble_add: rdx and rsi are loaded over, rdi becomes a mask once read; rcx is
        // set before it is read, a temporary.
        let body = owned(&[
            "mov rax, rdi",
            "mov rcx, qword ptr [rdx + 24]",
            "movabs rdi, 8608480567731124087",
            "mov rdx, qword ptr [rdx + 8]",
            "mov rsi, qword ptr [rsi + 8]",
            "mov qword ptr [rax], r10",
        ]);
        assert_eq!(resets(&body), ["mov edi, 0", "mov esi, 0", "mov edx, 0"]);
    }

    #[test]
    fn reads_and_stores_write_no_argument() {
        let body = owned(&[
            "cmp rdi, 3",
            "test sil, sil",
            "bt rdx, rcx",
            "mov qword ptr [rdi], rsi",
            "vmovdqa ymm0, ymmword ptr [rdi]",
        ]);
        assert!(resets(&body).is_empty(), "{:?}", resets(&body));
    }

    #[test]
    fn parts_and_implicit_writes_count() {
        assert_eq!(resets(&owned(&["xor sil, 63"])), ["mov esi, 0"]);
        assert_eq!(resets(&owned(&["shr r9b, 1"])), ["mov r9d, 0"]);
        assert_eq!(resets(&owned(&["mul rcx"])), ["mov edx, 0"]);
        assert!(resets(&owned(&["imul rax, rcx, 3"])).is_empty());
        // Read first, written later.
        assert_eq!(
            resets(&owned(&[
                "shlx rax, rax, rsi",
                "add rax, 1",
                "mov rsi, rax"
            ])),
            ["mov esi, 0"]
        );
    }

    #[test]
    fn a_register_set_before_it_is_read_is_no_input() {
        assert!(resets(&owned(&["xor ecx, ecx", "bt rdx, rcx", "inc rcx"])).is_empty());
        assert!(resets(&owned(&["mov ecx, 5", "shr rax, cl", "add rcx, 1"])).is_empty());
        assert!(resets(&owned(&["movabs rdi, 42", "and rax, rdi"])).is_empty());
    }
}

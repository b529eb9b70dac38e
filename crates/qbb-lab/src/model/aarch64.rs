//! AArch64 listings: what an instruction does to the flow of control, its symbols replaced so
//! that llvm-mca can assemble it, and the argument registers a probe reads and then overwrites
//! (the x86-64 side of each is in `listing` and `arguments`).

use super::listing::Flow;

/// The line without its comment (`//`; a `#` marks an immediate here, not a comment).
pub fn instruction(line: &str) -> &str {
    line.split("//").next().unwrap_or("").trim()
}

/// What the instruction does to the flow of control.
pub fn flow(mnemonic: &str, operands: &str) -> Flow {
    let jump = |target: &str, tail: bool| Flow::Jump {
        target: target.trim().to_string(),
        tail,
    };
    match mnemonic {
        "ret" => Flow::Dropped,
        "bl" => Flow::Call(operands.to_string()),
        "blr" => Flow::Call("an indirect call".to_string()),
        "br" => Flow::Indirect,
        "b" => jump(operands, true),
        m if m.starts_with("b.") => jump(operands, false),
        // cbz x0, target; tbz x0, #3, target
        "cbz" | "cbnz" => jump(operands.split_once(',').map_or("", |(_, t)| t), false),
        "tbz" | "tbnz" => jump(operands.splitn(3, ',').nth(2).unwrap_or(""), false),
        _ => Flow::Plain,
    }
}

/// Relocation operators before a symbol: `adrp x8, :got:name`, `[x8, :lo12:name]`.
const RELOCATIONS: [&str; 3] = [":got:", ":got_lo12:", ":lo12:"];

/// The instruction with every symbol replaced (a branch's local label stays): demangled Rust
/// names hold spaces, `<`, `>` and `::`, even in local labels (`.Lswitch.table.qbb::...`), which no
/// assembler reads, and llvm-mca needs no address anyway.
pub fn assemblable(mnemonic: &str, operands: &str) -> String {
    let operands = match flow(mnemonic, operands) {
        Flow::Call(callee) | Flow::Jump { target: callee, .. } if !callee.starts_with(".L") => {
            match operands.rfind(callee.as_str()) {
                Some(at) if !callee.is_empty() => format!("{}qbb_function", &operands[..at]),
                _ => operands.to_string(),
            }
        }
        _ => replace_symbols(mnemonic, operands),
    };
    if operands.is_empty() {
        mnemonic.to_string()
    } else {
        format!("{mnemonic} {operands}")
    }
}

/// `adrp x8, :got:qbb::hash::ZOBRIST` -> `adrp x8, :got:qbb_symbol`; `adrp x8, .LCPI0_1` and
/// `ldr q0, [x8, :lo12:.LCPI0_1]` likewise.
fn replace_symbols(mnemonic: &str, operands: &str) -> String {
    for relocation in RELOCATIONS {
        if let Some(at) = operands.find(relocation) {
            let start = at + relocation.len();
            let end = operands[start..]
                .rfind(']')
                .map_or(operands.len(), |i| start + i);
            return format!("{}qbb_symbol{}", &operands[..start], &operands[end..]);
        }
    }
    match operands.split_once(',') {
        Some((register, _)) if matches!(mnemonic, "adrp" | "adr") => {
            format!("{register}, qbb_symbol")
        }
        _ => operands.to_string(),
    }
}

/// The registers a probe's arguments arrive in: x0 to x7, and x8, where the caller passes the
/// address of a result too large for registers (a quad, a mailbox).
const ARGUMENTS: [u8; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 8];

/// Instructions besides branches that write no general register named in their operands
/// (stores, compares).
const WRITE_NOTHING: [&str; 14] = [
    "str", "strb", "strh", "stp", "stnp", "stur", "sturb", "sturh", "cmp", "cmn", "tst", "ccmp",
    "ccmn", "prfm",
];

/// Instructions that write their first two operands (load pairs).
const WRITE_TWO: [&str; 3] = ["ldp", "ldnp", "ldpsw"];

/// Instructions that read the register they write (insert some bits, keep the others).
const READ_AND_WRITE: [&str; 5] = ["movk", "bfi", "bfxil", "bfm", "bfc"];

/// The instructions to put before `instructions`: `mov xN, #0` for each argument register that
/// the block reads before it overwrites it, so that llvm-mca's repeated block does not chain one
/// pass on the previous through it (as `arguments::resets` does on x86-64).
pub fn resets(instructions: &[String]) -> Vec<String> {
    ARGUMENTS
        .iter()
        .filter(|&&n| read_then_overwritten(instructions, n))
        .map(|n| format!("mov x{n}, #0"))
        .collect()
}

/// The register `x<n>` (or its low half `w<n>`) is an input of the block (read at or before its
/// first write) and the block writes it.
fn read_then_overwritten(instructions: &[String], n: u8) -> bool {
    let names = [format!("x{n}"), format!("w{n}")];
    for instruction in instructions {
        let (reads, writes) = access(instruction, &names);
        if reads {
            return instructions.iter().any(|i| access(i, &names).1);
        }
        if writes {
            return false; // set before it is read: not an input
        }
    }
    false
}

/// Whether the instruction reads and whether it writes the register of `names`.
fn access(instruction: &str, names: &[String; 2]) -> (bool, bool) {
    let (mnemonic, operands) = instruction.split_once(' ').unwrap_or((instruction, ""));
    let operands = split_operands(operands);
    let branch = matches!(
        flow(mnemonic, ""),
        Flow::Jump { .. } | Flow::Call(_) | Flow::Indirect
    );
    let written = if WRITE_NOTHING.contains(&mnemonic) || branch {
        0
    } else if WRITE_TWO.contains(&mnemonic) {
        2
    } else {
        1
    };
    let names_it = |operand: &str| {
        operand
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| names.iter().any(|n| n == word))
    };
    let is_it = |operand: &str| names.iter().any(|n| n == operand.trim());
    let destination = operands.iter().take(written).any(|o| is_it(o));
    let source = operands.iter().skip(written).any(|o| names_it(o));
    // `[x0, #8]!` and `[x0], #8` write the address register back.
    let writeback = operands.iter().any(|o| o.ends_with("]!") && names_it(o))
        || operands
            .iter()
            .position(|o| o.ends_with(']'))
            .is_some_and(|i| i + 1 < operands.len() && names_it(&operands[i]));
    let reads = source || (destination && READ_AND_WRITE.contains(&mnemonic));
    (reads, destination || writeback)
}

/// The operands, split at the commas outside brackets and braces (`[x0, #8]`, `{ v0.16b, v1.16b }`).
fn split_operands(operands: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut depth = 0;
    let mut current = String::new();
    for c in operands.chars() {
        match c {
            '[' | '{' => depth += 1,
            ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        parts.push(current.trim().to_string());
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::owned;

    #[test]
    fn branches_calls_and_returns_are_told_apart() {
        assert_eq!(flow("ret", ""), Flow::Dropped);
        assert_eq!(flow("bl", "memcpy"), Flow::Call("memcpy".to_string()));
        assert_eq!(flow("br", "x9"), Flow::Indirect);
        let jump = |target: &str, tail| Flow::Jump {
            target: target.to_string(),
            tail,
        };
        assert_eq!(flow("b", "qbb::f::h0123"), jump("qbb::f::h0123", true));
        assert_eq!(flow("b.ne", ".LBB3_2"), jump(".LBB3_2", false));
        assert_eq!(flow("cbz", "x12, .LBB32_10"), jump(".LBB32_10", false));
        assert_eq!(flow("tbnz", "w8, #3, .LBB1_4"), jump(".LBB1_4", false));
        assert_eq!(flow("add", "x0, x1, #8"), Flow::Plain);
    }

    #[test]
    fn symbols_become_placeholders_and_branch_labels_stay() {
        assert_eq!(
            assemblable("adrp", "x8, :got:qbb::hash::ZOBRIST::h8b4c"),
            "adrp x8, :got:qbb_symbol"
        );
        assert_eq!(
            assemblable("ldr", "x8, [x8, :got_lo12:qbb::hash::ZOBRIST::h8b4c]"),
            "ldr x8, [x8, :got_lo12:qbb_symbol]"
        );
        assert_eq!(
            assemblable("ldr", "q2, [x8, :lo12:.LCPI45_0]"),
            "ldr q2, [x8, :lo12:qbb_symbol]"
        );
        assert_eq!(assemblable("adrp", "x9, .LCPI45_1"), "adrp x9, qbb_symbol");
        // A switch table's local label carries the function's name.
        assert_eq!(
            assemblable(
                "add",
                "x14, x14, :lo12:.Lswitch.table.qbb::probes::scalar::occluded_fills::h2a3e.330"
            ),
            "add x14, x14, :lo12:qbb_symbol"
        );
        assert_eq!(
            assemblable(
                "bl",
                "core[960283a1c1daae9d]::panicking::panic_bounds_check"
            ),
            "bl qbb_function"
        );
        assert_eq!(assemblable("b.ne", ".LBB3_2"), "b.ne .LBB3_2");
        assert_eq!(assemblable("mov", "x8, xzr"), "mov x8, xzr");
    }

    #[test]
    fn comments_go_and_immediates_stay() {
        assert_eq!(
            instruction("\tsub sp, sp, #320 // frame"),
            "sub sp, sp, #320"
        );
    }

    #[test]
    fn only_arguments_read_then_overwritten_are_reset() {
        // neon's piece_at: x0 is the quad's address, read, then the result; w1 is read only;
        // x8 and x9 are set before they are read.
        let body = owned(&[
            "mov x8, xzr",
            "ldp q1, q2, [x0]",
            "sub x8, x8, w1, uxtb",
            "adrp x9, .LCPI45_1",
            "fmov w0, s0",
        ]);
        assert_eq!(resets(&body), ["mov x0, #0"]);
    }

    #[test]
    fn stores_pairs_insertions_and_writebacks_count() {
        // Stores and compares read their first operand and write nothing.
        assert!(resets(&owned(&["str x1, [x0]", "cmp x2, #3", "stp x3, x4, [x5]"])).is_empty());
        // A load pair writes both registers.
        assert_eq!(resets(&owned(&["ldp x1, x2, [x1, #8]"])), ["mov x1, #0"]);
        assert_eq!(
            resets(&owned(&["add x3, x2, #1", "ldp x1, x2, [x0]"])),
            ["mov x2, #0"]
        );
        // movk and bfi keep the other bits: they read the register they write; bic does not.
        assert_eq!(resets(&owned(&["movk x3, #1, lsl #16"])), ["mov x3, #0"]);
        assert_eq!(resets(&owned(&["bfi x4, x9, #4, #4"])), ["mov x4, #0"]);
        assert!(resets(&owned(&["bic x4, x9, x10", "add x5, x4, #1"])).is_empty());
        // A branch on a register reads it.
        assert!(resets(&owned(&["cbz x2, .LBB0_2", "tbnz w3, #1, .LBB0_2"])).is_empty());
        // Post-index and pre-index addressing move the address register.
        assert_eq!(resets(&owned(&["ldr q0, [x1], #16"])), ["mov x1, #0"]);
        assert_eq!(resets(&owned(&["ldr q0, [x2, #16]!"])), ["mov x2, #0"]);
        assert!(resets(&owned(&["ldr q0, [x2, #16]"])).is_empty());
        // x8 carries the address of a large result.
        assert_eq!(
            resets(&owned(&["stp q0, q1, [x8]", "add x8, x8, #32"])),
            ["mov x8, #0"]
        );
    }
}

//! The general registers by name, as the listings spell them: what the fresh arguments
//! (`arguments`) and the blocks run on the core (`on_core`) both read.

/// Each general register: its 64-bit name, then its 32-, 16- and low 8-bit names, and its high
/// 8-bit name where it has one (the low one again where it has none). Writing the 32-bit name
/// sets the whole register.
pub const REGISTERS: [[&str; 5]; 16] = [
    ["rax", "eax", "ax", "al", "ah"],
    ["rbx", "ebx", "bx", "bl", "bh"],
    ["rcx", "ecx", "cx", "cl", "ch"],
    ["rdx", "edx", "dx", "dl", "dh"],
    ["rsi", "esi", "si", "sil", "sil"],
    ["rdi", "edi", "di", "dil", "dil"],
    ["rbp", "ebp", "bp", "bpl", "bpl"],
    ["rsp", "esp", "sp", "spl", "spl"],
    ["r8", "r8d", "r8w", "r8b", "r8b"],
    ["r9", "r9d", "r9w", "r9b", "r9b"],
    ["r10", "r10d", "r10w", "r10b", "r10b"],
    ["r11", "r11d", "r11w", "r11b", "r11b"],
    ["r12", "r12d", "r12w", "r12b", "r12b"],
    ["r13", "r13d", "r13w", "r13b", "r13b"],
    ["r14", "r14d", "r14w", "r14b", "r14b"],
    ["r15", "r15d", "r15w", "r15b", "r15b"],
];

/// The System V integer argument registers, in order, by their 64-bit names.
pub const ARGUMENTS: [&str; 6] = ["rdi", "rsi", "rdx", "rcx", "r8", "r9"];

/// Every name of the register whose 64-bit name is `name`.
pub fn names_of(name: &str) -> &'static [&'static str; 5] {
    REGISTERS
        .iter()
        .find(|r| r[0] == name)
        .expect("a general register's 64-bit name")
}

/// One of the register's names appears in `text` as a word (`[rdi + 8]`, `sil`).
pub fn mentions(text: &str, names: &[&str; 5]) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| names.contains(&word))
}

//! The model's own blocks, timed on this core.
//!
//! Where llvm-mca's prediction and a benchmark disagree, either the model misjudges the core or
//! the benchmark's loop runs other code than the probe. Timing the very block llvm-mca was given,
//! in the loop llvm-mca assumes, tells the two apart. `qbb model` writes every block into a small
//! program (`target/qbb-blocks`), builds it, and runs it once per block; the program times the
//! block beside a chain of dependent additions, one cycle each, and prints the block's cycles per
//! pass (`on_core/harness.rs`).
//!
//! A block runs as llvm-mca repeats it: the same instructions pass after pass, each pass starting
//! with the probe's fresh arguments. llvm-mca lets no load wait for an earlier store, and the
//! benchmark's calls each read and write their own position. So each argument register starts at
//! a region of its own, and one the probe reads or writes memory through steps to the next of
//! [`SLOTS`] slots after every pass (an `add` and an `and`, two integer operations the model does
//! not have, as the benchmark's loop spends its own on advancing its arguments). Every other
//! register starts at zero, and the memory is zeros. The constants the probe reads (`[rip +
//! qbb_symbol]`) are zeros too, so that an index made of one stays small; a table's address it
//! loads from the GOT (a `mov` of a quadword into a general register) is [`TABLE`], inside the
//! mapping. A branch runs straight through, as llvm-mca reads it: it jumps to the instruction
//! that follows it, taken or not, so that every instruction of the block runs once a pass (a
//! loop's body once, code a branch would skip too), and the branch still costs its own operation.
//! A block with a call, or with a jump to anything but a label of its function, is not run.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use super::registers::{ARGUMENTS, REGISTERS, mentions, names_of};

/// The program that runs the blocks; `qbb model` writes `blocks.rs` and `blocks.s` beside it.
const HARNESS: &str = include_str!("on_core/harness.rs");

/// The scratch mapping, zeros, which the kernel allocates as it is touched: where it starts and
/// its size. It starts at 1 MiB, above the lowest address any common kernel lets a program map
/// (`vm.mmap_min_addr`); the region of the `i`th argument register starts near `(i + 2) << 20`
/// ([`region`]), so that an argument used as an index, even scaled by eight, still lands inside.
const MAP_AT: u64 = 1 << 20;
const MAP_BYTES: u64 = (128 << 20) - MAP_AT;
const TABLE: u64 = 9 << 20;

/// The slots a pointer argument steps through, [`SLOT`] bytes apart: the benchmark's 1024
/// positions take 32 KiB too.
const SLOTS: u64 = 512;
const SLOT: u64 = 64;

/// Processes per block; the fastest counts. Where the stack lies changes from one process to the
/// next, and with it which of the block's addresses share their low bits with the stack's.
const PROCESSES: usize = 3;

/// The clock: block 0, one hundred additions, each waiting for the one before.
const CHAIN: usize = 100;

/// A block's loop repeats it until an iteration has this many instructions, so that the loop's
/// own counter is a small part of the work.
const UNROLLED: usize = 64;

/// The registers the System V ABI asks a function to keep.
const KEPT: [&str; 6] = ["rbx", "rbp", "r12", "r13", "r14", "r15"];

/// One block as llvm-mca was given it: its first `resets` instructions are the fresh arguments
/// of `arguments::resets`.
#[derive(Clone, Copy)]
pub struct Block<'a> {
    pub instructions: &'a [String],
    pub resets: usize,
}

/// Why a block cannot run as llvm-mca modelled it, if it cannot.
fn refused(instructions: &[String]) -> Option<&'static str> {
    for line in instructions {
        match line.split_whitespace().next() {
            Some("call") => return Some("a call"),
            Some(m) if m.starts_with('j') && local_jump(line).is_none() => {
                return Some("a jump out of the function or through a register");
            }
            _ => {}
        }
    }
    None
}

/// A jump to a label of the function (`jne .LBB3_2`): its mnemonic.
fn local_jump(line: &str) -> Option<&str> {
    let (mnemonic, target) = line.split_once(' ')?;
    (mnemonic.starts_with('j') && target.starts_with(".L") && !target.contains(' '))
        .then_some(mnemonic)
}

/// Each block's cycles per pass on this core, or why it has none (a block with a call or a jump
/// out of its function is not run). Builds the program of the others under `dir` first; they
/// run one after another, one process each, so that one that faults costs only its own figure.
pub fn time(dir: &Path, blocks: &[Block]) -> Result<Vec<Result<f64, String>>> {
    if !cfg!(target_arch = "x86_64") {
        bail!("the blocks are x86-64 code and this is not an x86-64 machine");
    }
    let refusals: Vec<Option<&str>> = blocks.iter().map(|b| refused(b.instructions)).collect();
    let runnable: Vec<Block> = blocks
        .iter()
        .zip(&refusals)
        .filter(|(_, why)| why.is_none())
        .map(|(&b, _)| b)
        .collect();
    let program = build(dir, &runnable)?;
    let fastest = |i: usize| {
        (0..PROCESSES)
            .map(|_| run(&program, i))
            .reduce(|a, b| Ok(a?.min(b?)))
            .expect("at least one process")
    };
    // Block 0 of the program is the clock; the runnable blocks follow in order.
    let mut index = 0;
    Ok(refusals
        .iter()
        .map(|why| match why {
            Some(why) => Err(why.to_string()),
            None => {
                index += 1;
                fastest(index)
            }
        })
        .collect())
}

/// The program's sources under `dir`, built; its path.
fn build(dir: &Path, blocks: &[Block]) -> Result<PathBuf> {
    let src = dir.join("src");
    std::fs::create_dir_all(&src).with_context(|| format!("creating `{}`", src.display()))?;
    // A register, not a constant: some cores fold an added constant into renaming
    // (`qbb_benches::clock` says more), and rbx is zero here, as every register the block does not
    // set up.
    let chain = vec!["add rax, rbx".to_string(); CHAIN];
    let all: Vec<Block> = std::iter::once(Block {
        instructions: &chain,
        resets: 0,
    })
    .chain(blocks.iter().copied())
    .collect();
    let files = [
        ("Cargo.toml", MANIFEST.to_string()),
        ("src/main.rs", HARNESS.to_string()),
        ("src/blocks.rs", declarations(&all)),
        ("src/blocks.s", assembly(&all)),
    ];
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("writing `{}`", path.display()))?;
    }
    let out = Command::new("cargo")
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(dir.join("target"))
        .output()
        .context("running cargo to build the blocks' program")?;
    if !out.status.success() {
        bail!(
            "building the blocks' program in `{}` failed: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(dir.join("target/release/qbb-blocks"))
}

/// Its own workspace, so that the checkout's does not claim it.
const MANIFEST: &str = "[package]\nname = \"qbb-blocks\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
                        publish = false\n\n[workspace]\n";

/// Block `index`'s cycles per pass, as the program prints it, or what stopped it.
fn run(program: &Path, index: usize) -> Result<f64, String> {
    let out = Command::new(program)
        .arg(index.to_string())
        .output()
        .map_err(|e| format!("cannot run {} ({e})", program.display()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(match out.status.code() {
            Some(code) => format!("exited with {code}: {}", stderr.trim()),
            None => stopped(&out.status),
        });
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|c| c.is_finite() && *c > 0.0)
        .ok_or_else(|| format!("printed `{}`, not cycles", text.trim()))
}

/// What the signal that stopped a block's process says of the block.
fn stopped(status: &std::process::ExitStatus) -> String {
    #[cfg(unix)]
    let signal = std::os::unix::process::ExitStatusExt::signal(status);
    #[cfg(not(unix))]
    let signal: Option<i32> = None;
    // Linux's numbers: SIGSEGV, SIGBUS, SIGFPE, SIGILL.
    let why = match signal {
        Some(11) => "the block reached outside its memory",
        Some(7) => "the block reached memory that cannot be read",
        Some(8) => "the block divided by zero",
        Some(4) => "the block has an instruction this CPU does not run",
        _ => "the block did not finish",
    };
    match signal {
        Some(n) => format!("stopped by signal {n}: {why}"),
        None => format!("stopped: {why}"),
    }
}

/// `blocks.rs`: the mapping's constants and a table of the blocks' functions.
fn declarations(blocks: &[Block]) -> String {
    let mut rs = String::from(
        "// Written by `qbb model`: the blocks of its probes, each in a loop of its own.\n\n\
         use crate::Block;\n\ncore::arch::global_asm!(include_str!(\"blocks.s\"));\n\n",
    );
    let _ = writeln!(rs, "pub const MAP_AT: usize = {MAP_AT:#x};");
    let _ = writeln!(rs, "pub const CHAIN: f64 = {CHAIN}.0;\n");
    rs.push_str("unsafe extern \"C\" {\n    pub fn qbb_map_scratch() -> isize;\n");
    for i in 0..blocks.len() {
        let _ = writeln!(rs, "    fn qbb_block_{i}(iterations: u64);");
    }
    let _ = writeln!(rs, "}}\n\npub const BLOCKS: [Block; {}] = [", blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        let _ = writeln!(
            rs,
            "    Block {{ run: qbb_block_{i}, passes_per_iteration: {} }},",
            copies(block)
        );
    }
    rs.push_str("];\n");
    rs
}

/// How many copies of `block` one iteration of its loop runs.
fn copies(block: &Block) -> usize {
    UNROLLED.div_ceil(block.instructions.len().max(1))
}

/// `blocks.s`: the mapping's system call, the constants' table and one function per block.
fn assembly(blocks: &[Block]) -> String {
    let mut s = String::new();
    // mmap(MAP_AT, MAP_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
    // MAP_FIXED_NOREPLACE, -1, 0): fails rather than replace a mapping that is there.
    let _ = writeln!(
        s,
        ".text\n.globl qbb_map_scratch\nqbb_map_scratch:\n    mov eax, 9\n    mov edi, \
         {MAP_AT:#x}\n    mov esi, {MAP_BYTES:#x}\n    mov edx, 3\n    mov r10d, 0x100022\n    \
         mov r8, -1\n    xor r9d, r9d\n    syscall\n    ret\n"
    );
    let _ = writeln!(
        s,
        ".data\n.p2align 6\nqbb_symbol:\n    .zero 32768\nqbb_address:\n    .quad {TABLE:#x}\n"
    );
    for (i, block) in blocks.iter().enumerate() {
        function(&mut s, i, block);
    }
    // Braces are the template's placeholders in global_asm!: `{1to8}` and `{k1}` are doubled.
    s.replace('{', "{{").replace('}', "}}")
}

/// `qbb_block_<i>(iterations)`: the kept registers saved, the arguments set to their regions
/// and every other register to zero, then the block's copies in a loop counted by a
/// register the block leaves alone (or, when it uses them all, by a word on the stack).
fn function(s: &mut String, i: usize, block: &Block) {
    let counter = ["r15", "r14", "r13", "r12", "r11", "r10", "r9", "r8"]
        .into_iter()
        .find(|r| !uses(block.instructions, r));
    let pointers = pointer_arguments(block.instructions);
    let reset = |r: &str| {
        let names = names_of(r);
        block.instructions[..block.resets]
            .iter()
            .any(|l| names.contains(&l.split([' ', ',']).nth(1).unwrap_or("")))
    };
    let _ = writeln!(s, ".text\n.p2align 6\n.globl qbb_block_{i}\nqbb_block_{i}:");
    for r in KEPT {
        let _ = writeln!(s, "    push {r}");
    }
    match counter {
        Some(r) => {
            let _ = writeln!(s, "    mov {r}, rdi");
        }
        // Sixteen bytes, not eight: the block starts with the stack aligned as at a function's
        // entry, which its aligned stores to the stack assume.
        None => s.push_str("    sub rsp, 16\n    mov qword ptr [rsp], rdi\n"),
    }
    for [name, short, ..] in REGISTERS {
        if name == "rsp" || Some(name) == counter {
            continue;
        }
        match region(name) {
            Some(at) => writeln!(s, "    mov {short}, {at:#x}"),
            None => writeln!(s, "    xor {short}, {short}"),
        }
        .expect("writing to a String");
    }
    let _ = writeln!(s, ".p2align 5\n.Lqbb_pass_{i}:");
    let mut through = 0;
    for _ in 0..copies(block) {
        for (at, line) in block.instructions.iter().enumerate() {
            match local_jump(line) {
                // Straight through: the branch's target is the next instruction.
                Some(mnemonic) => {
                    through += 1;
                    let label = format!(".Lqbb_through_{i}_{through}");
                    let _ = writeln!(s, "    {mnemonic} {label}\n{label}:");
                }
                None => {
                    let _ = writeln!(s, "    {}", fresh(line, at < block.resets));
                }
            }
        }
        for r in pointers.iter().filter(|r| !reset(r)) {
            let at = region(r).expect("an argument register");
            let _ = writeln!(s, "    add {r}, {SLOT}\n    and {r}, {:#x}", ring_mask(at));
        }
    }
    match counter {
        Some(r) => {
            let _ = writeln!(s, "    dec {r}");
        }
        None => s.push_str("    dec qword ptr [rsp]\n"),
    }
    let _ = writeln!(s, "    jne .Lqbb_pass_{i}");
    if counter.is_none() {
        s.push_str("    add rsp, 16\n");
    }
    for r in KEPT.iter().rev() {
        let _ = writeln!(s, "    pop {r}");
    }
    if block.instructions.iter().any(|l| l.starts_with('v')) {
        // Leave no upper halves dirty for the harness's own SSE code.
        s.push_str("    vzeroupper\n");
    }
    s.push_str("    ret\n\n");
}

/// A fresh argument (`mov esi, 0`) gives the register the start of its region instead, and a
/// table's address loaded from the GOT is [`TABLE`]; any other line stays as it is.
fn fresh(line: &str, is_reset: bool) -> String {
    if let Some(to) = line.strip_suffix(", qword ptr [rip + qbb_symbol]")
        && let Some(to) = to.strip_prefix("mov ")
        && REGISTERS.iter().any(|r| r[0] == to)
    {
        return format!("mov {to}, qword ptr [rip + qbb_address]");
    }
    let register = line
        .strip_prefix("mov ")
        .and_then(|rest| rest.strip_suffix(", 0"))
        .filter(|_| is_reset);
    let full = register.and_then(|r| ARGUMENTS.into_iter().find(|a| names_of(a).contains(&r)));
    match (register, full.and_then(region)) {
        (Some(register), Some(at)) => format!("mov {register}, {at:#x}"),
        _ => line.to_string(),
    }
}

/// Where the argument register `name` points, if it is one: its region, and in it a start whose
/// low twelve bits differ from the other regions' starts, so that no two arguments' addresses
/// look alike to a core that compares only those bits of a load and an earlier store.
fn region(name: &str) -> Option<u64> {
    let i = ARGUMENTS.iter().position(|a| *a == name)? as u64;
    Some(((i + 2) << 20) + i * 0x240)
}

/// The mask that keeps a stepping pointer in its region's ring: the region's bits and the ring's.
fn ring_mask(start: u64) -> u64 {
    (start & !(SLOTS * SLOT - 1)) | (SLOTS * SLOT - 1)
}

/// The argument registers the block reads or writes memory through: the base of a memory
/// operand (the first register inside its brackets), or copied (`mov rax, rdi`) into one.
fn pointer_arguments(instructions: &[String]) -> Vec<&'static str> {
    let bases: Vec<&str> = instructions
        .iter()
        .flat_map(|line| line.split('[').skip(1))
        .filter_map(|inside| inside.split([' ', ']', '+', '-']).next())
        .collect();
    let copied_to_a_base = |a: &str| {
        instructions.iter().any(|line| {
            line.strip_prefix("mov ")
                .and_then(|rest| rest.split_once(", "))
                .is_some_and(|(to, from)| from == a && bases.contains(&to))
        })
    };
    ARGUMENTS
        .into_iter()
        .filter(|a| bases.contains(a) || copied_to_a_base(a))
        .collect()
}

/// Whether any of `instructions` names the 64-bit register `name` by any of its names.
fn uses(instructions: &[String], name: &str) -> bool {
    let names = names_of(name);
    instructions.iter().any(|line| mentions(line, names))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn calls_and_jumps_out_are_not_run() {
        assert!(refused(&lines("call qbb_function")).is_some());
        assert!(refused(&lines("jmp rax")).is_some());
        assert!(refused(&lines("jmp qbb_function")).is_some());
        assert_eq!(refused(&lines("add rax, 1\njne .LBB3_2")), None);
        assert_eq!(
            refused(&lines("mov rax, qword ptr [rdi]\nadd rax, 1")),
            None
        );
    }

    #[test]
    fn a_branch_runs_straight_through() {
        let block = lines("test eax, eax\nje .LBB1_2\nadd eax, 1\njmp .LBB1_0");
        let s = function_of(&block, 0);
        assert!(
            s.contains("    je .Lqbb_through_3_1\n.Lqbb_through_3_1:\n    add eax, 1\n"),
            "{s}"
        );
        assert!(
            s.contains("    jmp .Lqbb_through_3_2\n.Lqbb_through_3_2:\n"),
            "{s}"
        );
        assert!(!s.contains(".LBB1"), "no jump leaves the pass: {s}");
    }

    fn function_of(block: &[String], resets: usize) -> String {
        let mut s = String::new();
        function(
            &mut s,
            3,
            &Block {
                instructions: block,
                resets,
            },
        );
        s
    }

    #[test]
    fn the_counter_is_a_register_the_block_leaves_alone() {
        let block = lines("mov esi, 0\nmov r15d, dword ptr [rsi + 8]\nvpaddq zmm0{k1}, zmm1, zmm2");
        let s = function_of(&block, 1);
        assert!(s.contains("mov r14, rdi") && s.contains("dec r14"), "{s}");
        assert!(!s.contains("xor r14d"), "the counter keeps its count");
        assert!(
            s.contains("mov esi, 0x300240\n"),
            "a fresh pointer is its region: {s}"
        );
        assert!(!s.contains("add rsi"), "a fresh pointer does not step");
        let b = Block {
            instructions: &block,
            resets: 1,
        };
        assert_eq!(s.matches("vpaddq").count(), copies(&b));
        assert!(s.contains("vzeroupper"));
        assert!(uses(&block, "r15") && uses(&block, "rsi") && !uses(&block, "r8"));
    }

    #[test]
    fn pointers_step_through_their_regions() {
        let block = lines(
            "movzx eax, byte ptr [rdi + rsi]\nvmovdqu ymmword ptr [rdx + 32], ymm0\nmov rcx, rax",
        );
        assert_eq!(pointer_arguments(&block), ["rdi", "rdx"]);
        let s = function_of(&block, 0);
        assert!(
            s.contains("mov edi, 0x200000") && s.contains("mov edx, 0x400480"),
            "{s}"
        );
        assert!(
            s.contains("mov esi, 0x300240") && s.contains("xor eax, eax"),
            "{s}"
        );
        assert!(s.contains("add rdi, 64\n    and rdi, 0x207fff\n"), "{s}");
        assert!(s.contains("add rdx, 64\n    and rdx, 0x407fff\n"), "{s}");
        assert!(!s.contains("add rsi"), "an index does not step");
        let copied = lines("mov rax, rdi\nmov qword ptr [rax + 8], rcx");
        assert_eq!(pointer_arguments(&copied), ["rdi"]);
    }

    #[test]
    fn a_block_that_uses_every_register_counts_on_the_stack() {
        let all: Vec<String> = REGISTERS
            .iter()
            .map(|r| format!("xor {}, {}", r[1], r[1]))
            .collect();
        let b = Block {
            instructions: &all,
            resets: 0,
        };
        let mut s = String::new();
        function(&mut s, 0, &b);
        assert!(
            s.contains("sub rsp, 16\n    mov qword ptr [rsp], rdi")
                && s.contains("dec qword ptr [rsp]")
                && s.contains("add rsp, 16"),
            "{s}"
        );
    }

    /// Builds and runs the program: a chain of four additions runs, in cycles per pass, far
    /// below the clock's hundred; a block with a call is not run, and the block after it is
    /// still the one timed; a block that reads address zero is reported, not fatal; a loop's
    /// block runs once through; a block that leaves no register for the counter finds the
    /// stack aligned as at a function's entry; one that divides by zero says so; four dependent
    /// multiplications, three cycles each on every Zen and on Intel's large cores since Nehalem,
    /// take twelve cycles of the clock.
    #[test]
    fn blocks_run_in_a_program_of_their_own() {
        if !cfg!(target_arch = "x86_64") {
            return;
        }
        let chain = lines("mov esi, 0\nadd rax, rsi\nadd rax, 1\nadd rax, 1\nadd rax, 1");
        let call = lines("mov edi, 0\ncall qbb_function");
        let looped = lines("add rax, 1\ncmp rax, rsi\njne .LBB1_2");
        let mut crowded: Vec<String> = REGISTERS
            .iter()
            .filter(|r| r[0] != "rsp")
            .map(|r| format!("xor {}, {}", r[1], r[1]))
            .collect();
        crowded.push("movaps xmmword ptr [rsp - 24], xmm0".to_string());
        let fault = lines("xor ecx, ecx\nmov rax, qword ptr [rcx]");
        let divide = lines("xor ecx, ecx\nmov eax, 1\nxor edx, edx\ndiv rcx");
        let multiplications = vec!["imul rax, rbx".to_string(); 4];
        let dir = crate::testing::scratch("model-on-core");
        let timed = time(
            &dir,
            &[
                Block {
                    instructions: &chain,
                    resets: 1,
                },
                Block {
                    instructions: &call,
                    resets: 1,
                },
                Block {
                    instructions: &fault,
                    resets: 0,
                },
                Block {
                    instructions: &looped,
                    resets: 0,
                },
                Block {
                    instructions: &crowded,
                    resets: 0,
                },
                Block {
                    instructions: &divide,
                    resets: 0,
                },
                Block {
                    instructions: &multiplications,
                    resets: 0,
                },
            ],
        )
        .unwrap();
        assert!(
            timed[1].as_ref().unwrap_err().contains("a call"),
            "{timed:?}"
        );
        let cycles = timed[0].clone().unwrap();
        assert!(
            cycles > 0.0 && cycles < 50.0,
            "{cycles} cycles for four additions"
        );
        assert!(
            timed[2]
                .as_ref()
                .unwrap_err()
                .contains("outside its memory"),
            "{timed:?}"
        );
        let looped = timed[3].clone().unwrap();
        assert!(
            looped > 0.0 && looped < 50.0,
            "{looped} cycles for one pass"
        );
        assert!(timed[4].is_ok(), "{timed:?}");
        assert!(
            timed[5].as_ref().unwrap_err().contains("divided by zero"),
            "{timed:?}"
        );
        let multiplied = timed[6].clone().unwrap();
        assert!(
            (10.5..13.5).contains(&multiplied),
            "{multiplied} cycles for four dependent multiplications"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_table_address_from_the_got_points_into_the_mapping() {
        let got = "mov rax, qword ptr [rip + qbb_symbol]";
        assert_eq!(fresh(got, false), "mov rax, qword ptr [rip + qbb_address]");
        let constant = "vporq zmm2, zmm2, zmmword ptr [rip + qbb_symbol]";
        assert_eq!(fresh(constant, false), constant);
    }

    #[test]
    fn braces_reach_the_assembler_doubled() {
        let block = lines("vpaddq zmm0 {k1}, zmm1, qword ptr [rip + qbb_symbol]{1to8}");
        let s = assembly(&[Block {
            instructions: &block,
            resets: 0,
        }]);
        assert!(s.contains("zmm0 {{k1}}") && s.contains("{{1to8}}"), "{s}");
    }
}

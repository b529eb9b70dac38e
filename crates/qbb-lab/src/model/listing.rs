//! Reading `cargo asm --everything` listings: the functions by name, and of each probe the
//! instructions llvm-mca is given, with what llvm-mca cannot model (a loop, a call) noted on
//! the way.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::aarch64;
use super::isa::Isa;

/// One listing file: its functions, by clean name, and the compiler its header names.
#[derive(Debug)]
pub struct Listing {
    pub path: PathBuf,
    /// `rustc 1.95.0 (...)`, from a `# rustc ...` header line or an `.ident` directive.
    pub compiler: Option<String>,
    /// The instruction set of its code.
    pub isa: Isa,
    pub functions: Vec<Function>,
}

#[derive(Debug)]
pub struct Function {
    /// Without crate disambiguators, hashes or generic arguments: `qbb::probes::avx2::flip`.
    pub name: String,
    /// As the listing spells it, as calls and jumps name it.
    pub raw: String,
    pub lines: Vec<String>,
}

impl Listing {
    pub fn read(path: &Path) -> Result<Listing> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the listing `{}`", path.display()))?;
        Listing::parse(path, &text)
    }

    /// Functions start at a line `name:` in the first column and end at `.Lfunc_end`; their
    /// instructions are indented, as cargo-show-asm prints them.
    pub fn parse(path: &Path, text: &str) -> Result<Listing> {
        let mut functions: Vec<Function> = Vec::new();
        let mut compiler = None;
        let mut inside = false;
        for line in text.lines() {
            if compiler.is_none() {
                compiler = compiler_named(line);
            }
            if is_function_start(line) {
                let raw = &line[..line.len() - 1];
                functions.push(Function {
                    name: clean_name(raw),
                    raw: raw.to_string(),
                    lines: Vec::new(),
                });
                inside = true;
            } else if line.starts_with(".Lfunc_end") {
                inside = false;
            } else if inside
                && !line.trim().is_empty()
                && let Some(f) = functions.last_mut()
            {
                f.lines.push(line.to_string());
            }
        }
        if functions.is_empty() {
            bail!(
                "`{}` holds no functions: expected the output of `cargo asm --everything` \
                 (a function's name alone on a line, ending in `:`, its instructions indented)",
                path.display()
            );
        }
        Ok(Listing {
            path: path.to_path_buf(),
            compiler,
            isa: Isa::of_listing(text),
            functions,
        })
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The body of `f` as llvm-mca reads it, functions it tail-calls in this listing inlined.
    pub fn body(&self, f: &Function) -> Result<Body, String> {
        body(
            &f.lines,
            &|raw| {
                self.functions
                    .iter()
                    .find(|f| f.raw == raw)
                    .map(|f| f.lines.as_slice())
            },
            0,
            self.isa,
        )
    }
}

fn is_function_start(line: &str) -> bool {
    line.ends_with(':') && !line.starts_with(['.', '#', ' ', '\t'])
}

/// The compiler a header line names: `# rustc 1.95.0 (...)` (written by `qbb model` above the
/// listings it makes) or `.ident "rustc version 1.95.0 (...)"` (a listing with directives).
fn compiler_named(line: &str) -> Option<String> {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix('#') {
        let at = rest.find("rustc ")?;
        return Some(rest[at..].trim().to_string());
    }
    let rest = line.strip_prefix(".ident")?.trim().trim_matches('"');
    let version = rest.strip_prefix("rustc version ")?;
    Some(format!("rustc {version}"))
}

/// Drops what `--full-name` keeps and nothing else needs: crate disambiguators (`core[1a2b..]`),
/// legacy symbol hashes (`::h0123..`) and generic arguments (`::<u64>`, nightly's v0 names).
pub fn clean_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix('[')
            && after.len() > 16
            && after.as_bytes()[16] == b']'
            && after[..16].bytes().all(|b| b.is_ascii_hexdigit())
        {
            rest = &after[17..];
        } else if let Some(after) = rest.strip_prefix("::<") {
            rest = skip_generic_args(after);
        } else if let Some(after) = rest.strip_prefix("::h")
            && after.len() >= 16
            && after[..16].bytes().all(|b| b.is_ascii_hexdigit())
            && !after[16..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        {
            rest = &after[16..];
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// What follows the `>` that closes a generic argument list opened just before `text`.
fn skip_generic_args(text: &str) -> &str {
    let mut depth = 1;
    for (i, c) in text.char_indices() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return &text[i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// A probe's body as llvm-mca reads it, and what llvm-mca does not model in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    /// The instructions, symbols replaced by placeholders llvm-mca can assemble. `ret` and
    /// `vzeroupper` are left out: they belong to the out-of-line probe, not to the routine as it
    /// runs inlined in a benchmark's loop.
    pub instructions: Vec<String>,
    /// A jump back to an earlier label: llvm-mca runs straight through, one pass of the loop.
    pub has_loop: bool,
    /// The functions it calls (or `an indirect call`): llvm-mca gives a call a fixed latency
    /// and does not look inside.
    pub calls: Vec<String>,
    /// The functions it tail-calls (`jmp f`), whose bodies stand in place of the jump: the probe
    /// is that function.
    pub tail_calls: Vec<String>,
    /// A jump to a computed address (`jmp rax`, a jump table): llvm-mca follows no jump, so
    /// every target's instructions are counted once.
    pub indirect_jump: bool,
}

/// How deep tail calls are followed (a probe that jumps to a trait method that jumps on).
const TAIL_CALL_DEPTH: usize = 3;

/// What an instruction does to the flow of control, as the body needs to know it.
#[derive(Debug, PartialEq)]
pub enum Flow {
    /// Left out of the block: `ret` (and x86's `vzeroupper`) belong to the out-of-line probe,
    /// not to the routine as it runs inlined.
    Dropped,
    /// A call: the callee, or `an indirect call`.
    Call(String),
    /// A direct jump to a label or a symbol, as the listing spells it; `tail`: unconditional,
    /// so that a jump to a function is a tail call.
    Jump {
        target: String,
        tail: bool,
    },
    /// A jump to a computed address (a register, a table).
    Indirect,
    Plain,
}

/// The body of a function's `lines`; `resolve` finds a function by its raw name, to inline a
/// tail call. Fails on AT&T syntax, whose symbols this does not rewrite.
pub fn body<'a>(
    lines: &'a [String],
    resolve: &dyn Fn(&str) -> Option<&'a [String]>,
    depth: usize,
    isa: Isa,
) -> Result<Body, String> {
    // Where each label is, so that a jump can be told backward or forward.
    let labels: Vec<(&str, usize)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| !l.starts_with([' ', '\t']) && l.ends_with(':'))
        .map(|(i, l)| (&l[..l.len() - 1], i))
        .collect();
    let mut body = Body {
        instructions: Vec::new(),
        has_loop: false,
        calls: Vec::new(),
        tail_calls: Vec::new(),
        indirect_jump: false,
    };
    for (at, line) in lines.iter().enumerate() {
        if !line.starts_with([' ', '\t']) {
            continue; // a label
        }
        let text = match isa {
            Isa::X86_64 => x86_instruction(line)?,
            Isa::Aarch64 => aarch64::instruction(line),
        };
        if text.is_empty() || text.starts_with('.') || text.ends_with(':') {
            continue; // a directive or an indented label
        }
        let (mnemonic, raw_operands) = text.split_once([' ', '\t']).unwrap_or((text, ""));
        let raw_operands = raw_operands.trim();
        let operands = clean_name(raw_operands);
        let flow = match isa {
            Isa::X86_64 => x86_flow(mnemonic, raw_operands),
            Isa::Aarch64 => aarch64::flow(mnemonic, raw_operands),
        };
        match flow {
            Flow::Dropped => continue,
            Flow::Call(callee) => body.calls.push(clean_name(&callee)),
            Flow::Indirect => body.indirect_jump = true,
            Flow::Jump { target, tail } => {
                if let Some(&(_, defined)) = labels.iter().find(|(l, _)| *l == target) {
                    body.has_loop |= defined < at;
                } else if !target.starts_with(".L") {
                    let inlined = (tail && depth < TAIL_CALL_DEPTH)
                        .then(|| resolve(&target))
                        .flatten();
                    if let Some(lines) = inlined {
                        let inner = self::body(lines, resolve, depth + 1, isa)?;
                        body.tail_calls.push(clean_name(&target));
                        body.tail_calls.extend(inner.tail_calls);
                        body.instructions.extend(inner.instructions);
                        body.has_loop |= inner.has_loop;
                        body.calls.extend(inner.calls);
                        body.indirect_jump |= inner.indirect_jump;
                        continue;
                    }
                    body.calls.push(clean_name(&target));
                }
            }
            Flow::Plain => {}
        }
        body.instructions.push(match isa {
            Isa::X86_64 => assemblable(mnemonic, &operands),
            Isa::Aarch64 => aarch64::assemblable(mnemonic, &operands),
        });
    }
    Ok(body)
}

/// An x86-64 line without its comment; AT&T syntax is refused.
fn x86_instruction(line: &str) -> Result<&str, String> {
    // A trailing comment starts at a `#` after a blank (`{closure#0}` in a name is no comment).
    let text = line.split(" #").next().unwrap_or("");
    let text = text.split("\t#").next().unwrap_or("").trim();
    if text.contains('%') {
        return Err("the listing is in AT&T syntax; make it without `--att`".to_string());
    }
    Ok(text)
}

/// What an x86-64 instruction does to the flow of control.
fn x86_flow(mnemonic: &str, operands: &str) -> Flow {
    match mnemonic {
        "ret" | "vzeroupper" => Flow::Dropped,
        "call" => Flow::Call(callee(operands, "an indirect call")),
        m if m.starts_with('j') => {
            if operands.starts_with(".L") {
                Flow::Jump {
                    target: operands.to_string(),
                    tail: false,
                }
            } else {
                match symbol(operands) {
                    Some(function) => Flow::Jump {
                        target: function.to_string(),
                        tail: m == "jmp",
                    },
                    None => Flow::Indirect,
                }
            }
        }
        _ => Flow::Plain,
    }
}

/// The symbol a direct jump or call names, as the listing spells it.
fn symbol(operand: &str) -> Option<&str> {
    let symbol = match operand.split_once("[rip + ") {
        Some((_, rest)) => rest.strip_suffix(']')?,
        None if is_memory(operand) || is_register(operand) || operand.starts_with(".L") => {
            return None;
        }
        None => operand,
    };
    Some(
        symbol
            .trim_end_matches("@GOTPCREL")
            .trim_end_matches("@PLT"),
    )
}

/// The function a `call` or tail-calling `jmp` reaches: `foo`, `qword ptr [rip + foo@GOTPCREL]`;
/// `indirect` for a register or a computed address.
fn callee(operand: &str, indirect: &str) -> String {
    symbol(operand).unwrap_or(indirect).to_string()
}

/// `qword ptr [rax + 8]`; not `qbb[9de3cabed3251a52]::f`, a nightly symbol with its crate's
/// disambiguator.
fn is_memory(operand: &str) -> bool {
    operand.starts_with('[') || operand.contains("ptr [")
}

fn is_register(operand: &str) -> bool {
    operand
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && operand.len() <= 5
}

/// The instruction with every symbol replaced: demangled Rust names hold spaces, `<`, `>` and
/// `::`, which no assembler reads, and llvm-mca needs no address anyway.
fn assemblable(mnemonic: &str, operands: &str) -> String {
    let operands = match operands.split_once("[rip + ") {
        Some((before, rest)) => {
            let after = rest.rfind(']').map_or("]", |i| &rest[i..]);
            format!("{before}[rip + qbb_symbol{after}")
        }
        None if (mnemonic == "call" || mnemonic.starts_with('j'))
            && !operands.starts_with(".L")
            && !is_memory(operands)
            && !is_register(operands) =>
        {
            "qbb_function".to_string()
        }
        None => operands.to_string(),
    };
    // LLVM prints a gather's or scatter's memory operand with the element's size (`qword ptr
    // [rcx + 8*zmm6]`), which its own assembler refuses; without a size it reads it.
    let operands = if mnemonic.contains("gather") || mnemonic.contains("scatter") {
        drop_operand_size(&operands)
    } else {
        operands
    };
    if operands.is_empty() {
        mnemonic.to_string()
    } else {
        format!("{mnemonic} {operands}")
    }
}

/// `zmm5 {k1}, qword ptr [rcx + 8*zmm6]` -> `zmm5 {k1}, [rcx + 8*zmm6]`.
fn drop_operand_size(operands: &str) -> String {
    match operands.find(" ptr [") {
        Some(at) => {
            let start = operands[..at].rfind([' ', ',']).map_or(0, |i| i + 1);
            format!("{}{}", &operands[..start], &operands[at + 5..])
        }
        None => operands.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shapes cargo-show-asm prints: a stable name with its hash, a nightly name with crate
    /// disambiguators and generic arguments, a loop, calls, symbols in memory operands.
    const LISTING: &str = "\
# rustc 1.95.0 (59807616e 2026-04-14)
<u8 as core[c1f1a4ba060b9bfa]::fmt::Debug>::fmt:
.Lfunc_begin0:
\tjmp qword ptr [rip + <u8 as core[c1f1a4ba060b9bfa]::fmt::Display>::fmt@GOTPCREL]
.Lfunc_end0:

qbb::probes::avx2::piece_at::h69a2480ca698752d:
.Lfunc_begin35:
\tvmovdqa ymm0, ymmword ptr [rdi]
.Ltmp1831:
\txor sil, 63
\tvpmovmskb eax, ymm0
\tvzeroupper
\tret
.Lfunc_end35:

qbb[9de3cabed3251a52]::probes::scalar::to_mailbox:
\tmov rax, rdi
\txor ecx, ecx
.LBB118_1:
\tmovdqa xmm0, xmmword ptr [rip + .LCPI44_0]
\tinc rcx
\tcmp rcx, 64
\tjne .LBB118_1
\tjmp .LBB118_3
.LBB118_3:
\tcall core::slice::sort::<u64>::sort
\tret
.Lfunc_end118:
";

    fn listing() -> Listing {
        Listing::parse(Path::new("test.s"), LISTING).unwrap()
    }

    #[test]
    fn functions_are_found_by_clean_name() {
        let l = listing();
        let names: Vec<&str> = l.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "<u8 as core::fmt::Debug>::fmt",
                "qbb::probes::avx2::piece_at",
                "qbb::probes::scalar::to_mailbox",
            ]
        );
        assert_eq!(
            l.compiler.as_deref(),
            Some("rustc 1.95.0 (59807616e 2026-04-14)")
        );
        let f = l.function("qbb::probes::avx2::piece_at").unwrap();
        assert_eq!(f.lines.len(), 7, "labels and instructions");
        assert_eq!(f.raw, "qbb::probes::avx2::piece_at::h69a2480ca698752d");
    }

    #[test]
    fn names_lose_hashes_disambiguators_and_generic_arguments_only() {
        assert_eq!(
            clean_name("qbb[9de3cabed3251a52]::probes::x::<qbb::Quad, [u8; 64]>::f"),
            "qbb::probes::x::f"
        );
        assert_eq!(clean_name("a::b::h0123456789abcdef"), "a::b");
        // Not a hash: too short, or a longer word that starts with `h`.
        assert_eq!(clean_name("a::hash_zobrist"), "a::hash_zobrist");
        assert_eq!(clean_name("a::h0123456789abcdefg"), "a::h0123456789abcdefg");
        assert_eq!(clean_name("v[0]"), "v[0]");
    }

    #[test]
    fn a_straight_body_drops_ret_and_vzeroupper() {
        let l = listing();
        let body = body_of(&l, "qbb::probes::avx2::piece_at");
        assert_eq!(
            body.instructions,
            [
                "vmovdqa ymm0, ymmword ptr [rdi]",
                "xor sil, 63",
                "vpmovmskb eax, ymm0"
            ]
        );
        assert!(!body.has_loop);
        assert!(body.calls.is_empty());
    }

    #[test]
    fn loops_and_calls_are_noted_and_symbols_replaced() {
        let l = listing();
        let body = body_of(&l, "qbb::probes::scalar::to_mailbox");
        assert!(body.has_loop, "jne .LBB118_1 jumps back");
        assert_eq!(body.calls, ["core::slice::sort::sort"]);
        assert!(body.instructions.contains(&"jmp .LBB118_3".to_string()));
        assert!(
            body.instructions
                .contains(&"movdqa xmm0, xmmword ptr [rip + qbb_symbol]".to_string())
        );
        assert_eq!(body.instructions.last().unwrap(), "call qbb_function");

        // A tail call to a function the listing does not hold stays a jump, and is noted.
        let tail = body_of(&l, "<u8 as core::fmt::Debug>::fmt");
        assert!(!tail.has_loop);
        assert_eq!(tail.calls, ["<u8 as core::fmt::Display>::fmt"]);
        assert_eq!(tail.instructions, ["jmp qword ptr [rip + qbb_symbol]"]);
    }

    fn body_of(l: &Listing, name: &str) -> Body {
        l.body(l.function(name).unwrap()).unwrap()
    }

    /// The body of lines that tail-call nothing the test holds.
    fn body_alone(lines: &[String]) -> Result<Body, String> {
        body(lines, &|_| None, 0, Isa::X86_64)
    }

    #[test]
    fn a_tail_call_in_the_listing_is_modelled_in_place() {
        // Stable's names end in a hash, nightly's carry the crate's disambiguator.
        for (probe, target) in [
            (
                "qbb::probes::swar::flip::h0000000000000001",
                "qbb::backend::flip::h0000000000000002",
            ),
            (
                "qbb[9de3cabed3251a52]::probes::swar::flip",
                "qbb[9de3cabed3251a52]::backend::flip",
            ),
        ] {
            let text = format!(
                "{probe}:\n\tjmp {target}\n.Lfunc_end1:\n{target}:\n\tbswap rax\n\tret\n.Lfunc_end2:\n"
            );
            let l = Listing::parse(Path::new("t.s"), &text).unwrap();
            let b = body_of(&l, "qbb::probes::swar::flip");
            assert_eq!(b.instructions, ["bswap rax"], "{probe}");
            assert_eq!(b.tail_calls, ["qbb::backend::flip"]);
            assert!(b.calls.is_empty());
        }
    }

    #[test]
    fn gathers_lose_the_element_size_llvm_prints_but_cannot_read() {
        let lines = ["\tvpgatherqq zmm5 {k1}, qword ptr [rcx + 8*zmm6]".to_string()];
        let b = body_alone(&lines).unwrap();
        assert_eq!(b.instructions, ["vpgatherqq zmm5 {k1}, [rcx + 8*zmm6]"]);
    }

    #[test]
    fn a_jump_table_is_an_indirect_jump() {
        let lines = ["\tlea r8, [rip + .LJTI125_0]", "\tjmp rax"].map(String::from);
        let b = body_alone(&lines).unwrap();
        assert!(b.indirect_jump && b.calls.is_empty() && !b.has_loop);
        assert_eq!(b.instructions, ["lea r8, [rip + qbb_symbol]", "jmp rax"]);
    }

    #[test]
    fn a_forward_branch_is_no_loop() {
        let lines: Vec<String> = ["\ttest eax, eax", "\tje .LBB0_2", "\tinc eax", ".LBB0_2:"]
            .map(String::from)
            .to_vec();
        let b = body_alone(&lines).unwrap();
        assert!(!b.has_loop);
        assert_eq!(b.instructions.len(), 3);
    }

    #[test]
    fn an_aarch64_listing_is_read_with_its_own_branches() {
        let text = "# rustc 1.96.0\n# target aarch64-unknown-linux-gnu\n\
                    qbb::probes::neon::hash_zobrist::h0000000000000001:\n\
                    \tb qbb::backend::neon::hash::hash_zobrist::h0000000000000002\n.Lfunc_end1:\n\
                    qbb::backend::neon::hash::hash_zobrist::h0000000000000002:\n\
                    \tsub sp, sp, #64 // frame\n.LBB2_1:\n\tldr x9, [x0], #8\n\
                    \tbl memcpy\n\tsubs x8, x8, #1\n\tb.ne .LBB2_1\n\tret\n.Lfunc_end2:\n";
        let l = Listing::parse(Path::new("aarch64.s"), text).unwrap();
        assert_eq!(l.isa, Isa::Aarch64);
        let b = body_of(&l, "qbb::probes::neon::hash_zobrist");
        assert_eq!(b.tail_calls, ["qbb::backend::neon::hash::hash_zobrist"]);
        assert!(b.has_loop, "b.ne .LBB2_1 jumps back");
        assert_eq!(b.calls, ["memcpy"]);
        assert_eq!(
            b.instructions,
            [
                "sub sp, sp, #64",
                "ldr x9, [x0], #8",
                "bl qbb_function",
                "subs x8, x8, #1",
                "b.ne .LBB2_1"
            ]
        );
    }

    #[test]
    fn bad_listings_are_named() {
        let err = Listing::parse(Path::new("empty.s"), "just text\n").unwrap_err();
        assert!(
            err.to_string().contains("`empty.s` holds no functions"),
            "{err}"
        );
        let att = ["\tmovq (%rdi), %rax".to_string()];
        assert!(body_alone(&att).unwrap_err().contains("AT&T"));
        let missing = Listing::read(Path::new("/nonexistent/listing.s")).unwrap_err();
        assert!(
            format!("{missing:#}").contains("reading the listing `/nonexistent/listing.s`"),
            "{missing:#}"
        );
    }

    #[test]
    fn an_ident_directive_names_the_compiler() {
        assert_eq!(
            compiler_named("\t.ident\t\"rustc version 1.97.0-nightly (e50aa6fba 2026-05-19)\""),
            Some("rustc 1.97.0-nightly (e50aa6fba 2026-05-19)".to_string())
        );
        assert_eq!(compiler_named("# a comment"), None);
    }
}

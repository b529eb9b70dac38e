//! `qbb-engine`: the engine speaking UCI on standard input and output (with no arguments, as a
//! GUI starts it), and two commands for engine testing: `bench`, the fixed-depth search testers
//! read the node count and speed of, and `datagen`, self-play training data.
//!
//! The command line is parsed here, by hand: three commands and six flags do not need a parser
//! crate.

use std::ffi::OsString;
use std::io::{self, Write};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::process::ExitCode;

use qbb::BackendKind;
use qbb_engine::{bench, datagen};

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Uci,
    Help,
    Bench { depth: u32, use_nnue: bool },
    Datagen(DatagenArgs),
}

/// `datagen`'s settings, all but the backend (which the environment chooses).
#[derive(Debug, PartialEq, Eq)]
struct DatagenArgs {
    games: u64,
    nodes: u64,
    seed: u64,
    threads: usize,
    random_plies: u32,
    use_nnue: bool,
    out: PathBuf,
}

/// `datagen`'s flags, in the order [`parse_datagen`] takes their values apart.
const DATAGEN_FLAGS: [&str; 7] = [
    "--games",
    "--nodes",
    "--seed",
    "--out",
    "--threads",
    "--random-plies",
    "--eval",
];

/// Exit status of a command line that cannot be run as written.
const USAGE_ERROR: u8 = 2;

fn main() -> ExitCode {
    let command = arguments().and_then(|args| parse(&args));
    match command {
        Ok(Command::Uci) => uci(),
        Ok(Command::Help) => {
            print!("{}", usage());
            ExitCode::SUCCESS
        }
        Ok(Command::Bench { depth, use_nnue }) => finish("bench", run_bench(depth, use_nnue)),
        Ok(Command::Datagen(args)) => finish("datagen", run_datagen(args)),
        Err(why) => {
            eprintln!("qbb-engine: {why}\n(`qbb-engine --help` lists the commands)");
            ExitCode::from(USAGE_ERROR)
        }
    }
}

/// The arguments after the program's name, as text (a non-UTF-8 one is refused, not mangled).
fn arguments() -> Result<Vec<String>, String> {
    std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string()
                .map_err(|arg: OsString| format!("argument {arg:?} is not valid UTF-8"))
        })
        .collect()
}

fn usage() -> String {
    let (first, last) = (bench::DEPTHS.start(), bench::DEPTHS.end());
    format!(
        "qbb-engine {version}: a UCI chess engine on the quad-bitboard

Usage:
  qbb-engine [uci]          speak UCI on standard input and output (the default)
  qbb-engine bench [DEPTH] [--eval nnue|hand]
                            search {positions} fixed positions to DEPTH ({first} to {last}, default {depth})
                            with the network or the hand-written evaluation (default the
                            network), and print `N nodes M nps` last: N is the same on every
                            run and every backend
  qbb-engine datagen --games N --seed S --out PATH [--nodes K] [--threads T] [--random-plies R]
                    [--eval nnue|hand]
                            self-play training data, one `<fen> | <score> | <result>` line per
                            quiet position (defaults: K {nodes}, T 1, R {random}, the network)
  qbb-engine --help         this text

QBB_BACKEND=<name> forces a backend (scalar, swar, sse2, avx2, avx512, neon, portable); by default
the best one this CPU runs.
",
        version = env!("CARGO_PKG_VERSION"),
        positions = bench::POSITIONS.len(),
        depth = bench::DEFAULT_DEPTH,
        nodes = datagen::DEFAULT_NODES,
        random = datagen::DEFAULT_RANDOM_PLIES,
    )
}

fn parse(args: &[String]) -> Result<Command, String> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words[..] {
        [] | ["uci"] => Ok(Command::Uci),
        ["-h" | "--help" | "help"] => Ok(Command::Help),
        ["bench", ref rest @ ..] => parse_bench(rest),
        ["datagen", ref flags @ ..] => parse_datagen(flags).map(Command::Datagen),
        [word, ..] => Err(format!("unknown command {word:?}")),
    }
}

/// `bench [DEPTH] [--eval nnue|hand]`.
fn parse_bench(words: &[&str]) -> Result<Command, String> {
    let (depth, eval) = match words {
        [] => (None, None),
        ["--eval", eval] => (None, Some(*eval)),
        [depth] => (Some(*depth), None),
        [depth, "--eval", eval] => (Some(*depth), Some(*eval)),
        _ => return Err("bench takes a depth and --eval nnue|hand, both optional".to_string()),
    };
    let depths = u64::from(*bench::DEPTHS.start())..=u64::from(*bench::DEPTHS.end());
    Ok(Command::Bench {
        depth: depth.map_or(Ok(bench::DEFAULT_DEPTH), |d| {
            number("bench: the depth", d, &depths)
        })?,
        use_nnue: evaluation("bench", eval)?,
    })
}

/// `--eval`'s value: the network (the default) or the hand-written evaluation.
fn evaluation(command: &str, value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("nnue") => Ok(true),
        Some("hand") => Ok(false),
        Some(other) => Err(format!(
            "{command}: --eval {other:?}: expected nnue (the network) or hand (the hand-written \
             evaluation)"
        )),
    }
}

fn parse_datagen(flags: &[&str]) -> Result<DatagenArgs, String> {
    let mut given: [Option<&str>; DATAGEN_FLAGS.len()] = [None; DATAGEN_FLAGS.len()];
    let mut words = flags.iter();
    while let Some(&flag) = words.next() {
        let Some(slot) = DATAGEN_FLAGS.iter().position(|&f| f == flag) else {
            return Err(format!("datagen: unknown option {flag:?}"));
        };
        let Some(&value) = words.next() else {
            return Err(format!("datagen: {flag} needs a value"));
        };
        if given[slot].replace(value).is_some() {
            return Err(format!("datagen: {flag} is given twice"));
        }
    }
    let [games, nodes, seed, out, threads, random_plies, eval] = given;
    fn required<'a>(flag: &str, value: Option<&'a str>) -> Result<&'a str, String> {
        value.ok_or_else(|| format!("datagen: {flag} is required"))
    }
    let out = required("--out", out)?;
    if out.is_empty() {
        return Err("datagen: --out needs a path, not an empty string".to_string());
    }
    Ok(DatagenArgs {
        games: number(
            "datagen: --games",
            required("--games", games)?,
            &datagen::GAMES,
        )?,
        nodes: nodes.map_or(Ok(datagen::DEFAULT_NODES), |v| {
            number("datagen: --nodes", v, &datagen::NODES)
        })?,
        seed: number(
            "datagen: --seed",
            required("--seed", seed)?,
            &(0..=u64::MAX),
        )?,
        threads: threads.map_or(Ok(1), |v| {
            number("datagen: --threads", v, &datagen::THREADS)
        })?,
        random_plies: random_plies.map_or(Ok(datagen::DEFAULT_RANDOM_PLIES), |v| {
            number("datagen: --random-plies", v, &datagen::RANDOM_PLIES)
        })?,
        use_nnue: evaluation("datagen", eval)?,
        out: PathBuf::from(out),
    })
}

/// `text` as a whole number in `range`, converted to `T` (which the range fits in).
fn number<T: TryFrom<u64>>(
    what: &str,
    text: &str,
    range: &RangeInclusive<u64>,
) -> Result<T, String> {
    text.parse::<u64>()
        .ok()
        .filter(|n| range.contains(n))
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| {
            format!(
                "{what} {text:?} is not a whole number from {} to {}",
                range.start(),
                range.end()
            )
        })
}

fn uci() -> ExitCode {
    match qbb_engine::uci::run_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("info string qbb-engine cannot start: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The exit status of a command that ran, with its error (if any) on standard error.
fn finish(command: &str, outcome: Result<(), Box<dyn std::error::Error>>) -> ExitCode {
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("qbb-engine {command}: {why}");
            ExitCode::FAILURE
        }
    }
}

/// The backend the UCI loop would search on: the one `QBB_BACKEND` forces, or the best. Unlike
/// the UCI loop, which must start whatever happens, a command refuses a backend it cannot run
/// rather than measure another one.
fn backend() -> Result<BackendKind, Box<dyn std::error::Error>> {
    Ok(BackendKind::selected()?)
}

fn run_bench(depth: u32, use_nnue: bool) -> Result<(), Box<dyn std::error::Error>> {
    let backend = backend()?;
    let mut stdout = io::stdout();
    // A progress line that cannot be written (a closed pipe) is not worth stopping for; the
    // summary is.
    let summary = bench::run(backend, depth, use_nnue, &mut |outcome| {
        let _ = writeln!(io::stdout(), "{outcome}");
    })?;
    writeln!(stdout, "{summary}")?;
    Ok(())
}

fn run_datagen(args: DatagenArgs) -> Result<(), Box<dyn std::error::Error>> {
    let config = datagen::Config {
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        threads: args.threads,
        random_plies: args.random_plies,
        use_nnue: args.use_nnue,
        backend: backend()?,
    };
    let show = |p: &datagen::Progress| {
        eprintln!(
            "datagen: {}/{} games, {} positions, {:.0} positions/s",
            p.games,
            config.games,
            p.positions,
            p.positions_per_second()
        );
    };
    let done = datagen::run_to_file(&config, &args.out, &show)?;
    eprintln!(
        "datagen: wrote {} positions from {} games to {} in {:.1} s ({:.0} positions/s, {} backend)",
        done.positions,
        done.games,
        args.out.display(),
        done.elapsed.as_secs_f64(),
        done.positions_per_second(),
        config.backend,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(line: &str) -> Result<Command, String> {
        let args: Vec<String> = line.split_whitespace().map(String::from).collect();
        parse(&args)
    }

    #[test]
    fn no_arguments_speak_uci() {
        assert_eq!(parsed(""), Ok(Command::Uci));
        assert_eq!(parsed("uci"), Ok(Command::Uci));
        assert_eq!(parsed("--help"), Ok(Command::Help));
    }

    #[test]
    fn bench_takes_an_optional_depth_in_range() {
        let depth = bench::DEFAULT_DEPTH;
        let use_nnue = true;
        assert_eq!(parsed("bench"), Ok(Command::Bench { depth, use_nnue }));
        assert_eq!(parsed("bench 4"), Ok(Command::Bench { depth: 4, use_nnue }));
        assert_eq!(
            parsed("bench 4 --eval hand"),
            Ok(Command::Bench {
                depth: 4,
                use_nnue: false
            })
        );
        for bad in [
            "bench x",
            "bench 0",
            "bench 1000",
            "bench -3",
            "bench 4 5",
            "bench 4 --eval x",
        ] {
            let why = parsed(bad).expect_err(bad);
            assert!(why.contains("bench"), "{bad}: {why}");
        }
        assert!(parsed("bench 0").unwrap_err().contains("from 1 to"));
    }

    #[test]
    fn datagen_reads_its_flags_in_any_order_with_defaults() {
        let args = parsed("datagen --out d.txt --seed 3 --games 10 --threads 2");
        let expected = DatagenArgs {
            games: 10,
            nodes: datagen::DEFAULT_NODES,
            seed: 3,
            threads: 2,
            random_plies: datagen::DEFAULT_RANDOM_PLIES,
            use_nnue: true,
            out: PathBuf::from("d.txt"),
        };
        assert_eq!(args, Ok(Command::Datagen(expected)));
    }

    #[test]
    fn datagen_names_what_is_wrong() {
        let cases = [
            ("--seed 1 --out x", "--games is required"),
            ("--games 1 --seed 1", "--out is required"),
            ("--games ten --seed 1 --out x", "--games \"ten\""),
            ("--games 0 --seed 1 --out x", "--games \"0\""),
            (
                "--games 1 --seed 1 --out x --nodes",
                "--nodes needs a value",
            ),
            ("--games 1 --seed 1 --out x --threads 0", "--threads \"0\""),
            ("--games 1 --seed -1 --out x", "--seed \"-1\""),
            (
                "--games 1 --seed 1 --out x --eval magic",
                "--eval \"magic\": expected nnue",
            ),
            (
                "--games 1 --seed 1 --out x --random-plies 99",
                "--random-plies",
            ),
            ("--games 1 --games 2 --seed 1 --out x", "given twice"),
            (
                "--games 1 --seed 1 --out x --fast",
                "unknown option \"--fast\"",
            ),
        ];
        for (flags, expected) in cases {
            let line = format!("datagen {flags}");
            let why = parsed(&line).expect_err(&line);
            assert!(why.contains(expected), "{line}: {why}");
        }
    }

    #[test]
    fn unknown_commands_are_refused() {
        assert!(parsed("perft 5").unwrap_err().contains("unknown command"));
    }

    #[test]
    fn the_usage_lists_every_command() {
        let text = usage();
        for command in ["uci", "bench [DEPTH]", "datagen --games"] {
            assert!(text.contains(command), "{command}");
        }
    }
}

//! `qbb`: the lab's command line.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod backends;
mod compare;
mod instructions;
mod model;
mod output;
mod perft;
mod report;
mod show;
#[cfg(test)]
mod testing;

/// The quad-bitboard lab: every technique on every backend, side by side.
#[derive(Debug, Parser)]
#[command(name = "qbb", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List the backends, whether this CPU runs them, and how each provides every routine.
    Backends(backends::Args),
    /// Draw a position as the Quad-Bitboards article does: the four planes, the board, the nibbles.
    Show(show::Args),
    /// Count the leaves of the legal move tree to DEPTH plies, or check a perft suite.
    Perft(perft::Args),
    /// `compare`, `report` and `charts`, the timings' commands, defined where they run; flattened,
    /// they stay commands of `qbb` itself.
    #[command(flatten)]
    Timings(compare::Command),
    /// Read back the instruction counts of the callgrind bench (gungraun's summaries under
    /// target/gungraun/), print the table and write instructions.json, instructions.md and
    /// instructions.svg (to reports/<machine-id>/ unless --out).
    Instructions(instructions::Args),
    /// Predict the cycles per call of every routine on every backend for several CPUs with
    /// llvm-mca, from the asm probes; write model.json and model.md, beside the measurements
    /// when the folder holds a results.json (to reports/<machine-id>/ unless --out).
    Model(model::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Backends(args) => backends::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Timings(command) => compare::run(&command),
        Command::Instructions(args) => instructions::run(&args),
        Command::Model(args) => model::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}

//! `qbb-engine`: the engine speaking UCI on standard input and output.

use std::process::ExitCode;

fn main() -> ExitCode {
    match qbb_engine::uci::run_stdio() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            println!("info string qbb-engine cannot start: {e}");
            ExitCode::FAILURE
        }
    }
}

//! One block of `qbb model`, timed on this core: `qbb-blocks INDEX` prints block INDEX's cycles
//! per pass. `qbb model` writes this file beside the blocks it made (`blocks.rs`, `blocks.s`);
//! block 0 is the clock, a chain of dependent additions that takes one cycle each, timed in turn
//! with the block so that both see the same clock.

use std::process::ExitCode;
use std::time::Instant;

mod blocks;

/// One block's loop: `run(iterations)` makes `passes_per_iteration` passes an iteration.
pub struct Block {
    run: unsafe extern "C" fn(u64),
    passes_per_iteration: usize,
}

/// Rounds of timing, the block and the clock in turn; the fastest of each counts.
const ROUNDS: usize = 30;
/// Passes of a block in one timed call, about.
const PASSES: usize = 20_000;

fn main() -> ExitCode {
    let arg = std::env::args().nth(1);
    let Some(index) = arg
        .as_deref()
        .and_then(|a| a.parse::<usize>().ok())
        .filter(|&i| i < blocks::BLOCKS.len())
    else {
        eprintln!(
            "usage: qbb-blocks INDEX, INDEX below {} (given {arg:?})",
            blocks::BLOCKS.len()
        );
        return ExitCode::from(2);
    };
    // SAFETY: the system call maps fresh memory, zeros, at a fixed address, and fails rather than
    // replace a mapping already there (MAP_FIXED_NOREPLACE).
    let at = unsafe { blocks::qbb_map_scratch() };
    if at != blocks::MAP_AT as isize {
        eprintln!(
            "cannot map the blocks' memory at {:#x} (mmap returned {at})",
            blocks::MAP_AT
        );
        return ExitCode::FAILURE;
    }
    let (mut clock, mut block) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..ROUNDS {
        clock = clock.min(seconds_per_pass(&blocks::BLOCKS[0]));
        block = block.min(seconds_per_pass(&blocks::BLOCKS[index]));
    }
    println!("{:.3}", blocks::CHAIN * block / clock);
    ExitCode::SUCCESS
}

fn seconds_per_pass(block: &Block) -> f64 {
    let iterations = PASSES.div_ceil(block.passes_per_iteration);
    let start = Instant::now();
    // SAFETY: a block's function keeps the registers the ABI asks it to keep and leaves the stack
    // as it found it; its arguments point into the mapping and its other registers start at zero.
    // Run straight through, a block may still compute an address outside the mapping or divide
    // by zero: the process then dies of the signal, alone, and `qbb model` reports the block as
    // not run, with the signal.
    unsafe { (block.run)(iterations as u64) };
    start.elapsed().as_secs_f64() / (iterations * block.passes_per_iteration) as f64
}

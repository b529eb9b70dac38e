//! The core clock, measured: hardware cycle counters are not available everywhere (not in the
//! virtual machines the lab often runs on), so the clock is timed the classic way, with a chain of
//! dependent integer additions. An `add` whose input is the previous `add`'s output takes exactly
//! one cycle on every x86-64 core of the last twenty years and on every AArch64 core, so the chain
//! runs at one addition per cycle whatever the core's width: additions per nanosecond is the clock
//! in GHz, turbo included.
//!
//! What is added sits in a register. Some cores fold the addition of a constant into register
//! renaming, several to a cycle: the Xeon of `reports/intel-xeon-f6m167` runs a chain of
//! `add reg, 1` several times as fast as one of `add reg, reg`, which keeps the pace of a chain of
//! three-cycle multiplications (the test below checks that on x86-64).

use std::time::Instant;

/// Additions per pass of the timed loop (the loop's own counter runs beside the chain).
const CHAIN: u64 = 100;

/// The core clock in GHz: the best of `passes` timings of a 10-million-addition chain (about 3 ms
/// at 3 GHz). `None` off x86-64 and AArch64.
pub fn core_ghz(passes: usize) -> Option<f64> {
    links_per_ns(passes, dependent_adds)
}

/// The best of `passes` timings of `chain(100_000)`, in links of the chain per nanosecond.
fn links_per_ns(passes: usize, chain: fn(u64) -> Option<u64>) -> Option<f64> {
    let iterations = 100_000;
    (0..passes.max(1))
        .filter_map(|_| {
            let start = Instant::now();
            std::hint::black_box(chain(iterations)?);
            let ns = start.elapsed().as_secs_f64() * 1e9;
            Some((iterations * CHAIN) as f64 / ns)
        })
        .max_by(f64::total_cmp)
}

/// `CHAIN` copies of one x86-64 instruction of `{value}` and `{operand}`, repeated `iterations`
/// times, `value` starting at `start`: the final value.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_chain {
    ($instruction:literal, $start:expr, $operand:expr, $iterations:expr) => {{
        let mut value: u64 = $start;
        // SAFETY: the block reads and writes only the three registers it is given and the flags,
        // touches no memory and leaves the stack alone.
        unsafe {
            std::arch::asm!(
                "2:",
                ".rept 100",
                $instruction,
                ".endr",
                "dec {count}",
                "jnz 2b",
                value = inout(reg) value,
                operand = in(reg) $operand,
                count = inout(reg) $iterations => _,
                options(nomem, nostack),
            );
        }
        value
    }};
}

/// `iterations * CHAIN` additions, each waiting for the previous one.
#[cfg(target_arch = "x86_64")]
fn dependent_adds(iterations: u64) -> Option<u64> {
    Some(x86_chain!("add {value}, {operand}", 0, 1u64, iterations))
}

/// `iterations * CHAIN` additions, each waiting for the previous one.
#[cfg(target_arch = "aarch64")]
fn dependent_adds(iterations: u64) -> Option<u64> {
    let mut value = 0u64;
    // SAFETY: the block reads and writes only the three registers it is given and the flags,
    // touches no memory and leaves the stack alone.
    unsafe {
        std::arch::asm!(
            "2:",
            ".rept 100",
            "add {value}, {value}, {one}",
            ".endr",
            "subs {count}, {count}, #1",
            "b.ne 2b",
            value = inout(reg) value,
            one = in(reg) 1u64,
            count = inout(reg) iterations => _,
            options(nomem, nostack),
        );
    }
    Some(value)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn dependent_adds(_: u64) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chain_adds_what_it_says() {
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert_eq!(dependent_adds(7), Some(7 * CHAIN));
        }
    }

    #[test]
    fn the_clock_is_a_clock() {
        if let Some(ghz) = core_ghz(3) {
            // Loose on purpose: under valgrind or an emulator the chain runs far slower than the
            // core's clock; nothing runs an add chain faster than 10 GHz.
            assert!(ghz > 0.0 && ghz < 10.0, "{ghz} GHz");
        }
    }

    /// `iterations * CHAIN` multiplications, each waiting for the previous one: three cycles each
    /// on every Zen and on Intel's large cores since Nehalem.
    #[cfg(target_arch = "x86_64")]
    fn dependent_multiplications(iterations: u64) -> Option<u64> {
        Some(x86_chain!("imul {value}, {operand}", 1, 3u64, iterations))
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_clock_agrees_with_a_chain_of_multiplications() {
        let additions = core_ghz(7).unwrap();
        let multiplications = 3.0 * links_per_ns(7, dependent_multiplications).unwrap();
        let ratio = additions / multiplications;
        assert!(
            (0.85..1.15).contains(&ratio),
            "additions say {additions:.2} GHz, multiplications {multiplications:.2} GHz"
        );
    }
}

//! Whether the timing thread has its core to itself: a probe of the core's issue width.
//!
//! A virtual machine's core is often one hardware thread of a physical core whose other thread
//! belongs to another guest. When that thread runs, it takes issue slots, and a kernel that runs
//! many instructions per cycle loses more of its speed than one that issues few. The core clock
//! ([`crate::clock`]) cannot see it: a chain of dependent additions needs one slot a cycle and
//! keeps its pace. The probe is the opposite: eight independent chains of additions, which an
//! idle core runs several to a cycle (as many as it has integer units), and which slow down as
//! soon as a neighbour takes a share of the core. Timed beside every sample, it tells a turn in
//! which the core was shared from one in which it was not.
//!
//! A shared core is not an occasional hiccup that the quietest turns avoid: on some hosts the
//! neighbour runs for most of a run, and comes and goes in the rest. Were the estimates to mix the
//! two states, in a share that differs from run to run, the speed-ups would move with it. So
//! they are made in one state, the core's usual one over the whole run ([`usual_figure`] of every
//! benchmark's turns): each benchmark's turns whose probe lies near the figure most of the run's
//! turns share ([`turns_near`]).

use std::time::Instant;

use crate::estimate;

/// Additions per pass of the probe's loop.
const ADDS_PER_PASS: u64 = 200;

/// Passes of one probe: 200 000 additions, some 15 µs on a core that runs five a cycle at
/// 2.5 GHz, little beside a sample of several milliseconds.
const PASSES: u64 = 1_000;

/// Independent additions per nanosecond, timed once: the higher, the more of the core the thread
/// had. `None` off x86-64 and AArch64.
pub fn adds_per_ns() -> Option<f64> {
    let start = Instant::now();
    std::hint::black_box(independent_adds(std::hint::black_box(PASSES))?);
    let ns = start.elapsed().as_secs_f64() * 1e9;
    Some((PASSES * ADDS_PER_PASS) as f64 / ns.max(1.0))
}

/// How far from the usual figure a turn's probe may lie and the turn still count as in the usual
/// state: a tenth. Within one state the probe wobbles by a few hundredths; a neighbour taking
/// issue slots costs it far more than a tenth.
pub const STATE_BAND: f64 = 0.1;

/// Each turn's probe from every implementation's probes of that turn (`per_implementation[i][t]`,
/// timed before implementation `i`'s samples in turn `t`): the median over the implementations,
/// for the turns all of them have. Empty where any has no probes.
pub fn turn_probes(per_implementation: &[&[f64]]) -> Vec<f64> {
    let turns = per_implementation
        .iter()
        .map(|p| p.len())
        .min()
        .unwrap_or(0);
    (0..turns)
        .map(|t| estimate::median(&mut per_implementation.iter().map(|p| p[t]).collect::<Vec<_>>()))
        .collect()
}

/// The core's usual state: the probe figure that most of `probes` lie within [`STATE_BAND`]
/// of. The mode, not the median: on a core shared for half the run the probes gather around two
/// figures, and their median may lie between them. `None` without probes.
pub fn usual_figure(probes: &[f64]) -> Option<f64> {
    let mut sorted = probes.to_vec();
    sorted.sort_by(f64::total_cmp);
    let within = |&figure: &f64| {
        let band = state_band(figure);
        let below = sorted.partition_point(|p| p < band.start());
        sorted.partition_point(|p| p <= band.end()) - below
    };
    sorted.iter().copied().max_by_key(within)
}

/// The turns whose probe lies within [`STATE_BAND`] of `figure`, in turn order.
pub fn turns_near(probes: &[f64], figure: f64) -> Vec<usize> {
    (0..probes.len())
        .filter(|&t| same_state(figure, probes[t]))
        .collect()
}

/// Whether `other` lies in the state of `figure`: within [`STATE_BAND`] of it.
pub fn same_state(figure: f64, other: f64) -> bool {
    state_band(figure).contains(&other)
}

/// The probes within [`STATE_BAND`] of `figure`.
fn state_band(figure: f64) -> std::ops::RangeInclusive<f64> {
    figure * (1.0 - STATE_BAND)..=figure * (1.0 + STATE_BAND)
}

/// `passes * ADDS_PER_PASS` additions in eight chains that do not wait for one another; the sum
/// of the chains.
#[cfg(target_arch = "x86_64")]
fn independent_adds(passes: u64) -> Option<u64> {
    let mut chains = [0u64; 8];
    let [a, b, c, d, e, f, g, h] = &mut chains;
    // SAFETY: the block reads and writes only the registers it is given and the flags, touches
    // no memory and leaves the stack alone. `add reg, reg` rather than `add reg, 1`: some cores
    // fold the addition of a constant into register renaming, which would not use the units.
    unsafe {
        std::arch::asm!(
            "2:",
            ".rept 25",
            "add {a}, {one}", "add {b}, {one}", "add {c}, {one}", "add {d}, {one}",
            "add {e}, {one}", "add {f}, {one}", "add {g}, {one}", "add {h}, {one}",
            ".endr",
            "dec {count}",
            "jnz 2b",
            a = inout(reg) *a, b = inout(reg) *b, c = inout(reg) *c, d = inout(reg) *d,
            e = inout(reg) *e, f = inout(reg) *f, g = inout(reg) *g, h = inout(reg) *h,
            one = in(reg) 1u64,
            count = inout(reg) passes => _,
            options(nomem, nostack),
        );
    }
    Some(chains.iter().sum())
}

/// `passes * ADDS_PER_PASS` additions in eight chains that do not wait for one another; the sum
/// of the chains.
#[cfg(target_arch = "aarch64")]
fn independent_adds(passes: u64) -> Option<u64> {
    let mut chains = [0u64; 8];
    let [a, b, c, d, e, f, g, h] = &mut chains;
    // SAFETY: the block reads and writes only the registers it is given and the flags, touches
    // no memory and leaves the stack alone.
    unsafe {
        std::arch::asm!(
            "2:",
            ".rept 25",
            "add {a}, {a}, {one}", "add {b}, {b}, {one}", "add {c}, {c}, {one}",
            "add {d}, {d}, {one}", "add {e}, {e}, {one}", "add {f}, {f}, {one}",
            "add {g}, {g}, {one}", "add {h}, {h}, {one}",
            ".endr",
            "subs {count}, {count}, #1",
            "b.ne 2b",
            a = inout(reg) *a, b = inout(reg) *b, c = inout(reg) *c, d = inout(reg) *d,
            e = inout(reg) *e, f = inout(reg) *f, g = inout(reg) *g, h = inout(reg) *h,
            one = in(reg) 1u64,
            count = inout(reg) passes => _,
            options(nomem, nostack),
        );
    }
    Some(chains.iter().sum())
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
fn independent_adds(_: u64) -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_state_is_the_figure_most_turns_share() {
        // A core shared in eight turns of twelve: the shared figure, not the median (which
        // would lie between the two states and take turns of both).
        let probes = [
            6.6, 10.8, 6.5, 6.7, 10.6, 6.8, 6.4, 10.9, 6.6, 6.5, 10.7, 6.9,
        ];
        let usual = usual_figure(&probes).unwrap();
        assert!((6.4..=6.9).contains(&usual), "{usual}");
        assert_eq!(turns_near(&probes, usual), [0, 2, 3, 5, 6, 8, 9, 11]);
        assert_eq!(turns_near(&probes, 10.7), [1, 4, 7, 10]);
        assert_eq!(usual_figure(&[]), None);
    }

    #[test]
    fn a_turns_probe_is_the_median_over_the_implementations() {
        let a = [1.0, 4.0, 9.0];
        let b = [2.0, 5.0];
        let c = [3.0, 9.0, 1.0];
        assert_eq!(turn_probes(&[&a, &b, &c]), [2.0, 5.0]);
        assert!(turn_probes(&[&a, &[]]).is_empty());
    }

    #[test]
    fn the_probe_adds_what_it_says() {
        if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            assert_eq!(independent_adds(3), Some(3 * ADDS_PER_PASS));
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn independent_chains_outrun_one_chain() {
        // Every x86-64 core of the last twenty years has at least three integer units; a shared
        // core or valgrind could slow the probe, so the best of several timings counts.
        let Some(clock) = crate::clock::core_ghz(5) else {
            return;
        };
        let probe = (0..20).filter_map(|_| adds_per_ns()).fold(0.0, f64::max);
        assert!(
            probe > 1.5 * clock,
            "{probe:.2} independent additions per ns, {clock:.2} dependent ones"
        );
    }
}

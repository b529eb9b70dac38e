//! Benchmark definitions for every routine on every backend, written once and shared by
//! `cargo bench` (criterion), the instruction counts (gungraun, feature `callgrind`) and the lab's
//! `qbb compare`.
//!
//! - [`corpus`]: the fixed batch of 1024 positions and the inputs of every routine;
//! - [`kernels`]: the timed loops, generic over the backend;
//! - [`bench`]: the list of benchmarks and the one dispatch onto a backend;
//! - [`measure`]: the timer of `qbb compare`: paired turns over several placements of each loop;
//! - [`estimate`]: speed-ups from paired turns, with their intervals;
//! - [`implementation`]: what a timing runs: a backend, or a scalar-class baseline raised to
//!   x86-64-v3;
//! - [`clock`]: the core clock, timed with a chain of dependent additions;
//! - [`neighbour`]: whether the timing thread had its core to itself, probed beside each sample;
//! - [`build_info`]: the compiler and flags that built them;
//! - [`harness`]: the command line of the hand-written harnesses (perft, engine, wall).

pub mod bench;
pub mod build_info;
pub mod clock;
pub mod corpus;
pub mod estimate;
pub mod harness;
pub mod implementation;
pub mod kernels;
pub mod measure;
pub mod neighbour;

pub use bench::{ALL, Bench, Measure, available_backends, available_implementations};
pub use corpus::Corpus;
pub use implementation::{Implementation, PLACEMENTS};
pub use measure::{Measurement, Plan};

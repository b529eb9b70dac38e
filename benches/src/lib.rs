//! Benchmark definitions for every routine on every backend, shared by criterion and `qbb compare`.

//! Tools for testing and training the engine: `bench`, the fixed-depth search testers and tuners
//! compare builds by, and `datagen`, self-play games written out as training positions.

pub mod bench;
pub mod datagen;

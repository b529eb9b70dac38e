//! # qbb-trainer: the engine's NNUE, trained by hand on the CPU
//!
//! `qbb-train` reads the positions `qbb-engine datagen` labels, fits a float copy of the
//! network of [`qbb::nnue`] to them, and writes the quantised network in the engine's file
//! format, after checking that the engine's own integer inference agrees with the float model.
//!
//! Why no machine-learning framework: the network's input is sparse. Of a perspective's 768
//! inputs, one per piece is set: at most 32, and 17.2 on average in a first datagen run of 400
//! games (the trainer prints the mean of its data). The first layer's forward pass is therefore
//! the sum of n rows of 128 weights, n the number of pieces, and its gradient touches those n
//! rows only: n × 128 additions each way per perspective, about 2 200, where a dense framework
//! multiplies the 768-wide input by the 768 × 128 matrix (98 304 multiply-adds) and writes a
//! gradient for all 768 rows. That layer is nearly all the work, so a few hundred lines of plain
//! loops are both the fast way and the short one, and they depend on nothing but the engine's
//! crates.
//!
//! | module | what |
//! | --- | --- |
//! | [`data`] | datagen's lines, parsed once into [`data::Sample`]s (input lists and labels) |
//! | [`model`] | the float network: forward pass, loss, gradient |
//! | [`optim`] | AdamW, and the clip that keeps weights quantisable |
//! | [`train`] | epochs, mini-batches, gradients on several threads |
//! | [`quant`] | float → integer, and the check against the engine's inference |

pub mod data;
pub mod model;
pub mod optim;
pub mod quant;
pub mod train;

#[cfg(test)]
mod testdata;

//! From the float model to the engine's integer network, and the check that the two agree.
//!
//! Quantising multiplies each weight by its scale and rounds: feature weights and bias by `QA`,
//! output weights by `QB`, the output bias by `QA · QB`. The engine's arithmetic is `i16` and
//! `i32` and wraps on overflow, silently; the optimiser therefore clips every weight after every
//! step to the [`LIMITS`] below, inside which no sum the engine forms can overflow.

use qbb::nnue::{QA, QB};
use qbb::{Backend, Scalar};
use qbb_engine::nnue::{HIDDEN, Network};

use crate::data::{MAX_PIECES, Sample};
use crate::model::Model;

/// The largest feature weight or feature bias, in float units (`QA` is 1.0).
///
/// An accumulator is the bias plus one row per piece, at most [`MAX_PIECES`] rows: 33 terms of
/// at most `round(1.98 · 255) = 505` each, so `|acc| ≤ 16 665`, well inside `i16` (32 767).
/// Any limit up to 32 767 / 33 / 255 ≈ 3.89 would be exact; 1.98 keeps a factor two in hand for
/// nothing, since SCReLU is flat past 1.0 and an accumulator need never go far beyond it (the
/// trainer prints the largest weights reached, so a limit that binds shows).
pub const FEATURE_LIMIT: f32 = 1.98;

/// The largest output weight, in float units (`QB` is 1.0): `127 / QB` at 128 lanes, so that a
/// quantised weight is at most 127 and the engine's 16-bit product `v · w` of an activation
/// `v ≤ QA = 255` is at most 32 385 < 2^15. The `i32` sum of all 256 products `v · (v · w)` is
/// then at most 256 · 255 · 32 385 = 2 114 092 800 < 2^31: it cannot wrap either. At 256 lanes
/// there are 512 products, and the weight stops at 64 (512 · 255 · 255 · 64 < 2^31).
pub const OUTPUT_LIMIT: f32 = OUTPUT_WEIGHT_MAX as f32 / QB as f32;

/// The largest quantised output weight, by the sum's bound above.
const OUTPUT_WEIGHT_MAX: i32 = {
    let by_sum = i32::MAX as i64 / (2 * HIDDEN as i64 * (QA * QA) as i64);
    if by_sum < 127 { by_sum as i32 } else { 127 }
};

/// The clip of each tensor of [`Model::tensors`]. The output bias needs none: the engine adds it
/// in `i64`, and reaching `i32`'s range would take an evaluation of millions of pawns.
pub const LIMITS: [f32; 4] = [FEATURE_LIMIT, FEATURE_LIMIT, OUTPUT_LIMIT, f32::INFINITY];

const FEATURE_MAX: i32 = (FEATURE_LIMIT * QA as f32 + 0.5) as i32;
const OUTPUT_MAX: i32 = (OUTPUT_LIMIT * QB as f32 + 0.5) as i32;
const _: () = assert!((MAX_PIECES as i32 + 1) * FEATURE_MAX <= i16::MAX as i32);
const _: () = assert!(QA * OUTPUT_MAX <= i16::MAX as i32);
const _: () = assert!((2 * HIDDEN) as i64 * (QA * QA * OUTPUT_MAX) as i64 <= i32::MAX as i64);

/// The integer network of `model` (whose weights are within [`LIMITS`]).
pub fn quantise(model: &Model) -> Box<Network> {
    let to_i16 = |w: f32, scale: i32| (w * scale as f32).round() as i16;
    let mut net = Network::zeroed();
    for (row, weights) in net.feature_weights.iter_mut().zip(&model.feature_weights) {
        row.0 = weights.map(|w| to_i16(w, QA));
    }
    net.feature_bias.0 = model.feature_bias.map(|w| to_i16(w, QA));
    for (row, weights) in net.output_weights.iter_mut().zip(&model.output_weights) {
        row.0 = weights.map(|w| to_i16(w, QB));
    }
    net.output_bias = (model.output_bias * (QA * QB) as f32).round() as i32;
    net
}

/// The float model whose weights are exactly the network's: evaluated in float, it differs
/// from the integer inference by the integer division's truncation alone (under a centipawn).
pub fn dequantise(net: &Network) -> Model {
    let from_i16 = |q: i16, scale: i32| f32::from(q) / scale as f32;
    let mut model = Model::zeros();
    for (weights, row) in model.feature_weights.iter_mut().zip(&net.feature_weights) {
        *weights = row.0.map(|q| from_i16(q, QA));
    }
    model.feature_bias = net.feature_bias.0.map(|q| from_i16(q, QA));
    for (weights, row) in model.output_weights.iter_mut().zip(&net.output_weights) {
        *weights = row.0.map(|q| from_i16(q, QB));
    }
    model.output_bias = net.output_bias as f32 / (QA * QB) as f32;
    model
}

/// How far the engine's integer evaluation is from a float model's, in centipawns.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Agreement {
    pub positions: usize,
    pub mean_abs: f64,
    pub max_abs: f64,
}

/// Compares `model`'s float evaluation with the engine's scalar inference of `net` (accumulator
/// refresh from the sample's board, then the forward pass), position by position.
pub fn compare(model: &Model, net: &Network, samples: &[Sample]) -> Agreement {
    let mut agreement = Agreement {
        positions: samples.len(),
        ..Agreement::default()
    };
    for sample in samples {
        let acc = Scalar.nnue_refresh(&sample.quad(), net);
        let engine = Scalar.nnue_evaluate(&acc, net);
        let diff = (f64::from(model.eval_cp(sample)) - f64::from(engine)).abs();
        agreement.mean_abs += diff;
        agreement.max_abs = agreement.max_abs.max(diff);
    }
    agreement.mean_abs /= samples.len().max(1) as f64;
    agreement
}

/// The largest `|w|` of each tensor of [`Model::tensors`].
pub fn largest(model: &Model) -> [f32; 4] {
    model
        .tensors()
        .map(|t| t.iter().fold(0.0f32, |m, w| m.max(w.abs())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_text;
    use crate::testdata;
    use qbb::conformance::SplitMix64;

    fn samples() -> Vec<Sample> {
        parse_text(&testdata::lines(500), 2).unwrap()
    }

    /// A model with weights drawn anywhere inside the limits, biased so that the accumulators
    /// cover SCReLU's whole range.
    fn random_clipped(seed: u64) -> Model {
        let mut rng = SplitMix64(seed);
        let mut model = Model::random(&mut rng);
        for (tensor, limit) in model.tensors_mut().into_iter().zip(LIMITS) {
            for w in tensor {
                *w = (*w * 8.0).clamp(-limit, limit);
            }
        }
        model.feature_bias = std::array::from_fn(|h| h as f32 / HIDDEN as f32);
        model.output_bias = 0.37;
        model
    }

    #[test]
    fn the_engine_computes_the_float_model_of_its_own_weights() {
        let samples = samples();
        for seed in 0..3 {
            let net = quantise(&random_clipped(seed));
            let agreement = compare(&dequantise(&net), &net, &samples);
            // The integer path truncates twice (a 400/16 320 cp step, then to whole centipawns).
            assert!(agreement.max_abs < 1.05, "seed {seed}: {agreement:?}");
        }
    }

    #[test]
    fn quantising_moves_the_evaluation_by_a_few_centipawns() {
        let samples = samples();
        let mut rng = SplitMix64(9);
        let model = Model::random(&mut rng);
        let agreement = compare(&model, &quantise(&model), &samples);
        assert!(agreement.mean_abs < 3.0, "{agreement:?}");
        // Weights eight times larger: rounding errors of the same size weigh more. The output
        // weights' step, 1/QB, is 400/64 = 6.25 cp per unit of activation, and at 128 lanes
        // ~200 active lanes' errors add up to about ten centipawns on average; the bound grows
        // with the width.
        let clipped = random_clipped(4);
        let agreement = compare(&clipped, &quantise(&clipped), &samples);
        let bound = 20.0 * HIDDEN as f64 / 128.0;
        assert!(agreement.mean_abs < bound, "{agreement:?}");
    }

    #[test]
    fn weights_at_the_limits_overflow_nothing() {
        // All 32 pieces on the board, every weight at its limit, each layer of one sign: the
        // largest sums the engine can form. Wrapped arithmetic would land far from the float
        // value (an accumulator wrapped past -32 768 turns positive, and so on).
        let full = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0 | 0.5";
        let samples = parse_text(full, 1).unwrap();
        for (feature_sign, output_sign) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0)] {
            let mut model = Model::zeros();
            model
                .feature_weights
                .as_flattened_mut()
                .fill(feature_sign * FEATURE_LIMIT);
            model.feature_bias.fill(feature_sign * FEATURE_LIMIT);
            model
                .output_weights
                .as_flattened_mut()
                .fill(output_sign * OUTPUT_LIMIT);
            let net = quantise(&model);
            assert_eq!(
                i32::from(net.output_weights[1].0[7]),
                output_sign as i32 * OUTPUT_MAX
            );
            let agreement = compare(&dequantise(&net), &net, &samples);
            assert!(
                agreement.max_abs < 1.05,
                "{feature_sign} {output_sign}: {agreement:?}"
            );
            let expected = if feature_sign > 0.0 {
                output_sign * (2 * HIDDEN) as f32 * OUTPUT_LIMIT * 400.0
            } else {
                0.0
            };
            assert_eq!(model.eval_cp(&samples[0]), expected);
        }
    }

    #[test]
    fn quantise_and_dequantise_round_trip_the_network() {
        let net = quantise(&random_clipped(7));
        assert_eq!(quantise(&dequantise(&net)), net);
    }
}

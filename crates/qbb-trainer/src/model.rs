//! The network in `f32`, as it is trained: the same shape as the engine's network (a feature
//! transformer shared by both perspectives, SCReLU, one output) with real-valued weights, its
//! forward pass, and its gradient.
//!
//! In float terms the engine's integer network computes
//! `eval_cp = SCALE * (Σ screlu(acc_us) · w_us + Σ screlu(acc_them) · w_them + b)`, with
//! `screlu(x) = clamp(x, 0, 1)²` and `acc = bias + Σ active rows`; the model computes exactly
//! that, and [`crate::quant`] maps its weights onto the integer scales.
//!
//! Training fits `sigmoid(eval_cp / K)` to `(1 - λ) · sigmoid(score / K) + λ · result` by mean
//! squared error: the sigmoid turns centipawns into an expected result, so the search's score and
//! the game's result can be mixed, and a big score's error weighs less than a small one's.

use qbb::conformance::SplitMix64;
use qbb::nnue::{INPUTS, Perspective, SCALE};
use qbb_engine::nnue::HIDDEN;

use crate::data::Sample;

/// The sigmoid's scale in centipawns: `eval_cp / K` is then the network's raw output `y`.
pub const K: f32 = SCALE as f32;

/// The weights and biases; also the shape of their gradient and of the optimiser's moments.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Row `i` is added to a perspective's accumulator when its input `i` is set.
    pub feature_weights: Vec<[f32; HIDDEN]>,
    pub feature_bias: [f32; HIDDEN],
    /// `us` (row 0), then `them` (row 1).
    pub output_weights: [[f32; HIDDEN]; 2],
    pub output_bias: f32,
}

/// What the backward pass needs of the forward pass.
#[derive(Clone, Debug)]
pub struct Forward {
    /// The accumulators, `us` then `them`.
    pub acc: [[f32; HIDDEN]; 2],
    /// The raw output: `eval_cp / SCALE`.
    pub y: f32,
}

/// The two perspectives, in the order of the output rows.
const PERSPECTIVES: [Perspective; 2] = [Perspective::Us, Perspective::Them];

impl Model {
    pub fn zeros() -> Model {
        Model {
            feature_weights: vec![[0.0; HIDDEN]; INPUTS],
            feature_bias: [0.0; HIDDEN],
            output_weights: [[0.0; HIDDEN]; 2],
            output_bias: 0.0,
        }
    }

    /// Each weight uniform in `±1/√fan_in` (768 for the feature transformer, 256 for the
    /// output), biases zero. With 10 to 32 active rows an accumulator starts with a spread of
    /// about 0.1: on SCReLU's slope, where gradients flow.
    pub fn random(rng: &mut SplitMix64) -> Model {
        let mut uniform = |limit: f32| {
            let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
            (2.0 * unit - 1.0) * limit
        };
        let mut model = Model::zeros();
        let ft = 1.0 / (INPUTS as f32).sqrt();
        model
            .feature_weights
            .as_flattened_mut()
            .iter_mut()
            .for_each(|w| *w = uniform(ft));
        let out = 1.0 / (2.0 * HIDDEN as f32).sqrt();
        model
            .output_weights
            .as_flattened_mut()
            .iter_mut()
            .for_each(|w| *w = uniform(out));
        model
    }

    /// The parameters as four flat tensors: feature weights, feature bias, output weights,
    /// output bias (the order of [`crate::quant::LIMITS`]).
    pub fn tensors(&self) -> [&[f32]; 4] {
        [
            self.feature_weights.as_flattened(),
            &self.feature_bias,
            self.output_weights.as_flattened(),
            std::slice::from_ref(&self.output_bias),
        ]
    }

    pub fn tensors_mut(&mut self) -> [&mut [f32]; 4] {
        [
            self.feature_weights.as_flattened_mut(),
            &mut self.feature_bias,
            self.output_weights.as_flattened_mut(),
            std::slice::from_mut(&mut self.output_bias),
        ]
    }

    /// Sets every parameter to zero (a gradient, before a batch).
    pub fn clear(&mut self) {
        for tensor in self.tensors_mut() {
            tensor.fill(0.0);
        }
    }

    /// `self += other`, parameter by parameter.
    pub fn add(&mut self, other: &Model) {
        for (mine, theirs) in self.tensors_mut().into_iter().zip(other.tensors()) {
            mine.iter_mut().zip(theirs).for_each(|(a, b)| *a += b);
        }
    }

    /// The forward pass: one row per piece on the board, of the 768, for each perspective.
    #[inline(always)]
    pub fn forward(&self, sample: &Sample) -> Forward {
        let mut acc = [self.feature_bias; 2];
        let mut y = self.output_bias;
        for ((acc, perspective), weights) in
            acc.iter_mut().zip(PERSPECTIVES).zip(&self.output_weights)
        {
            for f in sample.features(perspective) {
                acc.iter_mut()
                    .zip(&self.feature_weights[f])
                    .for_each(|(a, w)| *a += w);
            }
            y += screlu_dot(acc, weights);
        }
        Forward { acc, y }
    }

    /// The evaluation in centipawns for the side to move, as the engine's network means it.
    pub fn eval_cp(&self, sample: &Sample) -> f32 {
        self.forward(sample).y * SCALE as f32
    }

    /// The summed loss of `samples`, and their gradient times `weight` added to `grad` (see
    /// [`Model::backward`]).
    ///
    /// The loop is compiled twice, for baseline x86-64 (SSE2) and for AVX2, and the CPU picks:
    /// a row of 128 floats is 32 SSE2 additions or 16 AVX2 ones, and AVX2 trains about 25% more
    /// positions per second. The two give the same bits: Rust never fuses a multiply and an add
    /// on its own, so both do the same operations in the same order.
    pub fn backward_all(&self, samples: &[Sample], wdl: f32, weight: f32, grad: &mut Model) -> f64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked just above.
            return unsafe { self.backward_all_avx2(samples, wdl, weight, grad) };
        }
        self.backward_all_baseline(samples, wdl, weight, grad)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn backward_all_avx2(
        &self,
        samples: &[Sample],
        wdl: f32,
        weight: f32,
        grad: &mut Model,
    ) -> f64 {
        self.backward_all_baseline(samples, wdl, weight, grad)
    }

    #[inline(always)]
    fn backward_all_baseline(
        &self,
        samples: &[Sample],
        wdl: f32,
        weight: f32,
        grad: &mut Model,
    ) -> f64 {
        // A `for` loop, not `map().sum()`: the iterator's `fold` would be a function of its own,
        // compiled without AVX2.
        let mut loss = 0.0;
        for sample in samples {
            loss += f64::from(self.backward(sample, wdl, weight, grad));
        }
        loss
    }

    /// The sample's loss `(p - t)²`, and its gradient times `weight` added to `grad` (a batch
    /// passes `1 / batch size`, so that `grad` ends as the gradient of the mean loss).
    ///
    /// Only the rows of the active inputs receive a gradient: `∂loss/∂row_i` is the
    /// accumulator's gradient where input `i` is set and zero elsewhere.
    #[inline(always)]
    pub fn backward(&self, sample: &Sample, wdl: f32, weight: f32, grad: &mut Model) -> f32 {
        let forward = self.forward(sample);
        let (p, t) = (sigmoid(forward.y), target(sample, wdl));
        // d(p - t)² / dy, with dp/dy = p (1 - p) since eval_cp / K = y.
        let dy = 2.0 * (p - t) * p * (1.0 - p) * weight;
        grad.output_bias += dy;
        let rows = forward.acc.iter().zip(PERSPECTIVES);
        for (((acc, perspective), weights), grad_weights) in
            rows.zip(&self.output_weights).zip(&mut grad.output_weights)
        {
            let mut dacc = [0.0; HIDDEN];
            for (((&a, &w), gw), d) in acc.iter().zip(weights).zip(grad_weights).zip(&mut dacc) {
                *gw += dy * screlu(a);
                *d = dy * w * screlu_slope(a);
            }
            add_row(&mut grad.feature_bias, &dacc);
            for f in sample.features(perspective) {
                add_row(&mut grad.feature_weights[f], &dacc);
            }
        }
        (p - t) * (p - t)
    }

    /// The sample's loss, without a gradient.
    pub fn loss(&self, sample: &Sample, wdl: f32) -> f32 {
        let p = sigmoid(self.forward(sample).y);
        let t = target(sample, wdl);
        (p - t) * (p - t)
    }
}

/// What the prediction is fitted to: the score as an expected result, mixed with the result.
#[inline(always)]
pub fn target(sample: &Sample, wdl: f32) -> f32 {
    (1.0 - wdl) * sigmoid(sample.score / K) + wdl * sample.result
}

#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The squared clipped ReLU, the engine's activation.
#[inline(always)]
pub fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// `Σ screlu(acc_i) · w_i`, summed in eight interleaved partial sums: floating-point addition
/// is not associative, so the compiler must keep the order it is given, and one running sum
/// would be 128 dependent additions; eight are vector lanes.
#[inline(always)]
fn screlu_dot(acc: &[f32; HIDDEN], weights: &[f32; HIDDEN]) -> f32 {
    let mut sums = [0.0f32; 8];
    let (acc, weights) = (acc.as_chunks::<8>().0, weights.as_chunks::<8>().0);
    for (a, w) in acc.iter().zip(weights) {
        for ((s, &a), w) in sums.iter_mut().zip(a).zip(w) {
            *s += screlu(a) * w;
        }
    }
    sums.iter().sum()
}

/// Its derivative: `2x` on the slope, zero where the clip holds it flat.
#[inline(always)]
fn screlu_slope(x: f32) -> f32 {
    if x > 0.0 && x < 1.0 { 2.0 * x } else { 0.0 }
}

#[inline(always)]
fn add_row(row: &mut [f32; HIDDEN], delta: &[f32; HIDDEN]) {
    row.iter_mut().zip(delta).for_each(|(r, d)| *r += d);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_text;
    use crate::testdata;

    /// A model whose accumulators sit across the whole of SCReLU's range (below 0, on the slope,
    /// above 1), so that every branch of the derivative is exercised.
    fn spread_model(seed: u64) -> Model {
        let mut rng = SplitMix64(seed);
        let mut model = Model::random(&mut rng);
        for w in model.feature_weights.as_flattened_mut() {
            *w *= 4.0;
        }
        for (i, b) in model.feature_bias.iter_mut().enumerate() {
            *b = i as f32 / HIDDEN as f32 - 0.25;
        }
        model.output_bias = 0.1;
        model
    }

    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let samples = parse_text(&testdata::lines(3), 1).unwrap();
        let model = spread_model(3);
        let wdl = 0.3;
        let weight = 1.0 / samples.len() as f32;
        let mean_loss = |m: &Model| -> f64 {
            samples
                .iter()
                .map(|s| f64::from(m.loss(s, wdl)))
                .sum::<f64>()
                * f64::from(weight)
        };
        let mut grad = Model::zeros();
        for s in &samples {
            model.backward(s, wdl, weight, &mut grad);
        }
        // Parameters that matter: rows of pieces on the board (both perspectives), the bias,
        // the output layer; one row of an empty input, whose gradient must be exactly zero.
        let first = &samples[0];
        let us = first.us().next().unwrap();
        let them = first.them().last().unwrap();
        let mut checked = 0;
        let mut probes: Vec<(usize, usize)> = Vec::new(); // (tensor, index)
        for h in (0..HIDDEN).step_by(9) {
            probes.extend([
                (0, us * HIDDEN + h),
                (0, them * HIDDEN + h),
                (1, h),
                (2, h),
                (2, HIDDEN + h),
            ]);
        }
        probes.push((3, 0));
        for (tensor, index) in probes {
            let analytic = f64::from(grad.tensors()[tensor][index]);
            let eps = 1e-3;
            let mut plus = model.clone();
            plus.tensors_mut()[tensor][index] += eps;
            let mut minus = model.clone();
            minus.tensors_mut()[tensor][index] -= eps;
            let numeric = (mean_loss(&plus) - mean_loss(&minus)) / (2.0 * f64::from(eps));
            let tolerance = 1e-5 + 0.02 * analytic.abs().max(numeric.abs());
            assert!(
                (analytic - numeric).abs() <= tolerance,
                "tensor {tensor} index {index}: backward {analytic:e}, finite differences {numeric:e}"
            );
            checked += usize::from(analytic.abs() > 1e-4);
        }
        assert!(
            checked > 20,
            "only {checked} gradients large enough to test anything"
        );
        let unused = (0..INPUTS).find(|&f| {
            samples
                .iter()
                .all(|s| s.us().chain(s.them()).all(|g| g != f))
        });
        assert_eq!(grad.feature_weights[unused.unwrap()], [0.0; HIDDEN]);
    }

    #[test]
    fn every_compilation_of_the_gradient_gives_the_same_bits() {
        let samples = parse_text(&testdata::lines(300), 1).unwrap();
        let model = spread_model(8);
        let (mut dispatched, mut baseline) = (Model::zeros(), Model::zeros());
        let loss = model.backward_all(&samples, 0.3, 0.01, &mut dispatched);
        assert_eq!(
            model.backward_all_baseline(&samples, 0.3, 0.01, &mut baseline),
            loss
        );
        assert_eq!(dispatched, baseline);
    }

    #[test]
    fn the_evaluation_follows_the_float_definition() {
        // White to move: kings on e1 and e8, a white pawn on e2. For `us` (White) the pawn is
        // our pawn on e2 (input 12); for `them` (Black, board mirrored) it is the opponent's
        // pawn on e7 (6 * 64 + 52). Both see their own king on e1 (5 * 64 + 4).
        let samples = parse_text("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 0 | 0.5", 1).unwrap();
        let mut model = Model::zeros();
        model.feature_bias = [0.25; HIDDEN];
        model.feature_weights[5 * 64 + 4] = [0.5; HIDDEN];
        model.feature_weights[12] = [0.25; HIDDEN];
        model.feature_weights[6 * 64 + 52] = [-0.5; HIDDEN];
        model.output_weights = [[1.0; HIDDEN], [2.0; HIDDEN]];
        model.output_bias = 0.5;
        // us: 0.25 + 0.5 + 0.25 = 1, screlu 1; them: 0.25 + 0.5 - 0.5 = 0.25, screlu 1/16.
        let lanes = HIDDEN as f32;
        let y = lanes * 1.0 * 1.0 + lanes * 0.0625 * 2.0 + 0.5;
        assert_eq!(model.eval_cp(&samples[0]), y * 400.0);
        // Past the clip, an accumulator adds nothing more.
        model.feature_weights[12] = [5.0; HIDDEN];
        assert_eq!(model.eval_cp(&samples[0]), y * 400.0);
    }
}

//! AdamW, with dense moment decay, and the clip that keeps the weights quantisable.
//!
//! The gradient is sparse (a position touches one feature row per piece, of 768, per
//! perspective), so an optimiser could update only the rows a batch touched ("lazy" Adam). This
//! one decays every parameter's moments on every step, as plain Adam does, because laziness
//! would buy nothing here: a batch of 16 384 positions touches nearly every row that ever occurs
//! (734 and 736 of the 736 in a first datagen run's two batches; rows such as pawns on the first
//! rank never get a gradient at all), and a step over all 98 689 parameters is about a million
//! operations against the batch's ~150 million additions of forward and backward passes. Dense
//! decay also keeps the update exactly Adam's, with one learning rate meaning the same for every
//! row.

use crate::model::Model;
use crate::quant::LIMITS;

/// AdamW's settings: by default the paper's β and ε, and PyTorch's decay.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct AdamWConfig {
    pub beta1: f32,
    pub beta2: f32,
    pub epsilon: f32,
    /// Decoupled weight decay (per step, times the learning rate), on weights, not biases.
    pub weight_decay: f32,
}

impl Default for AdamWConfig {
    fn default() -> AdamWConfig {
        AdamWConfig {
            beta1: 0.9,
            beta2: 0.999,
            epsilon: 1e-8,
            weight_decay: 0.01,
        }
    }
}

/// The optimiser's state: the two moments of every parameter, and the step count.
#[derive(Clone, Debug)]
pub struct AdamW {
    config: AdamWConfig,
    m: Model,
    v: Model,
    steps: i32,
}

/// Which tensors of [`Model::tensors`] are weights (decayed) rather than biases.
const DECAYED: [bool; 4] = [true, false, true, false];

impl AdamW {
    pub fn new(config: AdamWConfig) -> AdamW {
        AdamW {
            config,
            m: Model::zeros(),
            v: Model::zeros(),
            steps: 0,
        }
    }

    /// One step down `grad`, then every weight clipped to its quantisation limit.
    pub fn step(&mut self, model: &mut Model, grad: &Model, lr: f32) {
        let AdamWConfig {
            beta1,
            beta2,
            epsilon,
            weight_decay,
        } = self.config;
        self.steps = self.steps.saturating_add(1);
        let m_scale = 1.0 / (1.0 - beta1.powi(self.steps));
        let v_scale = 1.0 / (1.0 - beta2.powi(self.steps));
        let tensors = model
            .tensors_mut()
            .into_iter()
            .zip(grad.tensors())
            .zip(self.m.tensors_mut())
            .zip(self.v.tensors_mut())
            .zip(LIMITS.into_iter().zip(DECAYED));
        for ((((params, grads), ms), vs), (limit, decayed)) in tensors {
            let decay = if decayed {
                1.0 - lr * weight_decay
            } else {
                1.0
            };
            for (((p, &g), m), v) in params.iter_mut().zip(grads).zip(ms).zip(vs) {
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                let update = (*m * m_scale) / ((*v * v_scale).sqrt() + epsilon);
                *p = (*p * decay - lr * update).clamp(-limit, limit);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quant::{FEATURE_LIMIT, OUTPUT_LIMIT};

    #[test]
    fn the_first_step_moves_each_parameter_by_the_learning_rate_against_its_gradient() {
        // Bias-corrected, Adam's first step is lr · sign(g) wherever g is not tiny.
        let mut model = Model::zeros();
        let mut grad = Model::zeros();
        grad.feature_weights[3][5] = 0.25;
        grad.feature_bias[1] = -4.0;
        grad.output_weights[1][2] = 1e-3;
        grad.output_bias = -1.0;
        let mut adam = AdamW::new(AdamWConfig::default());
        adam.step(&mut model, &grad, 0.01);
        let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
        assert!(close(model.feature_weights[3][5], -0.01));
        assert!(close(model.feature_bias[1], 0.01));
        assert!(close(model.output_weights[1][2], -0.01));
        assert!(close(model.output_bias, 0.01));
        assert_eq!(model.feature_weights[3][4], 0.0);
    }

    #[test]
    fn weights_decay_and_stay_within_their_limits() {
        let mut model = Model::zeros();
        model.feature_weights[0][0] = 1.0;
        model.feature_bias[0] = 1.0;
        let mut adam = AdamW::new(AdamWConfig::default());
        adam.step(&mut model, &Model::zeros(), 0.5);
        assert_eq!(model.feature_weights[0][0], 1.0 - 0.5 * 0.01);
        assert_eq!(model.feature_bias[0], 1.0);
        // A huge step in every direction ends at the limits, never beyond.
        let mut grad = Model::zeros();
        grad.feature_weights[7].fill(-1.0);
        grad.output_weights[0].fill(1.0);
        grad.output_bias = -1.0;
        for _ in 0..3 {
            adam.step(&mut model, &grad, 100.0);
        }
        assert_eq!(
            model.feature_weights[7],
            [FEATURE_LIMIT; qbb_engine::nnue::HIDDEN]
        );
        assert_eq!(
            model.output_weights[0],
            [-OUTPUT_LIMIT; qbb_engine::nnue::HIDDEN]
        );
        assert!(model.output_bias > 100.0);
    }
}

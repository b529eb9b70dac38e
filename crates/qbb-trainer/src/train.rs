//! The training loop: epochs of shuffled mini-batches, each batch's gradient computed on several
//! threads, one optimiser step per batch.
//!
//! A batch is cut into one contiguous part per thread; each thread sums its part's gradient into
//! its own buffer, and the buffers are added in thread order. Every sum is therefore taken in
//! an order fixed by the seed and the thread count, and a run is repeatable bit for bit for a
//! given `--threads` (other thread counts round differently, in the last bits).

use std::thread;
use std::time::Instant;

use qbb::conformance::SplitMix64;

use crate::data::{Sample, join, shuffle};
use crate::model::Model;
use crate::optim::{AdamW, AdamWConfig};

/// The training settings (the command line's, without the files).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Config {
    pub epochs: usize,
    pub batch_size: usize,
    pub learning_rate: f32,
    /// The learning rate is multiplied by `lr_drop` once `lr_drop_at` of the epochs are done.
    pub lr_drop: f32,
    pub lr_drop_at: f32,
    /// λ: the weight of the game result in the target.
    pub wdl: f32,
    pub weight_decay: f32,
    pub threads: usize,
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            epochs: 20,
            batch_size: 16_384,
            learning_rate: 0.001,
            lr_drop: 0.1,
            lr_drop_at: 0.75,
            wdl: 0.3,
            weight_decay: 0.01,
            threads: 2,
            seed: 0x5eed,
        }
    }
}

impl Config {
    /// The learning rate of epoch `epoch` (counted from 0): dropped from the first epoch that
    /// starts at or after `lr_drop_at` of the run (epoch 15 of 20 with the defaults).
    pub fn learning_rate(&self, epoch: usize) -> f32 {
        let drop_from = (self.lr_drop_at * self.epochs as f32).ceil() as usize;
        if epoch >= drop_from {
            self.learning_rate * self.lr_drop
        } else {
            self.learning_rate
        }
    }
}

/// What an epoch did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EpochReport {
    /// Counted from 1.
    pub epoch: usize,
    pub learning_rate: f32,
    /// The mean loss over the epoch's batches, as they were trained.
    pub train_loss: f64,
    /// The mean loss over the validation set after the epoch, if there is one.
    pub validation_loss: Option<f64>,
    /// Training positions per second (the validation pass not counted).
    pub positions_per_second: f64,
}

/// A model in training, with its optimiser and its generator.
#[derive(Debug)]
pub struct Trainer {
    config: Config,
    model: Model,
    optimiser: AdamW,
    /// One gradient buffer per thread.
    grads: Vec<Model>,
    rng: SplitMix64,
    epochs_done: usize,
}

impl Trainer {
    /// A freshly initialised model; `rng` draws its weights, then shuffles every epoch.
    pub fn new(config: Config, mut rng: SplitMix64) -> Trainer {
        let model = Model::random(&mut rng);
        let optimiser = AdamW::new(AdamWConfig {
            weight_decay: config.weight_decay,
            ..AdamWConfig::default()
        });
        Trainer {
            config,
            model,
            optimiser,
            grads: vec![Model::zeros(); config.threads.max(1)],
            rng,
            epochs_done: 0,
        }
    }

    pub fn model(&self) -> &Model {
        &self.model
    }

    /// One pass over `train` (shuffled in place first), then the validation loss.
    pub fn epoch(&mut self, train: &mut [Sample], validation: &[Sample]) -> EpochReport {
        let lr = self.config.learning_rate(self.epochs_done);
        let start = Instant::now();
        shuffle(train, &mut self.rng);
        let mut loss_sum = 0.0;
        for batch in train.chunks(self.config.batch_size.max(1)) {
            loss_sum += self.step(batch, lr);
        }
        let seconds = start.elapsed().as_secs_f64();
        self.epochs_done += 1;
        EpochReport {
            epoch: self.epochs_done,
            learning_rate: lr,
            train_loss: loss_sum / train.len().max(1) as f64,
            validation_loss: (!validation.is_empty()).then(|| self.loss(validation)),
            positions_per_second: train.len() as f64 / seconds.max(1e-9),
        }
    }

    /// One optimiser step on `batch`; returns the batch's summed loss.
    fn step(&mut self, batch: &[Sample], lr: f32) -> f64 {
        let weight = 1.0 / batch.len() as f32;
        let (model, wdl) = (&self.model, self.config.wdl);
        let part_len = batch.len().div_ceil(self.grads.len());
        let work = |part: &[Sample], grad: &mut Model| -> f64 {
            grad.clear();
            model.backward_all(part, wdl, weight, grad)
        };
        let threads = self.grads.len();
        let parts = batch.chunks(part_len).zip(&mut self.grads);
        let losses: Vec<f64> = if threads == 1 {
            parts.map(|(part, grad)| work(part, grad)).collect()
        } else {
            thread::scope(|scope| {
                let workers: Vec<_> = parts
                    .map(|(part, grad)| scope.spawn(move || work(part, grad)))
                    .collect();
                workers.into_iter().map(join).collect()
            })
        };
        let used = losses.len();
        let (total, rest) = self.grads.split_first_mut().expect("at least one thread");
        for grad in &rest[..used - 1] {
            total.add(grad);
        }
        self.optimiser.step(&mut self.model, total, lr);
        losses.iter().sum()
    }

    /// The mean loss of `samples`, on the configured threads.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        let (model, wdl) = (&self.model, self.config.wdl);
        let part_len = samples.len().div_ceil(self.grads.len()).max(1);
        let sums: Vec<f64> = thread::scope(|scope| {
            let workers: Vec<_> = samples
                .chunks(part_len)
                .map(|part| {
                    scope.spawn(move || part.iter().map(|s| f64::from(model.loss(s, wdl))).sum())
                })
                .collect();
            workers.into_iter().map(join).collect()
        });
        sums.iter().sum::<f64>() / samples.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{parse_text, split};
    use crate::testdata;

    fn config(threads: usize) -> Config {
        Config {
            epochs: 8,
            batch_size: 128,
            learning_rate: 0.01,
            threads,
            ..Config::default()
        }
    }

    fn data() -> (Vec<Sample>, Vec<Sample>) {
        let samples = parse_text(&testdata::lines(3000), 2).unwrap();
        split(samples, 0.1, &mut SplitMix64(1))
    }

    #[test]
    fn training_learns_material() {
        let (mut train, validation) = data();
        let mut trainer = Trainer::new(config(2), SplitMix64(2));
        let before = trainer.loss(&validation);
        let reports: Vec<EpochReport> = (0..8)
            .map(|_| trainer.epoch(&mut train, &validation))
            .collect();
        let after = reports[7].validation_loss.unwrap();
        assert!(after < before * 0.25, "validation loss {before} -> {after}");
        assert!(reports[7].train_loss < reports[0].train_loss);
        // The side a piece or more ahead is ahead in the network's eyes too.
        let clear: Vec<&Sample> = validation
            .iter()
            .filter(|s| s.score.abs() >= 300.0)
            .collect();
        let agree = clear
            .iter()
            .filter(|s| trainer.model().eval_cp(s).signum() == s.score.signum())
            .count();
        assert!(
            agree * 10 >= clear.len() * 9,
            "{agree} of {} agree",
            clear.len()
        );
    }

    #[test]
    fn a_run_is_repeatable_for_a_thread_count() {
        let (train, validation) = data();
        let run = |threads: usize| {
            let mut train = train[..1000].to_vec();
            let mut trainer = Trainer::new(config(threads), SplitMix64(3));
            let losses: Vec<f64> = (0..2)
                .map(|_| {
                    trainer
                        .epoch(&mut train, &validation)
                        .validation_loss
                        .unwrap()
                })
                .collect();
            (trainer.model().clone(), losses)
        };
        for threads in [1, 3] {
            assert_eq!(run(threads), run(threads), "{threads} threads");
        }
        // Another thread count sums in another order: the same training, rounded differently.
        let (one, three) = (run(1), run(3));
        assert_ne!(one.0, three.0);
        assert!((one.1[1] - three.1[1]).abs() < 1e-3 * one.1[1]);
    }

    #[test]
    fn the_learning_rate_drops_once() {
        let config = Config::default();
        let rates: Vec<f32> = (0..20).map(|e| config.learning_rate(e)).collect();
        assert!(rates[..15].iter().all(|&r| r == 0.001));
        assert!(rates[15..].iter().all(|&r| r == 0.001 * 0.1));
        let one = Config {
            epochs: 1,
            ..config
        };
        assert_eq!(one.learning_rate(0), 0.001);
    }
}

//! `qbb-train`: the command line (see `qbb-train --help`).

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use qbb::conformance::SplitMix64;
use qbb_trainer::data::{self, Sample};
use qbb_trainer::quant::{self, FEATURE_LIMIT, OUTPUT_LIMIT};
use qbb_trainer::train::{Config, Trainer};

/// The quantisation check's sample: enough positions for a stable mean, in a second or so.
const CHECK_POSITIONS: usize = 20_000;

/// The engine's integer inference and a float model of the very same weights differ by integer
/// truncation alone (under 1.03 cp); anything more is a bug in the trainer or the engine.
const EXACT_TOLERANCE_CP: f64 = 1.05;

/// Trains the engine's NNUE evaluation (768 -> 2x256 -> 1, SCReLU) from `qbb-engine datagen`
/// output, and writes it in the engine's network file format.
#[derive(Debug, Parser)]
#[command(
    name = "qbb-train",
    version,
    after_help = "Each DATA line is `<fen> | <score> | <result>` as `qbb-engine datagen` writes it: \
    the search score in centipawns and the game result (1.0, 0.5 or 0.0), both from White's point \
    of view. Blank lines are skipped; any other malformed line stops the run before training, \
    with its file, line number and the reason (none is skipped silently).\n\n\
    The model predicts p = sigmoid(eval / 400) and fits it by mean squared error to \
    t = (1 - wdl) * sigmoid(score / 400) + wdl * result, scores and results taken for the side \
    to move. Training uses AdamW; weights are clipped so that the quantised network cannot \
    overflow. After training, the quantised network is evaluated by the engine's scalar \
    inference on validation positions and compared with the float model; a disagreement \
    beyond rounding is an error and no file is written.\n\n\
    Example: qbb-train data/*.txt --out nets/qbb.nnue --epochs 20 --threads 2"
)]
struct Args {
    /// Training data: files written by `qbb-engine datagen`
    #[arg(required = true, value_name = "DATA")]
    data: Vec<PathBuf>,

    /// Where to write the quantised network (required)
    #[arg(long, value_name = "PATH")]
    out: PathBuf,

    /// Passes over the training data
    #[arg(long, default_value_t = Config::default().epochs as u32,
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    epochs: u32,

    /// Positions per optimiser step
    #[arg(long, default_value_t = Config::default().batch_size as u32,
          value_parser = clap::value_parser!(u32).range(1..=16_777_216))]
    batch_size: u32,

    /// AdamW's learning rate
    #[arg(long, default_value_t = Config::default().learning_rate, value_parser = positive)]
    lr: f32,

    /// Factor applied to the learning rate once, after --lr-drop-at of the epochs
    #[arg(long, default_value_t = Config::default().lr_drop, value_parser = unit_interval)]
    lr_drop: f32,

    /// Fraction of the epochs after which the learning rate drops (0.75 of 20: from epoch 16)
    #[arg(long, default_value_t = Config::default().lr_drop_at, value_parser = unit_interval)]
    lr_drop_at: f32,

    /// λ, the weight of the game result in the target (0 = score only, 1 = result only)
    #[arg(long, value_name = "LAMBDA", default_value_t = Config::default().wdl,
          value_parser = unit_interval)]
    wdl: f32,

    /// AdamW's decoupled weight decay (weights only, not biases)
    #[arg(long, default_value_t = Config::default().weight_decay, value_parser = non_negative)]
    weight_decay: f32,

    /// Fraction of the positions held out for validation (0 to 0.5)
    #[arg(long, default_value_t = 0.02, value_parser = validation_fraction)]
    validation: f64,

    /// Threads for parsing and gradients; a run is repeatable for a given thread count
    #[arg(long, default_value_t = Config::default().threads as u32,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,

    /// Seed of the weight initialisation, the validation split and the shuffles
    #[arg(long, default_value_t = Config::default().seed)]
    seed: u64,
}

impl Args {
    fn config(&self) -> Config {
        Config {
            epochs: self.epochs as usize,
            batch_size: self.batch_size as usize,
            learning_rate: self.lr,
            lr_drop: self.lr_drop,
            lr_drop_at: self.lr_drop_at,
            wdl: self.wdl,
            weight_decay: self.weight_decay,
            threads: self.threads as usize,
            seed: self.seed,
        }
    }
}

fn float(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(format!("`{text}` is not a finite number")),
    }
}

fn positive(text: &str) -> Result<f32, String> {
    float(text).and_then(|v| (v > 0.0).then_some(v).ok_or("must be above 0".into()))
}

fn non_negative(text: &str) -> Result<f32, String> {
    float(text).and_then(|v| (v >= 0.0).then_some(v).ok_or("must be 0 or more".into()))
}

fn unit_interval(text: &str) -> Result<f32, String> {
    float(text).and_then(|v| {
        (0.0..=1.0)
            .contains(&v)
            .then_some(v)
            .ok_or("must be between 0 and 1".into())
    })
}

fn validation_fraction(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=0.5).contains(&v) => Ok(v),
        _ => Err(format!("`{text}` is not a number between 0 and 0.5")),
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => {
            eprintln!("qbb-train: {why}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    check_destination(&args.out)?;
    let config = args.config();

    let start = Instant::now();
    let samples = data::read_files(&args.data, config.threads).map_err(|e| e.to_string())?;
    if samples.is_empty() {
        return Err("the data files hold no positions".into());
    }
    let pieces: usize = samples.iter().map(|s| s.us().count()).sum();
    println!(
        "read {} positions from {} file(s) in {:.1} s ({:.1} pieces per position)",
        samples.len(),
        args.data.len(),
        start.elapsed().as_secs_f64(),
        pieces as f64 / samples.len() as f64
    );

    let mut rng = SplitMix64(config.seed);
    let (mut train, validation) = data::split(samples, args.validation, &mut rng);
    if train.is_empty() {
        return Err("no positions left to train on after the validation split".into());
    }
    println!(
        "training a network {} lanes wide on {} positions, validating on {}; {} epochs of batches \
         of {}, {} thread(s)",
        qbb_engine::nnue::HIDDEN,
        train.len(),
        validation.len(),
        config.epochs,
        config.batch_size,
        config.threads
    );

    let mut trainer = Trainer::new(config, rng);
    println!("epoch        lr   train loss   valid loss   positions/s");
    for _ in 0..config.epochs {
        let report = trainer.epoch(&mut train, &validation);
        let valid = report
            .validation_loss
            .map_or("-".to_string(), |l| format!("{l:.6}"));
        println!(
            "{:>5}  {:>8.2e}  {:>11.6}  {:>11}  {:>12.0}",
            report.epoch,
            report.learning_rate,
            report.train_loss,
            valid,
            report.positions_per_second
        );
        if !report.train_loss.is_finite() {
            return Err("training diverged (the loss is not finite): try a lower --lr".into());
        }
    }

    let model = trainer.model();
    let net = quant::quantise(model);
    let [ft, ft_bias, out, _] = quant::largest(model);
    println!(
        "largest |weight|: feature {:.3} and bias {:.3} (limit {FEATURE_LIMIT}), output {:.3} \
         (limit {OUTPUT_LIMIT})",
        ft, ft_bias, out
    );

    let check: &[Sample] = if validation.is_empty() {
        &train
    } else {
        &validation
    };
    let check = &check[..check.len().min(CHECK_POSITIONS)];
    let exact = quant::compare(&quant::dequantise(&net), &net, check);
    let rounding = quant::compare(model, &net, check);
    let set = if validation.is_empty() {
        "training"
    } else {
        "validation"
    };
    println!(
        "the engine's integer evaluation vs the float model, {} {set} positions:",
        check.len()
    );
    println!(
        "  trained weights: {:6.2} cp mean, {:5.1} cp max (the weights' rounding)",
        rounding.mean_abs, rounding.max_abs
    );
    println!(
        "  rounded weights: {:6.2} cp mean, {:5.1} cp max (integer truncation; over \
         {EXACT_TOLERANCE_CP} is a bug)",
        exact.mean_abs, exact.max_abs
    );
    if exact.max_abs > EXACT_TOLERANCE_CP {
        return Err(format!(
            "the engine's integer evaluation differs from the float model of the same weights \
             by up to {:.1} cp (more than rounding, {EXACT_TOLERANCE_CP} cp): a bug; no network \
             written",
            exact.max_abs
        ));
    }

    std::fs::write(&args.out, net.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// Refuses an output path that cannot be written, before minutes of training rather than after.
fn check_destination(out: &Path) -> Result<(), String> {
    if out.is_dir() {
        return Err(format!("--out {} is a directory", out.display()));
    }
    match out.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(format!(
            "--out {}: the directory {} does not exist",
            out.display(),
            dir.display()
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    fn parse(args: &[&str]) -> Result<Args, String> {
        Args::try_parse_from(["qbb-train"].iter().chain(args)).map_err(|e| e.to_string())
    }

    #[test]
    fn the_command_line_is_consistent() {
        Args::command().debug_assert();
    }

    #[test]
    fn defaults_are_the_training_defaults() {
        let args = parse(&["a.txt", "b.txt", "--out", "net.nnue"]).unwrap();
        assert_eq!(args.config(), Config::default());
        assert_eq!(args.validation, 0.02);
        assert_eq!(args.data.len(), 2);
    }

    #[test]
    fn every_flag_is_documented_with_its_default() {
        let help = Args::command().render_long_help().to_string();
        for arg in Args::command().get_arguments() {
            let Some(flag) = arg.get_long() else { continue };
            assert!(
                help.contains(&format!("--{flag}")),
                "--{flag} missing from:\n{help}"
            );
            let optional = !arg.is_required_set() && flag != "help" && flag != "version";
            if optional {
                assert!(
                    !arg.get_default_values().is_empty(),
                    "--{flag} has no default"
                );
            }
        }
        assert!(help.contains("[default: 16384]"), "{help}");
        assert!(help.contains("stops the run"), "{help}");
    }

    #[test]
    fn bad_values_are_refused_without_panicking() {
        let base = ["d.txt", "--out", "n.nnue"];
        for bad in [
            &["--epochs", "0"][..],
            &["--batch-size", "-3"],
            &["--lr", "0"],
            &["--lr", "NaN"],
            &["--wdl", "1.5"],
            &["--validation", "0.9"],
            &["--threads", "0"],
            &["--seed", "x"],
            &["--weight-decay", "-1"],
        ] {
            let args: Vec<&str> = base.iter().chain(bad).copied().collect();
            assert!(parse(&args).is_err(), "{bad:?} accepted");
        }
        assert!(
            parse(&["--out", "n.nnue"]).is_err(),
            "no data file accepted"
        );
        assert!(parse(&["d.txt"]).is_err(), "no --out accepted");
    }

    #[test]
    fn an_unwritable_destination_is_refused_up_front() {
        let dir = std::env::temp_dir();
        assert!(
            check_destination(&dir)
                .unwrap_err()
                .contains("is a directory")
        );
        let missing = dir.join("qbb-trainer-no-such-dir").join("net.nnue");
        assert!(
            check_destination(&missing)
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(check_destination(Path::new("net.nnue")).is_ok());
    }
}

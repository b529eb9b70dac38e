//! The command line of the hand-written bench harnesses (`perft`, `engine`, `wall`), which
//! criterion does not run: `cargo bench -p qbb-benches --bench perft -- avx2 kiwipete` runs the
//! rows whose names contain one of the words, and an environment variable sets the rounds.

/// What the harness was asked to run.
#[derive(Debug, Clone)]
pub struct HarnessArgs {
    /// The words given; empty runs everything.
    pub filter: Vec<String>,
    /// Rounds to run (each row keeps its best).
    pub rounds: usize,
}

impl HarnessArgs {
    /// The words after the harness's name, leaving out the flags cargo adds (`--bench`), and the
    /// rounds from `rounds_var` if it holds a positive number, else `default_rounds`.
    pub fn from_env(rounds_var: &str, default_rounds: usize) -> HarnessArgs {
        HarnessArgs {
            filter: filter_words(std::env::args().skip(1)),
            rounds: std::env::var(rounds_var)
                .ok()
                .and_then(|r| r.parse().ok())
                .filter(|&r| r > 0)
                .unwrap_or(default_rounds),
        }
    }

    /// Says that no row of `harness` matches the words given: `cargo bench -- WORD` runs every
    /// bench target, and the ones with nothing of that name say so and stop.
    pub fn nothing_matches(&self, harness: &str) {
        println!(
            "{harness}: nothing here matches `{}`",
            self.filter.join(" ")
        );
    }

    /// Whether a row with these names runs: no filter, or a word contained in one of them.
    pub fn wants(&self, names: &[&str]) -> bool {
        self.filter.is_empty()
            || self
                .filter
                .iter()
                .any(|word| names.iter().any(|name| name.contains(word.as_str())))
    }
}

/// criterion's options that take a value as the next word (`--save-baseline main`): `cargo
/// bench -- OPTIONS` hands them to every bench target, so the value is no filter word here.
const OPTIONS_WITH_A_VALUE: [&str; 12] = [
    "--save-baseline",
    "--baseline",
    "--baseline-lenient",
    "--load-baseline",
    "--sample-size",
    "--warm-up-time",
    "--measurement-time",
    "--nresamples",
    "--noise-threshold",
    "--confidence-level",
    "--significance-level",
    "--profile-time",
];

/// The filter words among a bench target's arguments: not the flags, nor an option's value.
fn filter_words(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut words = Vec::new();
    let mut value_next = false;
    for arg in args {
        if std::mem::take(&mut value_next) {
            continue;
        }
        if arg.starts_with('-') {
            value_next = OPTIONS_WITH_A_VALUE.contains(&arg.as_str());
        } else {
            words.push(arg);
        }
    }
    words
}

/// The CPU's model name from `/proc/cpuinfo`, for the heading of a harness's report.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|name| name.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_options_and_their_values_are_no_filter_words() {
        let args = [
            "--bench",
            "--save-baseline",
            "main",
            "piece-at",
            "--quick",
            "avx2",
        ];
        let words = filter_words(args.iter().map(|a| a.to_string()));
        assert_eq!(words, ["piece-at", "avx2"]);
    }
}

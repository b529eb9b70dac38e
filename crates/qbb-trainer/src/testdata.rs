//! Test data in datagen's format, made up: the positions of the corpus's random games, scored by
//! material count. A network can learn that, so training on it must lower the loss.

use qbb_corpus::Suite;

/// Material from White's point of view, in centipawns.
pub fn material(fen: &str) -> i32 {
    let placement = fen.split_whitespace().next().unwrap_or("");
    placement
        .chars()
        .map(|c| {
            let value = match c.to_ascii_lowercase() {
                'p' => 100,
                'n' | 'b' => 300,
                'r' => 500,
                'q' => 900,
                _ => 0,
            };
            if c.is_ascii_uppercase() {
                value
            } else {
                -value
            }
        })
        .sum()
}

/// `n` lines (n ≤ 6838): `<fen> | <material> | <result>`, the result a win for the side ahead
/// by more than a pawn and a draw otherwise.
pub fn lines(n: usize) -> String {
    let entries = Suite::Random.entries();
    assert!(
        n <= entries.len(),
        "the random suite has {} positions",
        entries.len()
    );
    entries[..n]
        .iter()
        .map(|entry| {
            let score = material(entry.fen);
            let result = match score {
                s if s > 100 => "1.0",
                s if s < -100 => "0.0",
                _ => "0.5",
            };
            format!("{} | {score} | {result}\n", entry.fen)
        })
        .collect()
}

//! The NNUE evaluation in the search: the network (embedded, or loaded with the `EvalFile`
//! option) and a stack of accumulators, one per ply, kept up to date through make-move.
//!
//! The board lives in relative orientation, so a position's accumulators are `us` = the side to
//! move and `them` = the opponent. A child's accumulators are its parent's, updated with the
//! move's delta quad on the parent's board, then swapped: the flip that hands the board to the
//! opponent hands it the other perspective. Only the root is summed from scratch.

use std::io::Read;
use std::sync::{Arc, OnceLock};

use qbb::Backend;
use qbb::nnue::NetworkError;

use crate::board::Position;
use crate::eval;
use crate::eval::score::{MATE_BOUND, MAX_PLY, Score};

/// The engine's width: 256 lanes per perspective, the wider of the two its networks were matched
/// at (the book's NNUE chapter has the matches). The lab measures the routines at 128.
pub const HIDDEN: usize = 256;

/// The engine's network: `qbb`'s at the engine's width.
pub type Network = qbb::nnue::Network<HIDDEN>;

/// The engine's accumulators.
pub type Accumulators = qbb::nnue::Accumulators<HIDDEN>;

/// The network built into the binary (see the book's NNUE chapter for how it was trained).
const EMBEDDED: &[u8] = include_bytes!("../../nets/default.nnue");

/// The embedded network, read once.
pub fn embedded_network() -> Arc<Network> {
    static NETWORK: OnceLock<Arc<Network>> = OnceLock::new();
    NETWORK
        .get_or_init(|| {
            // A build asset, checked by the tests: a damaged one is a build defect.
            Arc::from(Network::from_bytes(EMBEDDED).expect("the embedded network fits the build"))
        })
        .clone()
}

/// Reads a network file (the `EvalFile` option). Only a regular file is read, and no more of it
/// than a network holds: a device such as `/dev/zero` or a pipe would otherwise be read forever.
pub fn load_network(path: &str) -> Result<Arc<Network>, LoadError> {
    let read = |e: std::io::Error| LoadError::Read(e.to_string());
    let file = std::fs::File::open(path).map_err(read)?;
    let metadata = file.metadata().map_err(read)?;
    if !metadata.is_file() {
        return Err(LoadError::NotAFile);
    }
    // One byte more than a network, so that a longer file is still told apart.
    let mut bytes = Vec::new();
    file.take(EMBEDDED.len() as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(read)?;
    Network::from_bytes(&bytes)
        .map(Arc::from)
        .map_err(|e| match e {
            // The whole file's length, not the part read.
            NetworkError::TrailingBytes { expected, .. } => {
                LoadError::Format(NetworkError::TrailingBytes {
                    len: usize::try_from(metadata.len()).unwrap_or(usize::MAX),
                    expected,
                })
            }
            e => LoadError::Format(e),
        })
}

/// Why an `EvalFile` was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    Read(String),
    NotAFile,
    Format(NetworkError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::Read(e) => write!(f, "cannot read it: {e}"),
            LoadError::NotAFile => write!(f, "it is not a regular file"),
            LoadError::Format(e) => write!(f, "{e}"),
        }
    }
}

/// The evaluation the search calls: the network with its accumulator stack, or the hand-written
/// evaluation ([`eval::evaluate`]) when NNUE is off.
#[derive(Debug)]
pub struct Evaluator {
    network: Arc<Network>,
    use_nnue: bool,
    /// The accumulators of the position at each ply of the current line.
    stack: Vec<Accumulators>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator {
            network: embedded_network(),
            use_nnue: true,
            stack: vec![Accumulators::default(); MAX_PLY + 2],
        }
    }
}

impl Evaluator {
    /// Takes `other`'s network and its choice of evaluation (a search helper follows the main
    /// thread's options); the accumulators stay this evaluator's own.
    pub(crate) fn follow(&mut self, other: &Evaluator) {
        self.network = Arc::clone(&other.network);
        self.use_nnue = other.use_nnue;
    }

    pub fn set_network(&mut self, network: Arc<Network>) {
        self.network = network;
    }

    pub fn set_use_nnue(&mut self, on: bool) {
        self.use_nnue = on;
    }

    /// Starts a search at `root`: its accumulators from scratch.
    #[inline(always)]
    pub fn set_root<B: Backend>(&mut self, b: B, root: &Position) {
        if self.use_nnue {
            self.stack[0] = b.nnue_refresh(root.quad(), &self.network);
        }
    }

    /// `child`, at `ply + 1`, reached from `parent` (at `ply`) by a move. The parent's
    /// accumulators are copied into the child's place with their perspectives traded (the
    /// child's board is the parent's flipped), then updated there by the move as the child sees
    /// it: the parent's board flipped becomes the child's. One copy of the accumulators, where
    /// updating a copy and storing it flipped took two.
    #[inline(always)]
    pub fn make_move<B: Backend>(&mut self, b: B, ply: usize, parent: &Position, child: &Position) {
        if self.use_nnue {
            let (line, below) = self.stack.split_at_mut(ply + 1);
            let acc = &mut below[0];
            acc.us = line[ply].them;
            acc.them = line[ply].us;
            let before = b.flip(parent.quad());
            let delta = before ^ *child.quad();
            b.nnue_update(acc, &before, &delta, &self.network);
        }
    }

    /// The child at `ply + 1` after a null move: the same pieces, the board flipped.
    #[inline(always)]
    pub fn make_null_move(&mut self, ply: usize) {
        if self.use_nnue {
            self.stack[ply + 1] = self.stack[ply].flipped();
        }
    }

    /// The static evaluation of `pos`, the position at `ply`, for the side to move; a network's
    /// output is kept below the mate scores.
    #[inline(always)]
    pub fn evaluate<B: Backend>(&self, b: B, ply: usize, pos: &Position) -> Score {
        if self.use_nnue {
            let limit = MATE_BOUND - 1;
            b.nnue_evaluate(&self.stack[ply], &self.network)
                .clamp(-limit, limit)
        } else {
            eval::evaluate(b, pos)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qbb::{BackendKind, Scalar};

    #[test]
    fn the_embedded_network_reads() {
        let net = embedded_network();
        assert_eq!(net.to_bytes(), EMBEDDED);
    }

    #[test]
    fn a_bad_eval_file_is_refused_with_the_reason() {
        let missing = load_network("/nonexistent/net.nnue").unwrap_err();
        assert!(missing.to_string().contains("cannot read"), "{missing}");
        let dir = std::env::temp_dir().join(format!("qbb-nnue-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let truncated = dir.join("truncated.nnue");
        std::fs::write(&truncated, &EMBEDDED[..EMBEDDED.len() / 2]).unwrap();
        let e = load_network(truncated.to_str().unwrap()).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `setoption name EvalFile value /dev/zero` once read without end (found by the uci fuzz
    /// target): a device, a pipe or a folder is refused at once, and a long file is read only as
    /// far as it shows it is too long.
    #[test]
    fn an_eval_file_that_is_no_regular_file_is_refused_at_once() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            let e = load_network(path).unwrap_err();
            assert_eq!(e, LoadError::NotAFile, "{path}");
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let dir = std::env::temp_dir().join(format!("qbb-nnue-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let long = dir.join("long.nnue");
        let mut bytes = EMBEDDED.to_vec();
        bytes.extend_from_slice(&[0; 4096]);
        std::fs::write(&long, &bytes).unwrap();
        let e = load_network(long.to_str().unwrap()).unwrap_err();
        let expected = NetworkError::TrailingBytes {
            len: bytes.len(),
            expected: EMBEDDED.len(),
        };
        assert_eq!(e, LoadError::Format(expected));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The evaluator's incremental updates along random games (the search's own path: the
    /// accumulators swapped as they are copied, then updated on the child's board) equal a
    /// refresh at every ply, on every backend.
    #[test]
    fn updates_along_games_equal_refreshes() {
        let mut rng = qbb::conformance::SplitMix64(0x6E6E_7565);
        let mut weight = || (rng.next_u64() % 64) as i16 - 32;
        let network: Arc<Network> = Arc::from(Network::random(&mut weight));
        let mut rng = qbb::conformance::SplitMix64(7);
        for kind in BackendKind::ALL.into_iter().filter(|k| k.is_available()) {
            qbb::with_backend!(kind, |b| {
                let mut evaluator = Evaluator::default();
                evaluator.set_network(Arc::clone(&network));
                for _game in 0..20 {
                    let mut pos = Position::startpos();
                    evaluator.set_root(b, &pos);
                    for ply in 0..120 {
                        let mut moves = crate::board::MoveList::new();
                        pos.generate_moves(b, &mut moves);
                        let Some(&mv) = moves
                            .iter()
                            .nth(rng.below(moves.len().max(1) as u64) as usize)
                        else {
                            break;
                        };
                        let child = pos.make_move(b, mv);
                        evaluator.make_move(b, ply, &pos, &child);
                        pos = child;
                        let fresh = Scalar.nnue_refresh(pos.quad(), &network);
                        let acc = &evaluator.stack[ply + 1];
                        assert_eq!(acc, &fresh, "{kind}: after {} ({mv:?})", pos.to_fen());
                        assert_eq!(
                            evaluator.evaluate(b, ply + 1, &pos),
                            Scalar
                                .nnue_evaluate(&fresh, &network)
                                .clamp(-(MATE_BOUND - 1), MATE_BOUND - 1),
                            "{kind}: {}",
                            pos.to_fen()
                        );
                    }
                }
            })
            .unwrap();
        }
    }
}

//! `qbb show [FEN]`: a position drawn as the Quad-Bitboards article draws it.

use std::process::ExitCode;

use anyhow::{Context, bail};
use qbb::{Backend, Color, Mailbox, Piece, Quad};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A FEN (or just its piece placement); the start position when omitted.
    #[arg(num_args = 0.., value_name = "FEN")]
    fen: Vec<String>,
    /// Show QBBEngine's relative reading (PM = side to move, board mirrored when black moves).
    #[arg(long)]
    relative: bool,
    /// The backend whose routines build the nibble table (default: auto, or QBB_BACKEND).
    #[arg(long, value_name = "NAME|auto")]
    backend: Option<String>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let fen = if args.fen.is_empty() {
        START.to_string()
    } else {
        args.fen.join(" ")
    };
    let mut fields = fen.split_whitespace();
    let placement = fields.next().context("the FEN is empty")?;
    let absolute = Quad::from_placement(placement).context("cannot read the piece placement")?;
    let side = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => bail!("side to move must be `w` or `b`, not `{other}`"),
    };
    let kind = crate::backends::parse_backend(args.backend.as_deref())?;

    let (quad, titles) = if args.relative {
        (
            absolute.to_relative(side),
            ["PM side to move", "P0  P B Q", "P1  NB  K", "P2  RQK"],
        )
    } else {
        (absolute, ["bb0 black", "bb1 P B Q", "bb2 NB  K", "bb3 RQK"])
    };
    let mailbox = qbb::with_backend!(kind, |b| b.to_mailbox(&quad))?;

    let reading = if args.relative {
        format!("relative reading, {side:?} to move")
    } else {
        "absolute reading (plane 0 = black)".to_string()
    };
    crate::output::print(&format!(
        "{fen}\n{reading}\n\n{}\n{}\nnibbles from the {kind} backend's quad -> mailbox\n",
        quad.planes_diagram(titles),
        side_by_side(&board_diagram(&mailbox), &nibble_diagram(&mailbox)),
    ))?;
    Ok(ExitCode::SUCCESS)
}

/// The board with piece letters, rank 8 on top; codes that name no piece (1, 14, 15) show as `?`.
fn board_diagram(mailbox: &Mailbox) -> Vec<String> {
    let mut lines = vec!["board".to_string()];
    for rank in (0..8).rev() {
        let row: Vec<String> = (0..8)
            .map(|file| match mailbox.0[rank * 8 + file] {
                0 => ".".to_string(),
                code => Piece::from_code(code).map_or("?".to_string(), |p| p.letter().to_string()),
            })
            .collect();
        lines.push(format!("{} {}", rank + 1, row.join(" ")));
    }
    lines.push("  a b c d e f g h".to_string());
    lines
}

/// Each square's nibble in hex.
fn nibble_diagram(mailbox: &Mailbox) -> Vec<String> {
    let mut lines = vec!["nibbles (hex)".to_string()];
    for rank in (0..8).rev() {
        let row: Vec<String> = (0..8)
            .map(|file| format!("{:X}", mailbox.0[rank * 8 + file]))
            .collect();
        lines.push(format!("{} {}", rank + 1, row.join(" ")));
    }
    lines.push("  a b c d e f g h".to_string());
    lines
}

fn side_by_side(left: &[String], right: &[String]) -> String {
    let width = left.iter().map(String::len).max().unwrap_or(0) + 6;
    left.iter()
        .zip(right)
        .map(|(l, r)| format!("{l:<width$}{r}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_board_and_nibbles() {
        let mailbox = qbb::Scalar.to_mailbox(&Quad::start_position());
        let board = board_diagram(&mailbox);
        assert_eq!(board[1], "8 r n b q k b n r");
        assert_eq!(board[8], "1 R N B Q K B N R");
        let nibbles = nibble_diagram(&mailbox);
        assert_eq!(nibbles[1], "8 9 5 7 B D 7 5 9");
        assert_eq!(nibbles[8], "1 8 4 6 A C 6 4 8", "e1 holds 1100B = C");
    }
}

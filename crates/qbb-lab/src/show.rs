//! `qbb show [FEN]`: a position drawn as the Quad-Bitboards article draws it, and
//! `qbb show --routine R [FEN]`: what one routine computes, drawn on a position chosen to show it.

use std::process::ExitCode;

use anyhow::{Context, bail};
use qbb::{Backend, BackendKind, Color, Mailbox, Piece, Quad, Routine};

mod draw;
mod inputs;
mod routines;

use routines::START;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A FEN (or just its piece placement); the start position when omitted, or with --routine
    /// the routine's own position.
    #[arg(num_args = 0.., value_name = "FEN")]
    fen: Vec<String>,
    /// Show QBBEngine's relative reading (PM = side to move, board mirrored when black moves).
    #[arg(long, conflicts_with = "routine")]
    relative: bool,
    /// Draw what a routine of the catalogue computes (its id, as `qbb backends` lists it: piece-at,
    /// occluded-fills, checks-and-pins, ...): its inputs and its result.
    #[arg(long, value_name = "ROUTINE")]
    routine: Option<String>,
    /// The backend whose routines compute the picture (default: scalar with --routine, the
    /// reference; otherwise auto, or QBB_BACKEND).
    #[arg(long, value_name = "NAME|auto")]
    backend: Option<String>,
    /// piece-at: the square to read (default e1).
    #[arg(long, value_name = "SQUARE")]
    square: Option<String>,
    /// set-piece: what to write, SQUARE=PIECE with a piece letter, `.` to clear or a code 0-15
    /// (repeatable; default b8=Q c7=.).
    #[arg(long = "set", value_name = "SQUARE=PIECE")]
    writes: Vec<String>,
    /// move-delta, hash-manino, hash-zobrist: a legal move in UCI notation (default e1g1 for
    /// move-delta, e2e4 for the hashes).
    #[arg(long = "move", value_name = "UCI")]
    uci: Option<String>,
}

pub fn run(args: &Args) -> anyhow::Result<ExitCode> {
    match &args.routine {
        Some(name) => run_routine(args, name),
        None => {
            for (given, option) in [
                (args.square.is_some(), "--square"),
                (!args.writes.is_empty(), "--set"),
                (args.uci.is_some(), "--move"),
            ] {
                if given {
                    bail!("{option} belongs to a routine's picture: give --routine too");
                }
            }
            run_position(args)
        }
    }
}

/// The FEN given on the command line, or `default`.
fn fen_or(args: &Args, default: &str) -> String {
    if args.fen.is_empty() {
        default.to_string()
    } else {
        args.fen.join(" ")
    }
}

/// The absolute quad of a FEN's placement and its side to move.
fn read_fen(fen: &str) -> anyhow::Result<(Quad, Color)> {
    let mut fields = fen.split_whitespace();
    let placement = fields.next().context("the FEN is empty")?;
    let quad = Quad::from_placement(placement).context("cannot read the piece placement")?;
    let side = match fields.next() {
        None | Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => bail!("side to move must be `w` or `b`, not `{other}`"),
    };
    Ok((quad, side))
}

fn run_routine(args: &Args, name: &str) -> anyhow::Result<ExitCode> {
    let routine: Routine = name.parse().with_context(|| {
        let ids: Vec<&str> = Routine::ALL.iter().map(|r| r.id()).collect();
        format!("--routine: the routines are {}", ids.join(", "))
    })?;
    for (given, option, takes) in [
        (
            args.square.is_some(),
            "--square",
            routines::takes_square(routine),
        ),
        (
            !args.writes.is_empty(),
            "--set",
            routines::takes_writes(routine),
        ),
        (args.uci.is_some(), "--move", routines::takes_move(routine)),
    ] {
        if given && !takes {
            bail!("{option} is not an input of the {routine} picture");
        }
    }
    let fen = fen_or(args, routines::default_fen(routine));
    let (quad, _) = read_fen(&fen)?;
    let square = args.square.as_deref().unwrap_or(routines::DEFAULT_SQUARE);
    let writes: Vec<&str> = if args.writes.is_empty() {
        routines::DEFAULT_WRITES.to_vec()
    } else {
        args.writes.iter().map(String::as_str).collect()
    };
    let move_text = args
        .uci
        .clone()
        .unwrap_or_else(|| routines::default_move(routine).to_string());
    let aspects = if routines::takes_move(routine) {
        inputs::move_aspects(&fen, &quad, &move_text)?
    } else {
        qbb::MoveAspects::quiet(qbb::Square::A1, qbb::Square::A1, 0)
    };
    let job = routines::Job {
        routine,
        fen,
        quad,
        square: square
            .parse()
            .with_context(|| format!("--square {square}"))?,
        writes: writes
            .into_iter()
            .map(inputs::parse_write)
            .collect::<anyhow::Result<_>>()?,
        aspects,
        move_text,
    };
    let kind = match args.backend.as_deref() {
        None => BackendKind::Scalar,
        name => crate::backends::parse_backend(name)?,
    };
    let outcome = qbb::with_backend!(kind, |b| routines::compute(b, &job))?;
    crate::output::print(&routines::draw(&job, kind.name(), &outcome))?;
    Ok(ExitCode::SUCCESS)
}

fn run_position(args: &Args) -> anyhow::Result<ExitCode> {
    let fen = fen_or(args, START);
    let (absolute, side) = read_fen(&fen)?;
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

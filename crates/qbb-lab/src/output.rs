//! Writing to standard output without panicking when the reader goes away (`qbb ... | head`).

use std::io::{self, Write};

/// Writes `text` to standard output; a closed pipe is not an error.
pub fn print(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

//! Opening puzzle sources (a file path or standard input) with errors that
//! name the source.

use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::Path;

use anyhow::Context;

use crate::format::PuzzleReader;

/// A streaming reader over a file, or standard input when `path` is `None`.
/// Parse errors carry the path (or `<stdin>`).
pub fn open(path: Option<&Path>) -> anyhow::Result<PuzzleReader<Box<dyn BufRead>>> {
    match path {
        Some(p) => {
            let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
            Ok(PuzzleReader::new(
                Box::new(BufReader::new(file)),
                Some(p.display().to_string()),
            ))
        }
        None => Ok(PuzzleReader::new(
            Box::new(BufReader::new(io::stdin())),
            Some("<stdin>".to_string()),
        )),
    }
}

//! Opening the puzzles of one file, or of standard input, for the commands
//! that read one source (`solve`, `count`, `trace`). A thin face of the one
//! reader, [`DatasetReader`]: every layout, CSV, `# solutions:` lines, bounded
//! memory, errors that name the source.

use std::path::Path;

use crate::base::format::{Format, Puzzle};
use crate::io::dataset::{DatasetReader, LoadError};

/// The puzzles of one source, in order.
pub struct Puzzles {
    reader: DatasetReader,
    file: String,
    /// The `# solutions: N` expectation of the puzzle last returned.
    expected: Option<u64>,
}

/// Opens `path`, or standard input when `path` is `None`.
pub fn open(path: Option<&Path>) -> anyhow::Result<Puzzles> {
    Ok(Puzzles {
        reader: DatasetReader::open(path)?,
        file: path.map_or("<stdin>".to_string(), |p| p.display().to_string()),
        expected: None,
    })
}

/// Puzzle number `n` (1-based) of `file` (standard input if `None`), with
/// the name of its source: the puzzle that `trace` and `replay` follow.
pub fn pick(file: Option<&Path>, n: usize) -> anyhow::Result<(String, Puzzle)> {
    if n == 0 {
        anyhow::bail!("--puzzle counts from 1");
    }
    let source = file.map_or("<stdin>".to_string(), |p| p.display().to_string());
    let mut reader = open(file)?;
    let mut seen = 0;
    for puzzle in reader.by_ref() {
        let puzzle = puzzle?;
        seen += 1;
        if seen == n {
            return Ok((source, puzzle));
        }
    }
    if seen == 0 {
        return Err(reader.empty_error().into());
    }
    anyhow::bail!("{source} holds {seen} puzzle(s); --puzzle {n} does not exist")
}

impl Puzzles {
    /// The layout to print answers in (line format for CSV input).
    pub fn format(&self) -> Option<Format> {
        self.reader.format()
    }

    /// What the file's `# solutions: N` line says of the puzzle last
    /// returned (`None`: it says nothing).
    pub fn expected(&self) -> Option<u64> {
        self.expected
    }

    /// The source as errors name it.
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The error for a source that held no puzzle (the reader reports it as
    /// its only item already; this is for callers that stop early).
    pub fn empty_error(&self) -> LoadError {
        LoadError::Invalid {
            file: self.file.clone(),
            line: 1,
            column: 1,
            message: crate::base::format::ParseErrorKind::Empty.to_string(),
        }
    }
}

impl Iterator for Puzzles {
    type Item = Result<Puzzle, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.next().map(|e| {
            e.map(|e| {
                self.expected = e.expected;
                e.puzzle
            })
        })
    }
}

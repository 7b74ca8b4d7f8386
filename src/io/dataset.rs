//! Datasets: named, ordered lists of puzzles read from files.
//!
//! A dataset file is either
//! * a puzzle file in any layout of [`crate::base::format`] (line, grid, compact;
//!   `#` comments, blank lines and CRLF allowed; a trailing `# comment` names
//!   a line puzzle), or
//! * a CSV file whose first content line is a header naming a puzzle column
//!   (`quizzes`, `quiz`, `puzzle` or `puzzles`) and optionally a solution
//!   column (`solutions` or `solution`) and a `name` column (a file with a
//!   single puzzle column needs no comma). Puzzles and
//!   solutions are line-format strings (`0` or `.` for a blank); a given
//!   solution is checked against its puzzle and the rules, so a wrong one is
//!   an error naming its line and column. Other columns are ignored.
//!
//! **Expected solution counts.** A comment line of its own
//! `# solutions: N` states that every puzzle after it (until the next such
//! line) has exactly `N` solutions. Every shipped file states it, and a test
//! counts every shipped puzzle's solutions against it. Puzzles before any
//! such line have no expectation (`None`).
//!
//! Reading streams ([`DatasetReader`]): memory stays bounded by one puzzle,
//! so the 49,158-line 17-clue list can be scanned without holding it.
//! [`Dataset::load`] collects a whole file. The CSV form is read in
//! `dataset/csv.rs`.

use std::cell::RefCell;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::{Context, bail};

use crate::base::board::Board;
use crate::base::format::{self, Format, ParseError, ParseErrorKind, Puzzle, PuzzleReader};

mod csv;

use csv::{CsvReader, PUZZLE_COLUMNS};

/// The comment keyword of an expected-solution-count line: `# solutions: N`.
const SOLUTIONS_DIRECTIVE: &str = "solutions:";

/// A named, ordered list of puzzles.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// Short name used in reports, e.g. `curated/famous-hard`.
    pub name: String,
    /// Where it was read from.
    pub path: PathBuf,
    pub puzzles: Vec<Puzzle>,
    /// Expected solution count of each puzzle (same index as `puzzles`),
    /// from the file's `# solutions: N` lines; `None` if the file says nothing.
    pub expected: Vec<Option<u64>>,
    /// 1-based position of each puzzle in the file (kept when sampling).
    pub positions: Vec<u64>,
}

impl Dataset {
    /// Loads every puzzle of a file; the name is the file stem.
    pub fn load(path: &Path) -> anyhow::Result<Dataset> {
        Self::load_named(path, Self::stem(path), None)
    }

    /// Loads the puzzles of a file (or a sample of them) under the given name.
    pub fn load_named(
        path: &Path,
        name: String,
        sample: Option<crate::io::sample::Sample>,
    ) -> anyhow::Result<Dataset> {
        let reader = DatasetReader::open(Some(path))?;
        let entries: Vec<(u64, Entry)> = match sample {
            Some(sample) => sample.draw(reader)?.0,
            None => (0..).zip(reader.collect::<Result<Vec<_>, _>>()?).collect(),
        };
        let mut puzzles = Vec::with_capacity(entries.len());
        let mut expected = Vec::with_capacity(entries.len());
        let mut positions = Vec::with_capacity(entries.len());
        for (i, entry) in entries {
            puzzles.push(entry.puzzle);
            expected.push(entry.expected);
            positions.push(i + 1);
        }
        Ok(Dataset {
            name,
            path: path.to_path_buf(),
            puzzles,
            expected,
            positions,
        })
    }

    /// Loads the puzzles of a file, or the seeded sample of them that every
    /// command draws for `--sample N --seed S` (file order kept; memory bounded
    /// by the sample). The name is the file stem.
    pub fn load_sampled(
        path: &Path,
        sample: Option<crate::io::sample::Sample>,
    ) -> anyhow::Result<Dataset> {
        Self::load_named(path, Self::stem(path), sample)
    }

    fn stem(path: &Path) -> String {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string())
    }

    /// Number of puzzles.
    pub fn len(&self) -> usize {
        self.puzzles.len()
    }

    pub fn is_empty(&self) -> bool {
        self.puzzles.is_empty()
    }

    /// The expected solution count of puzzle `i`, if the file states one.
    pub fn expected(&self, i: usize) -> Option<u64> {
        self.expected.get(i).copied().flatten()
    }
}

/// One puzzle as read from a dataset file.
#[derive(Clone, Debug)]
pub struct Entry {
    pub puzzle: Puzzle,
    /// From the latest `# solutions: N` line before the puzzle.
    pub expected: Option<u64>,
    /// The solution given in a CSV file, already checked against the puzzle.
    pub solution: Option<Board>,
}

/// The layout of a dataset file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Text(Format),
    Csv,
}

/// A problem in a dataset file, with its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LoadError {
    /// A puzzle that does not parse (layout, alphabet, size, conflicts).
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// Anything else: CSV header or rows, wrong solutions, directives.
    #[error("{file}:{line}:{column}: {message}")]
    Invalid {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
}

impl LoadError {
    /// The 1-based line of the problem.
    pub fn line(&self) -> usize {
        match self {
            LoadError::Parse(e) => e.line,
            LoadError::Invalid { line, .. } => *line,
        }
    }
}

fn invalid(file: &str, line: usize, column: usize, message: impl fmt::Display) -> LoadError {
    LoadError::Invalid {
        file: file.to_string(),
        line,
        column,
        message: message.to_string(),
    }
}

/// Streams the puzzles of a dataset file (any layout, or CSV) with their
/// expected solution counts. Ends after the first error; an input without
/// any puzzle yields one "no puzzle found" error.
pub struct DatasetReader {
    inner: Inner,
    file: String,
    count: usize,
    done: bool,
}

enum Inner {
    Text {
        reader: Box<PuzzleReader<Tap<Box<dyn Read>>>>,
        state: Rc<RefCell<Directives>>,
    },
    Csv(Box<CsvReader<Box<dyn BufRead>>>),
    /// Nothing but blank and comment lines (or a read error at the start).
    Empty {
        lines: usize,
        error: Option<LoadError>,
    },
}

impl Inner {
    /// The reader of a file whose first content line starts `replay` (line
    /// `before + 1`): CSV or the puzzle layouts, with the directives seen in
    /// the leading comments.
    fn reading(
        replay: Box<dyn Read>,
        is_csv: bool,
        before: usize,
        file: &str,
        directives: Directives,
    ) -> Inner {
        if is_csv {
            let source: Box<dyn BufRead> = Box::new(BufReader::new(replay));
            let csv = CsvReader::new(source, file.to_string(), before, directives);
            Inner::Csv(Box::new(csv))
        } else {
            let state = Rc::new(RefCell::new(directives));
            let mut tap = Tap::new(replay, state.clone());
            tap.line_no = before;
            Inner::Text {
                reader: Box::new(
                    PuzzleReader::new(tap, Some(file.to_string())).starting_at(before + 1),
                ),
                state,
            }
        }
    }
}

impl DatasetReader {
    /// Opens a file, or standard input when `path` is `None`.
    pub fn open(path: Option<&Path>) -> anyhow::Result<DatasetReader> {
        match path {
            Some(p) => {
                let file = File::open(p).with_context(|| format!("cannot open {}", p.display()))?;
                Ok(Self::new(Box::new(file), p.display().to_string()))
            }
            None => Ok(Self::new(Box::new(io::stdin()), "<stdin>".to_string())),
        }
    }

    /// Reads from any byte source; `file` names it in errors.
    pub fn new(source: Box<dyn Read>, file: String) -> DatasetReader {
        let mut buffered = BufReader::with_capacity(64 * 1024, source);
        // Blank and comment lines up to the first content line are read one
        // at a time (their directives noted, the lines dropped), so memory
        // stays bounded whatever a file starts with; the first content line
        // decides between CSV and the puzzle layouts and is replayed to the
        // chosen reader, which numbers lines from where it starts.
        let mut directives = Directives::default();
        let mut line = Vec::new();
        let mut lines = 0;
        let inner = loop {
            let read = format::read_line(&mut buffered, &mut line);
            if let Ok(false) = read {
                break Inner::Empty { lines, error: None };
            }
            lines += 1;
            if let Err(kind) = read.and(format::skip_bom(&mut line, lines)) {
                let error = Some(invalid(&file, lines, 1, kind));
                break Inner::Empty { lines, error };
            }
            let content = content_of(&line);
            if content.is_empty() {
                directives.see(lines, &line, false);
                if let Some((l, c, m)) = directives.error.take() {
                    break Inner::Empty {
                        lines,
                        error: Some(invalid(&file, l, c, m)),
                    };
                }
                continue;
            }
            let is_csv = content.contains(&b',')
                || PUZZLE_COLUMNS
                    .iter()
                    .any(|c| content.eq_ignore_ascii_case(c.as_bytes()));
            // The line goes back with the ending `read_line` took off.
            line.push(b'\n');
            let replay: Box<dyn Read> =
                Box::new(Cursor::new(std::mem::take(&mut line)).chain(buffered));
            break Inner::reading(replay, is_csv, lines - 1, &file, directives);
        };
        DatasetReader {
            inner,
            file,
            count: 0,
            done: false,
        }
    }

    /// The layout of the puzzles for printing answers back: the text layout,
    /// or line format for CSV (one puzzle per line).
    pub fn format(&self) -> Option<Format> {
        match self.layout()? {
            Layout::Text(f) => Some(f),
            Layout::Csv => Some(Format::Line),
        }
    }

    /// The detected layout, once known.
    pub fn layout(&self) -> Option<Layout> {
        match &self.inner {
            Inner::Text { reader, .. } => reader.format().map(Layout::Text),
            Inner::Csv(_) => Some(Layout::Csv),
            Inner::Empty { .. } => None,
        }
    }

    fn next_entry(&mut self) -> Result<Option<Entry>, LoadError> {
        match &mut self.inner {
            Inner::Text { reader, state } => {
                let next = reader.next().transpose()?;
                let st = state.borrow();
                if let Some((line, column, message)) = &st.error {
                    return Err(invalid(&self.file, *line, *column, message));
                }
                Ok(next.map(|puzzle| Entry {
                    puzzle,
                    expected: st.expected,
                    solution: None,
                }))
            }
            Inner::Csv(reader) => reader.next_entry(),
            Inner::Empty { lines, error } => match error.take() {
                Some(e) => Err(e),
                None => Err(invalid(
                    &self.file,
                    (*lines).max(1),
                    1,
                    ParseErrorKind::Empty,
                )),
            },
        }
    }
}

impl Iterator for DatasetReader {
    type Item = Result<Entry, LoadError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_entry() {
            Ok(Some(entry)) => {
                self.count += 1;
                Some(Ok(entry))
            }
            Ok(None) => {
                self.done = true;
                if self.count == 0 {
                    let line = match &self.inner {
                        Inner::Csv(r) => r.line_no,
                        _ => 1,
                    };
                    return Some(Err(invalid(
                        &self.file,
                        line.max(1),
                        1,
                        ParseErrorKind::Empty,
                    )));
                }
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// A line without its ending and `#` comment, trimmed of spaces and tabs.
fn content_of(line: &[u8]) -> &[u8] {
    let end = line
        .iter()
        .position(|&b| b == b'#' || b == b'\n' || b == b'\r')
        .unwrap_or(line.len());
    line[..end].trim_ascii()
}

/// What the directive lines seen so far say.
#[derive(Debug, Default)]
struct Directives {
    expected: Option<u64>,
    /// The first malformed directive: line, column, message.
    error: Option<(usize, usize, String)>,
}

impl Directives {
    /// Looks at one whole line (without its `\n`); records a directive.
    fn see(&mut self, line_no: usize, line: &[u8], truncated: bool) {
        let Some(value) = directive_value(line) else {
            return;
        };
        if self.error.is_some() {
            return;
        }
        let column = line.len() - value.len() + 1;
        match std::str::from_utf8(value.trim_ascii())
            .ok()
            .filter(|_| !truncated)
            .and_then(|s| s.parse::<u64>().ok())
        {
            Some(n) => self.expected = Some(n),
            None => {
                self.error = Some((
                    line_no,
                    column,
                    format!(
                        "bad directive: expected `# {SOLUTIONS_DIRECTIVE} N` with N a whole number, found `{}`",
                        String::from_utf8_lossy(line.trim_ascii())
                    ),
                ))
            }
        }
    }
}

/// The text after `# solutions:` on a comment line of its own.
fn directive_value(line: &[u8]) -> Option<&[u8]> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let rest = line
        .trim_ascii_start()
        .strip_prefix(b"#")?
        .trim_ascii_start();
    rest.strip_prefix(SOLUTIONS_DIRECTIVE.as_bytes())
}

/// Longest line prefix a [`Tap`] keeps to recognise directives.
const TAP_LINE_CAP: usize = 256;

/// A buffered reader that watches the lines passing through it for
/// `# solutions:` directives, so the format module's [`PuzzleReader`] (which
/// skips comments) can be reused unchanged. The directive state is shared
/// with the [`DatasetReader`]; since `PuzzleReader` consumes exactly the lines
/// of one puzzle per step, the state after a step applies to that puzzle.
struct Tap<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    filled: usize,
    line_no: usize,
    line: Vec<u8>,
    truncated: bool,
    state: Rc<RefCell<Directives>>,
}

impl<R: Read> Tap<R> {
    fn new(inner: R, state: Rc<RefCell<Directives>>) -> Self {
        Tap {
            inner,
            buf: vec![0; 64 * 1024].into_boxed_slice(),
            pos: 0,
            filled: 0,
            line_no: 0,
            line: Vec::with_capacity(TAP_LINE_CAP),
            truncated: false,
            state,
        }
    }

    fn keep(&mut self, bytes: &[u8]) {
        let room = TAP_LINE_CAP - self.line.len();
        if bytes.len() > room {
            self.truncated = true;
        }
        self.line.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Tap<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.filled {
            self.filled = self.inner.read(&mut self.buf)?;
            self.pos = 0;
        }
        Ok(&self.buf[self.pos..self.filled])
    }

    fn consume(&mut self, amt: usize) {
        let end = (self.pos + amt).min(self.filled);
        let mut start = self.pos;
        while start < end {
            match self.buf[start..end].iter().position(|&b| b == b'\n') {
                Some(p) => {
                    let bytes = self.buf[start..start + p].to_vec();
                    self.keep(&bytes);
                    self.line_no += 1;
                    self.state
                        .borrow_mut()
                        .see(self.line_no, &self.line, self.truncated);
                    self.line.clear();
                    self.truncated = false;
                    start += p + 1;
                }
                None => {
                    let bytes = self.buf[start..end].to_vec();
                    self.keep(&bytes);
                    start = end;
                }
            }
        }
        self.pos = end;
    }
}

/// The folder of the shipped datasets: `$SUDOKU_LAB_DATASETS`, or the
/// `datasets/` folder of this source tree.
pub fn shipped_dir() -> PathBuf {
    std::env::var_os("SUDOKU_LAB_DATASETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets"))
}

/// Every shipped dataset (`*.txt` and `*.csv` below [`shipped_dir`]), sorted
/// by name; names are paths relative to that folder without extension.
pub fn shipped() -> anyhow::Result<Vec<Dataset>> {
    shipped_sources()?
        .into_iter()
        .map(|s| Dataset::load_named(&s.path, s.name, None))
        .collect()
}

/// The shipped datasets by name and path, without reading any of them (so a
/// broken or huge file there costs nothing until it is used).
pub(crate) fn shipped_sources() -> anyhow::Result<Vec<Source>> {
    let root = shipped_dir();
    let mut files = Vec::new();
    collect_files(&root, &mut files)
        .with_context(|| format!("cannot read the datasets folder {}", root.display()))?;
    files.sort();
    if files.is_empty() {
        bail!("no datasets (*.txt, *.csv) found in {}", root.display());
    }
    Ok(files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap_or(&f).with_extension("");
            Source {
                name: rel.to_string_lossy().replace('\\', "/"),
                path: f,
            }
        })
        .collect())
}

/// A puzzle file to run, under a report name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub name: String,
    pub path: PathBuf,
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("txt" | "csv")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Result<Entry, LoadError>> {
        DatasetReader::new(Box::new(Cursor::new(text.as_bytes().to_vec())), "t".into()).collect()
    }

    #[test]
    fn directives_apply_to_following_puzzles() {
        let text =
            "# solutions: 1\r\n1234341221434321\r\n  #  solutions: 288\r\n................\n";
        let e: Vec<Entry> = read(text).into_iter().map(|r| r.unwrap()).collect();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].expected, Some(1));
        assert_eq!(e[1].expected, Some(288));
        let text = "1234341221434321\n# solutions: 2\n1234341221434321  # twice\n";
        let e: Vec<Entry> = read(text).into_iter().map(|r| r.unwrap()).collect();
        assert_eq!(
            e.iter().map(|e| e.expected).collect::<Vec<_>>(),
            vec![None, Some(2)]
        );
        assert_eq!(e[1].puzzle.name.as_deref(), Some("twice"));
    }

    #[test]
    fn bad_directive_names_its_line() {
        let r = read("1234341221434321\n# solutions: many\n1234341221434321\n");
        let err = r.into_iter().find_map(|r| r.err()).unwrap();
        assert_eq!(err.line(), 2, "{err}");
    }
}

//! Reading and writing puzzles in the three text layouts the lab accepts.
//!
//! * **line** — one puzzle per line, `n²` characters, `.` or `0` for a blank.
//!   Alphabet: `1`-`9` then `A`, `B`, ... for 10, 11, ... (so 16×16 uses
//!   `1-9A-G` and 25×25 uses `1-9A-P`; lower case is accepted on input).
//!   A trailing `# comment` after the puzzle names it.
//! * **grid** (Baekjoon 2580) — `n` lines of `n` whitespace-separated numbers, `0` = blank.
//! * **compact** (Baekjoon 2239) — `n` lines of `n` characters with no
//!   separators, same alphabet as line; only 4×4 and 9×9, because a 16-character
//!   row would be indistinguishable from a 4×4 line puzzle.
//!
//! Files may hold `#` comment lines, blank lines, surrounding spaces and CRLF
//! line endings. The layout is detected from the first puzzle line, and every
//! later puzzle must have the same layout and size. Every error carries the
//! file, line and column.

use std::fmt;
use std::io::{BufRead, Read};

use crate::base::board::{Board, BoardError, BoxSize, Cell, Conflict};

/// The UTF-8 byte-order mark some editors put at the start of a file.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Longest accepted input line; longer lines are rejected without being read whole.
pub const MAX_LINE_BYTES: u64 = 64 * 1024;

/// The text layout of a puzzle file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Line,
    Grid,
    Compact,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Line => "line",
            Format::Grid => "grid",
            Format::Compact => "compact",
        })
    }
}

/// One puzzle read from a file, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    pub board: Board,
    /// Name from a trailing `# comment`, if any.
    pub name: Option<String>,
    /// 1-based line where the puzzle starts.
    pub line: usize,
}

/// What went wrong while parsing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// A NUL byte: binary data, not a text file.
    Binary,
    /// A carriage return inside a line: the file ends its lines with CR
    /// alone (classic Mac OS), so it reads as one long line.
    CrLineEnds,
    UnknownCharacter(String),
    /// A space or tab in a line or compact puzzle: a grid row, where the
    /// file's first puzzle set another layout (at `line`).
    LayoutChanged {
        format: Format,
        line: usize,
    },
    DigitOutOfRange {
        found: String,
        size: BoxSize,
        /// Grid layout: digits are numbers (`1-25`), not symbols (`1-P`).
        numbers: bool,
    },
    /// A line/row with the wrong number of characters or numbers.
    WrongLength(String),
    WrongRowCount {
        start_line: usize,
        expected: usize,
        found: usize,
    },
    UnsupportedSize(usize),
    /// A grid row (numbers separated by spaces or tabs) of this many
    /// numbers, which no supported size has.
    GridRowSize(usize),
    Conflict(String),
    LineTooLong,
    /// The file starts with a UTF-16 byte-order mark.
    Utf16,
    Io(String),
    Empty,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::UnknownCharacter(c) => write!(f, "unknown character {c}"),
            ParseErrorKind::LayoutChanged { format, line } => write!(
                f,
                "the layout changed: a space, as in a grid row of numbers, where the file's puzzles are in the {format} layout (set by its first puzzle, line {line}); a file holds puzzles of one layout"
            ),
            ParseErrorKind::Binary => {
                write!(f, "binary data (a NUL byte): not a text file of puzzles")
            }
            ParseErrorKind::CrLineEnds => write!(
                f,
                "a carriage return (CR) inside a line: the file ends its lines with CR alone; use LF or CRLF line ends"
            ),
            ParseErrorKind::DigitOutOfRange {
                found,
                size,
                numbers: true,
            } => write!(
                f,
                "digit {found} is out of range for {size} (allowed 1-{}, 0 for a blank)",
                size.side()
            ),
            ParseErrorKind::DigitOutOfRange { found, size, .. } => write!(
                f,
                "digit {found} is out of range for {size} (allowed 1-{}, '.' or '0' for a blank)",
                symbol(size.side() as u8)
            ),
            ParseErrorKind::WrongLength(msg) => write!(f, "wrong length: {msg}"),
            ParseErrorKind::WrongRowCount {
                start_line,
                expected,
                found,
            } => write!(
                f,
                "wrong row count: the puzzle starting at line {start_line} has {found} rows, expected {expected}"
            ),
            ParseErrorKind::UnsupportedSize(n) => write!(
                f,
                "unsupported size {n}x{n}: supported sizes are 4x4, 9x9, 16x16 and 25x25 (box size 2..=5)"
            ),
            ParseErrorKind::GridRowSize(n) => write!(
                f,
                "unsupported size {n}x{n}: the line holds {n} fields separated by spaces or tabs, read as a grid row; a grid row has 4, 9, 16 or 25 numbers"
            ),
            ParseErrorKind::Conflict(msg) => write!(f, "conflicting givens: {msg}"),
            ParseErrorKind::LineTooLong => {
                write!(f, "line longer than {MAX_LINE_BYTES} bytes")
            }
            ParseErrorKind::Utf16 => write!(
                f,
                "the file is UTF-16 text; save it as UTF-8 or plain ASCII"
            ),
            ParseErrorKind::Io(e) => write!(f, "read error: {e}"),
            ParseErrorKind::Empty => write!(f, "no puzzle found (file is empty or only comments)"),
        }
    }
}

/// A parse error with its position. Displays as `file:line:column: problem`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub file: Option<String>,
    pub line: usize,
    pub column: usize,
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let file = self.file.as_deref().unwrap_or("<input>");
        write!(f, "{file}:{}:{}: {}", self.line, self.column, self.kind)
    }
}

impl std::error::Error for ParseError {}

/// The character for a value: `.` for 0, `1`-`9`, then `A`...
pub fn symbol(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

/// The value of a line/compact character, or `None` if it is not in the alphabet.
fn value_of(ch: u8) -> Option<u8> {
    match ch {
        b'.' | b'0' => Some(0),
        b'1'..=b'9' => Some(ch - b'0'),
        b'A'..=b'P' => Some(ch - b'A' + 10),
        b'a'..=b'p' => Some(ch - b'a' + 10),
        _ => None,
    }
}

fn describe_byte(ch: u8) -> String {
    if ch.is_ascii_graphic() {
        format!("'{}'", ch as char)
    } else {
        format!("(byte 0x{ch:02X})")
    }
}

/// The board in line layout (no newline).
pub fn to_line(board: &Board) -> String {
    board.cells().iter().map(|&v| symbol(v)).collect()
}

/// A board debugs as its line (here, beside the layouts, so the board
/// module needs nothing from this one).
impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Board({})", to_line(self))
    }
}

/// The board in the given layout. Grid and compact end every row with `\n`;
/// grid rows have single spaces and no trailing space; line has no newline.
/// Blanks are `.` in line layout and `0` in the Baekjoon layouts.
pub fn render(board: &Board, format: Format) -> String {
    let n = board.size().side();
    match format {
        Format::Line => to_line(board),
        Format::Compact => board
            .cells()
            .chunks(n)
            .map(|row| {
                row.iter()
                    .map(|&v| if v == 0 { '0' } else { symbol(v) })
                    .chain(['\n'])
                    .collect::<String>()
            })
            .collect(),
        Format::Grid => board
            .cells()
            .chunks(n)
            .map(|row| {
                let nums: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                nums.join(" ") + "\n"
            })
            .collect(),
    }
}

/// Parses a whole text (all puzzles). See [`PuzzleReader`] for streaming.
pub fn parse_str(text: &str) -> Result<(Format, Vec<Puzzle>), ParseError> {
    let mut reader = PuzzleReader::new(text.as_bytes(), None);
    let puzzles = reader.by_ref().collect::<Result<Vec<_>, _>>()?;
    match reader.format() {
        Some(f) if !puzzles.is_empty() => Ok((f, puzzles)),
        _ => Err(ParseError {
            file: None,
            line: reader.line_no.max(1),
            column: 1,
            kind: ParseErrorKind::Empty,
        }),
    }
}

/// Parses exactly one puzzle from a text.
pub fn parse_one(text: &str) -> Result<(Format, Puzzle), ParseError> {
    let (format, mut puzzles) = parse_str(text)?;
    let first = puzzles.swap_remove(0);
    Ok((format, first))
}

/// The board of a test's puzzle text (which must parse).
#[cfg(test)]
pub(crate) fn board(text: &str) -> Board {
    parse_one(text).expect("a test puzzle parses").1.board
}

/// Reads one line into `buf` (cleared first) without its `\n` or `\r\n`,
/// reading at most [`MAX_LINE_BYTES`] + 1 bytes of it: memory stays bounded
/// whatever the input (a longer line is not a puzzle line, and is not kept).
/// `Ok(false)` at the end of the input. Every reader of puzzle files reads
/// its lines through this.
pub(crate) fn read_line(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
) -> Result<bool, ParseErrorKind> {
    buf.clear();
    let n = reader
        .take(MAX_LINE_BYTES + 1)
        .read_until(b'\n', buf)
        .map_err(|e| ParseErrorKind::Io(e.to_string()))?;
    if n == 0 {
        return Ok(false);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
    } else if n as u64 > MAX_LINE_BYTES {
        return Err(ParseErrorKind::LineTooLong);
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(true)
}

/// Line `line_no` of a file; the first without the UTF-8 byte-order mark
/// editors on Windows often start it with (columns then count what the user
/// sees), and a UTF-16 mark is refused.
pub(crate) fn skip_bom(line: &mut Vec<u8>, line_no: usize) -> Result<(), ParseErrorKind> {
    if line_no != 1 {
        return Ok(());
    }
    if line.starts_with(UTF8_BOM) {
        line.drain(..UTF8_BOM.len());
    } else if line.starts_with(&[0xFF, 0xFE]) || line.starts_with(&[0xFE, 0xFF]) {
        return Err(ParseErrorKind::Utf16);
    }
    Ok(())
}

/// Streams puzzles from a reader, one at a time, with bounded memory.
/// After the first error the iterator ends.
pub struct PuzzleReader<R> {
    reader: R,
    file: Option<String>,
    line_no: usize,
    layout: Option<(Format, BoxSize)>,
    /// For line format: the line where the size was fixed, for messages.
    layout_line: usize,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    pub fn new(reader: R, file: Option<String>) -> Self {
        PuzzleReader {
            reader,
            file,
            line_no: 0,
            layout: None,
            layout_line: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    /// Numbers the input's first line `line` (the reader was handed the rest
    /// of a file whose earlier lines were read elsewhere).
    pub fn starting_at(mut self, line: usize) -> Self {
        self.line_no = line.saturating_sub(1);
        self
    }

    /// The detected layout, once the first puzzle line has been read.
    pub fn format(&self) -> Option<Format> {
        self.layout.map(|(f, _)| f)
    }

    fn err(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            file: self.file.clone(),
            line,
            column,
            kind,
        }
    }

    /// Reads the next raw line into `buf` without its line ending.
    /// `Ok(false)` at end of input.
    fn read_line(&mut self) -> Result<bool, ParseError> {
        let read = read_line(&mut self.reader, &mut self.buf);
        if let Ok(false) = read {
            return Ok(false);
        }
        self.line_no += 1;
        match read.and(skip_bom(&mut self.buf, self.line_no)) {
            Ok(()) => Ok(true),
            Err(kind) => Err(self.err(self.line_no, 1, kind)),
        }
    }

    /// The error for an input that held no puzzle at all.
    pub fn empty_error(&self) -> ParseError {
        self.err(self.line_no.max(1), 1, ParseErrorKind::Empty)
    }

    /// Skips blank and comment lines; `Ok(None)` at end of input.
    fn next_content(&mut self) -> Result<Option<Content>, ParseError> {
        loop {
            if !self.read_line()? {
                return Ok(None);
            }
            let c = split_line(&self.buf);
            if c.start < c.end {
                return Ok(Some(c));
            }
        }
    }

    fn next_puzzle(&mut self) -> Result<Option<Puzzle>, ParseError> {
        let Some(first) = self.next_content()? else {
            return Ok(None);
        };
        let (format, size) = match self.layout {
            Some(l) => l,
            None => {
                let l = self.detect(&first)?;
                self.layout = Some(l);
                self.layout_line = self.line_no;
                l
            }
        };
        let start_line = self.line_no;
        let mut cells = Vec::with_capacity(size.cells());
        let mut positions = Vec::with_capacity(size.cells());
        let name = match format {
            Format::Line => {
                let layout_line = self.layout_line;
                self.parse_symbols(&first, size.cells(), size, &mut cells, &mut positions, |len| {
                    format!(
                        "{len} characters, expected {} for a {size} puzzle (the size set by line {})",
                        size.cells(),
                        layout_line
                    )
                })?;
                first.comment.clone()
            }
            Format::Compact | Format::Grid => {
                self.read_rows(first, format, size, start_line, &mut cells, &mut positions)?;
                None
            }
        };
        let board = Board::from_cells(size, cells).map_err(|e| match e {
            BoardError::Conflict(c) => self.conflict(c, format, size, &positions),
            other => self.err(
                start_line,
                1,
                ParseErrorKind::WrongLength(other.to_string()),
            ),
        })?;
        Ok(Some(Puzzle {
            board,
            name,
            line: start_line,
        }))
    }

    /// The rows of a grid or compact puzzle, `first` already read: `n`
    /// non-blank lines, each parsed into `cells` with its positions.
    fn read_rows(
        &mut self,
        first: Content,
        format: Format,
        size: BoxSize,
        start_line: usize,
        cells: &mut Vec<u8>,
        positions: &mut Vec<(usize, usize)>,
    ) -> Result<(), ParseError> {
        let n = size.side();
        let mut row = first;
        for r in 0..n {
            if r > 0 {
                match self.read_line()? {
                    true => row = split_line(&self.buf),
                    false => row = Content::default(),
                }
                if row.start == row.end {
                    return Err(self.err(
                        self.line_no,
                        1,
                        ParseErrorKind::WrongRowCount {
                            start_line,
                            expected: n,
                            found: r,
                        },
                    ));
                }
            }
            if format == Format::Grid {
                self.parse_numbers(&row, size, cells, positions)?;
            } else {
                self.parse_symbols(&row, n, size, cells, positions, |len| {
                    format!("row has {len} characters, expected {n}")
                })?;
            }
        }
        Ok(())
    }

    /// A digit twice in a unit, named by both positions.
    fn conflict(
        &self,
        c: Conflict,
        format: Format,
        size: BoxSize,
        positions: &[(usize, usize)],
    ) -> ParseError {
        let g = size.geometry();
        let at = |cell: Cell| {
            let (l, col) = positions[cell.index()];
            format!("{} (line {l}, column {col})", g.name(cell))
        };
        let (line, column) = positions[c.second.index()];
        self.err(
            line,
            column,
            ParseErrorKind::Conflict(format!(
                "digit {} appears twice in {}: {} and {}",
                match format {
                    Format::Grid => c.digit.to_string(),
                    _ => symbol(c.digit).to_string(),
                },
                c.unit,
                at(c.first),
                at(c.second)
            )),
        )
    }

    /// Picks the layout and size from the first puzzle line.
    fn detect(&self, c: &Content) -> Result<(Format, BoxSize), ParseError> {
        let body = &self.buf[c.start..c.end];
        let column = c.start + 1;
        // What no layout holds is said as such, before its length is read
        // as a size (100 NUL bytes are not a 10x10 board).
        let at = |i: usize| c.start + i + 1;
        if let Some(i) = body.iter().position(|&b| b == 0) {
            return Err(self.err(self.line_no, at(i), ParseErrorKind::Binary));
        }
        if let Some(i) = body.iter().position(|&b| b == b'\r') {
            return Err(self.err(self.line_no, at(i), ParseErrorKind::CrLineEnds));
        }
        if let Some(i) = body
            .iter()
            .position(|&b| value_of(b).is_none() && b != b' ' && b != b'\t')
        {
            return Err(self.err(
                self.line_no,
                at(i),
                ParseErrorKind::UnknownCharacter(describe_byte(body[i])),
            ));
        }
        if body.iter().any(|&b| b == b' ' || b == b'\t') {
            let tokens = body
                .split(|&b| b == b' ' || b == b'\t')
                .filter(|t| !t.is_empty())
                .count();
            return BoxSize::from_side(tokens)
                .map(|s| (Format::Grid, s))
                .ok_or_else(|| {
                    self.err(self.line_no, column, ParseErrorKind::GridRowSize(tokens))
                });
        }
        let len = body.len();
        if let Some(s) = BoxSize::from_cells(len) {
            return Ok((Format::Line, s));
        }
        if let Some(s) = BoxSize::from_side(len).filter(|s| s.side() <= 9) {
            return Ok((Format::Compact, s));
        }
        let root = (len as f64).sqrt().round() as usize;
        if root >= 2 && root * root == len {
            return Err(self.err(self.line_no, column, ParseErrorKind::UnsupportedSize(root)));
        }
        Err(self.err(
            self.line_no,
            column,
            ParseErrorKind::WrongLength(format!(
                "{len} characters; a puzzle line has 16 (4x4), 81 (9x9), 256 (16x16) or 625 (25x25) characters, a compact grid row 4 or 9"
            )),
        ))
    }

    /// Parses `expected` single-character cells (line or compact row).
    fn parse_symbols(
        &self,
        c: &Content,
        expected: usize,
        size: BoxSize,
        cells: &mut Vec<u8>,
        positions: &mut Vec<(usize, usize)>,
        wrong_len: impl FnOnce(usize) -> String,
    ) -> Result<(), ParseError> {
        let body = &self.buf[c.start..c.end];
        for (i, &ch) in body.iter().enumerate() {
            let column = c.start + i + 1;
            let v = value_of(ch).ok_or_else(|| {
                let kind = match self.layout {
                    Some((format, _)) if ch == b' ' || ch == b'\t' => {
                        ParseErrorKind::LayoutChanged {
                            format,
                            line: self.layout_line,
                        }
                    }
                    _ => ParseErrorKind::UnknownCharacter(describe_byte(ch)),
                };
                self.err(self.line_no, column, kind)
            })?;
            if v as usize > size.side() {
                return Err(self.err(
                    self.line_no,
                    column,
                    ParseErrorKind::DigitOutOfRange {
                        found: describe_byte(ch),
                        size,
                        numbers: false,
                    },
                ));
            }
            if i < expected {
                cells.push(v);
                positions.push((self.line_no, column));
            }
        }
        if body.len() != expected {
            return Err(self.err(
                self.line_no,
                c.start + 1,
                ParseErrorKind::WrongLength(wrong_len(body.len())),
            ));
        }
        Ok(())
    }

    /// Parses one grid row of whitespace-separated numbers.
    fn parse_numbers(
        &self,
        c: &Content,
        size: BoxSize,
        cells: &mut Vec<u8>,
        positions: &mut Vec<(usize, usize)>,
    ) -> Result<(), ParseError> {
        let n = size.side();
        let body = &self.buf[c.start..c.end];
        let mut count = 0;
        let mut i = 0;
        while i < body.len() {
            if body[i] == b' ' || body[i] == b'\t' {
                i += 1;
                continue;
            }
            let tok_start = i;
            while i < body.len() && body[i] != b' ' && body[i] != b'\t' {
                i += 1;
            }
            let token = &body[tok_start..i];
            let column = c.start + tok_start + 1;
            if let Some(pos) = token.iter().position(|b| !b.is_ascii_digit()) {
                return Err(self.err(
                    self.line_no,
                    column + pos,
                    ParseErrorKind::UnknownCharacter(describe_byte(token[pos])),
                ));
            }
            let value = token
                .iter()
                .try_fold(0usize, |acc, &d| {
                    acc.checked_mul(10)?.checked_add((d - b'0') as usize)
                })
                .filter(|&v| v <= n)
                .ok_or_else(|| {
                    self.err(
                        self.line_no,
                        column,
                        ParseErrorKind::DigitOutOfRange {
                            found: String::from_utf8_lossy(token).into_owned(),
                            size,
                            numbers: true,
                        },
                    )
                })?;
            count += 1;
            if count <= n {
                cells.push(value as u8);
                positions.push((self.line_no, column));
            }
        }
        if count != n {
            return Err(self.err(
                self.line_no,
                c.start + 1,
                ParseErrorKind::WrongLength(format!("row has {count} numbers, expected {n}")),
            ));
        }
        Ok(())
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = Result<Puzzle, ParseError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_puzzle() {
            Ok(Some(p)) => Some(Ok(p)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// Content bounds of one line (byte offsets) and its trailing comment.
#[derive(Clone, Debug, Default)]
struct Content {
    start: usize,
    end: usize,
    comment: Option<String>,
}

/// Splits a raw line into content bounds (byte offsets) and a trailing comment.
/// Content is everything before `#`, trimmed of spaces and tabs.
fn split_line(line: &[u8]) -> Content {
    let hash = line.iter().position(|&b| b == b'#');
    let body_end = hash.unwrap_or(line.len());
    let mut start = 0;
    while start < body_end && (line[start] == b' ' || line[start] == b'\t') {
        start += 1;
    }
    let mut end = body_end;
    while end > start && (line[end - 1] == b' ' || line[end - 1] == b'\t') {
        end -= 1;
    }
    let comment = hash.and_then(|h| {
        let text = String::from_utf8_lossy(&line[h + 1..]).trim().to_string();
        (!text.is_empty()).then_some(text)
    });
    Content {
        start,
        end,
        comment,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_layout_round_trips() {
        let line =
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1";
        let (f, p) = parse_one(line).unwrap();
        assert_eq!((f, to_line(&p.board)), (Format::Line, line.to_string()));
        let grid = render(&p.board, Format::Grid);
        assert!(grid.starts_with("1 0 0 0 0 0 0 0 2\n"));
        let (f, q) = parse_one(&grid).unwrap();
        assert_eq!((f, &q.board), (Format::Grid, &p.board));
        let compact = render(&p.board, Format::Compact);
        assert!(compact.starts_with("100000002\n"));
        let (f, r) = parse_one(&compact).unwrap();
        assert_eq!((f, &r.board), (Format::Compact, &p.board));
    }

    #[test]
    fn names_come_from_trailing_comments() {
        let text = "# header\r\n\r\n   ................   #  tiny one  \r\n................\r\n";
        let (f, ps) = parse_str(text).unwrap();
        assert_eq!(f, Format::Line);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].name.as_deref(), Some("tiny one"));
        assert_eq!((ps[0].line, ps[1].line), (3, 4));
        assert_eq!(ps[1].name, None);
    }

    #[test]
    fn several_grid_puzzles_separated_by_blank_lines() {
        let text =
            "1 0 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n\n# next\n0 2 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 0\n";
        let (f, ps) = parse_str(text).unwrap();
        assert_eq!((f, ps.len(), ps[1].line), (Format::Grid, 2, 7));
        assert_eq!(ps[1].board.cells()[1], 2);
    }

    #[test]
    fn alphabet_covers_25x25() {
        assert_eq!(symbol(10), 'A');
        assert_eq!(symbol(25), 'P');
        assert_eq!(
            (1..=25)
                .map(|v| value_of(symbol(v) as u8))
                .collect::<Vec<_>>(),
            (1..=25).map(Some).collect::<Vec<_>>()
        );
        assert_eq!(value_of(b'p'), Some(25));
        assert_eq!(value_of(b'Q'), None);
    }
}

//! The CSV form of a dataset (see [`super`]): a header naming the puzzle
//! column (and optionally the solution and name columns), then one puzzle
//! a line, each field positioned in the file for error messages.

use std::fmt;
use std::io::BufRead;

use crate::base::board::{Board, BoardError, BoxSize};
use crate::base::format::{self, Puzzle};

use super::{Directives, Entry, LoadError, invalid};

/// Accepted CSV header names.
pub(super) const PUZZLE_COLUMNS: &[&str] = &["quizzes", "quiz", "puzzle", "puzzles"];
const SOLUTION_COLUMNS: &[&str] = &["solutions", "solution"];
const NAME_COLUMN: &str = "name";

#[derive(Clone, Copy, Debug)]
struct Columns {
    puzzle: usize,
    solution: Option<usize>,
    name: Option<usize>,
    count: usize,
}

/// One CSV field: its text, and the 1-based columns of the field and of
/// its text (one more when quoted).
struct Field {
    text: String,
    column: usize,
    text_column: usize,
}

/// The CSV form of a dataset (see the module docs). Line-oriented: a record
/// is one line; fields may be double-quoted (with `""` for a quote).
pub(super) struct CsvReader<R> {
    reader: R,
    file: String,
    /// The line last read (1-based).
    pub(super) line_no: usize,
    buf: Vec<u8>,
    columns: Option<Columns>,
    directives: Directives,
    /// The size of the first puzzle and its line: all rows must match.
    size: Option<(BoxSize, usize)>,
}

impl<R: BufRead> CsvReader<R> {
    /// The reader of the CSV lines after line `line_no`, with the
    /// directives seen before them.
    pub(super) fn new(reader: R, file: String, line_no: usize, directives: Directives) -> Self {
        CsvReader {
            reader,
            file,
            line_no,
            buf: Vec::new(),
            columns: None,
            directives,
            size: None,
        }
    }

    fn err(&self, column: usize, message: impl fmt::Display) -> LoadError {
        invalid(&self.file, self.line_no, column, message)
    }

    /// The next line that is not blank or a comment, split into fields.
    fn next_record(&mut self) -> Result<Option<Vec<Field>>, LoadError> {
        loop {
            let read = format::read_line(&mut self.reader, &mut self.buf);
            if let Ok(false) = read {
                return Ok(None);
            }
            self.line_no += 1;
            if let Err(kind) = read {
                return Err(self.err(1, kind));
            }
            let trimmed = self.buf.trim_ascii();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed[0] == b'#' {
                self.directives.see(self.line_no, &self.buf, false);
                if let Some((line, column, message)) = self.directives.error.take() {
                    return Err(invalid(&self.file, line, column, message));
                }
                continue;
            }
            return split_csv(&self.buf)
                .map(Some)
                .map_err(|(column, message)| self.err(column, message));
        }
    }

    fn header(&mut self, fields: &[Field]) -> Result<Columns, LoadError> {
        let find = |names: &[&str]| {
            fields
                .iter()
                .position(|f| names.contains(&f.text.to_ascii_lowercase().as_str()))
        };
        let puzzle = find(PUZZLE_COLUMNS).ok_or_else(|| {
            self.err(
                1,
                format!(
                    "CSV header must name a puzzle column ({}); found {}",
                    PUZZLE_COLUMNS.join(", "),
                    fields
                        .iter()
                        .map(|f| format!("`{}`", f.text))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )
        })?;
        Ok(Columns {
            puzzle,
            solution: find(SOLUTION_COLUMNS),
            name: find(&[NAME_COLUMN]),
            count: fields.len(),
        })
    }

    /// Parses one field as a line-format puzzle (same alphabet as
    /// [`crate::base::format`]), with errors positioned in the file.
    fn board(&self, field: &Field, what: &str) -> Result<Board, LoadError> {
        let text = field.text.as_bytes();
        let size = BoxSize::from_cells(text.len()).ok_or_else(|| {
            self.err(
                field.text_column,
                format!(
                    "{what} field has {} characters; a line-format puzzle has 16, 81, 256 or 625",
                    text.len()
                ),
            )
        })?;
        let mut cells = Vec::with_capacity(text.len());
        for (i, &ch) in text.iter().enumerate() {
            let v = match ch {
                b'.' | b'0' => 0,
                b'1'..=b'9' => ch - b'0',
                b'A'..=b'P' => ch - b'A' + 10,
                b'a'..=b'p' => ch - b'a' + 10,
                _ => 255,
            };
            if v as usize > size.side() {
                let shown = char::from(ch);
                return Err(self.err(
                    field.text_column + i,
                    if v == 255 {
                        format!(
                            "unknown character `{}` in the {what}",
                            shown.escape_default()
                        )
                    } else {
                        format!("digit {shown} is out of range for {size} in the {what}")
                    },
                ));
            }
            cells.push(v);
        }
        Board::from_cells(size, cells).map_err(|e| match e {
            BoardError::Conflict(c) => {
                let g = size.geometry();
                let col = |cell: crate::base::board::Cell| field.text_column + cell.index();
                self.err(
                    col(c.second),
                    format!(
                        "conflicting givens in the {what}: digit {} appears twice in {}: {} (column {}) and {} (column {})",
                        format::symbol(c.digit),
                        c.unit,
                        g.name(c.first),
                        col(c.first),
                        g.name(c.second),
                        col(c.second)
                    ),
                )
            }
            other => self.err(field.text_column, format!("{what}: {other}")),
        })
    }

    pub(super) fn next_entry(&mut self) -> Result<Option<Entry>, LoadError> {
        let columns = match self.columns {
            Some(c) => c,
            None => {
                let Some(fields) = self.next_record()? else {
                    return Ok(None);
                };
                let c = self.header(&fields)?;
                self.columns = Some(c);
                c
            }
        };
        let Some(fields) = self.next_record()? else {
            return Ok(None);
        };
        if fields.len() != columns.count {
            return Err(self.err(
                1,
                format!(
                    "row has {} fields, the header has {}",
                    fields.len(),
                    columns.count
                ),
            ));
        }
        let board = self.board(&fields[columns.puzzle], "puzzle")?;
        match self.size {
            Some((size, line)) if size != board.size() => {
                return Err(self.err(
                    fields[columns.puzzle].column,
                    format!(
                        "puzzle is {}, but the puzzle on line {line} is {size}; a file holds one size",
                        board.size()
                    ),
                ));
            }
            Some(_) => {}
            None => self.size = Some((board.size(), self.line_no)),
        }
        let solution = match columns.solution {
            Some(i) if !fields[i].text.is_empty() => {
                let field = &fields[i];
                let sol = self.board(field, "solution")?;
                board.check_solution(&sol).map_err(|e| {
                    self.err(
                        field.column,
                        format!("the given solution does not solve the puzzle: {e}"),
                    )
                })?;
                Some(sol)
            }
            _ => None,
        };
        let name = columns
            .name
            .map(|i| fields[i].text.clone())
            .filter(|s| !s.is_empty());
        Ok(Some(Entry {
            puzzle: Puzzle {
                board,
                name,
                line: self.line_no,
            },
            expected: self.directives.expected,
            solution,
        }))
    }
}

/// Splits one CSV line into trimmed fields with `csv_core` (the parser of
/// the `csv` crate: RFC 4180 quoting, `""` for a quote inside quotes), which
/// reports how much input each field used, so every field keeps its 1-based
/// column in the file for error messages.
fn split_csv(line: &[u8]) -> Result<Vec<Field>, (usize, String)> {
    use csv_core::ReadFieldResult;
    let mut reader = csv_core::Reader::new();
    let mut out = vec![0u8; line.len() + 1];
    let mut fields = Vec::new();
    let mut pos = 0;
    loop {
        let start = pos;
        let mut len = 0;
        let record_end = loop {
            let (result, nin, nout) = reader.read_field(&line[pos..], &mut out[len..]);
            pos += nin;
            len += nout;
            match result {
                ReadFieldResult::Field { record_end } => break record_end,
                ReadFieldResult::End => break true,
                // The whole line is given at once: an empty rest means its end.
                ReadFieldResult::InputEmpty if pos >= line.len() => {
                    let (result, _, nout) = reader.read_field(&[], &mut out[len..]);
                    len += nout;
                    break !matches!(result, ReadFieldResult::Field { record_end: false });
                }
                ReadFieldResult::InputEmpty | ReadFieldResult::OutputFull => {}
            }
        };
        let raw = &line[start..pos];
        let lead = raw.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        let column = start + lead + 1;
        let quoted = raw.get(lead) == Some(&b'"');
        if quoted {
            let body = raw.strip_suffix(b",").unwrap_or(raw).trim_ascii_end();
            if body.len() < lead + 2 || !body.ends_with(b"\"") {
                return Err((column, "unterminated quoted field".to_string()));
            }
        }
        let text = String::from_utf8_lossy(&out[..len]);
        fields.push(Field {
            text: text.trim_matches(|c| c == ' ' || c == '\t').to_string(),
            column,
            text_column: column + usize::from(quoted),
        });
        if record_end {
            return Ok(fields);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_split_quotes() {
        let f = split_csv(br#" a ,"b,""c""",d,"#).unwrap();
        let t: Vec<&str> = f.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(t, vec!["a", "b,\"c\"", "d", ""]);
        assert_eq!((f[1].column, f[1].text_column), (5, 6));
        assert_eq!(f[2].column, 15);
        assert_eq!(
            split_csv(br#"a,"b"#).err(),
            Some((3, "unterminated quoted field".into()))
        );
    }
}

//! Rows as a schema: the identity of a puzzle that every per-puzzle row
//! carries ([`PuzzleId`]), and the one way result files are read back
//! ([`Table`]): by column name, so that a file written before a column
//! existed, or after one was added, still reads.
//!
//! A reader names the columns it cannot do without ([`Table::open`]); a
//! file that lacks one is refused at its header, naming the file and the
//! column. Every other column is optional: absent, its value is absent
//! ([`Fields::opt`]); a column the reader does not know is ignored. Errors
//! in a row name the file, the line and the column.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::Context as _;

/// Which puzzle a row is about: the columns every per-puzzle row of
/// `results.csv` and `programs.csv` begins with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleId {
    /// Dataset name (shipped: path below `datasets/` without extension; else file stem).
    pub dataset: String,
    /// 1-based position of the puzzle in its file (kept when sampling).
    pub index: u64,
    /// Line of the file where the puzzle starts.
    pub line: u64,
    /// The puzzle's name (trailing `# comment`), or empty.
    pub name: String,
    /// Board side: 4, 9, 16 or 25.
    pub size: u32,
    /// Number of givens.
    pub clues: u32,
}

impl PuzzleId {
    /// The columns, in file order.
    pub const COLUMNS: [&'static str; 6] = ["dataset", "index", "line", "name", "size", "clues"];

    /// Reads the identity of a row (every column required): a size no
    /// board has, or more clues than cells, is refused.
    pub fn read(f: &Fields) -> Result<PuzzleId, String> {
        let id = PuzzleId {
            dataset: f.text("dataset")?.to_string(),
            index: f.num("index")?,
            line: f.num("line")?,
            name: f.text("name")?.to_string(),
            size: f.num("size")?,
            clues: f.num("clues")?,
        };
        if crate::base::board::BoxSize::from_side(id.size as usize).is_none() {
            return Err(f.wrong(
                "size",
                &format!(
                    "impossible size {} (a board's side is 4, 9, 16 or 25)",
                    id.size
                ),
            ));
        }
        if id.clues > id.size * id.size {
            return Err(f.wrong(
                "clues",
                &format!(
                    "{} clues, more than the {} cells of a {}×{} board",
                    id.clues,
                    id.size * id.size,
                    id.size,
                    id.size
                ),
            ));
        }
        Ok(id)
    }
}

/// A CSV file with a header, read record by record, fields found by column
/// name.
pub struct Table {
    path: PathBuf,
    reader: csv::Reader<File>,
    header: csv::StringRecord,
}

impl Table {
    /// Opens `path` and reads its header; `required` are the columns the
    /// reader cannot do without (the first one missing is named in the
    /// error, at line 1).
    pub fn open(path: &Path, required: &[&str]) -> anyhow::Result<Table> {
        let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let mut reader = csv::Reader::from_reader(file);
        let header = reader.headers().map_err(|e| csv_error(path, 1, e))?.clone();
        if let Some(name) = required.iter().find(|n| !header.iter().any(|h| h == **n)) {
            let file = path
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            anyhow::bail!(
                "{}:1: no column {name:?}, which every {file} written by sudoku-lab has",
                path.display()
            );
        }
        Ok(Table {
            path: path.to_path_buf(),
            reader,
            header,
        })
    }

    /// The file's header, as written.
    pub fn header(&self) -> &csv::StringRecord {
        &self.header
    }

    /// The file read.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next record, or `None` at the end; an error names file and line.
    pub fn next_record(&mut self) -> anyhow::Result<Option<csv::StringRecord>> {
        let mut r = csv::StringRecord::new();
        match self.reader.read_record(&mut r) {
            Ok(true) => Ok(Some(r)),
            Ok(false) => Ok(None),
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                Err(csv_error(&self.path, line, e))
            }
        }
    }

    /// The fields of `record`, found by this file's column names.
    pub fn fields<'a>(&'a self, record: &'a csv::StringRecord) -> Fields<'a> {
        Fields {
            header: &self.header,
            record,
        }
    }

    /// `what` as an error at `record`'s line of this file.
    pub fn error_at(&self, record: &csv::StringRecord, what: &str) -> anyhow::Error {
        let line = record.position().map_or(0, |p| p.line());
        anyhow::anyhow!("{}:{line}: {what}", self.path.display())
    }

    /// Decodes every record with `decode`, handing each to `each`; an
    /// error names file, line and (from `decode`) the column. Returns how
    /// many records there were.
    pub fn for_each<T>(
        &mut self,
        mut decode: impl FnMut(&Fields) -> Result<T, String>,
        mut each: impl FnMut(T),
    ) -> anyhow::Result<u64> {
        let mut n = 0;
        while let Some(record) = self.next_record()? {
            let row = decode(&self.fields(&record)).map_err(|e| self.error_at(&record, &e))?;
            each(row);
            n += 1;
        }
        Ok(n)
    }
}

/// A CSV error at `line` of `path`; a failed read keeps its
/// [`std::io::Error`] as the cause, so it exits as an I/O error (74), not
/// as bad input.
fn csv_error(path: &Path, line: u64, e: csv::Error) -> anyhow::Error {
    let at = format!("{}:{line}", path.display());
    if !e.is_io_error() {
        return anyhow::anyhow!("{at}: {e}");
    }
    match e.into_kind() {
        csv::ErrorKind::Io(io) => anyhow::Error::from(io).context(at),
        _ => anyhow::anyhow!("{at}: a read failed"),
    }
}

/// One record's fields, by column name.
#[derive(Clone, Copy)]
pub struct Fields<'a> {
    header: &'a csv::StringRecord,
    record: &'a csv::StringRecord,
}

impl<'a> Fields<'a> {
    /// Fields of a record under a header (for records not read by a [`Table`]).
    pub fn new(header: &'a csv::StringRecord, record: &'a csv::StringRecord) -> Fields<'a> {
        Fields { header, record }
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// The field of column `name`; `None` when the file has no such column.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.position(name)
            .map(|i| self.record.get(i).unwrap_or_default())
    }

    /// The field of a column the file must have.
    pub fn text(&self, name: &str) -> Result<&'a str, String> {
        self.get(name).ok_or_else(|| format!("no column {name:?}"))
    }

    /// The value of a column the file must have, never empty.
    pub fn num<T: FromStr>(&self, name: &str) -> Result<T, String> {
        let v = self.text(name)?;
        v.parse().map_err(|_| self.bad(name, v))
    }

    /// The value of an optional column: `None` when the file has no such
    /// column or the field is empty.
    pub fn opt<T: FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        match self.get(name) {
            None | Some("") => Ok(None),
            Some(v) => v.parse().map(Some).map_err(|_| self.bad(name, v)),
        }
    }

    /// A field that does not read as the number it should be, named by
    /// column position and name, and by what is wrong with it: negative,
    /// too large for its column, or not a number at all.
    pub fn bad(&self, name: &str, v: &str) -> String {
        let t = v.trim();
        let why = if t.starts_with('-') && t[1..].parse::<f64>().is_ok() {
            "is negative"
        } else if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
            "is too large"
        } else {
            "is not a number"
        };
        self.wrong(name, &format!("{v:?} {why}"))
    }

    /// `what` about column `name`, named by its position and name.
    pub fn wrong(&self, name: &str, what: &str) -> String {
        let at = self.position(name).map_or(0, |i| i + 1);
        format!("column {at} ({name}): {what}")
    }
}

/// The rows seen so far of a file of one row per (dataset, index,
/// strategy): a second row of one key is refused. Names are kept once
/// each, keys as numbers, so a file of many rows costs little.
#[derive(Default)]
pub struct Unique {
    names: std::collections::HashMap<String, u32>,
    keys: std::collections::HashSet<(u32, u64, u32)>,
}

impl Unique {
    /// Refuses a row whose (dataset, index, `column`) an earlier row had.
    pub fn check(&mut self, f: &Fields, column: &str) -> Result<(), String> {
        let mut id = |name: &str| {
            let next = self.names.len() as u32;
            *self.names.entry(name.to_string()).or_insert(next)
        };
        let (dataset, strategy) = (f.text("dataset")?, f.text(column)?);
        let key = (id(dataset), f.num("index")?, id(strategy));
        if !self.keys.insert(key) {
            return Err(f.wrong(column, &format!(
                "a second row of puzzle {dataset} #{} × {strategy} (a file holds one row per dataset, index and {column})",
                key.1
            )));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_by_name_and_absent_columns_read_as_none() {
        let header = csv::StringRecord::from(vec!["b", "a", "extra"]);
        let record = csv::StringRecord::from(vec!["7", "", "x"]);
        let f = Fields::new(&header, &record);
        assert_eq!(f.num::<u64>("b"), Ok(7));
        assert_eq!(f.opt::<u64>("a"), Ok(None));
        assert_eq!(f.opt::<u64>("missing"), Ok(None));
        assert_eq!(f.text("missing"), Err("no column \"missing\"".to_string()));
        assert_eq!(
            f.num::<u64>("extra"),
            Err("column 3 (extra): \"x\" is not a number".to_string())
        );
    }
}

//! The one module that writes CSV: every file of the lab (`results.csv`,
//! `samples.csv`, `programs.csv`, `summary.csv`, `meta.csv`, `rate`'s and
//! `speed`'s output, `diff`'s tables) is written through it, so quoting,
//! line ends and how a header is made are decided once.
//!
//! Two ways to write: [`with_header`] writes a header given by name, then
//! rows serialized with serde (a struct's fields, in order: the header is
//! written even when there are no rows); [`serialized`] takes the header
//! from the first row's field names (serde structs).

use std::io::Write;

use serde::Serialize;

/// A writer of rows to `w`, without an automatic header (the caller writes
/// it, by name: [`Writer::header`]).
pub struct Writer<W: Write> {
    inner: csv::Writer<W>,
}

impl<W: Write> Writer<W> {
    /// A writer to `w`.
    pub fn new(w: W) -> Writer<W> {
        Writer {
            inner: csv::WriterBuilder::new().has_headers(false).from_writer(w),
        }
    }

    /// Writes a header (or any record of plain fields).
    pub fn header<I, T>(&mut self, names: I) -> anyhow::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        Ok(self.inner.write_record(names)?)
    }

    /// Writes one row: a serde struct's fields in order, or a sequence.
    pub fn row<T: Serialize>(&mut self, row: &T) -> anyhow::Result<()> {
        Ok(self.inner.serialize(row)?)
    }

    /// The underlying writer, flushed.
    pub fn into_inner(self) -> anyhow::Result<W> {
        self.inner
            .into_inner()
            .map_err(|e| anyhow::Error::from(e.into_error()))
    }
}

/// `header`, then every row, as bytes.
pub fn with_header<H, T, R>(header: H, rows: R) -> anyhow::Result<Vec<u8>>
where
    H: IntoIterator,
    H::Item: AsRef<[u8]>,
    T: Serialize,
    R: IntoIterator<Item = T>,
{
    let mut w = Writer::new(Vec::new());
    w.header(header)?;
    for r in rows {
        w.row(&r)?;
    }
    w.into_inner()
}

/// Serde structs as CSV text, the header from the first row's field names
/// (no rows: empty text).
pub fn serialized<T: Serialize>(rows: &[T]) -> anyhow::Result<String> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(String::from_utf8(bytes)?)
}

/// A CSV writer to `w` that takes its header from the first serde struct
/// it writes (a stream of rows: `rate --csv`).
pub fn streaming<W: Write>(w: W) -> csv::Writer<W> {
    csv::Writer::from_writer(w)
}

/// One row's fields as written (tests and checks of a schema).
pub fn fields<T: Serialize>(row: &T) -> anyhow::Result<Vec<String>> {
    let mut w = Writer::new(Vec::new());
    w.row(row)?;
    let bytes = w.into_inner()?;
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(&bytes[..]);
    let rec = r.records().next().transpose()?.unwrap_or_default();
    Ok(rec.iter().map(str::to_string).collect())
}

//! The lab's one table writer: every table a command, report or page
//! prints — Markdown or aligned plain text — is a [`Table`]. Cells are text
//! already (numbers made by the formats of [`crate::export::present`]); a cell that
//! holds a `|` is the caller's to escape, as only it knows whether the cell
//! is a code span ([`crate::export::present::cell_code`]) or plain text.

/// How a column's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

/// Titled columns and rows of cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    headers: Vec<String>,
    align: Vec<Align>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// Columns titled `headers`: the first `left` left-aligned (names), the
    /// rest right-aligned (figures).
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = S>, left: usize) -> Table {
        let headers: Vec<String> = headers.into_iter().map(Into::into).collect();
        let align = (0..headers.len())
            .map(|i| if i < left { Align::Left } else { Align::Right })
            .collect();
        Table {
            headers,
            align,
            rows: Vec::new(),
        }
    }

    /// Column `col` aligned as `a` (a note after the figures, say).
    pub fn align(mut self, col: usize, a: Align) -> Table {
        if let Some(x) = self.align.get_mut(col) {
            *x = a;
        }
        self
    }

    /// Adds a row (as many cells as headers).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// Adds every row of `rows`.
    pub fn rows(mut self, rows: impl IntoIterator<Item = Vec<String>>) -> Table {
        self.rows.extend(rows);
        self
    }

    fn widths(&self) -> Vec<usize> {
        let mut widths: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (w, cell) in widths.iter_mut().zip(row) {
                *w = (*w).max(cell.chars().count());
            }
        }
        widths
    }

    fn pad(&self, i: usize, cell: &str, width: usize) -> String {
        let pad = " ".repeat(width.saturating_sub(cell.chars().count()));
        match self.align.get(i) {
            Some(Align::Right) => format!("{pad}{cell}"),
            _ => format!("{cell}{pad}"),
        }
    }

    /// Markdown whose columns also line up in the raw text (what a
    /// command's `--markdown` prints to a terminal).
    pub fn markdown(&self) -> String {
        self.markdown_with(Some(&self.widths()))
    }

    /// Markdown without padding: for pages read rendered (the report),
    /// whose long rows padding would only widen.
    pub fn markdown_compact(&self) -> String {
        self.markdown_with(None)
    }

    fn markdown_with(&self, widths: Option<&[usize]>) -> String {
        let line = |cells: &[String]| -> String {
            let parts: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| match widths {
                    Some(w) => self.pad(i, c, w[i]),
                    None => c.clone(),
                })
                .collect();
            format!("| {} |\n", parts.join(" | "))
        };
        let mut out = line(&self.headers);
        let rule: Vec<String> = (0..self.headers.len())
            .map(|i| match (self.align[i], widths) {
                (Align::Left, Some(w)) => format!(":{}", "-".repeat(w[i] + 1)),
                (Align::Right, Some(w)) => format!("{}:", "-".repeat(w[i] + 1)),
                (Align::Left, None) => "---".to_string(),
                (Align::Right, None) => "---:".to_string(),
            })
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }

    /// Aligned plain text for the terminal: columns two spaces apart,
    /// each line after `indent`, no trailing spaces.
    pub fn text(&self, indent: &str) -> String {
        let widths = self.widths();
        let mut out = String::new();
        for cells in std::iter::once(&self.headers).chain(&self.rows) {
            let parts: Vec<String> = cells
                .iter()
                .enumerate()
                .map(|(i, c)| self.pad(i, c, widths[i]))
                .collect();
            out.push_str(indent);
            out.push_str(parts.join("  ").trim_end());
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(["a", "n"], 1);
        t.row(vec!["xyz".into(), "1".into()]);
        t
    }

    #[test]
    fn markdown_aligns() {
        assert_eq!(
            sample().markdown(),
            "| a   | n |\n|:----|--:|\n| xyz | 1 |\n"
        );
    }

    #[test]
    fn compact_markdown_is_unpadded() {
        assert_eq!(
            sample().markdown_compact(),
            "| a | n |\n|---|---:|\n| xyz | 1 |\n"
        );
    }

    #[test]
    fn text_aligns_and_trims() {
        let t = Table::new(["name", "n", "note"], 1)
            .align(2, Align::Left)
            .rows([
                vec!["a".into(), "10".into(), "".into()],
                vec!["bb".into(), "2".into(), "x".into()],
            ]);
        assert_eq!(
            t.text("  "),
            "  name   n  note\n  a     10\n  bb     2  x\n"
        );
    }
}

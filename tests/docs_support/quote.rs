//! Code quoted on a page, checked against its file:
//!
//! ````text
//! <!-- docs: quote src/base/strategy/mrv.rs -->
//! ```rust
//! ...lines copied verbatim (a common leading indentation may be removed)...
//! // …
//! ...a later run of verbatim lines...
//! ```
//! ````
//!
//! A line that is exactly `// …` (after indentation) marks an elision. Each
//! run between elisions must be consecutive lines of the file, compared
//! after removing the run's common indentation on both sides (trailing
//! whitespace ignored), the runs in file order; a quote holds [`LINES`]
//! quoted lines (elisions not counted): enough to show what makes a rung,
//! few enough to read.

use std::ops::RangeInclusive;
use std::path::Path;

/// How many lines a quote holds.
pub const LINES: RangeInclusive<usize> = 10..=25;

/// The line that marks an elision.
pub const ELISION: &str = "// …";

/// What is wrong with a quote of `file` (relative to `root`) whose fenced
/// content is `content`: `(line within the content, why)`.
pub fn check(root: &Path, file: &str, content: &str) -> Vec<(usize, String)> {
    let Ok(source) = std::fs::read_to_string(root.join(file)) else {
        return vec![(0, format!("the quoted file `{file}` does not exist"))];
    };
    let source: Vec<&str> = source.lines().collect();
    // The runs: (first line within the content, lines).
    let mut runs: Vec<(usize, Vec<&str>)> = vec![(0, Vec::new())];
    for (i, l) in content.lines().enumerate() {
        if l.trim() == ELISION {
            runs.push((i + 1, Vec::new()));
        } else if let Some((_, run)) = runs.last_mut() {
            run.push(l);
        }
    }
    runs.retain(|(_, run)| !run.is_empty());
    let mut out = Vec::new();
    let quoted: usize = runs.iter().map(|(_, r)| r.len()).sum();
    if !LINES.contains(&quoted) {
        out.push((
            0,
            format!(
                "the quote of `{file}` holds {quoted} lines: show {}–{} (elisions not counted)",
                LINES.start(),
                LINES.end()
            ),
        ));
    }
    // Where the previous run ended in the file.
    let mut from = 0;
    for (at, run) in &runs {
        let want = dedent(run);
        let found = |start: usize| {
            (start..=source.len().saturating_sub(run.len()))
                .find(|&i| dedent(&source[i..i + run.len()]) == want)
        };
        match found(from) {
            Some(i) => from = i + run.len(),
            None => out.push((
                *at,
                match found(0) {
                    Some(i) => format!(
                        "this run of the quote is at line {} of `{file}`, before the run above it: quote runs in file order",
                        i + 1
                    ),
                    None => format!(
                        "this run of the quote ({} lines from {:?}) is not consecutive lines of `{file}` (as they read now)",
                        run.len(),
                        run[0].trim()
                    ),
                },
            )),
        }
    }
    out
}

/// Lines without their common indentation and trailing whitespace.
fn dedent(lines: &[&str]) -> Vec<String> {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.get(indent..).unwrap_or("").trim_end().to_string())
        .collect()
}

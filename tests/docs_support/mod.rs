//! The tour's drift checker: everything `tests/docs.rs` asserts about
//! `docs/`, as functions of the pages' text (so that the checker itself can
//! be tested on edited copies of the pages).
//!
//! Two halves:
//! * [`check::check_static`] reads the pages only: every number in prose is
//!   bound to a block's output (or declared a constant), code names and
//!   links point at things that exist, times add up and agree across pages,
//!   worked examples are right, pages that print times say on what machine.
//! * [`runner`] re-runs the blocks: the output, exit code and figures must be
//!   what the page shows, times within a factor; the update mode rewrites
//!   blocks *and* the prose numbers bound to them.
#![allow(dead_code)]

pub mod bind;
pub mod check;
pub mod facts;
pub mod markdown;
pub mod names;
pub mod numbers;
pub mod pictures;
pub mod quote;
pub mod runner;
pub mod times;

use std::path::{Path, PathBuf};

pub use markdown::Doc;

/// The project root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// What went wrong, where. `kind` lets tests of the checker say which rule fired.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub file: String,
    /// 1-based.
    pub line: usize,
    pub kind: Kind,
    pub message: String,
    /// For an exact binding that no longer matches: the source range of the
    /// prose number and what the block prints now (the update run applies it).
    pub fix: Option<(std::ops::Range<usize>, String)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A number in prose with no binding and not declared a constant.
    Unbound,
    /// An exact binding whose number differs from the block's.
    Mismatch,
    /// An approximate or comparative claim that the numbers do not support.
    Claim,
    /// A binding whose key no block of the page has, or a malformed binding.
    Binding,
    /// A binding to a row of a puzzle or set that its paragraph does not name.
    Mention,
    /// A code name or command in prose that the lab does not have.
    CodeName,
    Link,
    /// Times that do not add up, or disagree between pages.
    Time,
    /// A page that prints times without saying on what machine.
    Machine,
    /// A worked example that is wrong by the rules.
    Picture,
    /// A code quote that is not what its file says.
    Quote,
    /// A figure that is not produced (or not reproduced) by a block.
    Figure,
    /// A block whose command prints something else now.
    Output,
    ExitCode,
    /// A live time far from the documented one.
    StaleTime,
    /// Output pasted into a page instead of printed by a `console` block
    /// (or a dated record whose figures do not agree with each other).
    Pasted,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: [{:?}] {}",
            self.file, self.line, self.kind, self.message
        )
    }
}

/// Every Markdown page under `docs/`, in path order.
pub fn load_docs() -> Vec<Doc> {
    let mut files = Vec::new();
    markdown_files(&root().join("docs"), &mut files);
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
            let rel = p
                .strip_prefix(root())
                .unwrap_or(p)
                .to_string_lossy()
                .replace('\\', "/");
            Doc::parse(&rel, &text)
        })
        .collect()
}

pub fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// Lines of problems, for an assertion message.
pub fn report(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

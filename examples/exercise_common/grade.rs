//! The grade of a rung written for an exercise (`docs/exercises.md`):
//! **correct**, by every public check the lab holds its own rungs to
//! (`sudoku_lab::check::rung`), and **small**: at most a given number of
//! search nodes in all on the five famous puzzles (`docs/puzzles/famous.txt`).
//!
//! Included by each exercise file (`#[path = "exercise_common/grade.rs"]`),
//! so the student's test and the answers' test grade alike.

use std::fmt::Write as _;

use sudoku_lab::check;
use sudoku_lab::dataset::Dataset;
use sudoku_lab::{Outcome, Rung, Strategy};

/// Exercise 8's bound: most nodes in all on the five famous puzzles (`mrv`
/// needs 30,396; a correct answer with other tie-breaks lands near that, the
/// reading order needs 1,739,370). It lives here, not in the file the
/// student edits, so that raising it cannot pass the exercise.
pub const MRV_BOUND: u64 = 200_000;

/// Exercise 9's bound (reading order alone needs 1,739,370; the answer,
/// naked singles to a fixpoint, 14,678; other fill orders change which cell
/// comes next in the list, hence the margin).
pub const SINGLES_BOUND: u64 = 50_000;

/// The famous puzzles, from the lab's own folder.
pub fn famous() -> Dataset {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt");
    Dataset::load(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `Ok(report)` when rung `R` passes every public check and solves each
/// famous puzzle within `bound` nodes in all; `Err(report)` saying which
/// part failed otherwise. The report lists the nodes per puzzle.
pub fn grade<R: Rung>(bound: u64) -> Result<String, String> {
    let checked = check::rung::<R>().map_err(|failed| {
        format!(
            "{}: not correct yet; the public checks say:\n{failed}",
            R::NAME
        )
    })?;
    let s = Strategy::add::<R>().map_err(|e| format!("{}: {e}", R::NAME))?;
    let mut report = format!("{checked}nodes on the famous puzzles (at most {bound} in all):\n");
    let mut total = 0u64;
    for p in famous().puzzles {
        let name = p.name.clone().unwrap_or_default();
        // One node over the bound is enough to fail: no need to search on.
        let run = s
            .solve(&p.board, Some(bound - total + 1))
            .map_err(|e| format!("{}: {name}: {e}", R::NAME))?;
        total += run.counts.nodes;
        let _ = match run.outcome {
            Outcome::Solved => writeln!(report, "  {name:<16} {:>9}", run.counts.nodes),
            _ => writeln!(
                report,
                "  {name:<16} {:>9}  (stopped: over the bound)",
                run.counts.nodes
            ),
        };
        if run.outcome != Outcome::Solved || total > bound {
            return Err(format!(
                "{report}{}: correct, but more than {bound} nodes in all: \
                 search less (this is the point of the exercise)",
                R::NAME
            ));
        }
    }
    let _ = writeln!(report, "  {:<16} {total:>9}", "in all");
    Ok(report)
}

//! The grade of a rung written for an exercise (`docs/exercises.md`):
//! **correct**, by every public check the lab holds its own rungs to
//! (`sudoku_lab::check::rung`), and **small**: at most a given number of
//! search nodes in all on the five famous puzzles (`docs/puzzles/famous.txt`).
//!
//! The counters are checked too, against a **reference** that does not
//! trust them: the rung's own moves (its traced placements, forced cells and
//! undos) are replayed on a board, and the guesses, dead ends and forced
//! cells are recounted from the candidates the rules give each cell there,
//! and the probes held to what the exercise's rule must at least read (and,
//! for exercise 8, at most). A rung that skips `ctx.guess()` or leaves out
//! its choice's probes solves every puzzle and still fails.
//!
//! Included by each exercise file (`#[path = "exercise_common/grade.rs"]`),
//! so the student's test and the answers' test grade alike.

use std::fmt::Write as _;

use sudoku_lab::check;
use sudoku_lab::dataset::Dataset;
use sudoku_lab::trace::{EventKind, Position};
use sudoku_lab::{Board, Counts, Outcome, Rung, Strategy};

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

/// What the exercise's rule must read, the reference for the probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// Exercise 8: each node reads the candidates of the cell it branches
    /// on (3 probes) and, to know that cell has the fewest, every empty
    /// cell (3 each), unless one has at most one candidate (a scan may stop
    /// there: then at least one read); at most every empty cell once.
    Fewest,
    /// Exercise 9: each node's last sweep reads every cell still empty
    /// (or at least the one with no candidate), 3 probes per forced cell, and
    /// 3 for the cell it branches on.
    Singles,
}

/// `Ok(report)` when rung `R` passes every public check, solves each famous
/// puzzle within `bound` nodes in all, and its counters agree with the
/// reference recount ([`recount`]); `Err(report)` saying which part failed
/// otherwise. The report lists the nodes per puzzle.
pub fn grade<R: Rung>(bound: u64, rule: Rule) -> Result<String, String> {
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
    for p in famous().puzzles {
        let name = p.name.clone().unwrap_or_default();
        recount(s, &p.board, rule).map_err(|why| {
            format!(
                "{report}{}: {name}: correct and small, but its counters disagree with \
                 the reference recount: {why}",
                R::NAME
            )
        })?;
    }
    let _ = writeln!(
        report,
        "counters: guesses, dead ends, forced cells and probes agree with the reference recount"
    );
    Ok(report)
}

/// Recounts what strategy `s` did on `puzzle` from its traced moves, on a
/// board of the reference's own, and compares with its counters: `Err` names
/// the first counter that disagrees, with both values.
pub fn recount(s: Strategy, puzzle: &Board, rule: Rule) -> Result<(), String> {
    let counted = s.solve(puzzle, None).map_err(|e| e.to_string())?;
    // Every event of the search fits: a node makes at most a placement, an
    // undo and a dead end, besides the cells it forces.
    let steps = (3 * counted.counts.nodes + counted.counts.forced + 16) as usize;
    let traced = sudoku_lab::trace::trace(s, puzzle, None, steps).map_err(|e| e.to_string())?;
    if traced.tracer.truncated() {
        return Err("the search is too long to recount".into());
    }
    let events = traced.tracer.events();
    let g = puzzle.geometry();
    let mut pos = Position::new(puzzle);
    // The candidates of every cell of the position, by the rules alone.
    let candidates = |values: &[u8]| -> Vec<u32> {
        let mut used = vec![[0u32; 3]; g.n];
        for (c, &v) in values.iter().enumerate() {
            if v != 0 {
                let bit = 1 << (v - 1);
                used[g.row[c] as usize][0] |= bit;
                used[g.col[c] as usize][1] |= bit;
                used[g.boxi[c] as usize][2] |= bit;
            }
        }
        (0..g.cells)
            .map(|c| {
                if values[c] != 0 {
                    0
                } else {
                    !(used[g.row[c] as usize][0]
                        | used[g.col[c] as usize][1]
                        | used[g.boxi[c] as usize][2])
                        & g.full
                }
            })
            .collect()
    };
    let mut want = Counts::default();
    let (mut least, mut most) = (0u64, 0u64);
    // Each node: where its events start, from the root and after each placement.
    let mut i = 0;
    // Per open node: did it place a child, and was it solved?
    let mut stack: Vec<(bool, bool)> = Vec::new();
    let mut node_starts = true;
    loop {
        if node_starts {
            node_starts = false;
            want.nodes += 1;
            stack.push((false, false));
            // The cells this node forces come first.
            let mut forced_here = 0;
            while let Some(e) = events.get(i) {
                let EventKind::Forced { cell, digit, .. } = e.kind else {
                    break;
                };
                let cand = candidates(pos.values())[cell.index()];
                if cand != 1 << (digit - 1) {
                    return Err(format!(
                        "step {}: {} = {digit} is counted as forced, but the cell has {} \
                         candidate(s) there (a naked single has exactly one)",
                        e.step,
                        g.name(cell),
                        cand.count_ones()
                    ));
                }
                pos.apply(e);
                want.forced += 1;
                forced_here += 1;
                i += 1;
            }
            let cand = candidates(pos.values());
            let empty = pos.values().iter().filter(|&&v| v == 0).count() as u64;
            // A scan may stop early at a cell with at most one candidate.
            let short = (0..g.cells).any(|c| pos.values()[c] == 0 && cand[c].count_ones() <= 1);
            let dead = matches!(events.get(i).map(|e| e.kind), Some(EventKind::DeadEnd(_)));
            match rule {
                Rule::Fewest if empty > 0 => {
                    least += 3 + if short { 3 } else { 3 * empty };
                    most += 3 + 3 * empty;
                }
                Rule::Fewest => {}
                Rule::Singles => {
                    least += 3 * forced_here
                        + if dead {
                            3
                        } else if empty > 0 {
                            3 * empty + 3
                        } else {
                            0
                        };
                    most = u64::MAX;
                }
            }
        }
        let Some(e) = events.get(i) else { break };
        i += 1;
        match e.kind {
            EventKind::Place { cell, digit, .. } => {
                let cand = candidates(pos.values())[cell.index()];
                if cand & (1 << (digit - 1)) == 0 {
                    return Err(format!(
                        "step {}: {} = {digit} is not a candidate there",
                        e.step,
                        g.name(cell)
                    ));
                }
                if cand.count_ones() > 1 {
                    want.guesses += 1;
                }
                want.placements += 1;
                if let Some(top) = stack.last_mut() {
                    top.0 = true;
                }
                pos.apply(e);
                node_starts = true;
            }
            EventKind::Backtrack { .. } => {
                want.backtracks += 1;
                if let Some((placed, solved)) = stack.pop()
                    && !placed
                    && !solved
                {
                    want.dead_ends += 1;
                }
                pos.apply(e);
            }
            EventKind::Solution => {
                if let Some(top) = stack.last_mut() {
                    top.1 = true;
                }
            }
            EventKind::DeadEnd(_) | EventKind::Forced { .. } => {}
            // The exercises branch on cells; a way (`fast-triads`' guess)
            // has no place in them.
            EventKind::Way { .. } | EventKind::WayBack { .. } => {
                return Err(format!(
                    "step {}: a way of a digit through a chute: the exercises place cells",
                    e.step
                ));
            }
        }
    }
    // Nodes still open at the end: the path to the solution, or the root.
    if let Some((placed, solved)) = stack.pop()
        && !placed
        && !solved
    {
        want.dead_ends += 1;
    }
    let got = counted.counts;
    let pairs = [
        ("nodes", got.nodes, want.nodes),
        ("placements", got.placements, want.placements),
        ("backtracks", got.backtracks, want.backtracks),
        ("guesses", got.guesses, want.guesses),
        ("dead ends", got.dead_ends, want.dead_ends),
        ("forced", got.forced, want.forced),
    ];
    for (what, got, want) in pairs {
        if got != want {
            return Err(format!(
                "{what}: the rung counts {got}, its moves make {want}"
            ));
        }
    }
    if got.probes < least {
        return Err(format!(
            "probes: the rung counts {}, but its rule must read at least {least} \
             (3 per candidates call: count every one)",
            got.probes
        ));
    }
    if got.probes > most {
        return Err(format!(
            "probes: the rung counts {}, but its rule reads at most {most} \
             (each empty cell once per node, 3 probes each)",
            got.probes
        ));
    }
    Ok(())
}

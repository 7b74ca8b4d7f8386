//! The grade of a rung written for an exercise (`docs/exercises.md`):
//! **correct**, by every public check the lab holds its own rungs to
//! (`sudoku_lab::analysis::check::rung`), and **small**: at most [`FACTOR`] times the
//! nodes `mrv` needs on [`DRAWN`] puzzles drawn afresh at grading time.
//!
//! The puzzles come from the lab's own generator (`sudoku_lab::io::generate`,
//! ChaCha) with a seed read from the clock, printed in the report, and
//! taken from `SUDOKU_LAB_GRADE_SEED` when set, to draw the same puzzles
//! again: given the seed the grade is deterministic. Puzzles nobody has seen
//! before are the point: a rung that knows the public puzzles by heart (the
//! five famous ones, say) gains nothing here.
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

use sudoku_lab::analysis::check;
use sudoku_lab::analysis::{EventKind, Position};
use sudoku_lab::io::{self, DEFAULT_MAX_ATTEMPTS, Params, Symmetry};
use sudoku_lab::{Board, BoxSize, Counts, Outcome, Rung, Strategy};

/// The variable that fixes the grade's seed (to draw a graded set again).
pub const SEED_VAR: &str = "SUDOKU_LAB_GRADE_SEED";

/// How many puzzles a grade draws. One generated puzzle says little (reading
/// order needs from 0.08 to 26,000 times `mrv`'s nodes on one, naked
/// singles up to 12 times), their sum over twenty says a lot (below).
pub const DRAWN: usize = 20;

/// The bound: at most this many times `mrv`'s nodes in all on the drawn
/// puzzles. Measured on 2,000 generated puzzles (`sudoku-lab generate -n
/// 2000 --seed 7`, as [`draw`] makes them), summed over
/// 200,000 sets of twenty drawn from them: exercise 9's answer needs at most
/// 0.99 times `mrv`'s nodes (median 0.16 per puzzle), reading order (the
/// files as handed out) at least 16 times. Exercise 8's answer walks
/// exactly `mrv`'s tree, so it passes on any seed (`exercise_answers`
/// tests both on many seeds); the factor leaves room for other tie-breaks.
/// It lives here, not in the file the student edits, so that raising it
/// cannot pass the exercise.
pub const FACTOR: u64 = 2;

/// The grade's seed: `SUDOKU_LAB_GRADE_SEED` when set, else the clock.
pub fn seed() -> Result<u64, String> {
    match std::env::var(SEED_VAR) {
        Ok(v) => v.trim().parse().map_err(|_| {
            format!("{SEED_VAR}={v:?} is not a seed: use the whole number a grade printed")
        }),
        Err(_) => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos() as u64),
    }
}

/// The [`DRAWN`] puzzles of `seed`: 9×9, as few clues as uniqueness allows.
pub fn draw(seed: u64) -> Result<Vec<Board>, String> {
    let params = Params {
        size: BoxSize::NINE,
        count: DRAWN,
        seed,
        clues: None,
        symmetry: Symmetry::None,
        minimal: false,
        budget: None,
        max_attempts: DEFAULT_MAX_ATTEMPTS,
    };
    io::generate(&params, &|| {}).map_err(|e| format!("drawing the puzzles (seed {seed}): {e}"))
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

/// `Ok(report)` when rung `R` passes every public check and [`within`] on
/// the puzzles of the grade's [`seed`]; `Err(report)` saying which part
/// failed otherwise.
pub fn grade<R: Rung>(rule: Rule) -> Result<String, String> {
    let checked = check::rung::<R>().map_err(|failed| {
        format!(
            "{}: not correct yet; the public checks say:\n{failed}",
            R::NAME
        )
    })?;
    let s = Strategy::add::<R>().map_err(|e| format!("{}: {e}", R::NAME))?;
    let report = within(s, seed()?, rule)?;
    Ok(format!("{checked}{report}"))
}

/// `Ok(report)` when strategy `s` solves each puzzle drawn with `seed`
/// within [`FACTOR`] times `mrv`'s nodes in all, and its counters agree
/// with the reference recount ([`recount`]); `Err(report)` otherwise. The
/// report gives the seed and the nodes per puzzle.
pub fn within(s: Strategy, seed: u64, rule: Rule) -> Result<String, String> {
    let puzzles = draw(seed)?;
    let mut mrv = Vec::with_capacity(puzzles.len());
    for p in &puzzles {
        mrv.push(
            Strategy::Mrv
                .solve(p, None)
                .map_err(|e| e.to_string())?
                .counts
                .nodes,
        );
    }
    let bound = FACTOR * mrv.iter().sum::<u64>();
    let name = s.name();
    let w = name.len().max(9);
    let mut report = format!(
        "{DRAWN} puzzles drawn afresh, seed {seed} ({SEED_VAR}={seed} draws them again); \
         at most {FACTOR} × mrv's nodes in all, {bound}:\n  {:<9} {name:>w$} {:>9}\n",
        "puzzle", "mrv"
    );
    let mut total = 0u64;
    for (i, (p, m)) in puzzles.iter().zip(&mrv).enumerate() {
        // One node over the bound is enough to fail: no need to search on.
        let run = s
            .solve(p, Some(bound - total + 1))
            .map_err(|e| format!("{name}: drawn #{}: {e}", i + 1))?;
        total += run.counts.nodes;
        let stopped = if run.outcome == Outcome::Solved {
            ""
        } else {
            "  (stopped: over the bound)"
        };
        let _ = writeln!(
            report,
            "  #{:<8} {:>w$} {m:>9}{stopped}",
            i + 1,
            run.counts.nodes
        );
        if run.outcome != Outcome::Solved || total > bound {
            return Err(format!(
                "{report}{name}: correct, but more than {bound} nodes in all: \
                 search less (this is the point of the exercise)"
            ));
        }
    }
    let _ = writeln!(
        report,
        "  {:<9} {total:>w$} {:>9}",
        "in all",
        bound / FACTOR
    );
    for (i, p) in puzzles.iter().enumerate() {
        recount(s, p, rule).map_err(|why| {
            format!(
                "{report}{name}: drawn #{}: correct and small, but its counters disagree with \
                 the reference recount: {why}",
                i + 1
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
    let traced = sudoku_lab::analysis::trace(s, puzzle, None, steps).map_err(|e| e.to_string())?;
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

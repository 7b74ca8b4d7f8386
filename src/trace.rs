//! A [`Counter`] that records how a search unfolds, for teaching.
//!
//! [`Tracer`] counts everything [`Counts`] counts, and in addition keeps
//! * the first `K` *decisions* (placements, backtracks, dead ends, forced
//!   cells) with the depth at which each was taken, and
//! * a histogram of nodes per depth: the shape of the search tree.
//!
//! **Depth** is the number of open branching placements on the current path
//! (placements minus backtracks). Forced cells do not change it: they are
//! inferences, not choices. A decision's depth is the depth of the node that
//! takes it, so a placement made at the root and its later undo are both at
//! depth 0.
//!
//! Both buffers are allocated before the search starts (the decision buffer
//! with capacity `K`, the histogram with one slot per possible depth), so
//! recording never allocates inside the search loop.

use std::time::{Duration, Instant};

use crate::board::{Board, Cell, MAX_CELLS};
use crate::counters::{Counter, Counts};
use crate::search::{End, Limits};
use crate::strategy::{Outcome, Strategy, WrongSolution, verify};

/// What happened at one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A digit written by the search; `guess` when the cell had more than one
    /// candidate (only reported by strategies that count guesses).
    Place { guess: bool },
    /// A placement undone on the way back up.
    Backtrack,
    /// A node where some cell had no candidate left (the strategy gives no cell).
    DeadEnd,
    /// A cell filled by inference, not by branching.
    Forced,
}

/// One recorded decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// 1-based position among all decisions of the search.
    pub step: u64,
    /// Open branching placements on the path when the decision was taken.
    pub depth: u32,
    pub kind: EventKind,
    /// The cell, for every kind except [`EventKind::DeadEnd`].
    pub cell: Option<Cell>,
    /// The digit placed, undone or forced (`None` for dead ends).
    pub digit: Option<u8>,
}

/// Records the first `K` decisions and the nodes per depth; counts the rest.
#[derive(Clone, Debug)]
pub struct Tracer {
    pub counts: Counts,
    events: Vec<Event>,
    steps: usize,
    decisions: u64,
    depth: u32,
    histogram: Vec<u64>,
}

impl Tracer {
    /// A tracer that keeps the first `steps` decisions.
    pub fn new(steps: usize) -> Self {
        Tracer {
            counts: Counts::default(),
            events: Vec::with_capacity(steps),
            steps,
            decisions: 0,
            depth: 0,
            // Depth never exceeds the number of cells (one placement per cell).
            histogram: vec![0; MAX_CELLS + 1],
        }
    }

    /// The recorded decisions, in order (at most `steps`).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// All decisions taken by the search, recorded or not.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Nodes per depth, index = depth, trailing zeros removed.
    pub fn histogram(&self) -> &[u64] {
        let len = self
            .histogram
            .iter()
            .rposition(|&n| n != 0)
            .map_or(0, |i| i + 1);
        &self.histogram[..len]
    }

    #[inline]
    fn record(&mut self, kind: EventKind, cell: Option<usize>, digit: Option<u8>) {
        self.decisions += 1;
        if self.events.len() < self.steps {
            self.events.push(Event {
                step: self.decisions,
                depth: self.depth,
                kind,
                cell: cell.map(|c| Cell(c as u16)),
                digit,
            });
        }
    }
}

impl Counter for Tracer {
    const ENABLED: bool = true;

    #[inline]
    fn node(&mut self) {
        // A malformed strategy could exceed MAX_CELLS; clamp instead of panicking.
        let d = (self.depth as usize).min(MAX_CELLS);
        self.histogram[d] += 1;
    }

    #[inline]
    fn placement(&mut self, cell: usize, digit: u8) {
        self.counts.placement(cell, digit);
        self.record(EventKind::Place { guess: false }, Some(cell), Some(digit));
        self.depth += 1;
    }

    #[inline]
    fn backtrack(&mut self, cell: usize, digit: u8) {
        self.counts.backtrack(cell, digit);
        self.depth = self.depth.saturating_sub(1);
        self.record(EventKind::Backtrack, Some(cell), Some(digit));
    }

    #[inline]
    fn probes(&mut self, k: u64) {
        self.counts.probes(k);
    }

    /// Strategies report a guess right after its placement: mark that
    /// placement, if it is the last recorded decision.
    #[inline]
    fn guess(&mut self) {
        self.counts.guess();
        if self.events.last().map(|e| e.step) == Some(self.decisions)
            && let Some(Event {
                kind: EventKind::Place { guess },
                ..
            }) = self.events.last_mut()
        {
            *guess = true;
        }
    }

    #[inline]
    fn dead_end(&mut self) {
        self.counts.dead_end();
        self.record(EventKind::DeadEnd, None, None);
    }

    #[inline]
    fn forced(&mut self, cell: usize, digit: u8) {
        self.counts.forced(cell, digit);
        self.record(EventKind::Forced, Some(cell), Some(digit));
    }
}

/// A traced, verified run of one strategy on one puzzle.
#[derive(Clone, Debug)]
pub struct Trace {
    pub strategy: Strategy,
    pub outcome: Outcome,
    pub end: End,
    /// The first solution, verified against the givens and the rules.
    pub solution: Option<Board>,
    /// Every counter, `nodes` included.
    pub counts: Counts,
    /// The first decisions, the total and the nodes per depth.
    pub tracer: Tracer,
    /// Wall time with tracing on (slower than a timed run).
    pub elapsed: Duration,
}

/// Solves `puzzle` with `strategy` (first solution, optional node budget),
/// recording the first `steps` decisions.
pub fn trace(
    strategy: Strategy,
    puzzle: &Board,
    budget: Option<u64>,
    steps: usize,
) -> Result<Trace, WrongSolution> {
    let start = Instant::now();
    let report = strategy.run(puzzle, Limits::solve(budget), Tracer::new(steps));
    let elapsed = start.elapsed();
    if let Some(sol) = &report.first {
        verify(strategy, puzzle, sol)?;
    }
    let outcome = match (report.solutions, report.end) {
        (s, _) if s > 0 => Outcome::Solved,
        (_, End::BudgetExceeded) => Outcome::BudgetExceeded,
        _ => Outcome::NoSolution,
    };
    let mut counts = report.counter.counts;
    counts.nodes = report.nodes;
    Ok(Trace {
        strategy,
        outcome,
        end: report.end,
        solution: report.first,
        counts,
        tracer: report.counter,
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_one;

    fn board(text: &str) -> Board {
        parse_one(text).expect("test puzzle parses").1.board
    }

    #[test]
    fn histogram_sums_to_nodes_and_depth_returns_to_path_length() {
        let b = board(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        );
        for &s in Strategy::ALL {
            let t = trace(s, &b, None, 10).expect("verified");
            assert_eq!(t.outcome, Outcome::Solved);
            let sum: u64 = t.tracer.histogram().iter().sum();
            assert_eq!(sum, t.counts.nodes, "{s}");
            // The solution leaf sits at depth = placements still open.
            let leaf = (t.counts.placements - t.counts.backtracks) as usize;
            assert_eq!(t.tracer.histogram().len(), leaf + 1, "{s}");
            assert_eq!(t.tracer.events().len(), 10);
            assert_eq!(t.counts, s.solve(&b, None).expect("verified").counts);
        }
    }

    #[test]
    fn decisions_total_matches_the_counters() {
        let b = board(
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        );
        let t = trace(Strategy::Mrv, &b, None, 5).expect("verified");
        let c = t.counts;
        assert_eq!(
            t.tracer.decisions(),
            c.placements + c.backtracks + c.dead_ends + c.forced
        );
    }
}

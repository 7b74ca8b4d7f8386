//! A [`Counter`](crate::Counter) that records how a search unfolds, for teaching.
//!
//! [`Tracer`] counts everything [`Counts`] counts, and in addition keeps
//! * the first `K` *events* in full ([`Event`]): each placement with what the
//!   node branched on (the chosen cell and its candidates, or a digit and its
//!   places in a unit), each undo, each forced cell with the rule that forced
//!   it, each dead end with the cell or unit that failed, each solution — with
//!   the depth, nodes and probes at that moment;
//! * a summary of the whole search, however long: nodes per depth (the shape
//!   of the tree) and depth over time in a fixed number of buckets
//!   ([`DepthOverTime`](crate::base::tracer::DepthOverTime)).
//!
//! Events come from the [`Counter`](crate::Counter) hooks the rungs call on the one search
//! path the timed runs use; the detail hooks ([`Counter::branch`](crate::Counter::branch),
//! [`Counter::dead_end_because`](crate::Counter::dead_end_because), [`Counter::forced_because`](crate::Counter::forced_because)) compile to
//! nothing with [`crate::NoCount`].
//!
//! **Depth** is the number of placements on the current path (placements
//! minus backtracks), whether the cell had one candidate or several. Forced
//! cells do not change it: they are inferences, not branches. A placement's depth is the depth of the node that
//! takes it, so a placement made at the root and its later undo are both at
//! depth 0.
//!
//! **Memory** is bounded by `K`: every buffer is allocated before the search
//! starts (the event buffer with capacity `K`, the per-depth tables with one
//! slot per possible depth, the depth-over-time buckets), so recording never
//! allocates inside the search loop and a search of billions of events keeps
//! the same few kilobytes of summary.
//!
//! **A window.** [`Tracer::window`] keeps `K` events from event `N` on
//! (`trace --from N`): the search is the same, only what is kept moves, so
//! event `N` of the window is event `N` of the whole search.
//!
//! [`Tree`] rebuilds the search tree of a small search from its events
//! (`trace --tree`); [`chart::depth`](crate::export::chart::depth) draws nodes per depth of several searches.
//!
//! [`Position`] replays events onto a board: the board the search had in
//! hand after any number of events (what `replay`'s page shows, and what its
//! browser test compares against).

use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::base::board::{Board, Cell, Geometry};
use crate::base::counters::Counts;
use crate::base::format::Puzzle;
use crate::base::progress::Progress;
use crate::base::search::{End, Limits};
use crate::base::strategy::{Outcome, Strategy, WrongSolution, verify};

pub use crate::base::counters::{Branch, Chute, DeadEnd, Reason, Rivals, WAYS};
pub use crate::base::tracer::{Event, EventKind, Tracer};

pub(crate) mod window;

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
    /// The first events, the total and the summary of the search.
    pub tracer: Tracer,
    /// Wall time with tracing on (slower than a timed run).
    pub elapsed: Duration,
}

/// Solves `puzzle` with `strategy` (first solution, optional node budget),
/// recording the first `steps` events.
pub fn trace(
    strategy: Strategy,
    puzzle: &Board,
    budget: Option<u64>,
    steps: usize,
) -> Result<Trace, WrongSolution> {
    trace_window(strategy, puzzle, budget, 1, steps)
}

/// [`trace`], recording `steps` events from event `from` on (1-based).
pub fn trace_window(
    strategy: Strategy,
    puzzle: &Board,
    budget: Option<u64>,
    from: u64,
    steps: usize,
) -> Result<Trace, WrongSolution> {
    traced(strategy, puzzle, budget, Tracer::window(from, steps))
}

/// [`trace_window`], telling `progress` the nodes entered a few times a
/// second (its total is the budget, when there is one): a traced search can
/// run for minutes (`trace -s naive` on a hard puzzle), and a silent
/// terminal looks hung. A watcher thread reads the count the [`Tracer`]
/// publishes, so the search itself only stores a number now and then.
pub fn trace_window_showing(
    strategy: Strategy,
    puzzle: &Board,
    budget: Option<u64>,
    from: u64,
    steps: usize,
    progress: &dyn Progress,
) -> Result<Trace, WrongSolution> {
    if let Some(total) = budget {
        progress.start(total);
    }
    let nodes = Arc::new(AtomicU64::new(0));
    let (finished, wait) = mpsc::channel::<()>();
    std::thread::scope(|s| {
        let seen = Arc::clone(&nodes);
        s.spawn(move || {
            // Ends as soon as the search drops `finished`.
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(SHOW_EVERY) {
                progress.at(seen.load(Ordering::Relaxed));
            }
        });
        let tracer = Tracer::window(from, steps).publishing(nodes);
        let traced = traced(strategy, puzzle, budget, tracer);
        drop(finished);
        traced
    })
}

/// How often [`trace_window_showing`] reports progress.
const SHOW_EVERY: Duration = Duration::from_millis(100);

/// One verified traced run with `tracer`.
fn traced(
    strategy: Strategy,
    puzzle: &Board,
    budget: Option<u64>,
    tracer: Tracer,
) -> Result<Trace, WrongSolution> {
    let start = Instant::now();
    let report = strategy.run(puzzle, Limits::solve(budget), tracer);
    let elapsed = start.elapsed();
    if let Some(sol) = &report.first {
        verify(strategy, puzzle, sol)?;
    }
    let outcome = match (report.solutions, report.end) {
        (s, _) if s > 0 => Outcome::Solved,
        (_, End::BudgetExceeded) => Outcome::BudgetExceeded,
        _ => Outcome::NoSolution,
    };
    let mut counts = report.counter.counts();
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

/// Refuses, before any search runs, a strategy that does not handle the
/// puzzle's size.
pub(crate) fn check_sizes(strategies: &[Strategy], puzzle: &Puzzle) -> anyhow::Result<()> {
    for s in strategies {
        if let Err(why) = s.check_size(puzzle.board.size()) {
            anyhow::bail!("{why} (puzzle at line {})", puzzle.line);
        }
    }
    Ok(())
}

/// Largest `--steps` of `trace`: the event buffer is allocated up front.
pub const MAX_STEPS: usize = 1_000_000;
/// Most search nodes a drawn tree shows (one line each).
pub(crate) const MAX_TREE_NODES: u64 = 300;

/// A search's whole tree, or why it is not drawn.
#[derive(Clone, Debug)]
pub enum TreeView {
    /// More than `MAX_TREE_NODES` nodes.
    TooLarge {
        nodes: u64,
    },
    Whole {
        tree: Tree,
        nodes: u64,
    },
}

/// The whole tree of the search `t` traced on `puzzle`. It needs every event:
/// when `t`'s window did not keep them all, the (deterministic) search runs
/// again with a window of exactly its length.
pub(crate) fn whole_tree(
    puzzle: &Board,
    budget: Option<u64>,
    t: &Trace,
) -> Result<TreeView, WrongSolution> {
    let nodes = t.counts.nodes;
    if nodes > MAX_TREE_NODES {
        return Ok(TreeView::TooLarge { nodes });
    }
    let whole;
    let events = if t.tracer.truncated() {
        let total = usize::try_from(t.tracer.total()).unwrap_or(usize::MAX);
        whole = trace_window(t.strategy, puzzle, budget, 1, total)?;
        whole.tracer.events()
    } else {
        t.tracer.events()
    };
    Ok(TreeView::Whole {
        tree: Tree::build(events),
        nodes,
    })
}

/// How a node of a [`Tree`] ended, when it did not branch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    DeadEnd(DeadEnd),
    Solution,
}

/// One search node: the placement that led to it (none for the root), the
/// cells forced in it, how it ended if it had no child, its children.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The [`EventKind::Place`] (or [`EventKind::Way`]) event that entered
    /// the node.
    pub placed: Option<Event>,
    pub forced: u32,
    pub leaf: Option<Leaf>,
    pub children: Vec<usize>,
}

/// The search tree rebuilt from a search's events, in search order: node 0
/// is the root, every placement (or way) enters a child of the current
/// node, an undo returns to its parent. Built from *every* event of a search (a tracer
/// whose window holds the whole search): it has one node per search node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    pub nodes: Vec<TreeNode>,
}

impl Tree {
    pub fn build(events: &[Event]) -> Tree {
        let node = |placed| TreeNode {
            placed,
            forced: 0,
            leaf: None,
            children: Vec::new(),
        };
        let mut nodes = vec![node(None)];
        // The path from the root to the current node.
        let mut path = vec![0usize];
        for e in events {
            let here = *path.last().unwrap_or(&0);
            match e.kind {
                EventKind::Place { .. } | EventKind::Way { .. } => {
                    let id = nodes.len();
                    nodes.push(node(Some(*e)));
                    nodes[here].children.push(id);
                    path.push(id);
                }
                EventKind::Backtrack { .. } | EventKind::WayBack { .. } => {
                    if path.len() > 1 {
                        path.pop();
                    }
                }
                EventKind::Forced { .. } => nodes[here].forced += 1,
                EventKind::DeadEnd(why) => nodes[here].leaf = Some(Leaf::DeadEnd(why)),
                EventKind::Solution => nodes[here].leaf = Some(Leaf::Solution),
            }
        }
        Tree { nodes }
    }

    /// Deepest level below the root.
    pub fn height(&self) -> usize {
        fn h(t: &Tree, i: usize) -> usize {
            t.nodes[i]
                .children
                .iter()
                .map(|&c| 1 + h(t, c))
                .max()
                .unwrap_or(0)
        }
        h(self, 0)
    }
}

/// How a cell of a [`Position`] got its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Empty,
    Given,
    /// Written by a branching placement.
    Placed,
    /// Filled by inference.
    Forced,
}

/// The board a search has in hand after some events: givens, placements
/// still on the path, and the cells forced since (undoing a placement undoes
/// what was forced below it). The reference the replay page is tested against.
#[derive(Clone, Debug)]
pub struct Position {
    values: Vec<u8>,
    fills: Vec<Fill>,
    /// Filled cells in order, `None` where a way was tried; a placement's
    /// undo clears back to it, a way's to its mark.
    path: Vec<Option<(Cell, Fill)>>,
    applied: u64,
}

impl Position {
    /// The puzzle's givens, before any event.
    pub fn new(puzzle: &Board) -> Self {
        let values = puzzle.cells().to_vec();
        let fills = values
            .iter()
            .map(|&v| if v == 0 { Fill::Empty } else { Fill::Given })
            .collect();
        Position {
            values,
            fills,
            path: Vec::new(),
            applied: 0,
        }
    }

    /// The position after the first `n` of `events`.
    pub fn after(puzzle: &Board, events: &[Event], n: usize) -> Self {
        let mut p = Position::new(puzzle);
        for e in &events[..n.min(events.len())] {
            p.apply(e);
        }
        p
    }

    /// Applies one event.
    pub fn apply(&mut self, event: &Event) {
        self.applied += 1;
        match event.kind {
            EventKind::Place { cell, digit, .. } => self.fill(cell, digit, Fill::Placed),
            EventKind::Forced { cell, digit, .. } => self.fill(cell, digit, Fill::Forced),
            EventKind::Backtrack { cell, .. } => {
                while let Some(entry) = self.path.pop() {
                    if let Some((c, how)) = entry {
                        self.clear(c);
                        if c == cell && how == Fill::Placed {
                            return;
                        }
                    }
                }
                // An undo without its placement (a malformed rung): clear the cell.
                self.clear(cell);
            }
            EventKind::Way { .. } => self.path.push(None),
            EventKind::WayBack { .. } => {
                while let Some(Some((c, _))) = self.path.pop() {
                    self.clear(c);
                }
            }
            EventKind::DeadEnd(_) | EventKind::Solution => {}
        }
    }

    fn fill(&mut self, cell: Cell, digit: u8, how: Fill) {
        if let Some(slot) = self.values.get_mut(cell.index()) {
            *slot = digit;
            self.fills[cell.index()] = how;
            self.path.push(Some((cell, how)));
        }
    }

    fn clear(&mut self, cell: Cell) {
        if let Some(slot) = self.values.get_mut(cell.index())
            && self.fills[cell.index()] != Fill::Given
        {
            *slot = 0;
            self.fills[cell.index()] = Fill::Empty;
        }
    }

    /// Cell values, 0 for empty.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// How each cell got its value.
    pub fn fills(&self) -> &[Fill] {
        &self.fills
    }

    /// Events applied so far.
    pub fn applied(&self) -> u64 {
        self.applied
    }
}

/// The digits of a mask (bit `d-1` for digit `d`).
fn digits(mask: u32) -> Vec<String> {
    (0..32)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| (b + 1).to_string())
        .collect()
}

/// `{2,3}`.
fn digit_set(mask: u32) -> String {
    format!("{{{}}}", digits(mask).join(","))
}

/// `4 and 7`, `4, 7 and 8`.
fn digit_list(mask: u32) -> String {
    let digits = digits(mask);
    match digits.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => digits.concat(),
    }
}

/// What a dead end means, in words: `r1c4 has no candidate`.
pub(crate) fn describe_dead_end(why: &DeadEnd, g: &Geometry) -> String {
    match *why {
        DeadEnd::Cell(cell) => format!("{} has no candidate", g.name(cell)),
        DeadEnd::Digit { unit, digit } => format!("{digit} has no place in {unit}"),
        DeadEnd::Clash { unit, cell, digits } => {
            let all = if digits.count_ones() == 2 {
                "both"
            } else {
                "all"
            };
            format!(
                "{} {all} need {} in {unit}",
                digit_list(digits),
                g.name(cell)
            )
        }
        DeadEnd::Chute { chute, digit } => format!("{digit} has no consistent place in {chute}"),
        DeadEnd::Crowded {
            line,
            in_box,
            digits,
        } => format!(
            "{} all need the 3 cells of {line} in box {}",
            digit_list(digits),
            in_box + 1
        ),
        DeadEnd::Unstated => "the strategy gave no reason".to_string(),
    }
}

impl Event {
    /// One line saying what happened, e.g. `place r1c2 = 2  (guess from {2,3})`
    /// or `dead end: r1c4 has no candidate`. The replay page writes the same
    /// words (its browser test compares them).
    pub fn describe(&self, g: &Geometry) -> String {
        match self.kind {
            EventKind::Place {
                cell,
                digit,
                branch,
                guess,
            } => {
                let why = placed_because(branch, guess, g);
                format!("place {} = {digit}{why}", g.name(cell))
            }
            EventKind::Backtrack { cell, digit } => format!("undo  {} = {digit}", g.name(cell)),
            EventKind::Way {
                chute,
                digit,
                way,
                ways,
                guess,
            } => describe_way(chute, digit, way, guess.then_some(ways)),
            EventKind::WayBack { chute, digit, .. } => format!("undo  way of {digit} in {chute}"),
            EventKind::Forced {
                cell,
                digit,
                reason,
            } => {
                let why = match reason {
                    Reason::NakedSingle => "  (naked single)".to_string(),
                    Reason::HiddenSingle(unit) => format!("  (hidden single in {unit})"),
                    Reason::BandFilter { band, row } => format!(
                        "  (band filter: locked candidates in band {} leave one place in {row})",
                        band + 1
                    ),
                    Reason::Unstated => String::new(),
                };
                format!("force {} = {digit}{why}", g.name(cell))
            }
            EventKind::DeadEnd(why) => format!("dead end: {}", describe_dead_end(&why, g)),
            EventKind::Solution => "solution".to_string(),
        }
    }
}

/// Why a placement was made, from what its node branched on:
/// `  (only candidate)`, `  (guess from {2,3}; fewest: next best 3)`, …
fn placed_because(branch: Branch, guess: bool, g: &Geometry) -> String {
    match branch {
        Branch::Cell { digits, .. } if digits.count_ones() == 1 => "  (only candidate)".into(),
        Branch::Cell { digits, rivals, .. } => {
            let digits = digit_set(digits);
            match rivals {
                None => format!("  (guess from {digits})"),
                Some(Rivals { next: 0, ties: 0 }) => {
                    format!("  (guess from {digits}; the last empty cell)")
                }
                Some(Rivals { ties: 0, next }) => {
                    format!("  (guess from {digits}; fewest: next best {next})")
                }
                Some(Rivals { ties, .. }) => {
                    format!("  (guess from {digits}; fewest, tied with {ties}: first in order)")
                }
            }
        }
        Branch::Digit {
            unit,
            digit,
            places,
        } => {
            let cells: Vec<String> = g
                .unit_cells(unit)
                .enumerate()
                .filter(|(i, _)| places & (1 << i) != 0)
                .map(|(_, c)| g.name(c))
                .collect();
            if cells.len() == 1 {
                format!("  (only place for {digit} in {unit})")
            } else {
                format!("  (guess: {digit} can go in {} of {unit})", cells.join(","))
            }
        }
        // A way writes no cell: its own event names it.
        Branch::Ways { .. } | Branch::Unstated if guess => "  (guess)".into(),
        Branch::Ways { .. } | Branch::Unstated => String::new(),
    }
}

/// `way   5 in band 2 (rows 4-6): r4 in box 5, r5 in box 4, r6 in box 6`,
/// with `  (guess: way 2 of 3)` when the way was a guess among `ways`.
fn describe_way(chute: Chute, digit: u8, way: u8, guess_among: Option<u32>) -> String {
    let way = way as usize % WAYS.len();
    let w = WAYS[way];
    // A band: row r of it in box w[r] of it; a stack: its box in
    // band k in column w[k] of it.
    let parts: Vec<String> = (0..3usize)
        .map(|k| match chute {
            Chute::Band(b) => {
                let b = b as usize;
                format!("r{} in box {}", 3 * b + k + 1, 3 * b + w[k] as usize + 1)
            }
            Chute::Stack(t) => {
                let t = t as usize;
                format!("c{} in box {}", 3 * t + w[k] as usize + 1, 3 * k + t + 1)
            }
        })
        .collect();
    let mut s = format!("way   {digit} in {chute}: {}", parts.join(", "));
    if let Some(ways) = guess_among {
        let nth = (ways & ((1u32 << way) - 1)).count_ones() + 1;
        let _ = write!(s, "  (guess: way {nth} of {})", ways.count_ones());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::counters::unit;
    use crate::base::format::board;
    use crate::base::tracer::DepthOverTime;

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
    fn event_total_matches_the_counters() {
        let b = board(
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        );
        let t = trace(Strategy::Mrv, &b, None, 5).expect("verified");
        let c = t.counts;
        // One solution event: the search stops at the first.
        assert_eq!(
            t.tracer.total(),
            c.placements + c.backtracks + c.dead_ends + c.forced + 1
        );
        assert!(t.tracer.truncated());
    }

    #[test]
    fn depth_over_time_stays_bounded_and_covers_every_event() {
        let mut p = DepthOverTime::new();
        let depth = |i: u64| ((i * 7919) % 61) as u32;
        for i in 0..100_000u64 {
            p.push(depth(i));
        }
        assert!(p.buckets().len() <= DepthOverTime::BUCKETS);
        assert!(p.buckets().len() > DepthOverTime::BUCKETS / 2);
        let w = p.width();
        assert!(w.is_power_of_two());
        for (k, &(lo, hi)) in p.buckets().iter().enumerate() {
            let range = k as u64 * w..((k as u64 + 1) * w).min(100_000);
            assert_eq!(lo, range.clone().map(depth).min().unwrap(), "bucket {k}");
            assert_eq!(hi, range.map(depth).max().unwrap(), "bucket {k}");
        }
        assert_eq!(p.buckets().len() as u64, 100_000u64.div_ceil(w));
    }

    #[test]
    fn labels() {
        let g = crate::base::board::BoxSize::NINE.geometry();
        let row = unit(0, 2);
        let at = |kind| Event {
            step: 1,
            depth: 0,
            nodes: 1,
            probes: 0,
            kind,
        };
        let cases = [
            (
                EventKind::DeadEnd(DeadEnd::Clash {
                    unit: row,
                    cell: Cell(22),
                    digits: 0b1001000,
                }),
                "dead end: 4 and 7 both need r3c5 in row 3",
            ),
            (
                EventKind::DeadEnd(DeadEnd::Clash {
                    unit: row,
                    cell: Cell(22),
                    digits: 0b11001000,
                }),
                "dead end: 4, 7 and 8 all need r3c5 in row 3",
            ),
            (
                EventKind::DeadEnd(DeadEnd::Chute {
                    chute: Chute::Band(1),
                    digit: 5,
                }),
                "dead end: 5 has no consistent place in band 2 (rows 4-6)",
            ),
            (
                EventKind::Place {
                    cell: Cell(19),
                    digit: 1,
                    branch: Branch::Digit {
                        unit: row,
                        digit: 1,
                        places: 0b1000010,
                    },
                    guess: true,
                },
                "place r3c2 = 1  (guess: 1 can go in r3c2,r3c7 of row 3)",
            ),
            (
                EventKind::Forced {
                    cell: Cell(80),
                    digit: 9,
                    reason: Reason::HiddenSingle(unit(2, 8)),
                },
                "force r9c9 = 9  (hidden single in box 9)",
            ),
        ];
        for (kind, text) in cases {
            assert_eq!(at(kind).describe(g), text);
        }
    }
}

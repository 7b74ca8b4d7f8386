//! The recording counter behind `trace` and `replay`: [`Tracer`] and the
//! events it keeps (see [`crate::analysis::trace`](mod@crate::analysis::trace) for what they mean and how they
//! are shown). It sits below the strategies, beside the other counters, so
//! the ladder can run with it without knowing about traced runs.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::base::board::{Cell, MAX_CELLS};
use crate::base::counters::{Branch, Chute, Counter, Counts, DeadEnd, Heard, Id, Reason};

/// What happened at one event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A digit written by the search at a branching node, with what the node
    /// branched on; `guess` when it had more than one option (reported by
    /// the strategy with [`Counter::guess`]).
    Place {
        cell: Cell,
        digit: u8,
        branch: Branch,
        guess: bool,
    },
    /// A placement undone on the way back up (the cells forced below it go
    /// with it).
    Backtrack { cell: Cell, digit: u8 },
    /// One way of a digit through a chute tried at a [`Branch::Ways`] node
    /// (`way`: an index into [`crate::base::counters::WAYS`], `ways` the node's
    /// options): a guess that writes no cell (`fast-triads`). It counts as
    /// a level of depth, as a placement does.
    Way {
        chute: Chute,
        digit: u8,
        way: u8,
        ways: u32,
        guess: bool,
    },
    /// A way's subtree is over (the cells forced under it go with it).
    WayBack { chute: Chute, digit: u8, way: u8 },
    /// A cell filled by inference, not by branching.
    Forced {
        cell: Cell,
        digit: u8,
        reason: Reason,
    },
    /// A node where the search could not go on.
    DeadEnd(DeadEnd),
    /// A complete grid.
    Solution,
}

/// One recorded event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// 1-based position among all events of the search.
    pub step: u64,
    /// Placements and ways on the path when the event happened (each
    /// minus its undos; forced cells are not counted).
    pub depth: u32,
    /// Search nodes entered so far, the root included.
    pub nodes: u64,
    /// Probes counted so far.
    pub probes: u64,
    pub kind: EventKind,
}

/// Depth over the whole search in at most [`DepthOverTime::BUCKETS`]
/// buckets of equal width: when they are full, neighbours merge and the
/// width doubles. Bounded memory for searches of any length.
#[derive(Clone, Debug)]
pub struct DepthOverTime {
    /// `(shallowest, deepest)` depth of each bucket's events.
    buckets: Vec<(u32, u32)>,
    /// Events per bucket (a power of two).
    width: u64,
    events: u64,
}

impl DepthOverTime {
    /// Most buckets kept.
    pub const BUCKETS: usize = 512;

    pub(crate) fn new() -> Self {
        DepthOverTime {
            buckets: Vec::with_capacity(Self::BUCKETS),
            width: 1,
            events: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, depth: u32) {
        if self.events.is_multiple_of(self.width) {
            if self.buckets.len() == Self::BUCKETS {
                // Merge neighbours in place (no allocation) and double the
                // width; `events` is then a multiple of the new width too.
                for i in 0..Self::BUCKETS / 2 {
                    let (a, b) = (self.buckets[2 * i], self.buckets[2 * i + 1]);
                    self.buckets[i] = (a.0.min(b.0), a.1.max(b.1));
                }
                self.buckets.truncate(Self::BUCKETS / 2);
                self.width *= 2;
            }
            self.buckets.push((depth, depth));
        } else if let Some(last) = self.buckets.last_mut() {
            *last = (last.0.min(depth), last.1.max(depth));
        }
        self.events += 1;
    }

    /// `(shallowest, deepest)` per bucket, in search order.
    pub fn buckets(&self) -> &[(u32, u32)] {
        &self.buckets
    }

    /// Events per bucket (the last bucket may hold fewer).
    pub fn width(&self) -> u64 {
        self.width
    }
}

/// Records the first `K` events and a summary of all. It counts through
/// the real counter: every count of every event reaches it through
/// [`Counter::add`], which hands it to a [`Counts`], the very counter of a
/// counted run, so a traced run cannot count differently from a counted
/// one (a counter added to the table is counted here too).
#[derive(Clone, Debug)]
pub struct Tracer {
    counted: Counts,
    events: Vec<Event>,
    /// The first event kept (1-based).
    from: u64,
    steps: usize,
    total: u64,
    depth: u32,
    histogram: Vec<u64>,
    /// What the node at each depth of the current path branches on.
    branches: Vec<Branch>,
    over_time: DepthOverTime,
    /// Where nodes so far are published, every [`Tracer::PUBLISH_EVERY`]
    /// nodes, for a progress display on another thread ([`Tracer::publishing`]).
    published: Option<Arc<AtomicU64>>,
}

impl Tracer {
    /// A tracer that keeps the first `steps` events.
    pub fn new(steps: usize) -> Self {
        Self::window(1, steps)
    }

    /// A tracer that keeps `steps` events from event `from` on (1-based; 0
    /// is taken as 1).
    pub fn window(from: u64, steps: usize) -> Self {
        Tracer {
            counted: Counts::default(),
            events: Vec::with_capacity(steps),
            from: from.max(1),
            steps,
            total: 0,
            depth: 0,
            // Depth never exceeds the number of cells (one placement per cell).
            histogram: vec![0; MAX_CELLS + 1],
            branches: vec![Branch::Unstated; MAX_CELLS + 1],
            over_time: DepthOverTime::new(),
            published: None,
        }
    }

    /// Nodes between two publications: rare enough to cost nothing next to
    /// recording the events, often enough for a bar redrawn a few times a
    /// second (every rung enters far more than 65,536 nodes per second).
    pub const PUBLISH_EVERY: u64 = 1 << 16;

    /// Also stores the nodes entered so far into `nodes` every
    /// [`Tracer::PUBLISH_EVERY`] nodes, so that a long traced search can
    /// show progress (`trace` on a terminal) without the search knowing.
    pub fn publishing(mut self, nodes: Arc<AtomicU64>) -> Self {
        self.published = Some(nodes);
        self
    }

    /// What the real counter counted: every counter of the table, `nodes` included.
    pub fn counts(&self) -> Counts {
        self.counted
    }

    /// The recorded events, in order (at most `steps`).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// How many events the search had, recorded or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// Whether events were left out (before the window or after it).
    pub fn truncated(&self) -> bool {
        self.total > self.events.len() as u64
    }

    /// The first event kept (1-based).
    pub fn from(&self) -> u64 {
        self.from
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

    /// Depth over the whole search, bucketed.
    pub fn over_time(&self) -> &DepthOverTime {
        &self.over_time
    }

    /// The depth index clamped to the tables (a malformed rung could go
    /// deeper than one placement per cell; never panic on it).
    #[inline]
    fn slot(&self) -> usize {
        (self.depth as usize).min(MAX_CELLS)
    }

    #[inline]
    fn record(&mut self, kind: EventKind) {
        self.total += 1;
        self.over_time.push(self.depth);
        if self.total >= self.from && self.events.len() < self.steps {
            self.events.push(Event {
                step: self.total,
                depth: self.depth,
                nodes: self.counted.nodes,
                probes: self.counted.probes,
                kind,
            });
        }
    }

    /// A node entered: its depth, the progress published, no stale branch.
    #[inline]
    fn entered(&mut self) {
        let nodes = self.counted.nodes;
        if nodes.is_multiple_of(Self::PUBLISH_EVERY)
            && let Some(to) = &self.published
        {
            to.store(nodes, Ordering::Relaxed);
        }
        let d = self.slot();
        self.histogram[d] += 1;
        // A rung that does not report its branches leaves no stale one behind.
        self.branches[d] = Branch::Unstated;
    }

    /// Strategies report a guess right after its placement (or way): mark
    /// it, if it is the last recorded event.
    #[inline]
    fn mark_guess(&mut self) {
        if self.events.last().map(|e| e.step) == Some(self.total)
            && let Some(Event {
                kind: EventKind::Place { guess, .. } | EventKind::Way { guess, .. },
                ..
            }) = self.events.last_mut()
        {
            *guess = true;
        }
    }
}

/// Every counter of the table is counted by [`Counter::add`], through the
/// real counter; [`Counter::hear`] only records.
impl Counter for Tracer {
    const ENABLED: bool = true;
    const EXPLAINS: bool = true;

    #[inline]
    fn add(&mut self, counter: Id, k: u64) {
        self.counted.add(counter, k);
    }

    #[inline]
    fn hear(&mut self, event: Heard) {
        match event {
            Heard::Node {} => self.entered(),
            Heard::Placement { cell, digit } => {
                let branch = self.branches[self.slot()];
                self.record(EventKind::Place {
                    cell: Cell(cell as u16),
                    digit,
                    branch,
                    guess: false,
                });
                self.depth += 1;
            }
            Heard::Backtrack { cell, digit } => {
                self.depth = self.depth.saturating_sub(1);
                self.record(EventKind::Backtrack {
                    cell: Cell(cell as u16),
                    digit,
                });
            }
            Heard::Guess {} => self.mark_guess(),
            Heard::DeadEnd { why } => self.record(EventKind::DeadEnd(why)),
            Heard::Forced { cell, digit, why } => self.record(EventKind::Forced {
                cell: Cell(cell as u16),
                digit,
                reason: why,
            }),
            // Probes, and any counter without an event to show: counted
            // (`add`), not recorded.
            _ => {}
        }
    }

    #[inline]
    fn way(&mut self, way: u8) {
        // Counted by guess (a way is no placement).
        if let Branch::Ways { chute, digit, ways } = self.branches[self.slot()] {
            self.record(EventKind::Way {
                chute,
                digit,
                way,
                ways,
                guess: false,
            });
            self.depth += 1;
        }
    }

    #[inline]
    fn way_back(&mut self, way: u8) {
        // The branch of the node that tried the way, one level up (its
        // children only write the slots below it); like `way`, nothing
        // for a node that did not branch on ways.
        let up = (self.depth as usize).saturating_sub(1).min(MAX_CELLS);
        if self.depth > 0
            && let Branch::Ways { chute, digit, .. } = self.branches[up]
        {
            self.depth -= 1;
            self.record(EventKind::WayBack { chute, digit, way });
        }
    }

    #[inline]
    fn branch(&mut self, on: Branch) {
        let d = self.slot();
        self.branches[d] = on;
    }

    #[inline]
    fn solution(&mut self) {
        self.record(EventKind::Solution);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::counters::Rivals;

    /// Every event of the `Counter` contract, details included, handed to
    /// a tracer and to the counter of a counted run: they count alike (the
    /// tracer counts through that counter, so a counter added to `Counts`
    /// cannot be dropped by the tracer).
    fn script<C: Counter>(c: &mut C) {
        c.node();
        c.branch(Branch::Unstated);
        c.choose(4, 0b101);
        c.choose(5, 0);
        c.choose_fewest(6, 0b11, Rivals { next: 3, ties: 1 });
        c.choose_fewest(7, 0, Rivals { next: 0, ties: 0 });
        c.placement(4, 1);
        c.guess();
        c.probes(7);
        c.node();
        c.forced(8, 2);
        c.forced_because(9, 3, Reason::NakedSingle);
        c.dead_end();
        c.dead_end_because(DeadEnd::Unstated);
        c.backtrack(4, 1);
        c.branch(Branch::Ways {
            chute: Chute::Stack(1),
            digit: 5,
            ways: 0b100100,
        });
        c.way(2);
        c.guess();
        c.way_back(2);
        c.solution();
        // And every counter of the table, events or not.
        for counter in Id::ALL {
            c.add(counter, 1);
        }
    }

    #[test]
    fn a_tracer_counts_exactly_as_the_counter_of_a_counted_run() {
        let mut counted = Counts::default();
        script(&mut counted);
        let mut traced = Tracer::new(4);
        script(&mut traced);
        assert_eq!(traced.counts(), counted);
        // The script reaches every counter.
        for (name, value) in Counts::NAMES.iter().zip(counted.values()) {
            assert!(value > 0, "{name} not exercised");
        }
    }

    /// A way is a level of depth, marked a guess by the `guess` after it,
    /// and its undo comes back up, naming the chute and digit of the
    /// branch; a way without a ways branch records nothing.
    #[test]
    fn a_way_goes_down_a_level_and_its_undo_comes_back() {
        let mut t = Tracer::new(10);
        t.node();
        t.way(0);
        t.branch(Branch::Ways {
            chute: Chute::Band(2),
            digit: 7,
            ways: 0b11,
        });
        t.way(1);
        t.guess();
        t.node();
        t.way_back(1);
        let kinds: Vec<(u32, EventKind)> = t.events().iter().map(|e| (e.depth, e.kind)).collect();
        let (chute, digit) = (Chute::Band(2), 7);
        assert_eq!(
            kinds,
            [
                (
                    0,
                    EventKind::Way {
                        chute,
                        digit,
                        way: 1,
                        ways: 0b11,
                        guess: true
                    }
                ),
                (
                    0,
                    EventKind::WayBack {
                        chute,
                        digit,
                        way: 1
                    }
                ),
            ]
        );
        assert_eq!(t.histogram(), [1, 1]);
        assert_eq!(t.counts().guesses, 1);
    }
}

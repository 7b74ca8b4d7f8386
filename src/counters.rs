//! Work counters, defined once for every strategy.
//!
//! Strategies are generic over a [`Counter`]. The timed path uses
//! [`NoCount`], whose methods are empty and `ENABLED` is `false`, so the
//! compiler removes every counting statement (and any work done only to count,
//! guarded by `if C::ENABLED`). The instrumented path uses [`Counts`]. Both
//! run the *same* search code, so counting cannot change what is timed.
//!
//! `nodes` is not here: the search context counts nodes itself because the
//! node budget needs them even when nothing else is counted.

use serde::{Deserialize, Serialize};

/// Receives work events from a search. All methods must be cheap.
pub trait Counter {
    /// `false` for the no-op counter: lets strategies skip work done only to count.
    const ENABLED: bool;
    /// Entering a search node (the context counts nodes; this is for tracers).
    fn node(&mut self);
    /// Digit `digit` written into `cell` by the search (givens are not placements).
    fn placement(&mut self, cell: usize, digit: u8);
    /// The placement of `digit` in `cell` undone on the way back up.
    fn backtrack(&mut self, cell: usize, digit: u8);
    /// `k` elementary look-ups (board cells scanned, table entries or masks
    /// read) spent choosing a cell or checking a digit: the cost per node.
    fn probes(&mut self, k: u64);
    /// A placement made where the cell had more than one candidate.
    fn guess(&mut self);
    /// A node where the chosen cell had no legal digit at all.
    fn dead_end(&mut self);
    /// `cell` filled with `digit` by inference (a forced single) rather than by
    /// branching. Forced cells are not placements and are never "backtracked".
    fn forced(&mut self, cell: usize, digit: u8);
}

/// The counter that counts nothing: used when timing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoCount;

impl Counter for NoCount {
    const ENABLED: bool = false;
    #[inline(always)]
    fn node(&mut self) {}
    #[inline(always)]
    fn placement(&mut self, _cell: usize, _digit: u8) {}
    #[inline(always)]
    fn backtrack(&mut self, _cell: usize, _digit: u8) {}
    #[inline(always)]
    fn probes(&mut self, _k: u64) {}
    #[inline(always)]
    fn guess(&mut self) {}
    #[inline(always)]
    fn dead_end(&mut self) {}
    #[inline(always)]
    fn forced(&mut self, _cell: usize, _digit: u8) {}
}

/// Exact work counts of one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Calls of the search procedure, the root included (always counted).
    pub nodes: u64,
    /// Digits written by the search.
    pub placements: u64,
    /// Placements undone (a search that stops at a solution does not undo it).
    pub backtracks: u64,
    /// Cells, table entries or masks read: the per-node cost made countable.
    pub probes: u64,
    /// Placements made where more than one candidate remained.
    pub guesses: u64,
    /// Nodes whose chosen cell had no candidate.
    pub dead_ends: u64,
    /// Cells filled by propagation (forced singles), not by branching.
    pub forced: u64,
}

impl Counter for Counts {
    const ENABLED: bool = true;
    #[inline(always)]
    fn node(&mut self) {}
    #[inline(always)]
    fn placement(&mut self, _cell: usize, _digit: u8) {
        self.placements += 1;
    }
    #[inline(always)]
    fn backtrack(&mut self, _cell: usize, _digit: u8) {
        self.backtracks += 1;
    }
    #[inline(always)]
    fn probes(&mut self, k: u64) {
        self.probes += k;
    }
    #[inline(always)]
    fn guess(&mut self) {
        self.guesses += 1;
    }
    #[inline(always)]
    fn dead_end(&mut self) {
        self.dead_ends += 1;
    }
    #[inline(always)]
    fn forced(&mut self, _cell: usize, _digit: u8) {
        self.forced += 1;
    }
}

impl Counts {
    /// The counter names, in CSV column order.
    pub const NAMES: [&'static str; 7] = [
        "nodes",
        "placements",
        "backtracks",
        "probes",
        "guesses",
        "dead_ends",
        "forced",
    ];

    /// The counter values, in the order of [`Counts::NAMES`].
    pub fn values(&self) -> [u64; 7] {
        [
            self.nodes,
            self.placements,
            self.backtracks,
            self.probes,
            self.guesses,
            self.dead_ends,
            self.forced,
        ]
    }
}

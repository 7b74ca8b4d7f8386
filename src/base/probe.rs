//! The counter that steers a rung's search along one random path (Knuth's
//! probe) and sums the weighted events of the nodes on it: the part of the
//! estimator that the rungs' counter list names, kept apart from the
//! estimator (which runs searches through the solver), so that the
//! strategies below it need not import the estimator above them.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::base::counters::{Admit, Branch, Chute, Counter, Counts, Heard, Id, WAYS};

/// A fault the probe found in the rung's search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault {
    Unstated,
    Mismatch { stated: u32, tried: u32 },
    TargetMissed,
}

/// One node of the probe's path that is still open.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    /// `1 / P(reaching this node)`: how many nodes it stands for.
    pub(crate) weight: f64,
    /// On the path to the solution the search stops at.
    pub(crate) on_path: bool,
    /// Options the node stated (`None` before it branched, or never).
    pub(crate) stated: Option<u32>,
    /// Children entered or skipped so far.
    pub(crate) seen: u32,
    /// The child a free node follows.
    pub(crate) pick: u32,
    /// An on-path node has entered the solution's child.
    pub(crate) found: bool,
    /// A branch on a digit's ways (its children place no cell, so which
    /// one holds the solution is read from the ways, not from placements).
    pub(crate) ways: Option<(Chute, u8, u32)>,
}

/// Whether the `i`-th child of a branch on `digit`'s `ways` through
/// `chute` (the `i`-th set bit of `ways`, [`WAYS`] order) keeps the way the
/// 9×9 solution `target` takes.
fn way_agrees(target: &[u8], (chute, digit, ways): (Chute, u8, u32), i: u32) -> bool {
    let Some(k) = (0..WAYS.len())
        .filter(|k| ways & (1 << k) != 0)
        .nth(i as usize)
    else {
        return false;
    };
    // Per line of the chute (a row of the band; a box of the stack), the
    // box (or column) the solution puts the digit in.
    (0..3).all(|line| {
        let want = WAYS[k][line];
        let cell = |r: usize, c: usize| target.get(9 * r + c) == Some(&digit);
        match chute {
            Chute::Band(b) => {
                (0..9).any(|c| cell(3 * b as usize + line, c) && c / 3 == want as usize)
            }
            Chute::Stack(s) => (0..3).any(|r| {
                (0..3).any(|c| cell(3 * line + r, 3 * s as usize + c) && c == want as usize)
            }),
        }
    })
}

/// The counter that steers a rung's search along one random path and sums
/// the weighted events of the nodes on it. Made and run only by
/// [`crate::analysis::estimate`]; public because the lab's counter list names it.
pub struct Probe {
    pub(crate) rng: ChaCha8Rng,
    /// The solution where the search stops (empty: the whole tree).
    pub(crate) target: Vec<u8>,
    pub(crate) frames: Vec<Frame>,
    /// Placements since the last child boundary: any, and all agreeing.
    pub(crate) placed: bool,
    pub(crate) agree: bool,
    /// The on-path leaf was reached: the search would stop here.
    pub(crate) done: bool,
    pub(crate) fault: Option<Fault>,
    /// Nodes entered or skipped, over every probe.
    pub(crate) visits: u64,
    /// This probe's weighted counts, in [`Counts::NAMES`] order.
    pub(crate) sums: [f64; Counts::LEN],
    /// Enters every child with weight 1 (no target): the sums are then
    /// the exact counts of the whole tree, a check of the weighting.
    pub(crate) every: bool,
}

impl Probe {
    pub(crate) fn new(seed: u64, target: Vec<u8>, depth: usize) -> Probe {
        Probe {
            rng: ChaCha8Rng::seed_from_u64(seed),
            target,
            frames: Vec::with_capacity(depth + 2),
            placed: false,
            agree: true,
            done: false,
            fault: None,
            visits: 0,
            sums: [0.0; Counts::LEN],
            every: false,
        }
    }

    /// A probe that enters every node of the whole tree with weight 1
    /// ([`Probe::every`]).
    #[cfg(test)]
    pub(crate) fn exhaustive(depth: usize) -> Probe {
        Probe {
            every: true,
            ..Probe::new(0, Vec::new(), depth)
        }
    }

    /// Ready for the next probe (keeps the stream, the visits and the buffers).
    pub(crate) fn reset(&mut self) {
        self.frames.clear();
        self.placed = false;
        self.agree = true;
        self.done = false;
        self.fault = None;
        self.sums = [0.0; Counts::LEN];
    }

    fn push(&mut self, weight: f64, on_path: bool) {
        self.frames.push(Frame {
            weight,
            on_path,
            stated: None,
            seen: 0,
            pick: 0,
            found: false,
            ways: None,
        });
    }

    fn fail(&mut self, fault: Fault) -> Admit {
        self.fault.get_or_insert(fault);
        Admit::Stop
    }

    /// A free node closes: it must have tried what it stated.
    pub(crate) fn check_closed(&mut self, f: Frame) {
        if f.on_path {
            if !self.done {
                self.fault.get_or_insert(Fault::TargetMissed);
            }
            return;
        }
        if let Some(stated) = f.stated
            && stated != f.seen
        {
            self.fault.get_or_insert(Fault::Mismatch {
                stated,
                tried: f.seen,
            });
        }
    }
}

impl Counter for Probe {
    const ENABLED: bool = true;
    const STEERS: bool = true;

    fn admit(&mut self) -> Admit {
        self.visits += 1;
        if self.done || self.fault.is_some() {
            return Admit::Stop;
        }
        let mut agrees = self.placed && self.agree;
        self.placed = false;
        self.agree = true;
        let Some(parent) = self.frames.last_mut() else {
            let on_path = !self.target.is_empty();
            self.push(1.0, on_path);
            return Admit::Enter;
        };
        let i = parent.seen;
        if let Some(w) = parent.ways {
            agrees = way_agrees(&self.target, w, i);
        }
        parent.seen += 1;
        let weight = parent.weight;
        if parent.on_path {
            if parent.found {
                // A child after the solution's: the search never gets here.
                return self.fail(Fault::TargetMissed);
            }
            if agrees {
                parent.found = true;
                self.push(weight, true);
            } else {
                // Tried before the solution's child, so searched in full:
                // every such child gets one probe of its own.
                self.push(weight, false);
            }
            return Admit::Enter;
        }
        match parent.stated {
            None => self.fail(Fault::Unstated),
            Some(_) if self.every => {
                self.push(weight, false);
                Admit::Enter
            }
            Some(d) if i == parent.pick => {
                self.push(weight * d as f64, false);
                Admit::Enter
            }
            Some(_) => Admit::Skip,
        }
    }

    fn left(&mut self) {
        self.placed = false;
        self.agree = true;
        if let Some(child) = self.frames.pop() {
            self.check_closed(child);
        }
    }

    fn branch(&mut self, on: Branch) {
        if self.done {
            return;
        }
        let Some(top) = self.frames.last_mut() else {
            return;
        };
        top.stated = on.options();
        top.ways = match on {
            Branch::Ways { chute, digit, ways } => Some((chute, digit, ways)),
            _ => None,
        };
        if let (false, Some(d)) = (top.on_path, top.stated)
            && d > 0
        {
            top.pick = self.rng.random_range(0..d);
        }
    }

    /// Weights `k` events of `counter` at the current node, whatever the
    /// counter: every line of the table is summed.
    fn add(&mut self, counter: Id, k: u64) {
        if self.done {
            return;
        }
        // A node's own entry (`node`) comes once `admit` has pushed it; work
        // before the root is entered (a rung setting up its search) happens
        // once per search: weight 1.
        let weight = self.frames.last().map_or(1.0, |top| top.weight);
        self.sums[counter as usize] += weight * k as f64;
    }

    fn hear(&mut self, event: Heard) {
        if let Heard::Placement { cell, digit } = event {
            self.placed = true;
            if self.target.get(cell) != Some(&digit) {
                self.agree = false;
            }
        }
    }

    fn solution(&mut self) {
        if let Some(top) = self.frames.last()
            && top.on_path
            && !self.done
        {
            self.done = true;
        }
    }
}

//! # Variant of rung 9 — `fast-triads-tdoku`: `fast-triads` with tdoku's branch throughout
//!
//! **What it switches.** [`fast-triads`](super::fast_triads) branches on a
//! digit's ways through a chute. Its first 64 guesses of a search
//! ([`HARD_AFTER`](super::fast::HARD_AFTER)) take tdoku's rule: the chute
//! with the fewest ways over its digits, a digit with two ways. A search
//! that needs more is a hard one, and from there on the rung takes the
//! chute with the fewest digits not yet fixed, on its digit with the most
//! ways (`Switches::HARD_BRANCH`, #28). This variant keeps tdoku's rule to
//! the end: the tree `fast-triads` had before, with the same rules and the
//! same node; nothing else changes.
//!
//! **Cost per node.** The same: both rules read the same 54 counts of
//! ways, once per branch. The tree is what moves, on hard puzzles only
//! (the rung's header has the counts).
//!
//! Its tree is fixed, whatever the order of the search, so `estimate` can
//! size it where it declines `fast-triads` (`Rung::ORDER_DEPENDENT`).
//!
//! **What it teaches.** No one branching rule is best on every puzzle:
//! the rule that halves the hardest trees when used from the root makes
//! the trees of puzzles that need one or two guesses larger, up to three
//! times on top1465 (the rung's header has the counts). How many guesses a search
//! has already made is a cheap, honest sign of which kind it is facing.
//! Not in the default selection of `compare`, `ladder` and `speed` (name it
//! with `--strategy`).

use crate::base::strategy::fast::{Switches, Variant};
use crate::base::strategy::fast_triads::FastTriads;

/// `fast-triads` with `HARD_BRANCH` off.
pub struct FastTriadsTdoku;

impl Switches for FastTriadsTdoku {
    const COLS: bool = FastTriads::COLS;
    const STACKS: bool = FastTriads::STACKS;
    const POINTING: bool = FastTriads::POINTING;
    const NATIVE: bool = FastTriads::NATIVE;
    const ROW_BIVALUES: bool = FastTriads::ROW_BIVALUES;
    const TRIADS: bool = FastTriads::TRIADS;
    const HARD_BRANCH: bool = false;
}

impl Variant for FastTriadsTdoku {
    const NAME: &'static str = "fast-triads-tdoku";
    const SUMMARY: &'static str =
        "variant of fast-triads: tdoku's branch (fewest ways) throughout, also on hard puzzles (9x9 only)";
}

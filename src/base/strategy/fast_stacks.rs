//! # Variant of rung 8 — `fast-stacks`: `fast` with the stack filter
//!
//! **What it switches.** [`fast`](super::fast)'s band filter works along
//! rows: inside a band, the (row, box) pairs a digit uses form a
//! permutation. A *stack* (three boxes one above the other) obeys the same
//! rule along columns. This variant turns on that filter (`Switches::STACKS`)
//! in the column sweep before each guess: per digit and stack, the
//! (band, column) pattern is looked up in the same permutation table, which
//! performs locked candidates along columns both ways (pointing and
//! claiming) and finds a digit with no room in a stack. `fast` itself only
//! claims a column when a box has one column left for the digit.
//!
//! **Cost per node.** Three more table reads and a few word operations per
//! digit in each column sweep, for fewer nodes.
//!
//! **What it teaches.** More inference is not always faster: the filter
//! saves nodes on every corpus, but `fast`'s header records that it costs
//! more instructions than it saves, which
//! `sudoku-lab ladder --dist -s fast,fast-stacks` shows on any set. Not in
//! the default selection of `compare`, `ladder` and `speed` (name it with
//! `--strategy`).

use crate::base::strategy::fast::{Fast, Switches, Variant};

/// `fast` with `STACKS` on.
pub struct FastStacks;

impl Switches for FastStacks {
    const COLS: bool = Fast::COLS;
    const STACKS: bool = true;
    const POINTING: bool = Fast::POINTING;
    const NATIVE: bool = Fast::NATIVE;
    const ROW_BIVALUES: bool = Fast::ROW_BIVALUES;
    const TRIADS: bool = Fast::TRIADS;
    const HARD_BRANCH: bool = Fast::HARD_BRANCH;
}

impl Variant for FastStacks {
    const NAME: &'static str = "fast-stacks";
    const SUMMARY: &'static str =
        "variant of fast: also the stack filter (locked candidates along columns) before a guess (9x9 only)";
}

//! # Variant of rung 8 — `fast-no-cols`: `fast` without hidden singles in columns
//!
//! **What it switches.** [`fast`](super::fast) looks for hidden singles in
//! columns before each guess (`Switches::COLS`): the band filter finds a
//! digit's last place in a row or a box, but a column crosses all three
//! bands, so it needs a sweep of its own. This variant turns that sweep off
//! and changes nothing else; a digit left with one cell in a column is then
//! found only when the band filters get there by other means, or by a guess.
//!
//! **Cost per node.** One column sweep (27 word reads per node) less, for
//! more nodes.
//!
//! **What it teaches.** Whether one inference rule pays is a measurement:
//! `sudoku-lab ladder --dist -s fast-no-cols,fast` shows the nodes it saves
//! and the time it costs on any set. Not in the default selection of
//! `compare`, `ladder` and `speed` (name it with `--strategy`).

use crate::base::strategy::fast::{Fast, Switches, Variant};

/// `fast` with `COLS` off.
pub struct FastNoCols;

impl Switches for FastNoCols {
    const COLS: bool = false;
    const STACKS: bool = Fast::STACKS;
    const POINTING: bool = Fast::POINTING;
    const NATIVE: bool = Fast::NATIVE;
    const ROW_BIVALUES: bool = Fast::ROW_BIVALUES;
    const TRIADS: bool = Fast::TRIADS;
    const HARD_BRANCH: bool = Fast::HARD_BRANCH;
}

impl Variant for FastNoCols {
    const NAME: &'static str = "fast-no-cols";
    const SUMMARY: &'static str =
        "variant of fast: no hidden singles in columns before a guess (9x9 only)";
}

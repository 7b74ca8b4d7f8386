//! # Variant of rung 8 — `fast-plain-score`: `fast` with the old bivalue score
//!
//! **What it switches.** When nothing is forced, [`fast`](super::fast)
//! branches on the bivalue cell with the best score: row + column + 2 × box
//! unsolved counts + 3 × the bivalue cells of its row, the last best in
//! row-major order on ties (`Switches::ROW_BIVALUES`, #28). This variant
//! scores row + column + box only, the first best on ties: the score `fast`
//! had before, with the same tree; nothing else changes.
//!
//! **Cost per node.** Per band with bivalue cells, three look-ups less (the
//! rows' bivalue counts) and each box's count added once instead of twice:
//! the same handful of operations per choice, only at a guess. The tree is
//! what moves: counting to 2 through `examples/count2` on forum-hardest
//! (all 375), 355.97 guesses and 515,222 instructions per puzzle (valgrind)
//! against `fast`'s 343.87 and 504,318; the code before #28 counts the
//! same guesses and instructions as this variant.
//!
//! **What it teaches.** How much the choice of the cell to guess moves the
//! tree with the inference unchanged, for almost no work per choice: the
//! row's bivalue cells say what a guess will force, because a placement's
//! row and box are filtered in the band update at once, its column only
//! later. Not in the default selection of
//! `compare`, `ladder` and `speed` (name it with `--strategy`).

use crate::base::strategy::fast::{Fast, Switches, Variant};

/// `fast` with `ROW_BIVALUES` off.
pub struct FastPlainScore;

impl Switches for FastPlainScore {
    const COLS: bool = Fast::COLS;
    const STACKS: bool = Fast::STACKS;
    const POINTING: bool = Fast::POINTING;
    const NATIVE: bool = Fast::NATIVE;
    const ROW_BIVALUES: bool = false;
    const TRIADS: bool = Fast::TRIADS;
    const HARD_BRANCH: bool = Fast::HARD_BRANCH;
}

impl Variant for FastPlainScore {
    const NAME: &'static str = "fast-plain-score";
    const SUMMARY: &'static str =
        "variant of fast: the plain bivalue score, row + column + box unsolved cells, first best (9x9 only)";
}

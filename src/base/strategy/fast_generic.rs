//! # Variant of rung 8 — `fast-generic`: `fast` without the CPU-specific copy
//!
//! **What it switches.** On an x86-64 CPU with the x86-64-v3 instructions
//! (AVX2, BMI1/2, POPCNT, LZCNT), [`fast`](super::fast) runs a copy of its
//! search compiled for them, chosen at run time (`Switches::NATIVE`). This
//! variant always runs the generic copy, the one every CPU runs; nothing
//! else changes, so both visit the same tree with the same counts.
//!
//! **Cost per node.** The same operations, in the target's baseline
//! instructions: a lowest set bit costs a `bsf` and a zero test instead of
//! one `tzcnt`, clearing it two instructions instead of one `blsr`, the
//! sweeps over all nine digits use 128-bit vectors instead of 256-bit ones,
//! and a placement finds the words that held its cells by the compiler's
//! shuffles instead of one `movmskps`.
//!
//! **What it teaches.** How much of a fast solver's speed is the
//! instruction set it was compiled for, with no change to the algorithm.
//! It is also how the tests hold the generic copy to the same contract as
//! the CPU-specific one on a machine that would otherwise never run it. Not in the
//! default selection of `compare`, `ladder` and `speed` (name it with
//! `--strategy`).

use crate::base::strategy::fast::{Fast, Switches, Variant};

/// `fast` with `NATIVE` off.
pub struct FastGeneric;

impl Switches for FastGeneric {
    const COLS: bool = Fast::COLS;
    const STACKS: bool = Fast::STACKS;
    const POINTING: bool = Fast::POINTING;
    const NATIVE: bool = false;
    const ROW_BIVALUES: bool = Fast::ROW_BIVALUES;
    const TRIADS: bool = Fast::TRIADS;
    const HARD_BRANCH: bool = Fast::HARD_BRANCH;
}

impl Variant for FastGeneric {
    const NAME: &'static str = "fast-generic";
    const SUMMARY: &'static str =
        "variant of fast: always the portable copy of the search, never the CPU-specific one (9x9 only)";
}

//! # Rung 9 — `fast-triads`: `fast` with tdoku's triads and branch
//!
//! **What changes from `fast`.** The state, the band updates, the naked
//! singles and the two compiled copies are [`fast`](super::fast)'s (this
//! rung is `fast`'s search with one switch, `Switches::TRIADS`, turned on).
//! What changes is what happens when the band updates reach a fixpoint.
//! Where `fast` sweeps the columns for hidden singles and picks a bivalue
//! cell, this rung runs three of the rules that make tdoku's tree small, on
//! all nine digits at once, in word arithmetic (no table, no branch per
//! digit):
//! * **the stack filter**: inside a stack the (band, column) pairs a digit
//!   uses form a permutation, like the (row, box) pairs inside a band. A
//!   pair survives if the two other bands can take the two other columns
//!   (a 2×2 check, two rotations of 3-bit groups). It performs locked
//!   candidates along columns both ways, and finds every hidden single in a
//!   column through the band filter, so the column sweep is off;
//! * **hidden minicolumn triads**: a minicolumn (three cells of a column
//!   inside a box) that three digits must use holds those three, and four
//!   is a contradiction;
//! * **hidden minirow triads**: the same for minirows (three cells of a row
//!   inside a box).
//!
//! Any change goes back to the band updates (the triad rules run only once
//! the stack filter changes nothing); at a fixpoint it branches as
//! tdoku does: in the band or stack whose digits have the fewest ways
//! through it (a way: one minirow, or minicolumn, per box), a digit with
//! two ways (else three, else the fewest), one child per way. A child keeps
//! only that way's three minirows of the digit, so a guess writes no cell
//! (`Rung::GUESSES_PLACE` is false: the counters see a guess and the way,
//! `Counter::way` and `Counter::way_back`, no placement; `trace` lists
//! each as a `way` line, a level of depth).
//!
//! **Hard puzzles, another branch (#28).** That rule is for the first 64
//! guesses of a search ([`HARD_AFTER`](super::fast::HARD_AFTER), counted
//! in the counter's unit: ways entered). A search
//! that needs more is a hard one, and from there on the rung branches in
//! the chute with the fewest digits not yet fixed (ties: the most ways), on
//! its digit with the most ways (`Switches::HARD_BRANCH`; the variant
//! `fast-triads-tdoku` keeps tdoku's rule to the end). A few open digits
//! can fill a chute's free minirows in few ways together, however many
//! each has alone, so most children of the widest one die at once.
//!
//! **Guesses against tdoku's (#60).** tdoku branches one way against the
//! rest and counts one guess per such binary branch (the rest is entered
//! as a deduction). This rung's `guesses` counter counts every way entered
//! (2 to 6 per branch point); [`crate::Solver::guesses`], what tdoku's
//! harness reads, is in tdoku's unit: n − 1 for a branch point whose n ways
//! were all entered (k for one cut short after k < n). On forum-hardest
//! that is 126.81 per puzzle against 201.41 ways entered (as stored, count
//! to 2); in the harness's permuted puzzles 124.89 against tdoku's 112.61,
//! on top1465 9.50 against 9.04 (Zen 4, 2026-12-08): in tdoku's unit the
//! tree is larger, 11% and 5%. Each binary branch of tdoku's propagates
//! twice (the way, then its negation), each way here once, so in
//! propagations the tree is the smaller (201 against about 225): what
//! makes the rung faster there is fewer and cheaper propagations, not
//! fewer branches. MEASURING.md, "Guesses in tdoku's unit", has the table.
//!
//! **`HARD_AFTER` tuned on one set, reported on others (#60).** Tuned on
//! `tune10k` (`generate --count 10000 --seed 7 --clues 22..25`, used for
//! nothing else), by a rule fixed before: the fewest instructions per
//! puzzle (callgrind, `examples/count2`, count to 2, an experimental build
//! reading the threshold at run time), the smallest threshold on ties.
//! Instructions per puzzle, ÷ those at 64 for the others:
//!
//! | set | 16 | 32 | 64 | 128 | 256 |
//! |---|---:|---:|---:|---:|---:|
//! | tune10k (tuned on) | +0.04% | +0.001% | 14,268 | 0 | 0 |
//! | 17-clue (first 10,000) | +1.27% | +0.57% | 13,299 | −0.39% | −0.51% |
//! | top1465 | +2.97% | +0.99% | 61,210 | +0.00% | −0.11% |
//! | forum-hardest-1106 | −1.04% | −2.20% | 533,111 | +2.88% | +11.90% |
//! | gen10k | +0.04% | +0.00% | 14,267 | 0 | 0 |
//!
//! So 64 stays, on weak evidence: on tune10k 64, 128 and 256 search the
//! same tree (no search there makes 64 guesses), and its time cannot tell
//! them apart (tdoku's harness, values alternating in three rounds: ÷ tdoku
//! 1.73, 1.60, 1.78 for the one tree). On the sets it was not tuned on, 64
//! is within 2.2% of the best value on each and no value is best on all:
//! forum-hardest wants 32, 17-clue 256. MEASURING.md has the trees and the
//! times.
//!
//! **Cost per node.** About 1,000 word operations for the rules each time a
//! fixpoint is reached, and 54 table reads for the branch: a node costs more
//! instructions than `fast`'s, but they are straight-line arithmetic the CPU
//! overlaps, and the tree is two fifths smaller on the hardest puzzles. On easy
//! puzzles, which `fast` solves with few guesses, the rules are mostly a
//! cost: this rung is the faster of the two on the hardest corpus only.
//!
//! **Against the field (#28).** tdoku's harness (`LAB_TOP=fast-triads
//! run_benchmark -t 3 -w 1 -n 10000 -e 1 -s lab_top,lab_fast,rust_sudoku,tdoku`,
//! count to 2, 10,000 permuted puzzles per corpus, one process), five rounds
//! on an AMD EPYC Zen 4 VM, 2026-12-05 20:38–20:44 UTC, quiet, commit
//! 1431707; per-round ratios, median [lowest–highest]; `gen10k` is
//! `generate --count 10000 --seed 25 --clues 22..25`:
//!
//! | corpus | ÷ tdoku | ÷ `sudoku` crate | ÷ `fast` |
//! |---|---:|---:|---:|
//! | 17-clue | 1.95 [1.88–1.96] | 1.26 [1.21–1.27] | 0.99 [0.99–1.01] |
//! | top1465 | 1.24 [1.23–1.25] | 1.36 [1.35–1.50] | 0.99 [0.98–0.99] |
//! | forum-hardest-1106 | 1.10 [1.09–1.11] | 1.55 [1.51–1.58] | 1.15 [1.13–1.19] |
//! | gen10k | 1.71 [1.50–1.77] | 1.16 [1.04–1.18] | 1.01 [0.90–1.03] |
//!
//! On a Zen 3 VM (2026-12-06 01:30–01:36 UTC, quiet, commit 9e99003, five
//! rounds of the same command) it is further ahead: ÷ tdoku 2.19, 1.42, 1.27
//! [1.19–1.30] on forum-hardest, 1.94; ÷ crate 1.25, 1.38, 1.63, 1.16
//! [1.09–1.19] on gen10k. With the hard-puzzle branch (below; commit
//! 8c171b5, 04:08–04:14 UTC, `scripts/harness-rounds.py --rounds 5`):
//! ÷ tdoku 2.17, 1.41, 1.42 [1.35–1.45] on forum-hardest, 1.94; ÷ crate
//! 1.21, 1.34, 1.81, 1.16 [1.15–1.25]; ÷ `fast` 1.28 on forum-hardest.
//! On the Zen 1 VM below, before that branch, tdoku kept forum-hardest
//! (÷ tdoku 0.93 [0.90–0.95], three rounds). On an Intel Xeon VM with
//! AVX-512 (family 6, model 167; 2026-12-06, commit 78286f4, two sittings
//! of `scripts/harness-rounds.py --rounds 5`), where tdoku's `-march=native`
//! build uses AVX-512, tdoku keeps top1465 and forum-hardest: ÷ tdoku
//! 1.58 / 1.57, 0.95 / 0.95, 0.98 / 0.98, 1.42 / 1.43; ÷ crate 1.37 / 1.34,
//! 1.36 / 1.42, 1.83 / 1.86, 1.28 / 1.30. With the band update's chain
//! shortened (commit a013ebf, the same tree; `fast`'s header has the steps),
//! on a VM of that model (2026-12-06 20:40–20:46 and 20:53–20:59 UTC, five
//! rounds each): ÷ tdoku 1.64 / 1.62, 1.01 [0.98–1.04] / 1.02 [1.01–1.03],
//! 1.04 / 1.04, 1.43 / 1.46; ÷ crate 1.40 / 1.39, 1.48 / 1.51, 1.97 / 1.93,
//! 1.31 / 1.33; ÷ `fast` 0.97 / 0.94, 0.96 / 0.99, 1.31 / 1.31, 0.98 / 1.00.
//! With the branch's choice by one minimum (commit 315fe5a, 21:09–21:14
//! UTC): ÷ tdoku 1.62, 1.04 [1.03–1.06], 1.05 [1.02–1.09], 1.47; ÷ crate
//! 1.42, 1.53, 1.98, 1.33; ÷ `fast` 0.96, 1.00, 1.32, 1.00. On Zen 4 with
//! #60's count (2026-12-08, commit e00ad89, load 5–6, three rounds of
//! `scripts/harness-rounds.py`): ÷ tdoku 2.00, 1.33, 1.30, 1.88; ÷ `fast`
//! 0.98, 0.98, 1.32, 1.02. MEASURING.md has all five
//! machines at a glance and every table in full (the README this sitting's).
//!
//! **What did not pay on Zen 1 (#28).** On an AMD
//! EPYC Zen 1 VM (2026-12-05), where this rung makes 0.91 of tdoku's
//! puzzles/s on forum-hardest, five cuts of its node were measured: thread
//! CPU time of `examples/count2` (forum-hardest ×8, 3,000 puzzles, eight
//! alternating rounds, median ratio to the code as it is; same tree, 226.67
//! guesses per puzzle each time), and tdoku's harness for the one that
//! looked best. None is in the code:
//! * the band filter's pattern by shifts and ORs (a transposed table index,
//!   no `ROW_INFO` look-ups; row singles always looked up): ×0.99, noise;
//!   the column claim's lone columns by rotations instead of a table and a
//!   multiply: ×1.03;
//! * the ways of the branch counted in word arithmetic (two ANDs of rotated
//!   rows per pattern, one bit per way, no table): instructions −1.9%
//!   (669,040 → 656,493 per puzzle under callgrind), time ×0.99; in the
//!   harness (its LTO build, five rounds each) 6,311 against 6,544
//!   puzzles/s, ÷ tdoku 0.89 against 0.91: slower;
//! * the hidden triads with the three bands side by side in lanes (as the
//!   naked-single count does it): ×1.14;
//! * the CPU-specific copy with 128-bit vectors (AVX without AVX2, as Zen 1
//!   splits 256-bit operations in two): ×1.13; the portable copy: ×1.27.
//!   The rules over nine digits need the wide vectors, even here.
//!
//! Fewer instructions did not mean less time here. perf (cpu-clock) puts a
//! third of the node's time in the band updates and a quarter in the triad
//! rules, spread over many lines: no single step holds the 10% missing.
//!
//! **The hard-puzzle branch, measured (#28, 2026-12-06, Zen 3).** Tree
//! and instructions per puzzle through `examples/count2` under callgrind
//! (count to 2; forum-hardest all 375, top1465, 17-clue's first 10,000,
//! gen10k), tdoku's rule throughout (`fast-triads-tdoku`) → this rung:
//! guesses 226.67 → 201.41, 18.03 → 18.21, 0.78 → 0.83, 1.66 → 1.66;
//! instructions 667,471 → 572,377 (−14%), 65,746 → 66,108 (+0.6%), 14,399
//! → 14,506 (+0.7%), 15,471 → 15,485. In tdoku's harness, one build, the
//! two as `LAB_TOP` in turn, three rounds (docs/08-fast-records.md has the record),
//! ÷ tdoku: forum-hardest 1.25 → 1.42, top1465 1.41 → 1.37, 17-clue 2.16 →
//! 2.13, gen10k 1.97 → 1.95. The rules tried on the way (an experimental
//! build reading the rule at run time; guesses per puzzle on forum-hardest
//! and top1465, tdoku's rule: 226.67 and 18.03):
//! * the hard rule from the root: 115.49 and 22.04 (17-clue 1.73, gen10k
//!   1.91): the hardest trees halve, the easy ones grow by a sixth to
//!   more than double. Per puzzle (with tdoku's choice of digit), by the guesses
//!   tdoku's rule needs: on top1465 ×3.07 for those with one or two,
//!   ×2.07 for three to eight, ×0.72 past 128; on forum-hardest ×0.52
//!   past 128;
//! * the fewest open digits with the first chute on ties: 160.99 and 19.21;
//!   with the fewest ways on ties: 184.77 and 18.53; the digit with two
//!   ways as before (not the widest): 147.35 and 20.30; the product of the
//!   ways, or the digit with the fewest candidates, instead of tdoku's
//!   choice: within ±6% of it;
//! * the hard rule below a depth instead of after a number of guesses
//!   (depth 2 to 10): 224.60 to 262.71 on forum-hardest, worse on both;
//!   only at the root: 241.93; from the second guess on: 167.97 and 21.37;
//! * restarting the search with the hard rule after T guesses (simulated
//!   from each puzzle's guesses under both rules): forum-hardest 0.85 of
//!   tdoku's rule at T = 64 but top1465 1.07; switching without a restart
//!   (taken) keeps what the first guesses found;
//! * a sign at the root (candidates left, ways, open digits): none tells
//!   the puzzles the hard rule helps from those it hurts.
//!
//! **What did not pay on the Intel Xeon with AVX-512 (#28, 2026-12-06).**
//! tdoku's harness, one build of the kit per try, the try and the code as
//! it is selected at run time by an environment variable of the
//! experimental build, alternating runs over the four corpora, four rounds
//! each; median of the per-round ratios try ÷ as it is (17-clue, top1465,
//! forum-hardest, gen10k). None is in the code:
//! * a third compiled copy for x86-64-v4 (this source with
//!   `avx512f,avx512bw,avx512vl,avx512dq,avx512cd` enabled, the band
//!   clearing by `vptestmd` into a mask): ×0.92, 0.91, 0.94, 0.91 [rounds
//!   0.87–0.97]. The compiler fills it with 512-bit vectors (2,384 lines of
//!   its node's disassembly name a `zmm` register) and `vpternlogd`;
//! * the same copy held to 256-bit vectors (rustc's unstable
//!   `-C target-feature=+prefer-256-bit`, for the experiment only): ×1.01,
//!   0.98, 0.98, 0.99: the AVX-512 instructions buy nothing for this source
//!   as the compiler writes it;
//! * the triads and tdoku's branch only once a search has made K guesses
//!   (`fast`'s column sweep and bivalue branch before): K = 8: ×1.00, 1.04,
//!   0.98, 0.99; K = 2: ×1.01, 1.03, 0.95, 0.99. top1465, where `fast` is
//!   ahead of this rung (×0.94 and 0.97 of it), gains what forum-hardest
//!   loses;
//! * the hard-puzzle branch sooner or later: guesses per puzzle on 1,500
//!   permuted forum-hardest puzzles 199.35 at 64 (as it is), 200.52 at 32,
//!   202.25 at 16, 204.52 at 8, 198.79 at 2, 210.49 at 128; on 14,650
//!   permuted top1465 puzzles 18.57 at 64, 19.02 at 32, 21.40 at 2: not
//!   timed (forum-hardest's tree 0.3% smaller at best, top1465's larger
//!   every time). Only from the root (116.28 and 22.10;
//!   169.27 and 21.49 from the second guess) does forum-hardest's tree
//!   shrink, at top1465's cost, as the runs above found.
//!
//! tdoku gains more from this CPU than the lab does (÷ crate on top1465
//! ×1.43–1.49 here, ×0.94 on Zen 3), and nothing above made the lab's node
//! use it. What paid there was a shorter chain of dependent steps in the
//! band update, not wider vectors: the column claim's cells from one
//! table, its look-up started from the word before the filter; no vector
//! multiply in these rules (`vpmulld` takes 10 cycles on this core, 3 on
//! Zen 3); no bounds checks in the hot loops. Together ×1.08, ×1.10, ×1.09,
//! ×1.07 (`fast`'s header, "third round"), and tdoku no longer keeps a
//! corpus there (above).
//!
//! **What it teaches.** The rules tdoku runs are worth their cost only
//! together with its branch, and only when measured in time: counted in
//! instructions they look like a loss. And the top of the ladder is where
//! the field's standard harness is the judge: `fast`'s header and
//! `docs/08-fast-records.md` have the measurements, step by step (#28).

use crate::base::strategy::fast::{Fast, Switches, Variant};

/// Rung 9: `fast` with `TRIADS` on (and the column sweep off: the stack
/// filter does its work).
pub struct FastTriads;

impl Switches for FastTriads {
    const COLS: bool = false;
    const STACKS: bool = Fast::STACKS;
    const POINTING: bool = Fast::POINTING;
    const NATIVE: bool = Fast::NATIVE;
    const ROW_BIVALUES: bool = Fast::ROW_BIVALUES;
    const TRIADS: bool = true;
    const HARD_BRANCH: bool = true;
}

impl Variant for FastTriads {
    const NAME: &'static str = "fast-triads";
    const SUMMARY: &'static str = "9x9 only: fast with tdoku's stack filter, hidden triads and branch on a digit's ways through a band or stack";
}

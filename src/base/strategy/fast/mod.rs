//! # Rung 8 — `fast`: band bitboards, the shape of the fastest solvers
//!
//! **What changes from the previous rungs.** Every earlier rung stores the
//! *grid* and derives candidates from it. This one stores the *candidates*
//! and derives the grid only at the end. For each digit the 81 cells are split
//! into three bands of three rows; one `u32` holds a band's 27 cells (bit
//! `9*row + column`, so bit `i` of band `b` is cell `27*b + i`). A set bit
//! means "this digit may still go here". 27 words plus 3 "unsolved" words
//! describe the whole state (120 bytes), so a guess copies it instead of
//! undoing moves.
//!
//! Inference works on a whole band of one digit at once (a *band update*):
//! * **Rows × boxes (locked candidates and hidden singles).** Inside a band a
//!   digit occupies one cell in each of its 3 rows and one in each of its 3
//!   boxes, so the (row, box) pairs it uses form a permutation of a 3×3 matrix.
//!   The band is folded to 9 bits ("row r meets box k"), a 512-entry table
//!   gives the cells that lie on *some* permutation, and everything else is
//!   cleared in one AND. That single step performs pointing and claiming
//!   (box/line reduction) inside the band, finds hidden singles in rows and
//!   boxes, and detects a digit with no room in a row or box.
//! * **Columns.** A box where the digit is left with a single column claims
//!   that column: it leaves the digit's two other bands (locked candidates
//!   along columns; a placed digit is the special case of one cell). One
//!   table read and a multiply that spreads the column bits over 3 rows.
//! * **Placement.** A row whose 9 bits hold a single cell is solved: that cell
//!   leaves the other 8 digits' words of the band.
//!
//! and, when no band update is pending, on whole bands and columns:
//! * **Naked singles.** Per band, ORing the 9 digit words with "at least one" /
//!   "at least two" / "at least three" accumulators gives, in 27 AND/ORs, the
//!   cells with no candidate (contradiction), one candidate (place it) and
//!   exactly two (bivalue cells).
//! * **Hidden singles in columns.** Before guessing, the three bands of a
//!   digit are stacked ("in at least one band" / "in at least two") and
//!   folded: a column with room for the digit in exactly one cell fixes it.
//!   A check without branches asks first, for all nine digits at once,
//!   whether any column has fewer than two cells for a digit not placed
//!   there (`columns_quiet`); the sweep, with its branches per digit, runs
//!   only then.
//! * **Careful guessing.** When nothing is forced, branch on a bivalue cell
//!   (two options only; a wrong one often ends soon, but not always: on Golden
//!   Nugget about half of the wrong branches are a dead end at once): the one with
//!   the most unsolved cells in its row, column and box (the box counted
//!   twice), where its digit has the most to propagate into, and the most
//!   bivalue cells in its row (three points each), which its placement may
//!   leave single. Only if there is no bivalue cell, on the cell with the
//!   fewest candidates.
//!
//! Only words that changed since they were last filtered are revisited. Each
//! write that removes a candidate notes its word (bit `9*b + d` of a dirty
//! set, one compare and an OR); a pass of band updates takes the words the
//! last pass changed. A child's copy is its parent's fixpoint, so its first
//! pass takes the words its guess changed, and nothing else.
//!
//! **Cost per node.** A node is one full propagation to a fixpoint plus one
//! guess. A band update costs 3 + 1 + 1 + 3 table reads and a few ANDs; a
//! naked-single sweep is 27 word reads, a column sweep 27 more. There is no
//! per-cell loop anywhere on the hot path. Counted `probes` = band updates +
//! 27 per pass of band updates (what its dirty check read when the words
//! were compared instead of noted; kept, so the counts stay comparable) +
//! 9 per band in each
//! naked-single sweep + 3 per digit in each column sweep (the words read) + 9
//! per guess choice (the row masks it counts) + 9 per look-up of a chosen
//! cell's digits. On the hardest corpus (forum-hardest, counting to 2
//! through [`crate::Solver::count`], first 300 puzzles) a node averages
//! about 13 band updates and 1,500 instructions (in a profile before the
//! second round of #28 below, the band updates took 45% of them).
//!
//! **What it teaches.** Representation decides speed. The same rules (singles,
//! locked candidates) that cost a loop over cells and units on a grid cost a
//! handful of word operations on bitboards, because one machine word checks a
//! constraint for 27 cells at once. Propagating that hard makes most 17-clue
//! puzzles solve without a single guess, and the hardest ones in hundreds of
//! nodes where `mrv` needs tens of thousands. And at this level the
//! constant factors are measured, not guessed: every switch below, and the
//! notes after it, record what was tried and what it cost.
//!
//! **Switches and variants.** The inference steps that are worth switching
//! off or on are the `Switches` trait (`COLS`, `STACKS`, `POINTING`,
//! `ROW_BIVALUES`, `TRIADS`): [`Fast`] is one setting, and the variants
//! `fast-no-cols`, `fast-stacks` and `fast-plain-score` (files beside this
//! folder, run by name, not by default) are others, each compiled on its own.
//! So is the next rung, `fast-triads` (rung 9: tdoku's rules and branch,
//! the fastest on the hardest puzzles, #28 below), which the ladder runs.
//!
//! **Two compiled copies.** The search is compiled twice from this one
//! source: a generic copy for the target's baseline (on x86-64, SSE2), and a
//! copy for x86-64-v3 CPUs (AVX2, BMI1/2, POPCNT, LZCNT), chosen at run time
//! by `is_x86_feature_detected!` (`Switches::NATIVE`). The v3 copy lets the
//! compiler use `tzcnt`, `blsr`, `andn` and `shlx` for the bit tricks and
//! 256-bit vectors for the sweeps over all digits (the rules of
//! `fast-triads` above all), and writes one step by hand (`Isa`): a
//! placement clearing its cells from the band's nine words, where "which
//! words held one" is one AND, compare and `movmskps` for eight words (the
//! compiler gathers those bits by shuffles and ORs). (The hand-written
//! 27-word dirty check of earlier versions went with the check.) Both
//! copies are this search, so they visit the same tree with the same
//! counts. (A third copy for AVX-512 CPUs was slower, measured in rung 9's
//! header, [`fast_triads`](super::fast_triads).) The
//! variant `fast-generic` always runs the generic copy, which is how the
//! tests hold both to the same contract on any machine.
//!
//! **Measured** (valgrind instructions per puzzle, counting to 2, corpora as
//! stored: 17-clue every 10th puzzle, top1465, forum-hardest-1106), from the
//! version before issue #15 to this one:
//! 17-clue 22,672 → 16,819, top1465 108,896 → 73,295, forum-hardest 976,454
//! → 812,633; simulated branch mispredictions 88, 489, 5,660; nodes per
//! puzzle 4.83 → 2.61, 42.8 → 26.1, 422 → 357. Through
//! [`crate::Solver::count`] (81 bytes in, as tdoku's harness calls it):
//! 17,826, 74,469, 813,803. (The `sudoku` crate, same count: 14,978, 73,650,
//! 820,943 instructions and 5.2, 44.4, 615 nodes; it also mispredicts more
//! branches.) In tdoku's harness this `fast` is ahead of the crate on all
//! three corpora (×1.16..×1.26 in one run under load, see MEASURING.md), and
//! behind tdoku on the hard ones. What paid:
//! * the column claim in every band update: nodes −29% (top1465), instructions
//!   −16% (top1465), −2% (forum-hardest);
//! * choosing the bivalue cell with the most unsolved peers instead of the
//!   first one in the busiest band: nodes −8..−17%, instructions −2..−4% once
//!   the peer counts were computed once per choice (a first, per-cell version
//!   cost more than it saved);
//! * picking the two other bands from a table instead of `if b2 != b`:
//!   simulated branch mispredictions −33..−44%;
//! * finding dirty words by comparison (`Seen`) instead of tracking every
//!   write: instructions −14% (17-clue), −6%, −7%;
//! * entering all givens in one pass, band by band: −8% (17-clue); then
//!   without a branch per cell (each cell's bit goes to its value's word):
//!   instructions +1%, simulated mispredictions −26% (17-clue); a state
//!   under 128 bytes (copied inline, no `memcpy` call): 2–4% faster;
//! * outside this file, `Board::refill`'s range check by the maximum of the
//!   bytes (vectorized) before looking for the position: −2.7% per 17-clue
//!   puzzle through `Solver::count`.
//!
//! * (#28) the v3 copy, with the dirty check in AVX2: 1–3% less thread
//!   CPU time than the generic copy (interleaved rounds through
//!   `Solver::count`, counting to 2), below what tdoku's harness resolves on
//!   a busy machine.
//!
//! * (#28) instructions per puzzle through [`crate::Solver::count`]
//!   (`examples/count2.rs` under callgrind: forum-hardest first 300,
//!   17-clue first 2,000, top1465, 2,000 generated with 22–25 clues), same
//!   tree (guesses per puzzle 316.60, 1.33, 25.06, 2.37) — before:
//!   638,837, 15,676, 64,083, 16,700; after all four steps below: 518,101,
//!   12,123, 51,541, 12,818 (×0.811, ×0.773, ×0.804, ×0.768):
//!   - the branch-free column check before the column sweep
//!     (`columns_quiet`): ×0.891, ×0.981, ×0.913, ×0.968. It costs about 20
//!     vector instructions where the sweep cost two branches per digit, and
//!     teaches that a question usually answered "no" should be asked
//!     without branches, for all digits at once;
//!   - the givens entered and checked in the bitboards
//!     ([`crate::Rung::search_cells`], `State::from_givens`, `band_words`):
//!     `Solver::count` no longer builds a checked [`Board`] (a pass over 81
//!     cells with a branch per cell) before `fast` reads the cells again.
//!     Each band's 27 values become one word per value by SSE2 byte
//!     compares (two 16-byte loads, `pcmpeqb` and `pmovmskb` per value: in
//!     every x86-64 CPU; a byte loop elsewhere, tested against it), and the
//!     rules are checked on the words the set-up builds anyway (three table
//!     look-ups per digit and band: a row with two givens, a box reached
//!     from two rows; a column in two bands by one AND). Set-up per 17-clue
//!     puzzle: about 2,700 → 1,340 instructions; ×0.997, ×0.907, ×0.973,
//!     ×0.897. On easy puzzles the set-up is a cost of the same order as the
//!     search, and a benchmark of whole calls measures it;
//!   - no bounds checks in the column claim (`clear_columns`: the two
//!     other bands come from a table, so the compiler checked both indices,
//!     4 of a band update's ~60 instructions): ×0.965, ×0.945, ×0.961,
//!     ×0.951;
//!   - the two other words of a digit-band from one table (`OTHER_WORDS`,
//!     54 bytes) instead of band, digit and two band numbers from three:
//!     ×0.946, ×0.920, ×0.942, ×0.930 (fewer instructions and registers in
//!     the band update; the earlier try with `% 27` for the bounds check
//!     cost +1%). In the hottest loop, every look-up and check counts.
//!
//! * (#28, second round) the same measure, same tree: from 518,093,
//!   12,115, 51,533, 12,810 to 474,990, 11,456, 47,299, 12,000 (×0.917,
//!   ×0.946, ×0.918, ×0.937):
//!   - the naked-single sweep counts the three bands side by side, one
//!     lane each (`State::candidate_counts`), before any single is placed
//!     (with the column claim on, a naked single leaves only its own band's
//!     words, so the order does not matter): ×0.955, ×0.986, ×0.960,
//!     ×0.980. Band by band, the compiler kept the nine words and three
//!     accumulators of a band in registers it did not have and spilled
//!     them; side by side, each step is one vector operation;
//!   - one look-up per row (`ROW_INFO`) gives the band filter's pattern
//!     and the row's single, where six look-ups gave them; the singles are
//!     looked up again (`SINGLE`) only when the filter changed the word:
//!     ×0.969, ×0.960, ×0.966, ×0.962. It teaches that the common case
//!     (the filter removes nothing) may be answered from work done anyway;
//!   - the bivalue choice row by row, with each column's count and its
//!     box's added once per band in 6-bit fields (`FIELDS6`), so a cell's
//!     score is one shift and one add, with no division by 9 or 3:
//!     ×0.990, ×0.998, ×0.990, ×0.994.
//!
//!   What the second round measured and left out (same measure):
//!   - singles only from the word before the filter, a word the filter
//!     changed left dirty to be filtered again: 510,133, 12,327, 50,846,
//!     12,727 against 495,010, 11,949, 49,470, 12,557 (the filter changes
//!     words too often: the extra band updates cost more than they save);
//!   - the bivalue choice by per-cell tables of row, box and column
//!     instead of `/ 9` and `% 9`: 500,217, 11,971, 49,889, 12,596 against
//!     495,010, 11,949, 49,470, 12,557;
//!   - `fast-stacks` (the stack filter): 751,183, 13,053, 68,746, 14,728
//!     instructions for guesses per puzzle 306.81, 1.21, 23.58, 2.27: ×1.45
//!     the instructions for 3% fewer guesses on forum-hardest;
//!   - other scores for the bivalue choice (guesses per puzzle on
//!     forum-hardest first 300, top1465, generated; now 316.60, 25.06,
//!     2.37): the last best cell instead of the first 314.97, 24.51, 2.36;
//!     the candidates of its two digits among its peers first 312.65,
//!     27.30, 2.62; the most strong links (a digit of the cell with two
//!     places left in its row, column or box) first 435.59, 31.76, 2.12;
//!     the fewest strong links first 305.76, 26.42, 2.66; the fewest of the
//!     digits' candidates among its peers first 439.06, 34.98, 2.06. None
//!     is the ×0.75 that would close the gap to tdoku on forum-hardest; the
//!     first is a small gain everywhere, not taken here because it changes
//!     the tree (and every figure of the tour that counts `fast`'s nodes).
//!
//! * (#28, third round, 2026-12-06, an Intel Xeon VM with AVX-512, where tdoku
//!   kept top1465 and forum-hardest) measured in time, not instructions:
//!   tdoku's harness, one kit build per try, the tries and the code before
//!   them loaded in turn into the same harness binary (`LD_LIBRARY_PATH`),
//!   four rounds (the builds' order fixed in the first run, rotating each
//!   round from the second on), `fast-triads`, the median of the
//!   per-round ratios try ÷ before (top1465 and forum-hardest; the third run
//!   also 17-clue and gen10k). A time profile put the band update's samples
//!   just after its look-ups: each update waits for its word's look-ups, and
//!   the next update reads the words this one wrote, so the chain from a word
//!   to its writes sets the pace. Same tree, same counts:
//!   - the column claim's cells from the table (`LOCKED_CELLS`), no multiply
//!     after the look-up: top1465 ×1.095, forum-hardest ×1.075 (first run;
//!     rounds 0.99–1.15); with its look-up from the word before the filter
//!     when the filter changed nothing (the common case; a changed word is
//!     looked up again), so it no longer waits for the filter's: ×1.109,
//!     ×1.085 in that run, ×1.037, ×1.023 in the second;
//!   - no vector multiply in the triads and the ways patterns (`rows3`): the
//!     compiler writes those sweeps in vector code, and `vpmulld` takes 10
//!     cycles on this core: alone ×1.031, ×1.018 (first run); with the two
//!     above ×1.043, ×1.034 (second run);
//!   - no bounds checks on the dirty word's index and the branch choice's 54
//!     pattern look-ups: with the three above ×1.072, ×1.053 (second run), and
//!     ×1.044, ×1.093, ×1.074, ×1.060 on the four corpora (third run);
//!   - the row pattern as the low half of `ROW_INFO`, used with no mask: with
//!     all of the above ×1.078, ×1.095, ×1.087, ×1.067 (third run). The code
//!     as it landed has these four steps (commit a013ebf; MEASURING.md and rung
//!     9's header have its ratios to tdoku);
//!   - then the branch's choice (`choose_ways`) of chute and digit by one
//!     minimum over keys that carry their chute or digit in the low bits, with
//!     no branch per chute or digit (which one wins is data the predictor
//!     cannot learn): against a013ebf, fourth run, ×0.983 [0.96–1.05], ×1.029
//!     [1.01–1.04], ×1.013 [0.98–1.03], ×0.995 [0.98–1.03] on the four
//!     corpora: top1465, the closest race with tdoku, gains most.
//!
//!   Left out: singles only from the word before the filter, a changed word
//!   filtered again (the second round's try, now with the claim off the chain,
//!   second run): ×1.039, ×1.002, and with the shifts and no bounds checks
//!   ×1.038, ×1.006, below the same steps without it. On `fast` (a switch read
//!   at run time, one build): the row singles always looked up again (no
//!   branch on a changed word) ×0.936, ×0.954; the placement made with no
//!   branch (an empty one is a no-op) ×0.973, ×1.006.
//!
//! **Against tdoku (#28).** Two runs of tdoku's harness
//! (`../shared/tools/tdoku-bench`: count to 2, 10,000 permuted puzzles
//! per corpus, 3 s per solver; 2026-12-03 on an idle AMD EPYC VM, load
//! average 0.48 at the start, 0.90 at the end), `fast` ÷ tdoku and `fast` ÷
//! the `sudoku` crate, with all four steps above (guesses per puzzle from
//! `examples/count2.rs`, unpermuted: the kit does not read `fast`'s yet):
//!
//! | corpus | ÷ tdoku | ÷ crate | guesses/puzzle `fast` (tdoku) |
//! |---|---:|---:|---:|
//! | 17-clue | 1.54, 1.70 | 1.19, 1.15 | 1.33 (0.59) |
//! | top1465 | 1.00, 1.06 | 1.19, 1.28 | 25.1 (9.04) |
//! | forum-hardest-1106 | 0.75, 0.74 | 1.15, 1.23 | 317 (113) |
//! | 10,000 generated, 22–25 clues | 1.42, 1.34 | 1.10, 1.05 | 2.37 (0.81) |
//!
//! At that point tdoku still won on the hard corpora (where it stands now:
//! the last #28 steps below): it counts one guess per branch
//! (`fast` two placements per bivalue branch, so about 184 branches
//! against 113 on forum-hardest), its triads find more before each branch,
//! and its propagation is vector code over whole boxes. MEASURING.md has the
//! current table and the reasons.
//!
//! What did not pay (and is not in the code):
//! * placing row singles unconditionally to avoid the hard-to-predict branch
//!   on `singles != 0`: simulated mispredictions −33..−45%, but instructions
//!   +5..+9% and no faster in thread-CPU time;
//! * batching the row singles of a band and clearing them from the other
//!   digits once per band: +11..+19% instructions;
//! * minirow triples (a minirow that only 3 digits can reach must hold all
//!   three, as in tdoku's triads), before each guess: nodes −2..−7%,
//!   instructions +4..+19%;
//! * branching on a digit's two cells in a row (a "bilocal" pair) instead of
//!   a bivalue cell: nodes ×1.3 (17-clue) to ×4.3 (forum-hardest);
//! * scoring bivalue cells by the candidates of their two digits among their
//!   peers: nodes −7% on forum-hardest but instructions +19%; by bivalue
//!   peers: nodes +24%; preferring the fewest unsolved peers: nodes ×1.9;
//! * precomputed neighbour indices in the column claim (`% 27` to drop the
//!   bounds check): +1%;
//! * ordering the two digits of a guess (only the first-solution search
//!   cares) by their candidates among the cell's peers: fewest first, nodes
//!   −1%, +2%, +9% (17-clue, top1465, forum-hardest); most first, −3%, +2%,
//!   −9%: no consistent gain, digits stay in increasing order;
//! * (#28) branching as tdoku does, on a digit with exactly two ways through
//!   the band with the fewest ways (`PERMUTATION_CELLS` split in two): nodes
//!   357 → 544 per puzzle on forum-hardest, 26 → 38 on top1465, ×0.65 and
//!   ×0.74 the speed; only when no bivalue cell exists: nodes +9% on
//!   forum-hardest, ×0.94 the speed;
//! * checking the givens for conflicts in `State::from_givens` by comparing
//!   popcounts: `count_ones` is a ~15-instruction sequence on the default
//!   x86-64 target (no `popcnt`), +7% instructions on 17-clue (the check by
//!   table look-ups above replaced it, and the separate check of the
//!   [`Board`] with it).
//! * (#28, third round: a smaller tree) measured like the rounds above but
//!   on whole corpora (`examples/count2.rs` under callgrind: forum-hardest
//!   all 375, top1465, 17-clue first 10,000, `generate --size 9 --count
//!   10000 --seed 25 --clues 22..25`), instructions and guesses per puzzle;
//!   `fast`: 515,222 and 355.97, 47,300 and 25.06, 11,143 and 1.17, 11,943
//!   and 2.35. Nothing reached the bar (forum-hardest −5%, no corpus +3%):
//!   - the stack filter as arithmetic on all nine digits (a cell of the
//!     (band, column) matrix of a stack survives if the 2×2 minor left
//!     without its row and column has a permutation: two rotations, no
//!     table), before a guess, in place of the column sweep (it finds the
//!     column singles too, through the band filter): 512,993, 46,423,
//!     11,077, 11,910 (−0.4%, −1.9%, −0.6%, −0.3%) for the guesses of
//!     `fast-stacks` (344.12, 23.58, 1.09, 2.26). Kept with the column sweep
//!     as well: +2.1% on forum-hardest;
//!   - with it, triads (tdoku's minirow and minicolumn rules: a minirow or
//!     minicolumn that only three digits reach, or that three digits must
//!     use, holds those three), computed word by word: guesses 331.67,
//!     20.40, 0.89, 2.09 for ×2.1, ×1.7, ×1.1, ×1.3 the instructions;
//!   - tdoku's branch (a digit with two ways through the band with the
//!     fewest ways) only pays with the triads: alone, 461 guesses on
//!     forum-hardest; with all four triad rules, 274.8 (top1465 18.8,
//!     generated 1.66). Without each rule in turn: minirow naked 279.0,
//!     minirow hidden 373.4, minicolumn naked 278.7, minicolumn hidden
//!     287.7; the hidden minirow rule alone 300.4; without the stack filter
//!     342.5. The cheapest form (the filter's pattern gives, from one
//!     table, the minirows the digit must use and its ways through the
//!     band, kept beside `Seen` for the child; the three bands' counts in
//!     one word; stack filter and triads once per node; no bivalue
//!     scoring): 523,475, 47,512, 11,266, 11,691 instructions (+1.6%,
//!     +0.4%, +1.1%, −2.1%) for 307.41, 22.85, 0.92, 1.82 guesses (−14%,
//!     −9%, −21%, −23%). A node costs about 1,700 instructions against
//!     1,450: the tree is 14% smaller, a node 18% dearer. At every
//!     fixpoint instead of once per node: 530,225 for 301.48. Adding the naked
//!     minirow rule: 609,612 for 302.33 guesses; the branch over stacks as
//!     well as bands (as tdoku does): 304.87 guesses;
//!   - the stack filter in 8-digit lanes with the column folds kept for
//!     the child too: `Seen` at 324 bytes is copied by `memcpy`, +2%.
//!
//!   It teaches that tdoku's smaller tree comes from its branch and its
//!   triads together (each alone does little or harm), and that in this
//!   representation the triads cost a node what they save in nodes: tdoku
//!   keeps minirows as its data, so they cost it little.
//!
//! * (#28, depth gating; the code is on branch `depth-gate`, not merged)
//!   the rich
//!   inference of the third round (stack filter, hidden minirow triads,
//!   tdoku's branch, once per node) only at shallow nodes, `fast` below:
//!   rich while the guesses on the path are fewer than D, or the unsolved
//!   cells more than U (a child of a plain node is plain: both only go
//!   down a path, so the plain nodes are `fast`'s code, with its 108-byte
//!   `Seen`). Same measure as the third round (instructions and guesses per
//!   puzzle; forum-hardest all, top1465, 17-clue first 10,000, 10,000
//!   generated); `fast` (D = 0): 515,234 and 355.97, 47,310 and 25.06,
//!   11,152 and 1.17, 11,952 and 2.35. Nothing reached the bar:
//!   - all three rules, D = 1, 2, 4, 8, 12, all: forum-hardest +4.4%,
//!     +6.7%, +10.0%, +12.6%, +6.8%, +6.1% for 377.4, 383.8, 386.5, 362.8,
//!     312.4, 306.3 guesses (knobs read at run time; fixed at compile
//!     time, D = 12: +5.4%); at D = 12, top1465 +5.2%, 17-clue +3.3%,
//!     generated +0.5%. tdoku's branch above plain nodes makes the tree
//!     larger than either pure tree (at the root alone, 356 → 377): it pays
//!     only with the triads under it all the way down;
//!   - without tdoku's branch (stack filter and triads, the bivalue
//!     branch), D = 1, 2, 4, 8, all: −0.0%, −0.1%, +0.4%, +6.0%, +11.9%
//!     for 355.5, 354.6, 352.2, 344.0, 341.7 guesses; at D = 2, top1465
//!     −2.1%, but 17-clue +3.8% and generated +4.4%: the root is where
//!     easy puzzles spend their work, and its extra rules cost them
//!     300–500 instructions;
//!   - by unsolved cells, all three rules, U = 35, 40, 45, 50, 55:
//!     forum-hardest +10.2..+15.1% (334–389 guesses); without the branch,
//!     U = 45, 55: +4.9%, +0.2%;
//!   - the hidden minirow rule and tdoku's branch without the stack
//!     filter, D = 1, 2: +4.5%, +6.9% (377.9, 384.4 guesses); the rule
//!     alone, D = 1, 3: +0.1%, +0.0%.
//!
//!   A rich node here costs about 4% more than in the third round's code
//!   (all rich, no bivalue fallback: 544,480 against 523,475, same 307.41
//!   guesses; 537,177 without the gate's checks): less than any gap to
//!   the bar. It teaches that the smaller tree is not bought near the
//!   root: without tdoku's branch the rules take a few guesses off each
//!   level they run on (−0.1% at D = 2, −1% at D = 4, −4% everywhere),
//!   and with it the tree only shrinks when the whole subtree is rich.
//!
//! * (#28, the bivalue score; the tree changes) same measure as the third
//!   round (instructions and guesses per puzzle; forum-hardest all,
//!   top1465, 17-clue first 10,000, 10,000 generated). The score was row +
//!   column + box unsolved counts, first best in row-major order; it is
//!   now row + column + 2 × box + 3 × the bivalue cells of the row, last
//!   best on ties: three look-ups more per band with bivalue cells (the
//!   row's bivalue count), the box's field added twice.
//!
//!   | corpus | instructions before → after | guesses before → after |
//!   |---|---:|---:|
//!   | forum-hardest | 515,222 → 504,318 (−2.1%) | 355.97 → 343.87 (−3.4%) |
//!   | top1465 | 47,300 → 45,051 (−4.8%) | 25.06 → 23.21 (−7.4%) |
//!   | 17-clue | 11,143 → 11,008 (−1.2%) | 1.17 → 1.05 (−10.6%) |
//!   | generated | 11,943 → 11,685 (−2.2%) | 2.35 → 2.13 (−9.4%) |
//!
//!   The variants, guesses first (the four corpora in the order above)
//!   from a copy with the weights as constants (it counts 517,124,
//!   47,449, 11,150, 11,961 instructions for the old score), then its
//!   instructions against that copy:
//!   - the last best cell instead of the first: 354.59, 24.51, 1.07, 2.37;
//!     +0.0%, −1.6%, −1.0%, +0.3% (fails the bar: the second round's
//!     gain on forum-hardest's first 300 is +0.0% on all 375);
//!   - ties broken by the most bivalue cells in the row: 349.48, 24.40,
//!     1.12, 2.30; −1.1%, −1.7%, −0.6%, −0.3%; by the band's bivalue
//!     cells or unsolved cells, the column's or the box's count (most or
//!     fewest, first or last): guesses within ±2% of the old score,
//!     none lower on all four;
//!   - row + 2 × column + 2 × box, last best: 349.94, 24.60, 1.09, 2.32;
//!     −1.6%, −1.9%, −0.9%, −0.4%; other weights of the three counts
//!     (1–3 each) within ±2% in guesses; without the box +9.5% on
//!     forum-hardest;
//!   - with the row's bivalue cells: row + column + 2 × box + 2 × them,
//!     first best: 341.23, 23.71, 1.09, 2.17; −3.0%, −3.6%, −0.8%,
//!     −1.8%; + 3 × them, last best (taken): 343.87, 23.21, 1.05, 2.13;
//!     −2.3%, −4.9%, −1.3%, −2.2%; row + column + 3 × box + 3 × them,
//!     first best: 339.76, 23.68, 1.09, 2.13; −3.0%, −3.4%, −0.8%,
//!     −2.2%. Weights 1–4 around these give guesses within 1–2% of them:
//!     a plateau, not a point;
//!   - the bivalue cells of the column and box as well (9 look-ups more,
//!     guesses only): row + column + box + all three bivalue counts
//!     363.18, 24.09, 1.11, 2.08 (forum-hardest +2%); the bivalue counts
//!     alone 440.91, 26.90, 1.24, 1.95.
//!
//!   On forum-hardest's first 300 (the earlier rounds' sample) guesses go
//!   316.60 → 304.86; the figures above this paragraph (the tdoku table,
//!   the Golden Nugget note) are for the old score. Solving to the first
//!   solution only (`ladder --dist`, the tour's table) the mean nodes go
//!   166 → 169 on forum-hardest (p50 131 → 126, p99 684 → 757) and 15 →
//!   14 on top1465: the score was chosen counting to 2.
//!
//!   In time: the lab's `speed -s fast --limit 2 --permute` (count to 2,
//!   permuted, as the harness), the binaries before and after in three
//!   alternating rounds on an idle machine, new ÷ old: top1465 ×1.024,
//!   ×1.019, ×1.021; forum-hardest ×1.043, ×0.998, ×1.005. In tdoku's
//!   harness after it (two runs, 2026-12-03 18:26 and 18:50 UTC, idle),
//!   `fast` ÷ tdoku: 17-clue 1.77, 1.61; top1465 1.00, 0.96;
//!   forum-hardest 0.84, 0.80; generated 1.55, 1.35; ÷ the crate 1.25,
//!   1.15; 1.14, 1.22; 1.21, 1.22; 1.14, 1.13 (that day's record).
//!
//!   It teaches that the row's bivalue cells say most about what a guess
//!   will force: in this representation a placement's row and box are
//!   filtered in the band update at once, its column only through the
//!   column claim and the sweep before a guess. The best choice took
//!   guesses off every corpus (−3% to −11%) for a score that costs about
//!   the same as the old one. The old score is `Switches::ROW_BIVALUES`
//!   off, the variant `fast-plain-score` (the same tree as before the
//!   change), so the tour's ablation can race the two. The switch costs
//!   nothing either way (valgrind, `examples/count2`, forum-hardest all):
//!   `fast-plain-score` collects 193,208,412 instructions, the code before
//!   the change the same to the instruction (515,222 per puzzle, 355.97
//!   guesses); `fast` 189,119,428 (504,318, 343.87 guesses) as before.
//!   In tdoku's harness, `fast-plain-score` ÷ `fast` (`LAB_TOP`, four runs,
//!   2026-12-03 22:36–22:39 UTC, idle), median and range: 17-clue 1.00
//!   (0.95–1.11), top1465 0.97 (0.96–1.00), forum-hardest 0.98
//!   (0.93–1.01), generated 0.99 (0.93–1.05): in `fast`'s favour on the
//!   hard sets, inside the spread of one run (docs/08-fast-records.md).
//!
//! * (#28, the time per instruction; the code is on branch `exp-track`,
//!   not merged) `fast` runs fewer instructions per second than the crate
//!   (about 4.6 per ns against 6.2 on forum-hardest, from the instruction
//!   counts above and the harness's times), so four changes aimed at the
//!   CPU's overlap of work rather than at instructions, each timed as a
//!   variant beside `fast` in one process (`speed -s fast,VARIANT --limit 2
//!   --permute`, forum-hardest, three runs, 2026-12-03 22:15 UTC, a build
//!   on the other core), variant ÷ `fast`:
//!   - the dirty words noted at each write inside `settle` (one compare at
//!     its start, a changed word joining the pass at once), so no wide
//!     load waits for the narrow stores before it: ×0.80, ×0.80, ×0.83;
//!   - the same, each pass taking the words the last pass changed: ×0.89,
//!     ×0.96, ×0.98;
//!   - the row singles looked up after the filter in every band update
//!     (no branch on whether it changed the word): ×1.01, ×0.97, ×0.99;
//!   - the pass unrolled as the crate's family does it: 27 steps, each
//!     with its word's index a constant and one test of its dirty bit
//!     (no `OTHER_WORDS` or `BAND_OF` look-up): +31% instructions on
//!     forum-hardest (247,228,327 against 189,119,428 under callgrind,
//!     same guesses), ×0.80, ×0.92, ×0.86 in time (23:38 UTC, idle): the
//!     27 tests per pass cost more than the look-ups they save.
//!
//!   It teaches that `Seen` buys more than instructions: one compare fixes
//!   a pass's words up front, so their band updates do not wait on each
//!   other's writes and the CPU runs several at once; a loop whose next
//!   word depends on the last one's writes runs them one by one.
//!
//! * (#28, where the time goes) this VM exposes no hardware counters, but
//!   `perf record -e cpu-clock` samples by time. `examples/count2` over
//!   forum-hardest forty times (15,000 calls, 45,394 samples, 2026-12-04
//!   03:40 UTC, idle): 98.9% of the samples in the search node; by time,
//!   the dirty check (its four loads and compares, where each pass starts
//!   again) 17.9%, the band updates 51.8%, the rest of the node 29.9%; by
//!   instructions (callgrind `--dump-instr=yes`, same build, the 375
//!   puzzles once) 8.4%, 51.3%, 40.3%. A pass check costs about twice its
//!   share of instructions: each one follows the pass loop's exit (a
//!   branch on how many words were dirty: per node 5.45 checks, 4.57 of
//!   them finding work, 2.8 band updates each, counted from the same
//!   profile) and loads 8 words at once, which the narrow writes just made
//!   cannot be forwarded into. A fifth try: the check as 27 pairs of 32-bit loads
//!   (volatile, so the compiler does not widen them again): about 130
//!   instructions more per pass, ×0.98, ×0.88, ×0.84 in time (`speed -s
//!   fast --limit 2 --permute`, forum-hardest, the two binaries in three
//!   alternating rounds, 03:33 UTC, idle). Narrow loads do not stall, but
//!   they cost more than the stall; with the first and second tries above
//!   (the writes noted instead of compared) it suggests that the pass
//!   boundary itself (the exit, the restart), not the compare, is what
//!   costs: fewer passes, not a cheaper check, is the lever left.
//!
//! * (#28, tdoku's rules in time: `fast-triads`, now rung 9) the rounds
//!   above judged the richer rules by their instructions. A profile by
//!   time says the instructions of straight-line word arithmetic cost far
//!   less than those of the band updates: `fast-stacks` runs 1.47 times
//!   `fast`'s instructions on forum-hardest (277,242,536 against
//!   189,119,428, `examples/count2`, all 375) in 1.10 times its time
//!   (`speed -s fast,fast-stacks --limit 2 --permute`, two runs, 03:36 UTC,
//!   idle). So tdoku's rules were built again, this time in arithmetic on
//!   all nine digits at once, and timed: `Switches::TRIADS`, the variant
//!   `fast-triads` (its file says what it does). Guesses per puzzle
//!   through [`crate::Solver::count`], added one rule at a time, and
//!   `fast-triads` ÷ `fast` in time (the same `speed` command, two runs
//!   each, 03:39–03:46 UTC, idle), forum-hardest and top1465:
//!   - the stack filter and hidden minirow triads, tdoku's branch over
//!     bands: 257.47 and 22.26 guesses (`fast`: 343.87, 23.21); by tables
//!     ×1.03, ×1.05 and ×0.85, ×0.78; the same rules in word arithmetic
//!     (same tree) ×1.10, ×1.06 and ×0.86, ×0.85;
//!   - with hidden minicolumn triads: 241.58, 19.41; ×1.12, ×1.12 and
//!     ×0.965, ×0.963;
//!   - with tdoku's branch over stacks too (taken): 226.67, 18.03;
//!     ×1.13, ×1.14 and ×1.00, ×0.98. The column sweep is then
//!     redundant (the stack filter finds its singles through the band
//!     filter: the same tree without it, the same time), and is off.
//!
//!   Tried and left out: the naked minirow rule (223.57, 18.19 guesses;
//!   ×0.99, ×0.96 and ×0.99, ×0.98 in time against the taken form); the rules once per node
//!   instead of at every fixpoint (236.26, 18.43 guesses; ×1.00–1.01 in time);
//!   all three rules read from the words once and written back once, with
//!   the branch's patterns from the same pass (same tree, ×0.89–0.97: the
//!   three separate passes run faster); the three passes written lane by
//!   lane over arrays of the nine digits, so the words are read as vectors
//!   (same tree, ×0.91, ×0.95 and ×0.92, ×0.92, 04:32 UTC); a word written
//!   back only when a rule changed it (×0.91, ×0.93 and ×0.96, ×0.92,
//!   04:34 UTC); the column claim off (`POINTING`: the stack filter
//!   finds the same at each fixpoint, the same tree) ×0.95, ×0.94 and
//!   ×0.94, ×0.93 (04:57 UTC: the claim settles the band updates
//!   sooner); the triad passes skipped in a band where no minirow or
//!   minicolumn is full (same tree, ×0.91, ×0.92 and ×0.92, ×0.92,
//!   04:58 UTC). The taken form reads each word by itself, right after the
//!   band updates wrote it, and writes all 27 back without a branch; every
//!   form that wrote fewer, or behind a branch, ran slower. Taken later
//!   (after the dirty words below): the triad rules wait until the stack
//!   filter changes nothing, its changes going through the band updates
//!   first (the same fixpoint, so the same tree; more passes, so more
//!   probes): ×1.01 in time on forum-hardest and top1465, level on the
//!   easy sets (two rounds, 08:06 UTC); the minirow rule waiting for the
//!   minicolumn rule as well: level.
//!
//!   Instructions and guesses per puzzle (`examples/count2` under
//!   callgrind; forum-hardest all 375, top1465, 17-clue first 10,000,
//!   10,000 generated with 22–25 clues): 623,398 and 226.67, 59,117 and
//!   18.03, 11,604 and 0.78, 12,962 and 1.66 (`fast`: 504,318 and 343.87,
//!   45,051 and 23.21, 11,008 and 1.05, 11,685 and 2.13): 24% more
//!   instructions for 34% fewer guesses on forum-hardest. A guess of
//!   `fast-triads` is one way of one digit (at most 113 branches per
//!   puzzle on forum-hardest, each with two ways or more; tdoku's
//!   112.61).
//!
//!   In tdoku's harness (`LAB_TOP=fast-triads run_benchmark -t 3 -w 1 -n
//!   10000 -e 1 -s lab_top,lab_fast,rust_sudoku,tdoku`, two runs,
//!   2026-12-04 04:19 and 04:20 UTC, idle), `fast-triads` ÷ `fast`:
//!   17-clue 0.96, 1.00; top1465 0.97, 0.98; forum-hardest 1.14, 1.16;
//!   generated 0.98, 0.94; ÷ tdoku 1.80, 1.87; 1.03, 1.10; 0.92, 0.96;
//!   1.55, 1.49 (that day's record). It teaches that the field's rules
//!   were never too dear here: counting instructions made them look so.
//!
//! * (#28, the dirty words noted everywhere) the profile above put 17.9%
//!   of the time on the dirty check: its 8-word loads wait for the narrow
//!   stores just before them, which cannot be forwarded into a wider load.
//!   The earlier tries (the writes noted inside `settle` only, with a
//!   compare still at each `settle` and node entry) ran slower. Now no
//!   step compares: every write notes its word (the band updates' column
//!   claims and placements, the naked and column singles, the triad rules,
//!   each guess), a child is told which words its guess changed, and the
//!   `Seen` copy is gone (a child's arguments shrink from 228 bytes to
//!   124). Same tree and the same counts (every counter of `ladder` equal
//!   on 200 top1465 and all forum-hardest puzzles for the six `fast`
//!   rungs); 23% more instructions on forum-hardest (232,210,872 against
//!   189,119,428; `fast-triads` 266,672,809 against 233,300,067), 32% more
//!   on 17-clue, yet in time (`speed -s fast-triads,fast --limit 2
//!   --permute`, old and new binaries alternating, two rounds, 2026-12-04
//!   07:41 UTC, idle), new ÷ old: `fast` ×1.09, ×1.08 (forum-hardest),
//!   ×1.08, ×1.06 (top1465); `fast-triads` ×1.12, ×1.15 and ×1.08, ×1.08;
//!   on the easy sets (07:43 UTC) `fast` ×1.00 (generated; the old
//!   binary's second round was disturbed) and ×0.97, ×0.97 (17-clue),
//!   `fast-triads` ×0.99 and ×0.96, ×1.00. On the way (07:37–07:39 UTC):
//!   the ways children of `fast-triads` told their words, every compare
//!   left, ×1.04, ×1.06 and ×1.03, ×1.06 for it; then the words noted
//!   inside `settle` too, the compare left only at each `settle`'s start,
//!   `fast` ×1.07, ×1.05 and ×1.05, ×1.07 (the second try above did that
//!   and ran ×0.89–0.98; its code was not kept, so what differed is not
//!   known). It teaches that the earlier
//!   conclusion ("fewer passes, not a cheaper check") was wrong: the check
//!   was the cost, but only removing it everywhere showed it.
//!
//!   Then the placements' "which words held the cells" (a new cost of
//!   noting the words: 9.5% of `fast-triads`' time on forum-hardest, by
//!   `perf` samples, the compiler's vector code gathering the bits by
//!   shuffles and ORs) by hand in the v3 copy, one `movmskps` for eight
//!   words (`Isa::clear_band`): same counts; new ÷ old (two rounds, 08:20
//!   UTC, idle) `fast` ×1.04, ×1.04 (forum-hardest), ×1.03, ×1.04
//!   (top1465), ×1.04, ×1.03 (17-clue); `fast-triads` ×1.04, ×1.03, ×1.05,
//!   ×1.05, ×1.06, ×1.03, and ×1.07 on the generated set (`fast` there
//!   ×0.97 and ×1.04: noise). Between the two steps the v3 copy of `fast`
//!   ran slower than the generic one (`fast` ÷ `fast-generic` ×0.96 on
//!   forum-hardest, ×0.97 on top1465, 07:54 UTC: the compiler's 256-bit
//!   gathering cost more than its 128-bit one); after the second, ×1.02,
//!   ×1.02 (forum-hardest), ×1.01, ×1.02 (top1465), ×1.02, ×1.01
//!   (generated), 08:40 UTC.
//!
//!   In tdoku's harness after both steps (two runs, 08:40 and 08:41 UTC,
//!   MEASURING.md's table), ÷ tdoku: `fast-triads` 1.88, 1.88 (17-clue),
//!   1.19, 1.19 (top1465), 1.06, 1.05 (forum-hardest), 1.57, 1.63
//!   (generated); `fast` 1.92, 1.91; 1.22, 1.22; 0.93, 0.94; 1.65, 1.63.
//!   ÷ the crate: `fast-triads` 1.22, 1.21; 1.30, 1.32; 1.55, 1.50; 1.07,
//!   1.11; `fast` 1.24, 1.23; 1.34, 1.35; 1.36, 1.33; 1.12, 1.11.
//!
//!   Then the band update hands the word it filtered to the placement
//!   that follows, unstored (`State::place_keeping`): stored first, it
//!   made `clear_band`'s 8-word load wait on a 4-byte store. Same counts
//!   (`ladder`, the six `fast` rungs, forum-hardest, 300 top1465, 2,000
//!   generated); new ÷ old in tdoku's harness (`lab_top` = `fast-triads`,
//!   the two builds' libraries alternating, eleven rounds of 2 s,
//!   2026-12-04 15:54–15:56 UTC, a second VM, noisier: single rounds
//!   0.92–1.20), medians ×1.026 (forum-hardest), ×1.023 (generated). Not
//!   kept: the branch's ways counted by six compares per pattern (vector
//!   code) instead of 54 table look-ups, medians ×0.991 and ×1.022: level.
//!
//!   The harness on that VM (AMD EPYC family 25, model 17: tdoku's
//!   `-march=native` build gets AVX-512), five rounds, 16:05–16:11 UTC,
//!   median [lowest–highest] of the per-round ratios, ÷ tdoku:
//!   `fast-triads` 1.79 [1.63–1.92] (17-clue), 1.18 [1.09–1.20]
//!   (top1465), 0.99 [0.97–1.00] (forum-hardest), 1.53 [1.48–1.59]
//!   (generated); `fast` 1.85, 1.19, 0.92 [0.82–0.95], 1.61. ÷ the crate:
//!   `fast-triads` 1.22, 1.36, 1.51, 1.10 [1.07–1.12]; `fast` 1.23, 1.33,
//!   1.42, 1.11 [1.10–1.24]. Level with tdoku on forum-hardest there, not
//!   ahead: the lead of the first VM does not carry over.

mod bands;
mod branch;
mod place;
mod singles;
mod tables;
mod triads;
#[cfg(target_arch = "x86_64")]
mod v3;

use std::marker::PhantomData;

use crate::base::board::{Board, BoxSize};
use crate::base::counters::{Counter, NoCount};
use crate::base::search::{Ctx, Flow};
use crate::base::strategy::Rung;

pub use branch::HARD_AFTER;
use branch::node;
use tables::BAND;

/// The compile-time switches of `fast`'s inference. `fast` is one setting
/// ([`Fast`]); the variants `fast-no-cols` and `fast-stacks` (one file each,
/// beside this folder) are others, so what each switch buys can be measured
/// with the lab's own commands. Each setting is compiled on its own: a switch
/// that is off costs nothing.
pub(crate) trait Switches: 'static {
    /// Hidden singles in columns before each guess. Measured (instructions,
    /// valgrind) before `POINTING`: 17-clue −35% (nodes 17.9 → 3.9 per
    /// puzzle), top1465 −4%, forum-hardest +4%; with it, instructions −1%
    /// (17-clue), +3% (top1465), 0% (forum-hardest) for nodes −14%, −10%,
    /// −15%: on in `fast`.
    const COLS: bool;
    /// The stack view (column × box permutation filter: locked candidates
    /// along columns, both ways) before each guess. Measured before
    /// `POINTING`: nodes −10..30%, but forum-hardest +15% instructions,
    /// top1465 −3%; with it, nodes −3..−6% for instructions +4..+18%: off in
    /// `fast`, on in `fast-stacks`, the natural next step to try.
    const STACKS: bool;
    /// The column claim in every band update (a box where the digit has one
    /// column left claims it from the other bands). Off, a placed cell's
    /// column is cleared instead (the special case of one cell). Measured:
    /// nodes −35% (17-clue), −28% (top1465), −8% (forum-hardest);
    /// instructions 0%, −16%, −2%: on.
    const POINTING: bool;
    /// Run the copy of the search compiled for x86-64-v3 (AVX2, BMI1/2,
    /// POPCNT, LZCNT) when the CPU has it, detected at run time; off, or on
    /// another CPU, the portable copy runs. Same source, same tree.
    const NATIVE: bool;
    /// The score of the bivalue choice: row + column + 2 × box unsolved
    /// counts + 3 × the row's bivalue cells, last best on ties; off, the
    /// old row + column + box, first best (the tree before #28's change).
    /// Measured (#28, the bivalue score, in the header): guesses −3.4%
    /// (forum-hardest), −7.4% (top1465), −10.6% (17-clue), −9.4%
    /// (generated); instructions −2.1%, −4.8%, −1.2%, −2.2%: on.
    const ROW_BIVALUES: bool;
    /// Before a guess: the stack filter and tdoku's hidden minicolumn and
    /// minirow triads on all digits, and tdoku's branch (a digit's ways
    /// through the band or stack with the fewest ways) instead of a
    /// bivalue cell; rung 9, `fast-triads`. Measured (#28, the header):
    /// guesses −34% on forum-hardest, time ×1.14–1.16 there in tdoku's
    /// harness, ×0.94–1.00 elsewhere: off in `fast`.
    const TRIADS: bool;
    /// With `TRIADS`: once a search has made [`HARD_AFTER`] guesses, the
    /// puzzle is a hard one, and tdoku's branch gives way to the one hard
    /// trees want (the chute with the fewest digits not yet fixed, on its
    /// digit with the most ways: [`choose_ways`](branch::choose_ways)). Measured (#28, the
    /// `fast-triads` header): forum-hardest guesses −11%, instructions
    /// −14%, ÷ tdoku 1.25 → 1.42 in its harness; top1465 1.41 → 1.37,
    /// others within 0.03: on in `fast-triads`, off in `fast-triads-tdoku`.
    const HARD_BRANCH: bool;
}

impl Switches for Fast {
    const COLS: bool = true;
    const STACKS: bool = false;
    const POINTING: bool = true;
    const NATIVE: bool = true;
    const ROW_BIVALUES: bool = true;
    const TRIADS: bool = false;
    const HARD_BRANCH: bool = false;
}

/// The solver state: candidates of digit `d` in band `b` at index `9*b + d`.
/// 30 words in all: a copy (one per guess) stays under 128 bytes, which the
/// compiler inlines instead of calling `memcpy`.
struct State<S> {
    cand: [u32; 27],
    /// Cells not yet solved, per band.
    unsolved: [u32; 3],
    /// Which inference runs (no data).
    switches: PhantomData<S>,
}

// Not derived: the derive would ask the switches type to be `Copy` too.
impl<S> Clone for State<S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<S> Copy for State<S> {}

/// Every digit-band dirty (bit `9*b + d`): the root's first pass, after
/// the givens.
const DIRTY_ALL: u32 = (1 << 27) - 1;

/// Word `j`'s dirty bit (bit `j`, `9*b + d`) if a write took it from `old`
/// to `new`: how every write notes the words the next band updates visit.
#[inline(always)]
fn noted(old: u32, new: u32, j: usize) -> u32 {
    ((old != new) as u32) << j
}

/// What propagation ends with.
enum Fixpoint {
    Contradiction,
    Solved,
    /// Nothing more is forced: branch on this cell (band, bit) over these digits (bit d).
    Branch {
        band: usize,
        bit: u32,
        digits: u32,
    },
    /// Branch on a digit's ways through a chute, one child per way: the
    /// digit-band `j` (`9*b + d`, pattern bit `3*row + box`) or, from 27
    /// on, the digit-stack `27 + 9*s + d` (pattern bit `3*band + column`).
    Ways { j: usize, pattern: u32 },
}

impl<S: Switches> State<S> {
    fn new() -> Self {
        State {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            switches: PhantomData,
        }
    }
}

/// Rung 8.
pub struct Fast;

impl Rung for Fast {
    const NAME: &'static str = "fast";
    const SUMMARY: &'static str = "9x9 only: per-digit band bitboards, singles and locked candidates by table, guess on a bivalue cell";
    fn supports(size: BoxSize) -> bool {
        size == BoxSize::NINE
    }
    type Scratch = ();
    fn scratch(_: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        search::<Fast, C>(puzzle, ctx)
    }
    fn search_cells(_: &mut (), cells: &[u8; 81], ctx: &mut Ctx<NoCount>) -> Option<Flow> {
        Some(search_cells::<Fast, NoCount>(cells, ctx))
    }
}

/// A named setting of the switches: each variant of `fast`, and rung 9
/// (`fast-triads`), implements it (and [`Switches`]) and is a rung through
/// the one impl below.
pub(crate) trait Variant: Switches {
    const NAME: &'static str;
    const SUMMARY: &'static str;
}

impl<V: Variant> Rung for V {
    const NAME: &'static str = <V as Variant>::NAME;
    const SUMMARY: &'static str = <V as Variant>::SUMMARY;
    // tdoku's branch picks a digit's way through a band: a guess that
    // writes no cell.
    const GUESSES_PLACE: bool = !V::TRIADS;
    // The hard-puzzle branch waits for the search's 64th guess.
    const ORDER_DEPENDENT: bool = V::TRIADS && V::HARD_BRANCH;
    fn supports(size: BoxSize) -> bool {
        Fast::supports(size)
    }
    type Scratch = ();
    fn scratch(_: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        search::<V, C>(puzzle, ctx)
    }
    fn search_cells(_: &mut (), cells: &[u8; 81], ctx: &mut Ctx<NoCount>) -> Option<Flow> {
        Some(search_cells::<V, NoCount>(cells, ctx))
    }
}

/// Solves a 9×9 puzzle with the inference `S` switches on (the `Rung`
/// contract keeps other sizes away: `supports` says 9×9 only). The search of
/// `fast` and of its variants. With `S::NATIVE` on an x86-64 CPU that has
/// the x86-64-v3 instructions (checked once, at run time), the search runs
/// a copy of itself compiled for them; everywhere else, the portable copy.
/// Both copies are this same source: they visit the same tree.
pub(crate) fn search<S: Switches, C: Counter>(puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
    match <&[u8; 81]>::try_from(puzzle.cells()) {
        Ok(cells) => search_cells::<S, C>(cells, ctx),
        // Unreachable: `supports` keeps other sizes away.
        Err(_) => Ok(()),
    }
}

/// [`search`] on the 81 values themselves ([`Rung::search_cells`]): givens
/// that break the rules end it at once, with no node and no solution.
pub(crate) fn search_cells<S: Switches, C: Counter>(cells: &[u8; 81], ctx: &mut Ctx<C>) -> Flow {
    let Some(st) = State::<S>::from_givens(cells) else {
        return Ok(());
    };
    #[cfg(target_arch = "x86_64")]
    if S::NATIVE && v3::available() {
        // SAFETY: the CPU has every feature `v3::node` is compiled for.
        return unsafe { v3::node::<S, C>(st, DIRTY_ALL, ctx) };
    }
    node::<S, C, Portable>(st, DIRTY_ALL, ctx)
}

/// Whether `fast` runs its x86-64-v3 copy on this CPU (the variant
/// `fast-generic` never does). For tests and reports that say which copy ran.
pub fn runs_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    if v3::available() {
        return true;
    }
    false
}

/// Which compiled copy of the search a node recurses into, and the step
/// that copy writes with the CPU's own vector instructions.
trait Isa {
    fn node<S: Switches, C: Counter>(st: State<S>, dirty: u32, ctx: &mut Ctx<C>) -> Flow;
    /// Clears cells `s` from a band's nine digit words; returns the words
    /// that held one of them (bit `d`).
    fn clear_band(band: &mut [u32; 9], s: u32) -> u32;
}

/// The copy compiled for the target's baseline (x86-64: SSE2 only): runs on
/// every CPU.
struct Portable;

impl Isa for Portable {
    #[inline(always)]
    fn node<S: Switches, C: Counter>(st: State<S>, dirty: u32, ctx: &mut Ctx<C>) -> Flow {
        node::<S, C, Portable>(st, dirty, ctx)
    }
    #[inline(always)]
    fn clear_band(band: &mut [u32; 9], s: u32) -> u32 {
        clear_band(band, s)
    }
}

/// [`Isa::clear_band`] in plain code.
#[inline(always)]
fn clear_band(band: &mut [u32; 9], s: u32) -> u32 {
    let mut hit = 0;
    for (d, w) in band.iter_mut().enumerate() {
        hit |= ((*w & s != 0) as u32) << d;
        *w &= !s;
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A placement's clearing of a band agrees on both paths: the same
    /// words after, and the words that held a cleared cell, each checked
    /// against its definition (random bands and cell sets).
    #[test]
    fn clear_band_agrees_on_both_paths() {
        let mut rng = ChaCha8Rng::seed_from_u64(2028);
        for _ in 0..5000 {
            let band: [u32; 9] = std::array::from_fn(|_| rng.random::<u32>() & BAND);
            // A few cells, sometimes none.
            let s = rng.random::<u32>() & rng.random::<u32>() & rng.random::<u32>() & BAND;
            let mut plain = band;
            let hit = clear_band(&mut plain, s);
            for d in 0..9 {
                assert_eq!(plain[d], band[d] & !s);
                assert_eq!(hit >> d & 1 == 1, band[d] & s != 0);
            }
            assert_eq!(hit >> 9, 0);
            #[cfg(target_arch = "x86_64")]
            if v3::available() {
                let mut wide = band;
                assert_eq!(<v3::V3 as Isa>::clear_band(&mut wide, s), hit);
                assert_eq!(wide, plain);
            }
        }
    }
}

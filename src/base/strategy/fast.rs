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
//! one, run by name, not by default) are others, each compiled on its own.
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

use std::marker::PhantomData;

use crate::base::board::{Board, BoxSize, Cell};
use crate::base::counters::{Counter, NoCount};
use crate::base::search::{Ctx, Flow};
use crate::base::strategy::Rung;
use crate::base::counters::{Branch, Chute, DeadEnd, Reason, WAYS, unit};

/// The compile-time switches of `fast`'s inference. `fast` is one setting
/// ([`Fast`]); the variants `fast-no-cols` and `fast-stacks` (one file each,
/// beside this one) are others, so what each switch buys can be measured
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
    /// digit with the most ways: [`choose_ways`]). Measured (#28, the
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

/// Bits of one row inside a band word.
const ROW: u32 = 0x1FF;
/// All 27 cells of a band.
const BAND: u32 = 0x7FF_FFFF;

/// For 9 row bits, which of the row's 3 box segments are non-empty (3 bits).
const SEGMENTS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            if v & (7 << (3 * k)) != 0 {
                t[v] |= 1 << k;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// The 6 permutations of a band as (row, box) pair bits (`3*row + box`),
/// in [`WAYS`] order (the order the branch on ways tries them, which the
/// counters hear of).
const PERM_BITS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut i = 0;
    while i < 6 {
        let s = WAYS[i];
        t[i] = (1 << s[0]) | (1 << (3 + s[1])) | (1 << (6 + s[2]));
        i += 1;
    }
    t
};

/// For a 3×3 pattern (bit `3*row + box`: "the digit can still sit where this
/// row meets this box"), the band cells that lie on some permutation inside
/// the pattern, i.e. that a complete placement of the digit could use.
/// Zero when no permutation fits: the digit cannot be placed in this band.
const PERMUTATION_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let mut keep = 0usize;
        let mut i = 0;
        while i < 6 {
            let bits = PERM_BITS[i] as usize;
            if p & bits == bits {
                keep |= bits;
            }
            i += 1;
        }
        let mut cells = 0u32;
        let mut q = 0usize;
        while q < 9 {
            if keep & (1 << q) != 0 {
                let (r, k) = (q / 3, q % 3);
                cells |= 7 << (9 * r + 3 * k);
            }
            q += 1;
        }
        t[p] = cells;
        p += 1;
    }
    t
};

/// The same permutation filter on the 9-bit pattern itself: which
/// (row, box) pairs lie on some permutation inside the pattern.
const PERMUTATION_PAIRS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let cells = PERMUTATION_CELLS[p];
        let mut q = 0usize;
        while q < 9 {
            if cells & (1 << (9 * (q / 3) + 3 * (q % 3))) != 0 {
                t[p] |= 1 << q;
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// For the 9 columns a digit can use in a band, the columns that are alone
/// in their box (3-column group), as cells of all three rows: the column
/// claim's mask as it is applied, with no multiply after the look-up (on
/// the band update's longest chain, #28).
const LOCKED_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        let mut k = 0;
        while k < 3 {
            let g = (v >> (3 * k)) & 7;
            if g == 1 || g == 2 || g == 4 {
                t[v] |= ((g as u32) << (3 * k)) * 0x40201;
            }
            k += 1;
        }
        v += 1;
    }
    t
};


/// For a 3×3 pattern: the pairs on every permutation inside it (the
/// minirows the digit must use), and in bits 9..12 how many permutations
/// fit (its ways through the band).
const MUST_WAYS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let mut must = 0x1FFu32;
        let mut ways = 0u32;
        let mut i = 0;
        while i < 6 {
            let bits = PERM_BITS[i];
            if p as u32 & bits == bits {
                must &= bits;
                ways += 1;
            }
            i += 1;
        }
        if ways == 0 {
            must = 0;
        }
        t[p] = must | ways << 9;
        p += 1;
    }
    t
};

/// For 9 (row, box) pair bits, the band cells of those minirows.
const PAIR_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut p = 0usize;
    while p < 512 {
        let mut q = 0;
        while q < 9 {
            if p & (1 << q) != 0 {
                t[p] |= 7 << (9 * (q / 3) + 3 * (q % 3));
            }
            q += 1;
        }
        p += 1;
    }
    t
};

/// Set bits of a 9-bit value.
const POP9: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        t[v] = (v as u32).count_ones();
        v += 1;
    }
    t
};

/// 9 row bits spread to 9 six-bit fields (bit `c` to bit `6c`), so that
/// adding spread rows counts per column, with room to add a box's count.
const FIELDS6: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut v = 0;
    while v < 512 {
        let mut c = 0;
        while c < 9 {
            if v & (1 << c) != 0 {
                t[v] |= 1 << (6 * c);
            }
            c += 1;
        }
        v += 1;
    }
    t
};

/// 9 row bits kept if exactly one is set, else 0.
const SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut v = 0;
    while v < 512 {
        if (v as u32).count_ones() == 1 {
            t[v] = v as u32;
        }
        v += 1;
    }
    t
};

/// For the 9 bits of row `r` of a band word (`[r][bits]`): bits `3r..3r+3`
/// the row's non-empty box segments ([`SEGMENTS`], in place for the band
/// filter's pattern), bits `32 + 9r..41 + 9r` the row's cell if it is the
/// only one ([`SINGLE`], in place for the band word shifted by 32: the low
/// half is the pattern alone, used as an index with no mask, #28). OR-ing
/// the three rows' entries gives the pattern and the row singles of a
/// word in three look-ups where they took six.
const ROW_INFO: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut v = 0;
        while v < 512 {
            t[r][v] = (SEGMENTS[v] as u64) << (3 * r) | (SINGLE[v] as u64) << (32 + 9 * r);
            v += 1;
        }
        r += 1;
    }
    t
};

/// For 3 bits "box k of a band is used", the band cells of those boxes.
const BOXES_MASK: [u32; 8] = {
    let mut t = [0u32; 8];
    let mut v = 0;
    while v < 8 {
        let mut k = 0;
        while k < 3 {
            if v & (1 << k) != 0 {
                t[v] |= (7 << (3 * k)) * 0x40201;
            }
            k += 1;
        }
        v += 1;
    }
    t
};

/// For the 9 bits of a digit's givens in row `r` of a band (`[r][bits]`):
/// the low 32 bits are the band cells those givens take (their row and
/// boxes, 0 for none), bits 32..35 their boxes, bit 35 set when there are two
/// or more (a broken rule). OR-ing the three rows' entries gives a digit's
/// whole exclusion inside the band in three look-ups.
const GIVEN_ROW: [[u64; 512]; 3] = {
    let mut t = [[0u64; 512]; 3];
    let mut r = 0;
    while r < 3 {
        let mut v = 0;
        while v < 512 {
            if v != 0 {
                let boxes = SEGMENTS[v];
                t[r][v] = (ROW << (9 * r) | BOXES_MASK[boxes as usize]) as u64 | (boxes as u64) << 32;
            }
            if (v as u32).count_ones() > 1 {
                t[r][v] |= 1 << 35;
            }
            v += 1;
        }
        r += 1;
    }
    t
};

/// Bits 32..35 of a [`GIVEN_ROW`] entry: the boxes a row's givens reach.
const GIVEN_BOXES: u64 = 7 << 32;
/// Bit 35 of a [`GIVEN_ROW`] entry: two givens of a digit in one row.
const GIVEN_TWICE: u64 = 1 << 35;

/// The cells of band `b` holding each value (index 0: blanks, 1..=9 the
/// digits; bit `i` is cell `27*b + i`). Values above 9 are in no word.
#[inline(always)]
fn band_words(cells: &[u8; 81], b: usize) -> [u32; 10] {
    #[cfg(target_arch = "x86_64")]
    {
        band_words_sse2(cells, b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        band_words_scalar(cells, b)
    }
}

/// [`band_words`] a byte at a time: the portable version (and the reference
/// the SSE2 one is tested against).
#[cfg_attr(all(target_arch = "x86_64", not(test)), allow(dead_code))]
#[inline(always)]
fn band_words_scalar(cells: &[u8; 81], b: usize) -> [u32; 10] {
    let mut own = [0u32; 16];
    for (i, &v) in cells[27 * b..27 * b + 27].iter().enumerate() {
        own[v as usize & 15] |= 1 << i;
    }
    let mut words = [0u32; 10];
    words.copy_from_slice(&own[..10]);
    // A value of 10..=15 would have landed in `own[10..]`, and one above 15
    // in a digit's word: the caller's range check keeps them out.
    words
}

/// [`band_words`] with SSE2 (every x86-64 CPU has it): the band's 27 bytes
/// in two 16-byte loads (bytes 0..16 and 11..27), each compared with the
/// value at once and turned into bits by `pmovmskb`: 6 instructions a
/// value instead of a read-modify-write per cell.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn band_words_sse2(cells: &[u8; 81], b: usize) -> [u32; 10] {
    use std::arch::x86_64::{__m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
    let at = 27 * b;
    // SAFETY: `at + 11 + 16 <= 81`: both 16-byte loads stay inside `cells`
    // (`loadu` takes any alignment); SSE2 is part of the x86-64 baseline.
    let (lo, hi) = unsafe {
        (
            _mm_loadu_si128(cells.as_ptr().add(at).cast::<__m128i>()),
            _mm_loadu_si128(cells.as_ptr().add(at + 11).cast::<__m128i>()),
        )
    };
    let mut words = [0u32; 10];
    for (v, w) in words.iter_mut().enumerate() {
        // SAFETY: SSE2 only, register operands.
        *w = unsafe {
            let x = _mm_set1_epi8(v as i8);
            _mm_movemask_epi8(_mm_cmpeq_epi8(lo, x)) as u32
                | (_mm_movemask_epi8(_mm_cmpeq_epi8(hi, x)) as u32) << 11
        };
    }
    words
}

/// The two bands other than `b`.
const OTHER_BANDS: [(usize, usize); 3] = [(1, 2), (0, 2), (0, 1)];

/// For a digit-band index `9*b + d`, the indices of the same digit in the
/// two other bands: one look-up where the band, the digit and two band
/// numbers were three (the column claim of every band update).
const OTHER_WORDS: [[u8; 2]; 27] = {
    let mut t = [[0u8; 2]; 27];
    let mut j = 0;
    while j < 27 {
        let (b, d) = (j / 9, j % 9);
        t[j] = [(9 * OTHER_BANDS[b].0 + d) as u8, (9 * OTHER_BANDS[b].1 + d) as u8];
        j += 1;
    }
    t
};

/// The band of a digit-band index `9*b + d`.
const BAND_OF: [usize; 27] = {
    let mut t = [0usize; 27];
    let mut j = 0;
    while j < 27 {
        t[j] = j / 9;
        j += 1;
    }
    t
};

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

    /// The state after entering the givens (81 cells, 0 = blank, digits up
    /// to 9), before any propagation; `None` when two equal givens share a
    /// row, box or column (the puzzle has no solution). Each band's 27
    /// values become one word per value by byte compares ([`band_words`]),
    /// then each digit's word keeps its givens and loses their rows and
    /// boxes and every other given cell. The rules are checked on the same
    /// words: a row with two givens of a digit, two rows of a band with one
    /// in the same box, two bands with one in the same column. Every word is
    /// left dirty, so the first band updates clear the givens' columns.
    #[inline(always)]
    fn from_givens(cells: &[u8; 81]) -> Option<Self> {
        let mut st = State::new();
        // Any bit set: a rule broken (checked once, at the end).
        let mut broken = 0u64;
        // Per digit, the columns its givens use in the bands seen so far.
        let mut columns = [0u32; 9];
        for b in 0..3 {
            let own = band_words(cells, b);
            let given = BAND & !own[0];
            for d in 0..9 {
                let mine = own[d + 1];
                let (r0, r1, r2) = (mine & ROW, (mine >> 9) & ROW, (mine >> 18) & ROW);
                let (g0, g1, g2) = (GIVEN_ROW[0][r0 as usize], GIVEN_ROW[1][r1 as usize], GIVEN_ROW[2][r2 as usize]);
                let g = g0 | g1 | g2;
                // A row with two givens of `d`, or a box reached from two rows.
                broken |= (g & GIVEN_TWICE) | ((g0 & g1) | (g2 & (g0 | g1))) & GIVEN_BOXES;
                // Two bands with a given of `d` in one column.
                let cols = r0 | r1 | r2;
                broken |= (columns[d] & cols) as u64;
                columns[d] |= cols;
                let taken = given | g as u32;
                st.cand[9 * b + d] = BAND & !(taken & !mine);
            }
            st.unsolved[b] = BAND & !given;
        }
        (broken == 0).then_some(st)
    }

    /// The nine digit words of band `b` (`b < 3`).
    #[inline(always)]
    fn band_mut(&mut self, b: usize) -> &mut [u32; 9] {
        let (_, rest) = self.cand.split_at_mut(9 * b);
        rest.first_chunk_mut::<9>().expect("a band is 9 of the 27 words")
    }

    /// Marks cells `s` of band `b` (one per row at most) solved with digit
    /// `d`: they leave the other digits (skipped when `OTHERS` is false: the
    /// caller knows they have no other candidate), and their columns leave
    /// `d`'s other bands. Row and box exclusion inside the band come from the
    /// band filter. Returns the words it changed (bit `9*b + d`).
    #[inline(always)]
    fn place<const OTHERS: bool, I: Isa>(&mut self, d: usize, b: usize, s: u32) -> u32 {
        if OTHERS {
            let keep = self.cand[9 * b + d];
            return self.place_keeping::<I>(d, b, s, keep);
        }
        self.unsolved[b] &= !s;
        self.placed_columns(d, b, s)
    }

    /// Without the column claim, placed cells `s` clear their columns from
    /// `d`'s other bands (with it, the band update's claim does).
    #[inline(always)]
    fn placed_columns(&mut self, d: usize, b: usize, s: u32) -> u32 {
        if S::POINTING {
            return 0;
        }
        self.clear_columns(d, b, (s | (s >> 9) | (s >> 18)) & ROW)
    }

    /// [`State::place`] with the band's other digits cleared (the band's 9
    /// digit words are contiguous: `s` cleared from all of them), then
    /// digit `d`'s word set to `keep` (its new value: the band update hands
    /// it over unstored, so the 8-word load does not wait for its store).
    #[inline(always)]
    fn place_keeping<I: Isa>(&mut self, d: usize, b: usize, s: u32, keep: u32) -> u32 {
        self.unsolved[b] &= !s;
        let band = self.band_mut(b);
        let changed = (I::clear_band(band, s) & !(1 << d)) << (9 * b);
        // SAFETY: every caller's digit is below 9 (an index `9*b + d` of
        // the 27 words, taken apart): no bounds check in the hottest loop.
        unsafe { std::hint::assert_unchecked(d < 9) };
        band[d] = keep;
        changed | self.placed_columns(d, b, s)
    }

    /// Clears columns `cols` (9 bits) from digit `d`'s words in the bands
    /// other than `b`; returns the words it changed (bit `9*b + d`).
    #[inline(always)]
    fn clear_columns(&mut self, d: usize, b: usize, cols: u32) -> u32 {
        let colmask = rows3(cols);
        debug_assert!(b < 3 && d < 9);
        let mut changed = 0;
        // The two other bands, without a branch (`b2 != b` mispredicts).
        for b2 in [OTHER_BANDS[b].0, OTHER_BANDS[b].1] {
            // SAFETY: `b2 < 3` (a table of band numbers) and `d < 9` (every
            // caller's digit), so `9 * b2 + d < 27`. The compiler cannot see
            // it through the table: its bounds checks were 2 of the band
            // update's ~60 instructions, twice.
            let w = unsafe { self.cand.get_unchecked_mut(9 * b2 + d) };
            let new = *w & !colmask;
            changed |= noted(*w, new, 9 * b2 + d);
            *w = new;
        }
        changed
    }

    /// Puts digit `d` in the cell `bit` of band `b` (a given, a guess or a
    /// naked single): the words it changed (bit `9*b + d`), or `None` if `d`
    /// is no longer possible there.
    #[inline(always)]
    fn assign<const OTHERS: bool, I: Isa>(&mut self, d: usize, b: usize, bit: u32) -> Option<u32> {
        let j = 9 * b + d;
        let old = self.cand[j];
        if old & bit == 0 {
            return None;
        }
        let i = bit.trailing_zeros();
        let row = ROW << (9 * (i / 9));
        let new = old & (!row | bit);
        self.cand[j] = new;
        Some(noted(old, new, j) | self.place::<OTHERS, I>(d, b, bit))
    }

    /// Runs the band filter on the dirty digit-bands (`dirty`, bit `9*b +
    /// d`: the words changed since the filter last saw them), then on those
    /// its writes change, until none is dirty. Returns false on a
    /// contradiction (and, when counting, says why in `why`).
    #[inline(always)]
    fn settle<C: Counter, I: Isa>(
        &mut self,
        ctx: &mut Ctx<C>,
        probes: &mut u64,
        why: &mut DeadEnd,
        mut dirty: u32,
    ) -> bool {
        loop {
            if C::ENABLED {
                *probes += 27;
            }
            if dirty == 0 {
                return true;
            }
            // The words this pass changes (bit `9*b + d`), less those it
            // filters afterwards: the next pass's dirty set, exactly the
            // words that differ from what the filter last left in them.
            let mut next = 0u32;
            while dirty != 0 {
                let j = dirty.trailing_zeros() as usize;
                dirty &= dirty - 1;
                // SAFETY: every dirty set is made of bits `9*b + d` below
                // 27 (`noted`, `DIRTY_ALL`, shifted band masks of 9 bits):
                // no bounds check on the word or its tables below.
                unsafe { std::hint::assert_unchecked(j < 27) };
                if C::ENABLED {
                    *probes += 1;
                }
                let before = self.cand[j];
                // Per row, one look-up gives its boxes for the pattern and,
                // further up, the row's cell if it is alone in the row.
                let rows = ROW_INFO[0][(before & ROW) as usize]
                    | ROW_INFO[1][((before >> 9) & ROW) as usize]
                    | ROW_INFO[2][((before >> 18) & ROW) as usize];
                let pattern = rows as u32;
                let x = before & PERMUTATION_CELLS[pattern as usize];
                if x == 0 {
                    if C::ENABLED {
                        let b = BAND_OF[j];
                        *why = band_failure(&self.cand, self.unsolved[b], b, j - 9 * b);
                    }
                    return false;
                }
                next &= !(1 << j);
                let b = BAND_OF[j];
                let d = j - 9 * b;
                // The row singles and the column claim's cells. When the
                // filter changed nothing (the common case), both come from
                // the word before it: the look-ups above already hold the
                // singles, and the claim's look-up starts at once instead
                // of waiting for the filter's (its writes are what the next
                // band updates read, so this chain sets the pace, #28). A
                // word the filter changed is looked up again.
                let cols = (before | (before >> 9) | (before >> 18)) & ROW;
                let claimed_before = LOCKED_CELLS[cols as usize];
                let (singles, claimed) = if x != before {
                    let cols = (x | (x >> 9) | (x >> 18)) & ROW;
                    let singles = SINGLE[(x & ROW) as usize]
                        | SINGLE[((x >> 9) & ROW) as usize] << 9
                        | SINGLE[((x >> 18) & ROW) as usize] << 18;
                    (singles, LOCKED_CELLS[cols as usize])
                } else {
                    ((rows >> 32) as u32, claimed_before)
                };
                let singles = singles & self.unsolved[b];
                if S::POINTING {
                    for o in OTHER_WORDS[j] {
                        // SAFETY: `OTHER_WORDS` holds indices below 27 (it
                        // is built from band numbers below 3 and digits
                        // below 9): no bounds check in the hottest loop.
                        let w = unsafe { self.cand.get_unchecked_mut(o as usize) };
                        let new = *w & !claimed;
                        next |= noted(*w, new, o as usize);
                        *w = new;
                    }
                }
                if singles != 0 {
                    if C::ENABLED {
                        let mut s = singles;
                        while s != 0 {
                            let i = s.trailing_zeros() as usize;
                            s &= s - 1;
                            // The digit's last place in its row after the
                            // filter: a hidden single in the row or box it
                            // was already, or what the filter's locked
                            // candidates left.
                            let (r, c) = (i / 9, i % 9);
                            let row = unit(0, 3 * b + r);
                            let in_box = (0o7 << (c / 3 * 3)) * 0o1001001;
                            let reason = if (before >> (9 * r)) & ROW == 1 << c {
                                Reason::HiddenSingle(row)
                            } else if (before & in_box).count_ones() == 1 {
                                Reason::HiddenSingle(unit(2, 3 * b + c / 3))
                            } else {
                                Reason::BandFilter { band: b as u8, row }
                            };
                            ctx.counter.forced_because(27 * b + i, d as u8 + 1, reason);
                        }
                    }
                    // `x` goes in with the placement: stored first, it
                    // would stall the band's 8-word load in `clear_band`.
                    next |= self.place_keeping::<I>(d, b, singles, x);
                } else {
                    self.cand[j] = x;
                }
            }
            dirty = next;
        }
    }

    /// Propagates to a fixpoint from a state whose changed words are
    /// `dirty`, and says what to do next.
    #[inline(always)]
    fn propagate<C: Counter, I: Isa>(
        &mut self,
        ctx: &mut Ctx<C>,
        probes: &mut u64,
        why: &mut DeadEnd,
        mut dirty: u32,
    ) -> Fixpoint {
        loop {
            if !self.settle::<C, I>(ctx, probes, why, dirty) {
                return Fixpoint::Contradiction;
            }
            // Every word is filtered: from here on, `dirty` collects the
            // words each step changes, for the next `settle`.
            dirty = 0;
            if self.unsolved == [0; 3] {
                return Fixpoint::Solved;
            }
            // Naked singles, empty cells and bivalue cells, band by band.
            let mut found = false;
            let mut bivalues = [0u32; 3];
            // With the column claim on, a naked single leaves only its own
            // band's words, so the three bands are counted at once, one
            // lane each (the compiler makes it vector code), before any
            // single is placed.
            let counts = if S::POINTING { self.candidate_counts() } else { [[0; 4]; 3] };
            for (b, bivalue) in bivalues.iter_mut().enumerate() {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                if C::ENABLED {
                    *probes += 9;
                }
                let (one, two, three) = if S::POINTING {
                    (counts[0][b], counts[1][b], counts[2][b])
                } else {
                    let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
                    for d in 0..9 {
                        let x = self.cand[9 * b + d];
                        three |= two & x;
                        two |= one & x;
                        one |= x;
                    }
                    (one, two, three)
                };
                if u & !one != 0 {
                    if C::ENABLED {
                        let i = (u & !one).trailing_zeros() as usize;
                        *why = DeadEnd::Cell(Cell((27 * b + i) as u16));
                    }
                    return Fixpoint::Contradiction;
                }
                let mut singles = u & !two;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles ^= bit;
                    let digits = self.digits_of(b, bit);
                    if digits == 0 {
                        // An earlier single of this sweep took its last digit.
                        if C::ENABLED {
                            let i = bit.trailing_zeros() as usize;
                            *why = DeadEnd::Cell(Cell((27 * b + i) as u16));
                        }
                        return Fixpoint::Contradiction;
                    }
                    let d = digits.trailing_zeros() as usize;
                    if C::ENABLED {
                        ctx.counter.forced_because(
                            27 * b + bit.trailing_zeros() as usize,
                            d as u8 + 1,
                            Reason::NakedSingle,
                        );
                    }
                    // A naked single: no other digit to clear (and `d` is a
                    // candidate of the cell: the assignment succeeds).
                    dirty |= self.assign::<false, I>(d, b, bit).unwrap_or(0);
                    found = true;
                }
                *bivalue = u & two & !three;
            }
            if found {
                continue;
            }
            // When the quick check finds nothing, it read the words the
            // sweep would have read: counted the same, 3 per digit. Not with
            // the stack filter (`fast-stacks`): its sweep also filters the
            // stacks, which the quick check does not look at.
            let quiet = S::COLS && !S::STACKS && self.columns_quiet();
            if C::ENABLED && quiet {
                *probes += 27;
            }
            match if S::COLS && !quiet {
                self.column_singles::<C, I>(ctx, probes, why, &mut dirty)
            } else {
                Some(false)
            } {
                None => return Fixpoint::Contradiction,
                Some(true) => continue,
                Some(false) => {}
            }
            if S::TRIADS {
                match self.triads() {
                    None => {
                        if C::ENABLED {
                            *why = self.triads_failure();
                        }
                        return Fixpoint::Contradiction;
                    }
                    Some(changed) if changed != 0 => {
                        dirty = changed;
                        continue;
                    }
                    Some(_) => {
                        let hard = S::HARD_BRANCH && ctx.guesses() >= HARD_AFTER;
                        if let Some((j, pattern)) = choose_ways(&self.patterns(), hard) {
                            return Fixpoint::Ways { j, pattern };
                        }
                    }
                }
            }
            let (band, bit) = match self.choose_bivalue::<C>(bivalues, probes) {
                Some(p) => p,
                None => self.fewest_candidates::<C>(probes),
            };
            if C::ENABLED {
                *probes += 9;
            }
            let digits = self.digits_of(band, bit);
            return Fixpoint::Branch { band, bit, digits };
        }
    }

    /// Digit `d`'s columns per band (9 bits each): the band's three rows
    /// folded.
    #[inline(always)]
    fn column_folds(&self, d: usize) -> [u32; 3] {
        [self.cand[d], self.cand[9 + d], self.cand[18 + d]].map(|x| (x | (x >> 9) | (x >> 18)) & ROW)
    }

    /// The stack filter, then, if it changed nothing, the hidden minicolumn
    /// and minirow triads (`fast-triads`), on all digits, in word arithmetic
    /// (no table, no branch per digit). `None` on a contradiction, else the
    /// words it changed (bit `9*b + d`).
    #[inline(always)]
    fn triads(&mut self) -> Option<u32> {
        let mut changed = 0u32;
        let mut dead = 0u32;
        // The stack filter: a (band, column) pair of a stack survives if the
        // two other bands can take the two other columns.
        for d in 0..9 {
            let x = [self.cand[d], self.cand[9 + d], self.cand[18 + d]];
            let f = self.column_folds(d);
            let k = [
                f[0] & ((rot1(f[1]) & rot2(f[2])) | (rot2(f[1]) & rot1(f[2]))),
                f[1] & ((rot1(f[0]) & rot2(f[2])) | (rot2(f[0]) & rot1(f[2]))),
                f[2] & ((rot1(f[0]) & rot2(f[1])) | (rot2(f[0]) & rot1(f[1]))),
            ];
            // With a way through a stack, each of its columns keeps a band.
            dead |= (k[0] | k[1] | k[2]) ^ ROW;
            for b in 0..3 {
                let new = x[b] & rows3(k[b]);
                changed |= noted(x[b], new, 9 * b + d);
                self.cand[9 * b + d] = new;
            }
        }
        if dead != 0 {
            return None;
        }
        // What it changed goes through the band updates before the triad
        // rules look (the same fixpoint, reached with less work).
        if changed != 0 {
            return Some(changed);
        }
        // The hidden minicolumn rule, the same along columns: per band, a
        // minicolumn (bit: its column) that three digits must use holds
        // those three.
        for (b, must) in self.minicolumn_musts().iter().enumerate() {
            let (three, four) = three_and_four(must);
            dead |= four;
            for (d, m) in must.iter().enumerate() {
                let k = 9 * b + d;
                let old = self.cand[k];
                let new = old & !rows3(three & !m);
                changed |= noted(old, new, k);
                self.cand[k] = new;
            }
        }
        // The hidden minirow rule: a minirow (bit `9*row + 3*box`) that
        // three digits must use holds those three; four is a contradiction.
        for b in 0..3 {
            let must = self.minirow_musts(b);
            let (three, four) = three_and_four(&must);
            dead |= four;
            for (d, m) in must.iter().enumerate() {
                let k = 9 * b + d;
                let old = self.cand[k];
                let new = old & !columns3(three & !m);
                changed |= noted(old, new, k);
                self.cand[k] = new;
            }
        }
        (dead == 0).then_some(changed)
    }

    /// Per band, per digit (`[b][d]`), the minicolumns (bit: the column)
    /// the digit must use in the band: a column left in one band, or a band
    /// left with one column of the stack (the hidden minicolumn rule's
    /// sets).
    #[inline(always)]
    fn minicolumn_musts(&self) -> [[u32; 9]; 3] {
        let mut mustc = [[0u32; 9]; 3];
        // Digit by digit, each band's entry: `d` indexes the inner arrays.
        #[allow(clippy::needless_range_loop)]
        for d in 0..9 {
            let k = self.column_folds(d);
            let one_band = one_of(k[0], k[1], k[2]);
            for b in 0..3 {
                mustc[b][d] = k[b] & (one_band | !(rot1(k[b]) | rot2(k[b])));
            }
        }
        mustc
    }

    /// Per digit, the minirows (bit `9*row + 3*box`) of band `b` it must
    /// use: a row whose cells lie in one box, a box whose cells lie in one
    /// row (the hidden minirow rule's sets).
    #[inline(always)]
    fn minirow_musts(&self, b: usize) -> [u32; 9] {
        const SEG: u32 = 0o111 * 0x40201;
        let mut must = [0u32; 9];
        for (d, m) in must.iter_mut().enumerate() {
            let x = self.cand[9 * b + d];
            let seg = (x | (x >> 1) | (x >> 2)) & SEG;
            let row_one = one_of(seg, seg >> 3, seg >> 6) & 0x40201;
            let box_one = one_of(seg, seg >> 9, seg >> 18) & 0o111;
            *m = seg & (boxes3(row_one) | rows3(box_one));
        }
        must
    }

    /// Why [`State::triads`] found a contradiction (only when counting), from
    /// the words it left: a column where the stack filter left a digit no
    /// cell; else a minirow or minicolumn that four digits must use.
    #[cold]
    fn triads_failure(&self) -> DeadEnd {
        for d in 0..9 {
            let f = self.column_folds(d);
            let empty = !(f[0] | f[1] | f[2]) & ROW;
            if empty != 0 {
                return DeadEnd::Digit {
                    unit: unit(1, empty.trailing_zeros() as usize),
                    digit: d as u8 + 1,
                };
            }
        }
        // The triad rules again, on the words they left (they only take
        // candidates away, so a place four digits had to use still is).
        for (b, must) in self.minicolumn_musts().iter().enumerate() {
            let (_, four) = three_and_four(must);
            if four != 0 {
                let c = four.trailing_zeros();
                return DeadEnd::Crowded {
                    line: unit(1, c as usize),
                    in_box: (3 * b as u32 + c / 3) as u8,
                    digits: digits_using(must, 1 << c),
                };
            }
        }
        for b in 0..3 {
            let must = self.minirow_musts(b);
            let (_, four) = three_and_four(&must);
            if four != 0 {
                let i = four.trailing_zeros();
                return DeadEnd::Crowded {
                    line: unit(0, 3 * b + i as usize / 9),
                    in_box: (3 * b as u32 + i % 9 / 3) as u8,
                    digits: digits_using(&must, 1 << i),
                };
            }
        }
        DeadEnd::Unstated
    }

    /// The ways patterns for tdoku's branch: of the 27 words (bit `3*row +
    /// box`: the minirows the digit can still use), then of the 27
    /// digit-stacks.
    #[inline(always)]
    fn patterns(&self) -> [u32; 54] {
        // The minirows as bits `9*row + 3*box`, packed to `3*row + box` by
        // shifts (each row's boxes to its bits 0..2, then the rows side by
        // side; no multiply: see `rows3`).
        let mut p = [0u32; 54];
        for (p, &x) in p.iter_mut().zip(&self.cand) {
            let m = (x | (x >> 1) | (x >> 2)) & (0o111 * 0x40201);
            let y = m | (m >> 2) | (m >> 4);
            *p = (y & 7) | ((y >> 6) & 0o70) | ((y >> 12) & 0o700);
        }
        // Stacks: per digit, the (band, column) pairs of stack `s`, bit
        // `3*band + column`, at `27 + 9*s + d`.
        for d in 0..9 {
            let k = self.column_folds(d);
            for s in 0..3 {
                p[27 + 9 * s + d] =
                    ((k[0] >> (3 * s)) & 7) | ((k[1] >> (3 * s)) & 7) << 3 | ((k[2] >> (3 * s)) & 7) << 6;
            }
        }
        p
    }

    /// Per band (lane `b`), the cells with at least one, at least two and
    /// at least three candidates: `[one, two, three]`, lane 3 unused. The
    /// three bands side by side, so each step is one vector operation where
    /// a band at a time was three scalar ones (and the nine words of a band
    /// no longer spill to the stack).
    #[inline(always)]
    fn candidate_counts(&self) -> [[u32; 4]; 3] {
        let (mut one, mut two, mut three) = ([0u32; 4], [0u32; 4], [0u32; 4]);
        for d in 0..9 {
            let x = [self.cand[d], self.cand[9 + d], self.cand[18 + d], 0];
            for l in 0..4 {
                three[l] |= two[l] & x[l];
                two[l] |= one[l] & x[l];
                one[l] |= x[l];
            }
        }
        [one, two, three]
    }

    /// The digits (bit `d`) still possible in cell `bit` of band `b`,
    /// gathered without a branch per digit.
    #[inline(always)]
    fn digits_of(&self, b: usize, bit: u32) -> u32 {
        let i = bit.trailing_zeros();
        let mut digits = 0;
        for d in 0..9 {
            digits |= ((self.cand[9 * b + d] >> i) & 1) << d;
        }
        digits
    }

    /// Whether the column sweep ([`State::column_singles`]) would find
    /// nothing: every digit has two or more cells left in every column, or
    /// is placed there. Worked out for the 9 digits at once with no branch
    /// (the compiler turns the loop into vector code: one digit per lane), so
    /// the usual answer before a guess, "nothing", costs a few dozen
    /// instructions instead of a sweep with two branches per digit.
    #[inline(always)]
    fn columns_quiet(&self) -> bool {
        let solved = self.unsolved.map(|u| !u);
        let mut loud = 0u32;
        for d in 0..9 {
            let (x0, x1, x2) = (self.cand[d], self.cand[9 + d], self.cand[18 + d]);
            let o = x0 | x1 | x2;
            // Two cells in a column: at the same place in two bands (`t`),
            // or in two rows of the stacked bands.
            let t = (x0 & x1) | (x2 & (x0 | x1));
            let two = t | t >> 9 | t >> 18 | (o & (o >> 9)) | ((o >> 18) & (o | (o >> 9)));
            let p = (x0 & solved[0]) | (x1 & solved[1]) | (x2 & solved[2]);
            let placed = p | p >> 9 | p >> 18;
            // A column with fewer than two cells and the digit not placed:
            // a hidden single, or no room (a contradiction).
            loud |= !two & !placed;
        }
        loud & ROW == 0
    }

    /// Hidden singles in columns, which the band filter does not see: a
    /// digit with exactly one possible cell in a column goes there. `None`
    /// on a contradiction (a column with no room for a digit), else whether
    /// anything was placed; the words it changed join `dirty`.
    #[inline(always)]
    fn column_singles<C: Counter, I: Isa>(
        &mut self,
        ctx: &mut Ctx<C>,
        probes: &mut u64,
        why: &mut DeadEnd,
        dirty: &mut u32,
    ) -> Option<bool> {
        let mut found = false;
        let solved = self.unsolved.map(|u| !u);
        for d in 0..9 {
            if C::ENABLED {
                *probes += 3;
            }
            // Stack the three bands: per (row-in-band, column), "in at
            // least one band" and "in at least two", then fold the 3 rows.
            let (x0, x1, x2) = (self.cand[d], self.cand[9 + d], self.cand[18 + d]);
            let o = x0 | x1 | x2;
            let t = (x0 & x1) | (x2 & (x0 | x1));
            let (o0, o1, o2) = (o & ROW, (o >> 9) & ROW, (o >> 18) & ROW);
            let one = o0 | o1 | o2;
            let two = ((t | (t >> 9) | (t >> 18)) & ROW) | (o0 & o1) | (o2 & (o0 | o1));
            let p = (x0 & solved[0]) | (x1 & solved[1]) | (x2 & solved[2]);
            let placed = p | (p >> 9) | (p >> 18);
            let f = [
                (x0 | (x0 >> 9) | (x0 >> 18)) & ROW,
                (x1 | (x1 >> 9) | (x1 >> 18)) & ROW,
                (x2 | (x2 >> 9) | (x2 >> 18)) & ROW,
            ];
            if one != ROW {
                if C::ENABLED {
                    let column = (!one & ROW).trailing_zeros() as usize;
                    *why = DeadEnd::Digit {
                        unit: unit(1, column),
                        digit: d as u8 + 1,
                    };
                }
                return None;
            }
            if S::STACKS {
                // Stack view: the (band, column-in-stack) pairs of each stack
                // form a permutation too (column/box locked candidates).
                let mut allowed = [0u32; 3];
                for s in 0..3 {
                    let pattern = ((f[0] >> (3 * s)) & 7)
                        | ((f[1] >> (3 * s)) & 7) << 3
                        | ((f[2] >> (3 * s)) & 7) << 6;
                    let keep = PERMUTATION_PAIRS[pattern as usize & 511];
                    if keep == 0 {
                        if C::ENABLED {
                            *why = DeadEnd::Chute {
                                chute: Chute::Stack(s as u8),
                                digit: d as u8 + 1,
                            };
                        }
                        return None;
                    }
                    for (b, a) in allowed.iter_mut().enumerate() {
                        *a |= ((keep >> (3 * b)) & 7) << (3 * s);
                    }
                }
                for (b, a) in allowed.iter().enumerate() {
                    let k = 9 * b + d;
                    let old = self.cand[k];
                    let new = old & rows3(*a);
                    if new != old {
                        self.cand[k] = new;
                        *dirty |= 1 << k;
                        found = true;
                    }
                }
            }
            let new = one & !two & !placed & ROW;
            if new == 0 {
                continue;
            }
            let spread = rows3(new);
            for b in 0..3 {
                let mut cells = self.cand[9 * b + d] & spread & self.unsolved[b];
                while cells != 0 {
                    let bit = cells & cells.wrapping_neg();
                    cells ^= bit;
                    let column = bit.trailing_zeros() as usize % 9;
                    if C::ENABLED {
                        ctx.counter.forced_because(
                            27 * b + bit.trailing_zeros() as usize,
                            d as u8 + 1,
                            Reason::HiddenSingle(unit(1, column)),
                        );
                    }
                    let Some(changed) = self.assign::<true, I>(d, b, bit) else {
                        // An earlier single of this sweep took the cell's row.
                        if C::ENABLED {
                            *why = DeadEnd::Digit {
                                unit: unit(1, column),
                                digit: d as u8 + 1,
                            };
                        }
                        return None;
                    };
                    *dirty |= changed;
                    found = true;
                }
            }
        }
        Some(found)
    }

    /// The bivalue cell to branch on: the one with the most unsolved cells
    /// in its row, column and box (its digit has the most to propagate
    /// into), its box counted twice, plus three per bivalue cell in its row
    /// (cells its placement may leave single); the last in row-major order
    /// on ties. With `ROW_BIVALUES` off, the old score: row + column + box,
    /// the first on ties. `None` if there is none.
    #[inline(always)]
    fn choose_bivalue<C: Counter>(
        &self,
        bivalues: [u32; 3],
        probes: &mut u64,
    ) -> Option<(usize, u32)> {
        if bivalues == [0; 3] {
            return None;
        }
        if C::ENABLED {
            *probes += 9;
        }
        // Unsolved cells per row, and per column in 6-bit fields (one per
        // column): each row's 9 bits spread to 9 fields and added.
        let mut rows = [0u32; 9];
        let mut bands = [0u64; 3];
        let mut cols = 0u64;
        for b in 0..3 {
            let u = self.unsolved[b];
            let mut band = 0u64;
            for r in 0..3 {
                let v = ((u >> (9 * r)) & ROW) as usize;
                rows[3 * b + r] = POP9[v];
                band += FIELDS6[v];
            }
            bands[b] = band;
            cols += band;
        }
        let mut best = None;
        let mut best_score = 0;
        for b in 0..3 {
            if bivalues[b] == 0 {
                continue;
            }
            // Per column of this band, its column's count plus twice its
            // box's (once with `ROW_BIVALUES` off): a box's count is the sum
            // of its three column fields (added by a multiply), spread back
            // over them (at most 27 per field).
            let band = bands[b];
            let mut col_box = cols;
            let box_weight = if S::ROW_BIVALUES { 2 } else { 1 };
            for k in 0..3 {
                let n = ((((band >> (18 * k)) & 0x3FFFF) * 0x1041) >> 12) & 63;
                col_box += box_weight * n * (0x1041 << (18 * k));
            }
            // Row by row, so a cell's column is its bit in the row (no
            // division by 9): the same row-major order as before.
            for r in 0..3 {
                let mut bv = (bivalues[b] >> (9 * r)) & ROW;
                let row = if S::ROW_BIVALUES {
                    rows[3 * b + r] + 3 * POP9[bv as usize]
                } else {
                    rows[3 * b + r]
                };
                while bv != 0 {
                    let c = bv.trailing_zeros();
                    bv &= bv - 1;
                    let score = row + ((col_box >> (6 * c)) & 63) as u32;
                    // Last best on ties, or (off) the first.
                    let better = if S::ROW_BIVALUES {
                        score >= best_score
                    } else {
                        score > best_score
                    };
                    if better {
                        best_score = score;
                        best = Some((b, 1 << (9 * r + c as usize)));
                    }
                }
            }
        }
        best
    }

    /// The unsolved cell with the fewest candidates (first in row-major
    /// order on ties). Only used when no bivalue cell exists, which is rare.
    #[cold]
    fn fewest_candidates<C: Counter>(&self, probes: &mut u64) -> (usize, u32) {
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let bit = u & u.wrapping_neg();
                u ^= bit;
                if C::ENABLED {
                    *probes += 9;
                }
                let n = (0..9).filter(|&d| self.cand[9 * b + d] & bit != 0).count() as u32;
                if n < best.2 {
                    best = (b, bit, n);
                }
            }
        }
        (best.0, best.1)
    }

    /// The solved grid (call only when every cell is solved).
    fn grid(&self) -> [u8; 81] {
        let mut cells = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[9 * b + d];
                while x != 0 {
                    let i = x.trailing_zeros() as usize;
                    x &= x - 1;
                    cells[27 * b + i] = d as u8 + 1;
                }
            }
        }
        cells
    }
}

/// The digits (bit `d`) whose set in `sets` holds `place`.
#[cold]
fn digits_using(sets: &[u32; 9], place: u32) -> u32 {
    sets.iter()
        .enumerate()
        .filter(|&(_, m)| m & place != 0)
        .fold(0, |acc, (d, _)| acc | 1 << d)
}

/// Rotation inside each stack's 3 column bits (of 9): `rot1(v)` at column
/// p is `v` at p + 1 (mod 3).
#[inline(always)]
fn rot1(v: u32) -> u32 {
    ((v >> 1) & 0o333) | ((v << 2) & 0o444)
}

/// `rot2(v)` at column p is `v` at p + 2 (mod 3).
#[inline(always)]
fn rot2(v: u32) -> u32 {
    ((v >> 2) & 0o111) | ((v << 1) & 0o666)
}

/// `v` (bits of one row) in all three rows of a band: `v * 0x40201` by
/// shifts, the one way the search spreads a row (tables built at compile
/// time keep the multiply). The compiler writes the sweeps over all digits (the triads, the
/// ways patterns) in vector code, where a 32-bit multiply (`vpmulld`) takes
/// 10 cycles on recent Intel cores (3 on Zen 3); three shifts and two ORs
/// take two (#28: ×1.03 and ×1.02 on top1465 and forum-hardest on an Intel
/// Xeon, the header's third round).
#[inline(always)]
fn rows3(v: u32) -> u32 {
    v | (v << 9) | (v << 18)
}

/// `v` (bit `3*k` per box-group) in the group's three columns: `v * 7`
/// by shifts ([`rows3`] says why).
#[inline(always)]
fn columns3(v: u32) -> u32 {
    v | (v << 1) | (v << 2)
}

/// `v` (bit 0 of each row) in the row's three boxes: `v * 0o111` by
/// shifts ([`rows3`] says why).
#[inline(always)]
fn boxes3(v: u32) -> u32 {
    v | (v << 3) | (v << 6)
}

/// Of three sets of bits, the bits in exactly one.
#[inline(always)]
fn one_of(a: u32, b: u32, c: u32) -> u32 {
    (a | b | c) & !((a & b) | (c & (a | b)))
}

/// Of nine digits' sets of places (bits), the places at least three of
/// them hold, and those at least four hold: bit-sliced counters, no loop
/// over the bits.
#[inline(always)]
fn three_and_four(sets: &[u32; 9]) -> (u32, u32) {
    let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
    for &m in sets {
        four |= three & m;
        three |= two & m;
        two |= one & m;
        one |= m;
    }
    (three, four)
}

/// The ways (bit `i`: [`WAYS`]`[i]`) a chute's pattern holds: the children
/// of a branch on it, for the counters (`NoCount` drops it unread).
#[inline(always)]
fn ways_of(pattern: u32) -> u32 {
    let mut ways = 0;
    for (i, bits) in PERM_BITS.iter().enumerate() {
        ways |= ((pattern & bits == *bits) as u32) << i;
    }
    ways
}

/// Guesses after which a search counts as hard and `HARD_BRANCH` turns
/// `choose_ways` to its hard rule for the rest of it. Tried at 24, 32,
/// 48, 64, 96 and 128 (#28, instructions per puzzle against tdoku's rule
/// throughout): forum-hardest −11.0, −11.9, −12.6, −10.8, −11.5, −9.7%,
/// top1465 +3.0, +2.1, +0.9, +0.7, +0.5, +0.5%. From 48 to 96 it is a
/// plateau; 64 is its middle, and on four relabelled, row- and
/// column-permuted copies of forum-hardest 48 and 64 are level (−12.8%).
///
/// Past it, the tree depends on the order it is searched in (the guesses
/// made before a node, in other subtrees), which Knuth's probes in
/// [`crate::analysis::estimate`] cannot follow: they see one path. So the rung is
/// `Rung::ORDER_DEPENDENT`, and `estimate` says it cannot size it;
/// `fast-triads-tdoku`, whose tree is fixed, it sizes.
pub const HARD_AFTER: u64 = 64;

/// The branch on a digit's ways through a chute (band or stack, `patterns`
/// as [`State::patterns`] gives them), among the chutes not yet fixed (some
/// digit with more than one way); `None` when every chute is fixed.
///
/// Not `hard`, tdoku's rule: the chute with the fewest ways over its
/// digits, its digit with two ways, else three, else the fewest. `hard`:
/// the chute with the fewest digits not yet fixed (ties: the most ways),
/// its digit with the most ways. Few digits left in a chute can fill its
/// free minirows in few ways together, however many each has alone, so
/// most children of the widest digit die at once; on easy puzzles the
/// fewest ways wins (`fast-triads` header, #28).
#[inline(always)]
fn choose_ways(patterns: &[u32; 54], hard: bool) -> Option<(usize, u32)> {
    // One copy per rule: tdoku's, the common one, counts no open digits.
    if hard {
        choose_ways_by::<true>(patterns)
    } else {
        choose_ways_by::<false>(patterns)
    }
}

/// [`choose_ways`] with the rule fixed at compile time.
#[inline(always)]
fn choose_ways_by<const HARD: bool>(patterns: &[u32; 54]) -> Option<(usize, u32)> {
    // Each key carries its chute (then its digit) in the low bits, so one
    // minimum picks the first best with no branch per chute or digit:
    // which one wins is data the branch predictor cannot learn.
    let mut best = u32::MAX;
    for c in 0..6 {
        let (mut total, mut open) = (0, 0);
        for d in 0..9 {
            // SAFETY: a pattern holds 9 bits (3×3 pairs, `State::patterns`),
            // below `MUST_WAYS`' 512 entries: 54 bounds checks less per choice.
            let w = unsafe { *MUST_WAYS.get_unchecked(patterns[9 * c + d] as usize) } >> 9;
            total += w;
            if HARD {
                open += (w > 1) as u32;
            }
        }
        // At most 54 ways in a chute: `64 - total` stays positive, and a
        // key (below 2^10) shifted by 3 stays below `u32::MAX`.
        let key = if HARD { open << 6 | (64 - total) } else { total };
        best = best.min(if total > 9 { key << 3 | c as u32 } else { u32::MAX });
    }
    if best == u32::MAX {
        return None;
    }
    let chute = (best & 7) as usize;
    // More than 9 ways over 9 digits: some digit has two or more.
    let mut pick = u32::MAX;
    for d in 0..9 {
        // SAFETY: as above, a pattern is below 512.
        let w = unsafe { *MUST_WAYS.get_unchecked(patterns[9 * chute + d] as usize) } >> 9;
        let rank = match (HARD, w) {
            (true, _) => 64 - w,
            (false, 2) => 0,
            (false, _) => w,
        };
        pick = pick.min(if w >= 2 { rank << 4 | d as u32 } else { u32::MAX });
    }
    debug_assert!(pick != u32::MAX, "a chute with more than 9 ways has a digit with two");
    let j = 9 * chute + (pick & 15) as usize;
    Some((j, patterns[j]))
}

/// Why digit `d` has no place in band `b`, from the band's word before the
/// filter: a row or box of the band without room for it, else no way to use
/// each row and box once (only when counting). A solved cell left with no
/// candidate lost its digit to another band's column claim (the digit twice
/// in a column): a row or box holding one may have `d` placed in it, so it
/// is not named; the band is.
#[cold]
fn band_failure(cand: &[u32; 27], unsolved: u32, b: usize, d: usize) -> DeadEnd {
    let digit = d as u8 + 1;
    let word = cand[9 * b + d];
    let any = cand[9 * b..9 * b + 9].iter().fold(0, |a, &x| a | x);
    let lost = BAND & !unsolved & !any;
    for r in 0..3 {
        if ((word | lost) >> (9 * r)) & ROW == 0 {
            return DeadEnd::Digit {
                unit: unit(0, 3 * b + r),
                digit,
            };
        }
    }
    for k in 0..3 {
        if (word | lost) & ((7 * 0x40201) << (3 * k)) == 0 {
            return DeadEnd::Digit {
                unit: unit(2, 3 * b + k),
                digit,
            };
        }
    }
    DeadEnd::Chute {
        chute: Chute::Band(b as u8),
        digit,
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

/// The copy for x86-64-v3 CPUs (AVX2, BMI1/2, POPCNT, LZCNT: Intel since
/// 2013, AMD since 2015). Nothing in the source is specific to them: the
/// compiler gets to use `tzcnt`, `blsr`, `andn`, `shlx` and 256-bit vectors
/// for the same code (the state copy, the sweeps over all digits).
#[cfg(target_arch = "x86_64")]
mod v3 {
    use super::{Ctx, Flow, Isa, State, Switches};
    use crate::base::counters::Counter;

    /// Whether this CPU runs the v3 copy (`std` caches the answer).
    #[inline(always)]
    pub(super) fn available() -> bool {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("lzcnt")
    }

    pub(super) struct V3;

    impl Isa for V3 {
        #[inline(always)]
        fn node<S: Switches, C: Counter>(st: State<S>, dirty: u32, ctx: &mut Ctx<C>) -> Flow {
            // SAFETY: only reached from `node` below, which only runs on a
            // CPU that `available` accepted.
            unsafe { node::<S, C>(st, dirty, ctx) }
        }
        #[inline(always)]
        fn clear_band(band: &mut [u32; 9], s: u32) -> u32 {
            // SAFETY: as above, only reached from the v3 copy.
            unsafe { clear_band(band, s) }
        }
    }

    /// [`super::Isa::clear_band`] with one 8-word AND and compare, turned
    /// into a bit per word by one `movmskps` (the compiler's version of the
    /// plain loop gathers the bits by shuffles and ORs), the ninth word by
    /// itself.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn clear_band(band: &mut [u32; 9], s: u32) -> u32 {
        use std::arch::x86_64::{
            __m256i, _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_ps,
            _mm256_cmpeq_epi32, _mm256_loadu_si256, _mm256_movemask_ps, _mm256_set1_epi32,
            _mm256_setzero_si256, _mm256_storeu_si256,
        };
        let at = band.as_mut_ptr().cast::<__m256i>();
        // SAFETY: words 0..8 of the 9 are inside the array (`loadu` and
        // `storeu` take any alignment), and the CPU has AVX2.
        let none = unsafe {
            let words = _mm256_loadu_si256(at);
            let cells = _mm256_set1_epi32(s as i32);
            let zero = _mm256_cmpeq_epi32(_mm256_and_si256(words, cells), _mm256_setzero_si256());
            _mm256_storeu_si256(at, _mm256_andnot_si256(cells, words));
            _mm256_movemask_ps(_mm256_castsi256_ps(zero)) as u32
        };
        let last = band[8];
        band[8] = last & !s;
        (!none & 0xFF) | ((last & s != 0) as u32) << 8
    }

    /// [`super::node`] compiled for x86-64-v3.
    ///
    /// # Safety
    /// The CPU must have the features below ([`available`]).
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    pub(super) unsafe fn node<S: Switches, C: Counter>(
        st: State<S>,
        dirty: u32,
        ctx: &mut Ctx<C>,
    ) -> Flow {
        super::node::<S, C, V3>(st, dirty, ctx)
    }
}

/// One search node: propagate from `st`, whose words in `dirty` (bit `9*b
/// + d`) changed since its parent's fixpoint, then branch. Inlined into
/// each compiled copy (`I`), which its children recurse into.
#[inline(always)]
fn node<S: Switches, C: Counter, I: Isa>(
    mut st: State<S>,
    dirty: u32,
    ctx: &mut Ctx<C>,
) -> Flow {
    ctx.enter()?;
    let mut probes = 0u64;
    let mut why = DeadEnd::Unstated;
    let next = st.propagate::<C, I>(ctx, &mut probes, &mut why, dirty);
    ctx.counter.probes(probes);
    match next {
        Fixpoint::Contradiction => {
            ctx.counter.dead_end_because(why);
            Ok(())
        }
        Fixpoint::Solved => ctx.solution(&st.grid()),
        Fixpoint::Branch { band, bit, digits } => {
            let cell = 27 * band + bit.trailing_zeros() as usize;
            ctx.counter.choose(cell, digits);
            let mut ds = digits;
            while ds != 0 {
                let d = ds.trailing_zeros() as usize;
                ds &= ds - 1;
                let mut child = st;
                // `d` is a candidate of the cell, so the assignment succeeds.
                // The parent's words are all filtered: only what the guess
                // changed is dirty in the child.
                let dirty = child.assign::<true, I>(d, band, bit).unwrap_or(0);
                ctx.counter.placement(cell, d as u8 + 1);
                ctx.guess();
                ctx.descend(|ctx| I::node(child, dirty, ctx))?;
                ctx.counter.backtrack(cell, d as u8 + 1);
            }
            Ok(())
        }
        Fixpoint::Ways { j, pattern } if j >= 27 => {
            let (stack, d) = ((j - 27) / 9, (j - 27) % 9);
            // Not a cell: the counters hear of the ways, and of each way
            // as a guess (no placement, no backtrack).
            ctx.counter.branch(Branch::Ways {
                chute: Chute::Stack(stack as u8),
                digit: d as u8 + 1,
                ways: ways_of(pattern),
            });
            for (i, bits) in PERM_BITS.into_iter().enumerate() {
                if pattern & bits != bits {
                    continue;
                }
                let mut child = st;
                let mut dirty = 0;
                for b in 0..3 {
                    let col = (bits >> (3 * b)) & 7;
                    let keep = (ROW & !(7 << (3 * stack))) | col << (3 * stack);
                    let old = st.cand[9 * b + d];
                    let new = old & rows3(keep);
                    child.cand[9 * b + d] = new;
                    dirty |= noted(old, new, 9 * b + d);
                }
                ctx.counter.way(i as u8);
                ctx.guess();
                ctx.descend(|ctx| I::node(child, dirty, ctx))?;
                ctx.counter.way_back(i as u8);
            }
            Ok(())
        }
        Fixpoint::Ways { j, pattern } => {
            ctx.counter.branch(Branch::Ways {
                chute: Chute::Band((j / 9) as u8),
                digit: (j % 9) as u8 + 1,
                ways: ways_of(pattern),
            });
            for (i, bits) in PERM_BITS.into_iter().enumerate() {
                if pattern & bits != bits {
                    continue;
                }
                // One way: the digit keeps only the three minirows it uses.
                let mut child = st;
                child.cand[j] &= PAIR_CELLS[bits as usize];
                let dirty = noted(st.cand[j], child.cand[j], j);
                ctx.counter.way(i as u8);
                ctx.guess();
                ctx.descend(|ctx| I::node(child, dirty, ctx))?;
                ctx.counter.way_back(i as u8);
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The SSE2 and the portable loaders give the same words, on grids from
    /// empty to full and on every value in range.
    #[test]
    fn band_words_agree_on_both_paths() {
        let mut rng = ChaCha8Rng::seed_from_u64(28);
        for round in 0..2000 {
            let mut cells = [0u8; 81];
            let filled = round % 82;
            for c in cells.iter_mut().take(filled) {
                *c = rng.random_range(0..=9);
            }
            cells.rotate_left(round % 81);
            for b in 0..3 {
                let scalar = band_words_scalar(&cells, b);
                #[cfg(target_arch = "x86_64")]
                assert_eq!(band_words_sse2(&cells, b), scalar, "{cells:?}");
                // Each cell of the band is in exactly one word: its value's.
                let mut all = 0;
                for (v, w) in scalar.iter().enumerate() {
                    assert_eq!(all & w, 0);
                    all |= w;
                    for i in 0..27 {
                        assert_eq!(w >> i & 1 == 1, cells[27 * b + i] as usize == v);
                    }
                }
                assert_eq!(all, BAND);
            }
        }
    }

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

    /// `fast-triads`' two compiled copies (the x86-64-v3 one where the CPU
    /// has it, the portable one everywhere) are one source and visit the
    /// same tree: every counter, the solutions and the first solution are
    /// equal, on the famous hard puzzles and on copies of them with givens
    /// taken out (several solutions, counted to 20).
    #[test]
    fn triads_copies_visit_the_same_tree() {
        use crate::base::counters::Counts;
        use crate::base::search::Limits;
        use crate::base::strategy::fast_triads::FastTriads;
        struct TriadsPortable;
        impl Switches for TriadsPortable {
            const COLS: bool = FastTriads::COLS;
            const STACKS: bool = FastTriads::STACKS;
            const POINTING: bool = FastTriads::POINTING;
            const NATIVE: bool = false;
            const ROW_BIVALUES: bool = FastTriads::ROW_BIVALUES;
            const TRIADS: bool = FastTriads::TRIADS;
            const HARD_BRANCH: bool = FastTriads::HARD_BRANCH;
        }
        fn run<S: Switches>(puzzle: &Board) -> (Counts, u64, [u8; 81]) {
            let mut first = [0u8; 81];
            let mut ctx = Ctx::new(Limits::count(20, None), Counts::default(), &mut first);
            let flow = search::<S, Counts>(puzzle, &mut ctx);
            let tally = ctx.finish(flow);
            (tally.counter, tally.solutions, first)
        }
        let famous = [
            "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
            ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
            ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
            "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ];
        let (mut guessed, mut several) = (0, 0);
        for line in famous {
            let cells: Vec<u8> = line.bytes().map(|c| if c == b'.' { 0 } else { c - b'0' }).collect();
            for cut in 0..4 {
                let mut cells = cells.clone();
                // Take out the first `cut` givens.
                for c in cells.iter_mut().filter(|c| **c != 0).take(cut) {
                    *c = 0;
                }
                let puzzle = Board::from_cells(BoxSize::NINE, cells).expect("a puzzle");
                let v3 = run::<FastTriads>(&puzzle);
                assert_eq!(v3, run::<TriadsPortable>(&puzzle), "{line}, {cut} cut");
                guessed += (v3.0.guesses > 0) as u32;
                several += (v3.1 > 1) as u32;
            }
        }
        assert!(guessed >= 15 && several > 0, "{guessed} guessed, {several} with several");
    }
}

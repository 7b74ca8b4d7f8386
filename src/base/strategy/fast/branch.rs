//! The branch: a bivalue cell by its score (or, rarely, the cell with the
//! fewest candidates), or, in `fast-triads`, a digit's ways through a
//! chute; and [`node`], one search node, whose children are copies of its
//! state.

use super::tables::{FIELDS6, MUST_WAYS, PAIR_CELLS, PERM_BITS, POP9, ROW, rows3};
use super::{Fixpoint, Isa, State, Switches, noted};
use crate::base::counters::{Branch, Chute, Counter, DeadEnd};
use crate::base::search::{Ctx, Flow};

impl<S: Switches> State<S> {
    /// The ways patterns for tdoku's branch: of the 27 words (bit `3*row +
    /// box`: the minirows the digit can still use), then of the 27
    /// digit-stacks.
    #[inline(always)]
    pub(super) fn patterns(&self) -> [u32; 54] {
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

    /// The bivalue cell to branch on: the one with the most unsolved cells
    /// in its row, column and box (its digit has the most to propagate
    /// into), its box counted twice, plus three per bivalue cell in its row
    /// (cells its placement may leave single); the last in row-major order
    /// on ties. With `ROW_BIVALUES` off, the old score: row + column + box,
    /// the first on ties. `None` if there is none.
    #[inline(always)]
    pub(super) fn choose_bivalue<C: Counter>(
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
    pub(super) fn fewest_candidates<C: Counter>(&self, probes: &mut u64) -> (usize, u32) {
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

/// The ways (bit `i`: [`WAYS`](crate::base::counters::WAYS)`[i]`) a
/// chute's pattern holds: the children of a branch on it, tried lowest
/// first (the last one known, for [`Ctx::last_way`]).
#[inline(always)]
fn ways_of(pattern: u32) -> u32 {
    let mut ways = 0;
    for (i, bits) in PERM_BITS.iter().enumerate() {
        ways |= ((pattern & bits == *bits) as u32) << i;
    }
    ways
}

/// Guesses (ways entered, `Ctx::guesses`) after which a search counts as
/// hard and `HARD_BRANCH` turns `choose_ways` to its hard rule for the
/// rest of it. Tuned on one generated set, reported on the corpora it was
/// not tuned on (#60; the table is in `fast-triads`' header): 64, 128 and
/// 256 tie there, the smallest is kept.
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
pub(super) fn choose_ways(patterns: &[u32; 54], hard: bool) -> Option<(usize, u32)> {
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

/// One search node: propagate from `st`, whose words in `dirty` (bit `9*b
/// + d`) changed since its parent's fixpoint, then branch. Inlined into
/// each compiled copy (`I`), which its children recurse into.
#[inline(always)]
pub(super) fn node<S: Switches, C: Counter, I: Isa>(
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
                if ds == 0 {
                    ctx.last_way();
                }
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
            let mut ways = ways_of(pattern);
            while ways != 0 {
                let i = ways.trailing_zeros() as usize;
                ways &= ways - 1;
                let bits = PERM_BITS[i];
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
                if ways == 0 {
                    ctx.last_way();
                }
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
            let mut ways = ways_of(pattern);
            while ways != 0 {
                let i = ways.trailing_zeros() as usize;
                ways &= ways - 1;
                let bits = PERM_BITS[i];
                // One way: the digit keeps only the three minirows it uses.
                let mut child = st;
                child.cand[j] &= PAIR_CELLS[bits as usize];
                let dirty = noted(st.cand[j], child.cand[j], j);
                ctx.counter.way(i as u8);
                ctx.guess();
                if ways == 0 {
                    ctx.last_way();
                }
                ctx.descend(|ctx| I::node(child, dirty, ctx))?;
                ctx.counter.way_back(i as u8);
            }
            Ok(())
        }
    }
}

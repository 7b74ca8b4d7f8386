//! Propagation to a fixpoint, [`State::propagate`]: band updates, then
//! naked singles and bivalue cells by bit counting, then hidden singles in
//! columns (with the stack view of `fast-stacks`), then `fast-triads`'
//! rules; what is left is a branch.

use super::branch::{HARD_AFTER, choose_ways};
use super::tables::{PERMUTATION_PAIRS, ROW, rows3};
use super::{Fixpoint, Isa, State, Switches};
use crate::base::board::Cell;
use crate::base::counters::{Chute, Counter, DeadEnd, Reason, unit};
use crate::base::search::Ctx;

impl<S: Switches> State<S> {
    /// Propagates to a fixpoint from a state whose changed words are
    /// `dirty`, and says what to do next.
    #[inline(always)]
    pub(super) fn propagate<C: Counter, I: Isa>(
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
}

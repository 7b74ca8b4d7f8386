//! The band update, [`State::settle`]: the permutation filter on each
//! dirty digit-band, the row singles it leaves and the column claim, pass
//! after pass until no word is dirty; and, when counting, why a band had no
//! room for a digit ([`band_failure`]).

use super::tables::{BAND, BAND_OF, LOCKED_CELLS, OTHER_WORDS, PERMUTATION_CELLS, ROW, ROW_INFO, SINGLE};
use super::{Isa, State, Switches, noted};
use crate::base::counters::{Chute, Counter, DeadEnd, Reason, unit};
use crate::base::search::Ctx;

impl<S: Switches> State<S> {
    /// Runs the band filter on the dirty digit-bands (`dirty`, bit `9*b +
    /// d`: the words changed since the filter last saw them), then on those
    /// its writes change, until none is dirty. Returns false on a
    /// contradiction (and, when counting, says why in `why`).
    #[inline(always)]
    pub(super) fn settle<C: Counter, I: Isa>(
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

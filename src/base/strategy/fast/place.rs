//! Writing into the state: the givens entered (a band's 27 bytes turned
//! into one word per value, with SSE2 on x86-64), and a digit placed in
//! cells, which leave the band's other digits and the digit's other bands.

use super::tables::{BAND, GIVEN_BOXES, GIVEN_ROW, GIVEN_TWICE, OTHER_BANDS, ROW, rows3};
use super::{Isa, State, Switches, noted};

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

impl<S: Switches> State<S> {
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
    pub(super) fn from_givens(cells: &[u8; 81]) -> Option<Self> {
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
    pub(super) fn place_keeping<I: Isa>(&mut self, d: usize, b: usize, s: u32, keep: u32) -> u32 {
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
    pub(super) fn assign<const OTHERS: bool, I: Isa>(&mut self, d: usize, b: usize, bit: u32) -> Option<u32> {
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
}

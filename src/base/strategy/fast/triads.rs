//! `fast-triads`' rules (the switch `TRIADS`): tdoku's stack filter and its
//! hidden minicolumn and minirow triads, on all digits at once in word
//! arithmetic, and, when counting, why they found a contradiction.

use super::tables::{ROW, rows3};
use super::{State, Switches, noted};
use crate::base::counters::{DeadEnd, unit};

impl<S: Switches> State<S> {
    /// Digit `d`'s columns per band (9 bits each): the band's three rows
    /// folded.
    #[inline(always)]
    pub(super) fn column_folds(&self, d: usize) -> [u32; 3] {
        [self.cand[d], self.cand[9 + d], self.cand[18 + d]].map(|x| (x | (x >> 9) | (x >> 18)) & ROW)
    }

    /// The stack filter, then, if it changed nothing, the hidden minicolumn
    /// and minirow triads (`fast-triads`), on all digits, in word arithmetic
    /// (no table, no branch per digit). `None` on a contradiction, else the
    /// words it changed (bit `9*b + d`).
    #[inline(always)]
    pub(super) fn triads(&mut self) -> Option<u32> {
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
    pub(super) fn triads_failure(&self) -> DeadEnd {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::board::{Board, BoxSize};
    use crate::base::strategy::fast::search;
    use crate::base::search::Ctx;

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

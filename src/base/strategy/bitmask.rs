//! # Rung 4 — `bitmask`: one machine word per unit
//!
//! **What changes from `used-tables`.** Each row, column and box keeps the set
//! of digits it uses as the bits of one `u32` (bit `d-1` for digit `d`). The
//! candidates of a cell are the complement of the union of its three masks,
//! computed with two ORs and a NOT; the search then walks the set bits from the
//! lowest (`x & -x`), so it never even tries a digit that cannot fit.
//!
//! **Cost per node.** 3 mask reads and a few bit operations, whatever N is;
//! one XOR per unit to place or undo a digit.
//!
//! **What it teaches.** Still the same tree (lowest bit first = increasing
//! digits), but the per-node work no longer loops over digits that fail. Also,
//! the candidate *count* is now a single `popcount` — which makes the next rung
//! (choosing the most constrained cell) affordable.

use crate::base::board::{Board, BoxSize, MAX_CELLS, MAX_SIDE};
use crate::base::counters::Counter;
use crate::base::search::{Ctx, Flow};
use crate::base::strategy::Rung;

/// Rung 4.
pub struct Bitmask;

impl Rung for Bitmask {
    const NAME: &'static str = "bitmask";
    const SUMMARY: &'static str =
        "one bit set per unit: candidates = complement of the union, lowest bit first";
    const ROW_MAJOR: bool = true;
    /// The list of empty cells `[cell, row, column, box]`, reused from puzzle to puzzle.
    type Scratch = Vec<[u16; 4]>;
    fn scratch(size: BoxSize) -> Vec<[u16; 4]> {
        Vec::with_capacity(size.cells())
    }
    fn search<C: Counter>(blanks: &mut Vec<[u16; 4]>, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        let g = puzzle.geometry();
        blanks.clear();
        let mut s = State {
            full: g.full,
            cells: [0; MAX_CELLS],
            blanks: std::mem::take(blanks),
            row: [0; MAX_SIDE],
            col: [0; MAX_SIDE],
            boxm: [0; MAX_SIDE],
            total: g.cells,
        };
        s.cells[..g.cells].copy_from_slice(puzzle.cells());
        for (c, &v) in puzzle.cells().iter().enumerate() {
            let (r, col, b) = (g.row[c], g.col[c], g.boxi[c]);
            if v == 0 {
                s.blanks.push([c as u16, r as u16, col as u16, b as u16]);
            } else {
                let bit = 1u32 << (v - 1);
                s.row[r as usize] |= bit;
                s.col[col as usize] |= bit;
                s.boxm[b as usize] |= bit;
            }
        }
        let flow = s.dfs(0, ctx);
        *blanks = s.blanks;
        flow
    }
}

struct State {
    full: u32,
    cells: [u8; MAX_CELLS],
    /// Empty cells, row-major: `[cell, row, column, box]`.
    blanks: Vec<[u16; 4]>,
    row: [u32; MAX_SIDE],
    col: [u32; MAX_SIDE],
    boxm: [u32; MAX_SIDE],
    total: usize,
}

impl State {
    fn dfs<C: Counter>(&mut self, idx: usize, ctx: &mut Ctx<C>) -> Flow {
        ctx.enter()?;
        let Some(&[cell, r, c, b]) = self.blanks.get(idx) else {
            return ctx.solution(&self.cells[..self.total]);
        };
        let (cell, r, c, b) = (cell as usize, r as usize, c as usize, b as usize);
        let mut cand = !(self.row[r] | self.col[c] | self.boxm[b]) & self.full;
        ctx.counter.probes(3);
        ctx.counter.choose(cell, cand);
        let guessing = cand.count_ones() > 1;
        while cand != 0 {
            let bit = cand & cand.wrapping_neg();
            cand ^= bit;
            self.toggle(r, c, b, bit);
            self.cells[cell] = bit.trailing_zeros() as u8 + 1;
            ctx.counter.placement(cell, self.cells[cell]);
            if guessing {
                ctx.guess();
                if cand == 0 {
                    ctx.last_way();
                }
            }
            ctx.descend(|ctx| self.dfs(idx + 1, ctx))?;
            self.toggle(r, c, b, bit);
            self.cells[cell] = 0;
            ctx.counter.backtrack(cell, bit.trailing_zeros() as u8 + 1);
        }
        Ok(())
    }

    #[inline(always)]
    fn toggle(&mut self, r: usize, c: usize, b: usize, bit: u32) {
        self.row[r] ^= bit;
        self.col[c] ^= bit;
        self.boxm[b] ^= bit;
    }
}

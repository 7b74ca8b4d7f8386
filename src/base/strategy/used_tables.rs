//! # Rung 3 — `used-tables`: remember which digits each unit uses
//!
//! **What changes from `blank-list`.** Three boolean tables — `row[r][d]`,
//! `col[c][d]`, `boxu[b][d]` — say whether digit `d` is already used in a unit.
//! They are filled from the givens once and updated on every place/undo, so a
//! legality check is three table reads instead of a 3N-cell scan. This is the
//! C++ `isUsed[3][9][10]` solution of the Baekjoon 2239 write-up.
//!
//! **Cost per node.** O(1) to find the cell; at most 3 reads per digit tried,
//! plus 3 writes per placement and per undo.
//!
//! **What it teaches.** Same tree again; the cost per node no longer grows
//! with N for the check. Trading a little memory and bookkeeping for O(1)
//! queries is the classic move.

use crate::base::board::{Board, BoxSize, MAX_CELLS};
use crate::base::counters::Counter;
use crate::base::search::{Ctx, Flow};
use crate::base::strategy::Rung;

/// One flat table for all three kinds: `used[kind_base + unit * 32 + digit]`.
/// Rows start at 0, columns at 1024, boxes at 2048; 4096 entries so that an
/// index masked with `TABLE_MASK` is provably in bounds (no bounds checks in
/// the hot loop, and no `unsafe`).
const TABLE_LEN: usize = 4096;
const TABLE_MASK: usize = TABLE_LEN - 1;
const COL_BASE: usize = 1024;
const BOX_BASE: usize = 2048;

/// Rung 3.
pub struct UsedTables;

impl Rung for UsedTables {
    const NAME: &'static str = "used-tables";
    const SUMMARY: &'static str =
        "per-row/column/box 'digit is used' tables: a check is three table reads";
    const ROW_MAJOR: bool = true;
    // Whether a placement is a guess is worked out only when counting.
    const TIMED_GUESSES: bool = false;
    /// The list of empty cells, reused from puzzle to puzzle.
    type Scratch = Vec<Blank>;
    fn scratch(size: BoxSize) -> Vec<Blank> {
        Vec::with_capacity(size.cells())
    }
    fn search<C: Counter>(blanks: &mut Vec<Blank>, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        blanks.clear();
        let mut s = State {
            cells: [0; MAX_CELLS],
            blanks: std::mem::take(blanks),
            used: [false; TABLE_LEN],
            total: puzzle.size().cells(),
        };
        let flow = s.search(puzzle, ctx);
        *blanks = s.blanks;
        flow
    }
}

impl State {
    /// Reads the givens into the tables and the blank list, then searches.
    fn search<C: Counter>(&mut self, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        let g = puzzle.geometry();
        let s = self;
        s.cells[..g.cells].copy_from_slice(puzzle.cells());
        for (c, &v) in puzzle.cells().iter().enumerate() {
            let blank = Blank {
                cell: c as u16,
                r: g.row[c] as u16 * 32,
                c: COL_BASE as u16 + g.col[c] as u16 * 32,
                b: BOX_BASE as u16 + g.boxi[c] as u16 * 32,
            };
            if v == 0 {
                s.blanks.push(blank);
            } else {
                s.mark(&blank, v as usize, true);
            }
        }
        // The digit loop gets a compile-time bound per size, as in the seed's `k < 10`.
        match g.n {
            4 => s.dfs::<C, 4>(0, ctx),
            9 => s.dfs::<C, 9>(0, ctx),
            16 => s.dfs::<C, 16>(0, ctx),
            _ => s.dfs::<C, 25>(0, ctx),
        }
    }
}

/// An empty cell with the table offsets of its three units, precomputed like
/// the seed's `zeros` list.
#[derive(Clone, Copy)]
pub struct Blank {
    cell: u16,
    r: u16,
    c: u16,
    b: u16,
}

struct State {
    cells: [u8; MAX_CELLS],
    blanks: Vec<Blank>,
    used: [bool; TABLE_LEN],
    total: usize,
}

impl State {
    #[inline(always)]
    fn is_used(&self, at: u16, d: usize) -> bool {
        self.used[(at as usize + d) & TABLE_MASK]
    }

    #[inline(always)]
    fn mark(&mut self, b: &Blank, d: usize, on: bool) {
        self.used[(b.r as usize + d) & TABLE_MASK] = on;
        self.used[(b.c as usize + d) & TABLE_MASK] = on;
        self.used[(b.b as usize + d) & TABLE_MASK] = on;
    }

    fn dfs<C: Counter, const N: usize>(&mut self, idx: usize, ctx: &mut Ctx<C>) -> Flow {
        ctx.enter()?;
        let Some(&blank) = self.blanks.get(idx) else {
            return ctx.solution(&self.cells[..self.total]);
        };
        let (r, c, b) = (blank.r, blank.c, blank.b);
        let options = if C::ENABLED {
            (1..=N)
                .filter(|&d| !(self.is_used(r, d) || self.is_used(c, d) || self.is_used(b, d)))
                .fold(0u32, |m, d| m | 1 << (d - 1))
        } else {
            0
        };
        let cell = blank.cell as usize;
        ctx.counter.choose(cell, options);
        for d in 1..N + 1 {
            if C::ENABLED {
                // reads made by the short-circuit test below
                let (in_row, in_col) = (self.is_used(r, d), self.is_used(c, d));
                ctx.counter
                    .probes(1 + u64::from(!in_row) + u64::from(!in_row && !in_col));
            }
            if self.is_used(r, d) || self.is_used(c, d) || self.is_used(b, d) {
                continue;
            }
            self.mark(&blank, d, true);
            self.cells[cell] = d as u8;
            ctx.counter.placement(cell, d as u8);
            if options.count_ones() > 1 {
                ctx.guess();
                // No higher candidate: the last way.
                if options >> d == 0 {
                    ctx.last_way();
                }
            }
            ctx.descend(|ctx| self.dfs::<C, N>(idx + 1, ctx))?;
            self.mark(&blank, d, false);
            self.cells[cell] = 0;
            ctx.counter.backtrack(cell, d as u8);
        }
        Ok(())
    }
}

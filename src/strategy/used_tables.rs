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

use crate::board::{Board, MAX_CELLS, MAX_SIDE};
use crate::counters::Counter;
use crate::search::{Ctx, Flow};

/// Digit-indexed rows are 32 wide so indices `0..=25` always fit.
type Table = [[bool; 32]; MAX_SIDE];

pub fn search<C: Counter>(puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
    let g = puzzle.geometry();
    let mut s = UsedTables {
        n: g.n as u8,
        cells: [0; MAX_CELLS],
        blanks: Vec::new(),
        row: [[false; 32]; MAX_SIDE],
        col: [[false; 32]; MAX_SIDE],
        boxu: [[false; 32]; MAX_SIDE],
        total: g.cells,
    };
    s.cells[..g.cells].copy_from_slice(puzzle.cells());
    for (c, &v) in puzzle.cells().iter().enumerate() {
        let (r, col, b) = (g.row[c], g.col[c], g.boxi[c]);
        if v == 0 {
            s.blanks.push(Blank {
                cell: c as u16,
                r,
                c: col,
                b,
            });
        } else {
            s.row[r as usize][v as usize] = true;
            s.col[col as usize][v as usize] = true;
            s.boxu[b as usize][v as usize] = true;
        }
    }
    s.dfs(0, ctx)
}

/// An empty cell with its three unit indices, precomputed like the seed's `zeros`.
#[derive(Clone, Copy)]
struct Blank {
    cell: u16,
    r: u8,
    c: u8,
    b: u8,
}

struct UsedTables {
    n: u8,
    cells: [u8; MAX_CELLS],
    blanks: Vec<Blank>,
    row: Table,
    col: Table,
    boxu: Table,
    total: usize,
}

impl UsedTables {
    fn dfs<C: Counter>(&mut self, idx: usize, ctx: &mut Ctx<C>) -> Flow {
        ctx.enter()?;
        let Some(&Blank { cell, r, c, b }) = self.blanks.get(idx) else {
            return ctx.solution(&self.cells[..self.total]);
        };
        let (r, c, b) = (r as usize, c as usize, b as usize);
        let options = if C::ENABLED {
            (1..=self.n as usize)
                .filter(|&d| !(self.row[r][d] || self.col[c][d] || self.boxu[b][d]))
                .count()
        } else {
            0
        };
        if C::ENABLED && options == 0 {
            ctx.counter.dead_end();
        }
        for d in 1..=self.n as usize {
            if C::ENABLED {
                // reads made by the short-circuit test below
                let reads =
                    1 + u64::from(!self.row[r][d]) + u64::from(!self.row[r][d] && !self.col[c][d]);
                ctx.counter.probes(reads);
            }
            if self.row[r][d] || self.col[c][d] || self.boxu[b][d] {
                continue;
            }
            self.set(cell as usize, r, c, b, d, true);
            ctx.counter.placement(cell as usize, d as u8);
            if options > 1 {
                ctx.counter.guess();
            }
            self.dfs(idx + 1, ctx)?;
            self.set(cell as usize, r, c, b, d, false);
            ctx.counter.backtrack(cell as usize, d as u8);
        }
        Ok(())
    }

    #[inline(always)]
    fn set(&mut self, cell: usize, r: usize, c: usize, b: usize, d: usize, on: bool) {
        self.cells[cell] = if on { d as u8 } else { 0 };
        self.row[r][d] = on;
        self.col[c][d] = on;
        self.boxu[b][d] = on;
    }
}

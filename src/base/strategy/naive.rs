//! # Rung 1 — `naive`: rescan everything, every time
//!
//! **What it does.** Each call of the search scans the whole board, row-major,
//! for the first empty cell (O(N²) for an N×N board), then tries digits 1..=N
//! in order; a digit is legal if a scan of the cell's row, column and box does
//! not find it. This is the "first idea" described in the Baekjoon 2239
//! write-up.
//!
//! **Cost per node.** Up to N² cell reads to find the empty cell, plus up to
//! 3N reads per digit tried: O(N² + N·3N). The `probes` counter counts these
//! reads exactly.
//!
//! **What it teaches.** The search tree is fixed by two choices — which cell
//! next (first empty, row-major) and which digit order (increasing). Every
//! later rung up to `bitmask` keeps both choices, so it visits *exactly* this
//! tree; they only make each node cheaper.

use crate::base::board::{Board, BoxSize, Geometry, MAX_CELLS};
use crate::base::counters::Counter;
use crate::base::search::{Ctx, Flow};
use crate::base::strategy::Rung;

/// Rung 1.
pub struct Naive;

impl Rung for Naive {
    const NAME: &'static str = "naive";
    const SUMMARY: &'static str = "rescan the board for the first empty cell at every node; check digits by scanning row, column and box";
    const ROW_MAJOR: bool = true;
    // Whether a placement is a guess is worked out only when counting.
    const TIMED_GUESSES: bool = false;
    type Scratch = ();
    fn scratch(_: BoxSize) {}
    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        let g = puzzle.geometry();
        let mut cells = [0u8; MAX_CELLS];
        cells[..g.cells].copy_from_slice(puzzle.cells());
        State { g, cells }.dfs(ctx)
    }
}

struct State {
    g: &'static Geometry,
    cells: [u8; MAX_CELLS],
}

impl State {
    fn dfs<C: Counter>(&mut self, ctx: &mut Ctx<C>) -> Flow {
        ctx.enter()?;
        let total = self.g.cells;
        let Some(cell) = self.cells[..total].iter().position(|&v| v == 0) else {
            ctx.counter.probes(total as u64);
            return ctx.solution(&self.cells[..total]);
        };
        ctx.counter.probes(cell as u64 + 1);
        // Computed only when counting (for `guesses`, `dead_ends` and the
        // tracer), so the timed path never pays for it.
        let options = if C::ENABLED {
            candidates(self.g, &self.cells, cell)
        } else {
            0
        };
        ctx.counter.choose(cell, options);
        for d in 1..=self.g.n as u8 {
            if fits_by_scanning(self.g, &self.cells, cell, d, &mut ctx.counter) {
                self.cells[cell] = d;
                ctx.counter.placement(cell, d);
                if options.count_ones() > 1 {
                    ctx.guess();
                    // No higher candidate: the last way.
                    if options >> d == 0 {
                        ctx.last_way();
                    }
                }
                ctx.descend(|ctx| self.dfs(ctx))?;
                self.cells[cell] = 0;
                ctx.counter.backtrack(cell, d);
            }
        }
        Ok(())
    }
}

/// Is digit `d` absent from the row, column and box of `cell`? Scans the
/// cells one by one and stops at the first match; counts every cell read.
/// Shared by `naive` and `blank-list`, which differ only in how they find
/// the cell. Always inlined: as a call it costs `blank-list` 9% more
/// instructions (callgrind), which is all of its search.
#[inline(always)]
pub(crate) fn fits_by_scanning<C: Counter>(
    g: &Geometry,
    cells: &[u8; MAX_CELLS],
    cell: usize,
    d: u8,
    counter: &mut C,
) -> bool {
    let (n, b) = (g.n, g.b);
    let (r, c) = (g.row[cell] as usize, g.col[cell] as usize);
    for i in 0..n {
        if cells[r * n + i] == d {
            counter.probes(i as u64 + 1);
            return false;
        }
    }
    for i in 0..n {
        if cells[i * n + c] == d {
            counter.probes((n + i) as u64 + 1);
            return false;
        }
    }
    let origin = g.box_origin[g.boxi[cell] as usize] as usize;
    for i in 0..b {
        for j in 0..b {
            if cells[origin + i * n + j] == d {
                counter.probes((2 * n + i * b + j) as u64 + 1);
                return false;
            }
        }
    }
    counter.probes(3 * n as u64);
    true
}

/// The digits that fit `cell` (bit `d-1` for digit `d`); used only when
/// counting (for `guesses`, `dead_ends` and the tracer), so the timed path
/// never pays for it.
pub(crate) fn candidates(g: &Geometry, cells: &[u8; MAX_CELLS], cell: usize) -> u32 {
    (1..=g.n as u8)
        .filter(|&d| fits_by_scanning(g, cells, cell, d, &mut crate::base::counters::NoCount))
        .fold(0, |m, d| m | 1 << (d - 1))
}

//! # Rung 7 — `dlx`: Sudoku as exact cover, solved with dancing links
//!
//! **What changes from `propagate`.** The board disappears. Sudoku becomes an
//! exact-cover problem: each *option* "digit d in cell c" (N³ of them) covers
//! four *items* (4N² of them) — "cell c is filled", "row r has d", "column k
//! has d", "box b has d" — and a solution is a set of options covering every
//! item exactly once. Knuth's Algorithm X solves it: choose the item with the
//! fewest remaining options (the "fewest 1s" rule; ties to the first item),
//! try each of its options, and *cover* the items of the chosen option, which
//! removes every option that clashes with it. The givens are covered before
//! the search starts.
//!
//! The matrix is a set of circular doubly linked lists held in arrays of
//! `u16` indices (no `Box`, no `Rc`): removing a node from its column is two
//! link writes, and putting it back — "dancing" — is two more, because the
//! removed node still remembers its neighbours. As in Knuth's later layout
//! (TAOCP 7.2.2.1) the four nodes of an option sit next to each other, so an
//! option is walked by index arithmetic rather than by left/right links. The
//! list of active items is not a linked list either: covering an item sets a
//! flag bit in its column length, and the "fewest 1s" choice scans the length
//! array (a SIMD minimum, then the first item with that length). That reads a few hundred contiguous bytes where
//! a right-link walk would chase as many dependent pointers — the scan was the
//! single largest cost of the linked version — and it chooses exactly the same
//! item. The empty matrix of each size is built once per process and copied
//! (one `memcpy`) for every puzzle.
//!
//! **Cost per node.** A scan of all item lengths for the shortest column,
//! then covering the chosen item and the three other items of each option
//! tried: each cover unlinks the three other nodes of every option still in
//! that column, and uncovering relinks them in reverse order. `probes` counts
//! item lengths scanned plus nodes unlinked by covers and relinked by
//! uncovers (the givens' covers included).
//!
//! **What it teaches.** "Fewest options" over *all four* kinds of constraint
//! makes the search take naked singles (a cell item with one option) and
//! hidden singles (a row/column/box-digit item with one option) for free, as
//! branches with a single child — no inference code at all; `forced` stays 0
//! and those moves show up as placements that are not guesses. Undo is exact
//! and cheap, but the price is paid in memory traffic: every node rewrites
//! links scattered across a matrix of thousands of nodes.

use std::sync::OnceLock;

use crate::base::board::{Board, BoxSize, Cell, Geometry, MAX_CELLS};
use crate::base::counters::Counter;
use crate::base::search::{Ctx, Flow};
use crate::base::strategy::Rung;
use crate::base::counters::{Branch, DeadEnd, unit};

/// Flag on the length of a covered item: larger than any real length, so
/// the shortest-column scan skips covered items without a branch.
const COVERED: u16 = 0x8000;

/// One node of the matrix. Nodes `0..items` are the item (column) heads;
/// option `o` owns nodes `items + 4o .. items + 4o + 4`.
#[derive(Clone, Copy, Debug, Default)]
struct Node {
    up: u16,
    down: u16,
    /// The item (column) this node belongs to.
    item: u16,
    /// The option's cell and digit, packed `cell << 5 | (digit - 1)`.
    option: u16,
}

/// The empty exact-cover matrix of one size, also the working copy.
#[derive(Clone)]
pub struct Matrix {
    nodes: Vec<Node>,
    /// Options still in each item's column; covered items also carry
    /// [`COVERED`].
    len: Vec<u16>,
    items: usize,
}

impl Matrix {
    /// A matrix without nodes: what a search leaves behind while it borrows the scratch one.
    const EMPTY: Matrix = Matrix {
        nodes: Vec::new(),
        len: Vec::new(),
        items: 0,
    };

    /// The empty matrix of this size, built once per process.
    fn template(size: BoxSize) -> &'static Matrix {
        static TEMPLATES: [OnceLock<Matrix>; 4] = [const { OnceLock::new() }; 4];
        TEMPLATES[size.box_size() - 2].get_or_init(|| Matrix::build(size))
    }

    fn build(size: BoxSize) -> Matrix {
        let g = size.geometry();
        let (n, cells) = (g.n, g.cells);
        let items = 4 * cells;
        let total = items + 4 * cells * n;
        assert!(total <= u16::MAX as usize, "matrix indices must fit u16");
        let mut nodes = vec![Node::default(); total];
        for (i, node) in nodes.iter_mut().enumerate().take(items) {
            *node = Node {
                up: i as u16,
                down: i as u16,
                item: i as u16,
                option: 0,
            };
        }
        let mut len = vec![0u16; items];
        for cell in 0..cells {
            let (r, c, b) = (
                g.row[cell] as usize,
                g.col[cell] as usize,
                g.boxi[cell] as usize,
            );
            for d in 0..n {
                let base = items + 4 * (cell * n + d);
                let cols = [
                    cell,
                    cells + r * n + d,
                    2 * cells + c * n + d,
                    3 * cells + b * n + d,
                ];
                for (k, &col) in cols.iter().enumerate() {
                    let i = base + k;
                    // Append at the bottom of the column.
                    let last = nodes[col].up;
                    nodes[i] = Node {
                        up: last,
                        down: col as u16,
                        item: col as u16,
                        option: ((cell << 5) | d) as u16,
                    };
                    nodes[last as usize].down = i as u16;
                    nodes[col].up = i as u16;
                    len[col] += 1;
                }
            }
        }
        Matrix { nodes, len, items }
    }

    /// The first node of the option that node `i` belongs to.
    #[inline(always)]
    fn option_base(&self, i: usize) -> usize {
        self.items + ((i - self.items) & !3)
    }

    /// Removes item `col` from the item list and every option in its column
    /// from the other columns. Returns the number of nodes unlinked.
    #[inline]
    fn cover(&mut self, col: usize) -> u64 {
        self.len[col] |= COVERED;
        let mut unlinked = 0;
        let mut i = self.nodes[col].down as usize;
        while i != col {
            let base = self.option_base(i);
            for j in base..base + 4 {
                if j != i {
                    let Node { up, down, item, .. } = self.nodes[j];
                    self.nodes[up as usize].down = down;
                    self.nodes[down as usize].up = up;
                    self.len[item as usize] -= 1;
                    unlinked += 1;
                }
            }
            i = self.nodes[i].down as usize;
        }
        unlinked
    }

    /// Exactly undoes [`Matrix::cover`], in reverse order.
    #[inline]
    fn uncover(&mut self, col: usize) -> u64 {
        let mut relinked = 0;
        let mut i = self.nodes[col].up as usize;
        while i != col {
            let base = self.option_base(i);
            for j in (base..base + 4).rev() {
                if j != i {
                    let Node { up, down, item, .. } = self.nodes[j];
                    self.nodes[up as usize].down = j as u16;
                    self.nodes[down as usize].up = j as u16;
                    self.len[item as usize] += 1;
                    relinked += 1;
                }
            }
            i = self.nodes[i].up as usize;
        }
        self.len[col] &= !COVERED;
        relinked
    }
}

/// Rung 7.
pub struct Dlx;

impl Rung for Dlx {
    const NAME: &'static str = "dlx";
    const SUMMARY: &'static str = "exact cover with dancing links (Algorithm X): branch on the constraint with the fewest options";
    /// The working copy of the matrix, reset from the template per puzzle.
    type Scratch = Matrix;
    fn scratch(size: BoxSize) -> Matrix {
        Matrix::template(size).clone()
    }
    fn search<C: Counter>(m: &mut Matrix, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        let template = Matrix::template(puzzle.size());
        m.nodes.copy_from_slice(&template.nodes);
        m.len.copy_from_slice(&template.len);
        let mut s = State {
            m: std::mem::replace(m, Matrix::EMPTY),
            grid: [0; MAX_CELLS],
            cells: puzzle.size().cells(),
            g: puzzle.geometry(),
        };
        let flow = s.search(puzzle, ctx);
        *m = s.m;
        flow
    }
}

impl State {
    /// Covers the givens' options, then searches.
    fn search<C: Counter>(&mut self, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        let n = puzzle.size().side();
        let s = self;
        let mut probes = 0;
        for (cell, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                s.grid[cell] = v;
                let base = s.m.items + 4 * (cell * n + v as usize - 1);
                for j in base..base + 4 {
                    let item = s.m.nodes[j].item as usize;
                    probes += s.m.cover(item);
                }
            }
        }
        ctx.counter.probes(probes);
        s.dfs(ctx)
    }
}

struct State {
    m: Matrix,
    /// The grid being built: givens, then the chosen options.
    grid: [u8; MAX_CELLS],
    cells: usize,
    g: &'static Geometry,
}

impl State {
    fn dfs<C: Counter>(&mut self, ctx: &mut Ctx<C>) -> Flow {
        ctx.enter()?;
        // Fewest 1s: the first item whose column is shortest. Covered items
        // carry the COVERED flag, so they never win; if every item is covered
        // the grid is complete. `min` over a contiguous u16 array compiles to
        // SIMD; then one pass finds the first item of that length.
        let lens = &self.m.len[..];
        let best_len = lens.iter().copied().min().unwrap_or(COVERED);
        ctx.counter.probes(lens.len() as u64);
        if best_len >= COVERED {
            return ctx.solution(&self.grid[..self.cells]);
        }
        let best = lens.iter().position(|&l| l == best_len).unwrap_or(0);
        if best_len == 0 {
            if C::ENABLED {
                ctx.counter.dead_end_because(self.dead_end(best));
            }
            return Ok(());
        }
        if C::ENABLED {
            ctx.counter.branch(self.branch(best));
        }
        let mut links = self.m.cover(best);
        let mut r = self.m.nodes[best].down as usize;
        while r != best {
            let option = self.m.nodes[r].option as usize;
            let (cell, digit) = (option >> 5, (option & 31) as u8 + 1);
            self.grid[cell] = digit;
            ctx.counter.placement(cell, digit);
            if best_len > 1 {
                ctx.guess();
                if self.m.nodes[r].down as usize == best {
                    ctx.last_way();
                }
            }
            let base = self.m.option_base(r);
            for j in base..base + 4 {
                if j != r {
                    let item = self.m.nodes[j].item as usize;
                    links += self.m.cover(item);
                }
            }
            ctx.counter.probes(links);
            links = 0;
            ctx.descend(|ctx| self.dfs(ctx))?;
            for j in (base..base + 4).rev() {
                if j != r {
                    let item = self.m.nodes[j].item as usize;
                    links += self.m.uncover(item);
                }
            }
            self.grid[cell] = 0;
            ctx.counter.backtrack(cell, digit);
            r = self.m.nodes[r].down as usize;
        }
        links += self.m.uncover(best);
        ctx.counter.probes(links);
        Ok(())
    }

    /// Item `item` as Sudoku: a cell, or a digit of a row, column or box
    /// (the item layout of [`Matrix::build`]).
    fn item(&self, item: usize) -> Result<Cell, (crate::base::board::Unit, u8)> {
        let (cells, n) = (self.cells, self.g.n);
        if item < cells {
            return Ok(Cell(item as u16));
        }
        let rest = item % cells;
        Err((unit(item / cells - 1, rest / n), (rest % n) as u8 + 1))
    }

    /// Why a node whose item `item` has no option left is a dead end.
    fn dead_end(&self, item: usize) -> DeadEnd {
        match self.item(item) {
            Ok(cell) => DeadEnd::Cell(cell),
            Err((unit, digit)) => DeadEnd::Digit { unit, digit },
        }
    }

    /// What a node branching on item `item` tries: the item's options,
    /// read off its column (only when counting).
    fn branch(&self, item: usize) -> Branch {
        match self.item(item) {
            Ok(cell) => Branch::Cell {
                cell,
                digits: self.options(item).fold(0, |m, (_, d)| m | 1 << (d - 1)),
                rivals: None,
            },
            Err((unit, digit)) => Branch::Digit {
                unit,
                digit,
                places: self.options(item).fold(0, |m, (cell, _)| {
                    // The cell's position in the unit, as `Geometry::unit_cells` orders it.
                    let i = self.g.unit_cells(unit).position(|c| c.index() == cell);
                    m | i.map_or(0, |i| 1 << i)
                }),
            },
        }
    }

    /// The `(cell, digit)` options still in item `item`'s column.
    fn options(&self, item: usize) -> impl Iterator<Item = (usize, u8)> + '_ {
        let mut r = item;
        std::iter::from_fn(move || {
            r = self.m.nodes[r].down as usize;
            (r != item).then(|| {
                let option = self.m.nodes[r].option as usize;
                (option >> 5, (option & 31) as u8 + 1)
            })
        })
    }
}

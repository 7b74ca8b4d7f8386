//! Exercise 8: the rung you edit (see `examples/exercise_mrv.rs`).
//! Change [`State::choose`], and nothing else.

use sudoku_lab::base::{Ctx, Flow};
use sudoku_lab::base::{Geometry, MAX_CELLS, MAX_SIDE};
use sudoku_lab::{Board, BoxSize, Counter, Rung};

/// Your rung.
pub struct Mine;

impl Rung for Mine {
    const NAME: &'static str = "mine";
    const SUMMARY: &'static str = "exercise 8: bitmasks, and the cell chosen by State::choose";
    type Scratch = ();

    fn scratch(_size: BoxSize) {}

    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        search_with(puzzle, ctx, State::choose)
    }
}

/// The search, with the rule that picks the cell as a parameter (so that
/// `examples/exercise_answers.rs` runs this very file with its answer).
pub fn search_with<C: Counter>(
    puzzle: &Board,
    ctx: &mut Ctx<C>,
    choose: impl Fn(&State, usize) -> (usize, u64),
) -> Flow {
    let g = puzzle.geometry();
    let mut s = State {
        g,
        cells: [0; MAX_CELLS],
        open: [0; MAX_CELLS],
        len: 0,
        used: [[0; MAX_SIDE]; 3],
    };
    s.cells[..g.cells].copy_from_slice(puzzle.cells());
    for (c, &v) in puzzle.cells().iter().enumerate() {
        if v == 0 {
            s.open[s.len] = c as u16;
            s.len += 1;
        } else {
            s.toggle(c, 1 << (v - 1));
        }
    }
    s.dfs(0, ctx, &choose)
}

/// The board being filled, on the stack: nothing is allocated while searching.
pub struct State {
    g: &'static Geometry,
    cells: [u8; MAX_CELLS],
    /// `open[depth..len]` are the empty cells; `open[..depth]` were filled
    /// by the search, in the order chosen.
    pub open: [u16; MAX_CELLS],
    pub len: usize,
    /// Digits used per row, column and box (bit `d-1` for digit `d`).
    used: [[u32; MAX_SIDE]; 3],
}

impl State {
    /// The digits `cell` can still take: three mask reads.
    pub fn candidates(&self, cell: usize) -> u32 {
        let g = self.g;
        !(self.used[0][g.row[cell] as usize]
            | self.used[1][g.col[cell] as usize]
            | self.used[2][g.boxi[cell] as usize])
            & g.full
    }

    fn toggle(&mut self, cell: usize, bit: u32) {
        let g = self.g;
        self.used[0][g.row[cell] as usize] ^= bit;
        self.used[1][g.col[cell] as usize] ^= bit;
        self.used[2][g.boxi[cell] as usize] ^= bit;
    }

    /// **Exercise 8.** Which empty cell to branch on: an index `j` in
    /// `depth..self.len` (the cell is `self.open[j]`), and the probes spent
    /// choosing it (three per [`State::candidates`] call).
    ///
    /// As given: the first empty cell, in reading order.
    pub fn choose(&self, depth: usize) -> (usize, u64) {
        (depth, 0)
    }

    fn dfs<C: Counter>(
        &mut self,
        depth: usize,
        ctx: &mut Ctx<C>,
        choose: &impl Fn(&State, usize) -> (usize, u64),
    ) -> Flow {
        ctx.enter()?;
        if depth == self.len {
            return ctx.solution(&self.cells[..self.g.cells]);
        }
        let (j, probes) = choose(self, depth);
        ctx.counter.probes(probes + 3);
        self.open.swap(depth, j);
        let cell = self.open[depth] as usize;
        let cand = self.candidates(cell);
        // Counts a dead end when `cand` is empty (and tells a tracer which
        // cell, or what the node branches on).
        ctx.counter.choose(cell, cand);
        let mut rest = cand;
        while rest != 0 {
            let bit = rest & rest.wrapping_neg();
            rest &= rest - 1;
            let digit = bit.trailing_zeros() as u8 + 1;
            self.toggle(cell, bit);
            self.cells[cell] = digit;
            ctx.counter.placement(cell, digit);
            if cand.count_ones() > 1 {
                ctx.guess();
            }
            self.dfs(depth + 1, ctx, choose)?;
            self.toggle(cell, bit);
            self.cells[cell] = 0;
            ctx.counter.backtrack(cell, digit);
        }
        // Leave the list as found: the caller's order is not disturbed.
        self.open.swap(depth, j);
        Ok(())
    }
}

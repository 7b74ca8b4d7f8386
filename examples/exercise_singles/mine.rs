//! Exercise 9: the rung you edit (see `examples/exercise_singles.rs`).
//! Write [`State::settle`], and nothing else.

use sudoku_lab::base::{Ctx, Flow};
use sudoku_lab::base::{Geometry, MAX_CELLS, MAX_SIDE};
use sudoku_lab::{Board, BoxSize, Counter, Rung};

/// Your rung.
pub struct Mine;

impl Rung for Mine {
    const NAME: &'static str = "mine-singles";
    const SUMMARY: &'static str =
        "exercise 9: bitmasks, reading order, and the cells State::settle fills before each branch";
    type Scratch = ();

    fn scratch(_size: BoxSize) {}

    fn search<C: Counter>(_: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        search_with(puzzle, ctx, State::settle)
    }
}

/// What [`State::settle`] did at a node.
pub struct Settled {
    /// `open[depth..to]` are the cells it filled (with [`State::fill`]).
    pub to: usize,
    /// An empty cell left with no candidate: the node is a dead end.
    pub dead: Option<usize>,
    /// Candidate look-ups spent (three per [`State::candidates`] call).
    pub probes: u64,
}

/// The search, with the inference step as a parameter (so that
/// `examples/exercise_answers.rs` runs this very file with its answer).
pub fn search_with<C: Counter>(
    puzzle: &Board,
    ctx: &mut Ctx<C>,
    settle: impl Fn(&mut State, usize) -> Settled,
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
    s.dfs(0, ctx, &settle)
}

/// The board being filled, on the stack: nothing is allocated while searching.
pub struct State {
    g: &'static Geometry,
    cells: [u8; MAX_CELLS],
    /// `open[depth..len]` are the empty cells; `open[..depth]` were filled
    /// (by the search or by `settle`), in that order.
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

    /// Fills the empty cell `open[j]` with the digit of `bit` and moves it to
    /// `open[at]` (`j >= at`), so that the filled cells stay in front.
    #[allow(dead_code)] // yours to call from `settle`
    pub fn fill(&mut self, j: usize, at: usize, bit: u32) {
        self.open.swap(j, at);
        let cell = self.open[at] as usize;
        self.toggle(cell, bit);
        self.cells[cell] = bit.trailing_zeros() as u8 + 1;
    }

    /// **Exercise 9.** Before the node branches, fill every empty cell that
    /// has a single candidate (a naked single), again and again until none is
    /// left, with [`State::fill`] at `open[depth]`, `open[depth + 1]`, ...;
    /// stop at a cell with no candidate. The search undoes what you filled.
    ///
    /// As given: fills nothing.
    pub fn settle(&mut self, depth: usize) -> Settled {
        Settled {
            to: depth,
            dead: None,
            probes: 0,
        }
    }

    /// Empties `open[from..to]` again, last filled first.
    fn unfill(&mut self, from: usize, to: usize) {
        for j in (from..to).rev() {
            let cell = self.open[j] as usize;
            let bit = 1 << (self.cells[cell] - 1);
            self.toggle(cell, bit);
            self.cells[cell] = 0;
        }
    }

    fn dfs<C: Counter>(
        &mut self,
        depth: usize,
        ctx: &mut Ctx<C>,
        settle: &impl Fn(&mut State, usize) -> Settled,
    ) -> Flow {
        ctx.enter()?;
        let settled = settle(self, depth);
        ctx.counter.probes(settled.probes);
        let to = settled.to;
        if C::ENABLED {
            for j in depth..to {
                let cell = self.open[j] as usize;
                ctx.counter.forced(cell, self.cells[cell]);
            }
        }
        if let Some(cell) = settled.dead {
            ctx.counter.choose(cell, 0); // a dead end, at this cell
        } else if to == self.len {
            ctx.solution(&self.cells[..self.g.cells])?;
        } else {
            // Branch on the next empty cell in reading order of the list.
            let cell = self.open[to] as usize;
            let cand = self.candidates(cell);
            ctx.counter.probes(3);
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
                self.dfs(to + 1, ctx, settle)?;
                self.toggle(cell, bit);
                self.cells[cell] = 0;
                ctx.counter.backtrack(cell, digit);
            }
        }
        self.unfill(depth, to);
        Ok(())
    }
}

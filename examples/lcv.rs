//! # An outside rung — `lcv`: least-constraining digit first
//!
//! **What changes from `mrv`.** The cell is chosen exactly as `mrv` chooses
//! it (fewest candidates, ties to the lowest index). Then, instead of trying
//! its digits from 1 up, the search tries first the digit that takes the
//! fewest options away from the cell's empty peers: for each candidate `d`
//! it counts the empty peers that still have `d` as a candidate, and tries
//! the candidates by increasing count (ties: smaller digit first). This is
//! the *least-constraining value* heuristic of the AI textbooks, the
//! companion of MRV's *most constrained variable*.
//!
//! **Cost per node.** `mrv`'s O(E) for E empty cells, plus, at a node with
//! more than one candidate, three mask reads for each of the cell's 20
//! peers (9×9; 3N−2√N−1 in general) and a sort of at most N digits.
//!
//! **What it teaches.** A value order reorders the tree; it never prunes it.
//! Whenever the search has to explore everything — a puzzle with no
//! solution, or counting solutions to prove one is unique — `lcv` visits
//! exactly `mrv`'s nodes, paying more for each. It can only pay off when the
//! search stops at the first solution, and only by reaching it sooner.
//! Run it beside the ladder to see whether it does:
//!
//! ```sh
//! cargo run --release --example lcv -- ladder -s mrv,lcv docs/puzzles/famous.txt
//! cargo run --release --example lcv -- compare -s mrv,lcv,propagate --out my-reports/lcv
//! ```
//!
//! This file is also the worked example of `docs/write-your-own-rung.md`: a
//! type implementing [`Rung`], a `main` of one line that runs the whole
//! `sudoku-lab` command line with it on the ladder, and a test that holds it
//! to the lab's public checks (`cargo test --release --example lcv`).

use sudoku_lab::base::{Ctx, Flow};
use sudoku_lab::base::{Geometry, MAX_CELLS, MAX_SIDE, UnitMasks};
use sudoku_lab::{Board, BoxSize, Counter, Rung, Strategy};

/// `mrv`'s cell choice, least-constraining digit first.
pub struct Lcv;

/// The distinct peers of every cell (same row, column or box), made once
/// per solver: `list[cell * per .. (cell + 1) * per]`.
pub struct Peers {
    per: usize,
    list: Vec<u16>,
}

impl Rung for Lcv {
    const NAME: &'static str = "lcv";
    const SUMMARY: &'static str =
        "mrv's cell, then digits least-constraining first (fewest empty peers lose a candidate)";
    type Scratch = Peers;

    fn scratch(size: BoxSize) -> Peers {
        let g = size.geometry();
        let per = 2 * (g.n - 1) + (g.b - 1) * (g.b - 1);
        let mut list = Vec::with_capacity(g.cells * per);
        for cell in 0..g.cells {
            let before = list.len();
            list.extend(
                (0..g.cells)
                    .filter(|&p| {
                        p != cell
                            && (g.row[p] == g.row[cell]
                                || g.col[p] == g.col[cell]
                                || g.boxi[p] == g.boxi[cell])
                    })
                    .map(|p| p as u16),
            );
            debug_assert_eq!(list.len() - before, per);
        }
        Peers { per, list }
    }

    fn search<C: Counter>(peers: &mut Peers, puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
        let g = puzzle.geometry();
        let mut s = State {
            g,
            peers,
            cells: [0; MAX_CELLS],
            open: [0; MAX_CELLS],
            len: 0,
            masks: UnitMasks::EMPTY,
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
        s.dfs(0, ctx)
    }
}

struct State<'a> {
    g: &'static Geometry,
    peers: &'a Peers,
    cells: [u8; MAX_CELLS],
    /// `open[depth..len]` are still empty; `open[..depth]` were filled by the
    /// search, in the order chosen.
    open: [u16; MAX_CELLS],
    len: usize,
    /// Digits used in each row, column and box.
    masks: UnitMasks,
}

impl State<'_> {
    fn candidates(&self, cell: usize) -> u32 {
        self.masks.candidates(self.g, cell)
    }

    fn toggle(&mut self, cell: usize, bit: u32) {
        self.masks.toggle(self.g, cell, bit);
    }

    /// The candidates of `cell` in the order to try them: by how many empty
    /// peers also have the digit (fewest first), then by digit. Returns how
    /// many were written to `order`.
    fn least_constraining<C: Counter>(
        &self,
        cell: usize,
        cand: u32,
        order: &mut [u8; MAX_SIDE],
        counter: &mut C,
    ) -> usize {
        let mut hits = [0u8; MAX_SIDE];
        let per = self.peers.per;
        let mut reads = 0;
        for &p in &self.peers.list[cell * per..(cell + 1) * per] {
            let p = p as usize;
            reads += 1;
            if self.cells[p] != 0 {
                continue;
            }
            reads += 3;
            let mut shared = self.candidates(p) & cand;
            while shared != 0 {
                hits[shared.trailing_zeros() as usize] += 1;
                shared &= shared - 1;
            }
        }
        counter.probes(reads);
        // Insertion sort of at most N digits by (hits, digit): no allocation.
        let mut k = 0;
        let mut rest = cand;
        while rest != 0 {
            let d = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let mut i = k;
            while i > 0 && hits[order[i - 1] as usize] > hits[d as usize] {
                order[i] = order[i - 1];
                i -= 1;
            }
            order[i] = d;
            k += 1;
        }
        k
    }

    fn dfs<C: Counter>(&mut self, depth: usize, ctx: &mut Ctx<C>) -> Flow {
        ctx.enter()?;
        if depth == self.len {
            return ctx.solution(&self.cells[..self.g.cells]);
        }
        // The cell: exactly mrv's choice (fewest candidates, then lowest index).
        let (mut best_j, mut best_count, mut best_cell) = (depth, u32::MAX, usize::MAX);
        for j in depth..self.len {
            let cell = self.open[j] as usize;
            let count = self.candidates(cell).count_ones();
            if count < best_count || (count == best_count && cell < best_cell) {
                (best_j, best_count, best_cell) = (j, count, cell);
                if count == 0 {
                    break;
                }
            }
        }
        let scanned = if best_count == 0 {
            best_j + 1
        } else {
            self.len
        };
        ctx.counter.probes(3 * (scanned - depth) as u64);
        if best_count == 0 {
            ctx.counter.dead_end();
            return Ok(());
        }
        self.open.swap(depth, best_j);
        let cand = self.candidates(best_cell);
        // The options, for tracers and the size estimator.
        ctx.counter.choose(best_cell, cand);
        // The digits: least-constraining first (one candidate needs no order).
        let mut order = [0u8; MAX_SIDE];
        let k = if best_count == 1 {
            order[0] = cand.trailing_zeros() as u8;
            1
        } else {
            self.least_constraining(best_cell, cand, &mut order, &mut ctx.counter)
        };
        for &bit_index in &order[..k] {
            let bit = 1u32 << bit_index;
            let digit = bit_index + 1;
            self.toggle(best_cell, bit);
            self.cells[best_cell] = digit;
            ctx.counter.placement(best_cell, digit);
            if best_count > 1 {
                ctx.guess();
            }
            ctx.descend(|ctx| self.dfs(depth + 1, ctx))?;
            self.toggle(best_cell, bit);
            self.cells[best_cell] = 0;
            ctx.counter.backtrack(best_cell, digit);
        }
        Ok(())
    }
}

/// The whole `sudoku-lab` command line, with `lcv` on the ladder after the
/// built-in rungs.
fn main() -> std::process::ExitCode {
    sudoku_lab::main_with(&[Strategy::add::<Lcv>])
}

#[cfg(test)]
mod tests {
    use super::*;
    use sudoku_lab::analysis::check::{self, CountingAllocator, FIXTURES};
    use sudoku_lab::{Counts, End, Limits};

    // Lets the public checks run their allocation check too.
    #[global_allocator]
    static ALLOCATOR: CountingAllocator = CountingAllocator;

    fn lcv() -> Strategy {
        Strategy::add::<Lcv>().expect("a valid, free name")
    }

    /// The lab's fixture table and invariant checks, as for a built-in rung.
    #[test]
    fn lcv_passes_the_public_checks() {
        let passed = check::rung::<Lcv>().unwrap();
        eprint!("{passed}");
    }

    /// The lesson, exactly: when the whole tree is searched (no solution,
    /// or counting every solution), `lcv` visits `mrv`'s nodes and makes
    /// its placements, in another order; only `probes` grow.
    #[test]
    fn exhaustive_searches_visit_exactly_mrvs_tree() {
        let lcv = lcv();
        let mut dearer = 0;
        for f in FIXTURES {
            let puzzle = f.board();
            let limits = Limits::count(u64::MAX, None);
            let ours = lcv.run(&puzzle, limits, Counts::default());
            let theirs = Strategy::Mrv.run(&puzzle, limits, Counts::default());
            assert_eq!(ours.end, End::Exhausted, "{}", f.name);
            assert_eq!(ours.solutions, f.solutions, "{}", f.name);
            let tree = |c: &Counts| (c.placements, c.backtracks, c.guesses, c.dead_ends);
            assert_eq!(ours.nodes, theirs.nodes, "{}", f.name);
            assert_eq!(tree(&ours.counter), tree(&theirs.counter), "{}", f.name);
            assert!(ours.counter.probes >= theirs.counter.probes, "{}", f.name);
            dearer += u32::from(ours.counter.probes > theirs.counter.probes);
        }
        assert!(dearer > 0, "the digit order costs probes somewhere");
    }

    /// Through the very command line users run: `compare` writes `lcv`'s
    /// rows, verified and counted, into results.csv beside `mrv`'s, and
    /// draws it on the charts.
    #[test]
    fn compare_reports_lcv_beside_the_built_in_rungs() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("report");
        let puzzles = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/puzzles/famous.txt");
        let code = sudoku_lab::run_with(
            &[Strategy::add::<Lcv>],
            [
                "sudoku-lab",
                "compare",
                "--dataset",
                puzzles,
                "-s",
                "mrv,lcv",
                "--min-time",
                "0",
                "--min-samples",
                "1",
                "--jobs",
                "1",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(code, std::process::ExitCode::SUCCESS);
        let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
        let lcv_rows: Vec<&str> = csv.lines().filter(|l| l.contains(",lcv,")).collect();
        let mrv_rows = csv.lines().filter(|l| l.contains(",mrv,")).count();
        assert!(!lcv_rows.is_empty() && lcv_rows.len() == mrv_rows, "{csv}");
        assert!(lcv_rows.iter().all(|l| l.contains(",solved,")), "{csv}");
        let report = std::fs::read_to_string(out.join("README.md")).unwrap();
        assert!(report.contains("lcv"), "{report}");
        let charts = std::fs::read_dir(&out)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().extension().is_some_and(|x| x == "svg"))
            .filter(|e| {
                std::fs::read_to_string(e.path())
                    .is_ok_and(|svg| svg.lines().any(|l| l.trim() == "lcv"))
            })
            .count();
        assert!(charts > 0, "no chart names lcv");
    }
}

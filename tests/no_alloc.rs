//! "No allocation inside the search": a counting global allocator shows that
//! the number of allocations of a search does not depend on how many nodes it
//! visits — setup may allocate, the search loop may not.

mod core_support;

use core_support::board;
use sudoku_lab::analysis::check::{CountingAllocator, allocations};
use sudoku_lab::{Limits, NoCount, Strategy};

// The library's per-thread counting allocator (the one `check` uses): the
// tests of this file run on parallel threads, and each counts only its own.
#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

fn allocations_of(strategy: Strategy, puzzle: &sudoku_lab::Board) -> (u64, u64) {
    let before = allocations();
    let report = strategy.run(puzzle, Limits::count(2, Some(3_000_000)), NoCount);
    let after = allocations();
    let nodes = report.nodes;
    drop(report);
    (after - before, nodes)
}

#[test]
fn searches_allocate_the_same_whatever_their_node_count() {
    // Same number of blanks (so setup work is alike), very different trees.
    let easy =
        board("4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........");
    let hard =
        board("1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1");
    let solved =
        board("174385962293467158586192734451923876928674315367851249719548623635219487842736591");
    for &s in Strategy::ALL.iter().filter(|s| s.supports(easy.size())) {
        // Warm-up: one-time tables built on first use are setup, not search.
        allocations_of(s, &easy);
        let (a_easy, n_easy) = allocations_of(s, &easy);
        let (a_hard, n_hard) = allocations_of(s, &hard);
        let (a_solved, n_solved) = allocations_of(s, &solved);
        assert!(
            n_hard > 10 * n_solved && n_easy > 10 * n_solved,
            "{s}: trees too small to tell"
        );
        // Setup may size buffers by the number of blanks; it must not grow
        // with nodes: at most a handful of allocations whatever the tree.
        assert!(
            a_easy.max(a_hard) <= a_solved + 8,
            "{s}: {a_solved} allocations for {n_solved} nodes, {a_easy} for {n_easy}, {a_hard} for {n_hard}"
        );
        assert!(a_hard <= 16, "{s}: {a_hard} allocations");
    }
}

/// A [`Solver`] allocates only when it is made: after that, puzzle after
/// puzzle (solve or count, counted or not, any size) costs no allocation.
#[test]
fn a_solver_allocates_nothing_per_puzzle() {
    use sudoku_lab::{BoxSize, Counts, Solver};
    let nine: Vec<sudoku_lab::Board> = [
        "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79",
        "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
    ]
    .iter()
    .map(|t| board(t))
    .collect();
    let sixteen = core_support::random_puzzles(core_support::size(4), 3, 200, 220, 7);
    for (size, boards) in [(BoxSize::NINE, nine), (core_support::size(4), sixteen)] {
        let mut cells: Vec<Vec<u8>> = boards.iter().map(|b| b.cells().to_vec()).collect();
        // Conflicting givens (two 1s in row 1): 0 solutions, no search.
        let mut bad = vec![0u8; size.cells()];
        bad[0] = 1;
        bad[1] = 1;
        cells.push(bad);
        for s in Strategy::ladder().into_iter().filter(|s| s.supports(size)) {
            let mut solver = Solver::new(s, size).expect("supported");
            let mut solution = vec![0u8; size.cells()];
            let limits = Limits::count(2, Some(3_000_000));
            // Warm-up: buffers reach their size on first use.
            for c in &cells {
                solver.count(c, 2, &mut solution);
            }
            for b in &boards {
                solver.search(b, limits, Counts::default());
            }
            let before = allocations();
            for _ in 0..3 {
                for c in &cells {
                    solver.count(c, 2, &mut solution);
                }
                for b in &boards {
                    solver.search(b, limits, NoCount);
                    solver.search(b, limits, Counts::default());
                }
            }
            let after = allocations();
            assert_eq!(after - before, 0, "{s} on {size}: allocations per puzzle");
            assert_eq!(solver.count(&cells[cells.len() - 1], 2, &mut solution), 0);
        }
    }
}

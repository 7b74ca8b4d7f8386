//! The `fast` strategy: verified solutions on the public corpora, exact
//! solution counts against `mrv` on seeded multi- and no-solution puzzles,
//! node budgets, and counter bookkeeping.

use std::path::PathBuf;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudoku_lab::io::Dataset;
use sudoku_lab::{Board, BoxSize, End, Limits, NoCount, Outcome, Strategy};

/// Loads a public corpus by the SUDOKU_LAB_SHARED rule: skipped (None) when
/// neither the variable nor `CI` is set; a failure when `CI` is set and the
/// file cannot be read.
fn shared(file: &str) -> Option<Dataset> {
    let Some(dir) = std::env::var_os("SUDOKU_LAB_SHARED") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but SUDOKU_LAB_SHARED is not"
        );
        println!("skipped: SUDOKU_LAB_SHARED not set");
        return None;
    };
    let path = PathBuf::from(dir).join(file);
    match Dataset::load(&path) {
        Ok(ds) => Some(ds),
        Err(e) => panic!("cannot load {}: {e:#}", path.display()),
    }
}

/// Guesses of strategy `s` over a whole corpus, each puzzle counted to 2.
fn corpus_guesses(ds: &Dataset, s: Strategy) -> u64 {
    ds.puzzles
        .iter()
        .map(|p| s.count(&p.board, 2, None).expect("verified").counts.guesses)
        .sum()
}

fn board(line: &str) -> Board {
    let cells = line
        .bytes()
        .map(|b| if b == b'.' { 0 } else { b - b'0' })
        .collect();
    Board::from_cells(BoxSize::NINE, cells).expect("valid test puzzle")
}

/// A hard puzzle that needs guessing (Arto Inkala's, 2012).
const HARD: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

/// Solves every puzzle of `ds` picked by `keep`; returns how many were solved.
fn solve_all(ds: &Dataset, keep: impl Fn(usize) -> bool) -> usize {
    let mut n = 0;
    for p in ds
        .puzzles
        .iter()
        .enumerate()
        .filter(|(i, _)| keep(*i))
        .map(|(_, p)| p)
    {
        let run = Strategy::Fast
            .solve(&p.board, Some(1_000_000))
            .unwrap_or_else(|e| panic!("line {}: {e}", p.line));
        assert_eq!(run.outcome, Outcome::Solved, "line {}", p.line);
        let sol = run.solution.expect("a solved run has a solution");
        p.board.check_solution(&sol).expect("verified solution");
        // The timed path must find the same grid.
        let timed = Strategy::Fast
            .run_timed(&p.board, Limits::solve(None))
            .expect("verified");
        assert_eq!(timed.solution.as_ref(), Some(&sol), "line {}", p.line);
        assert_eq!(timed.counts.nodes, run.counts.nodes, "line {}", p.line);
        n += 1;
    }
    n
}

#[test]
fn solves_all_of_forum_hardest() {
    let Some(ds) = shared("forum-hardest-1106.txt") else {
        return;
    };
    assert_eq!(solve_all(&ds, |_| true), 375);
}

#[test]
fn solves_all_of_top1465() {
    let Some(ds) = shared("top1465.txt") else {
        return;
    };
    assert_eq!(solve_all(&ds, |_| true), 1465);
}

#[test]
fn solves_a_sample_of_17_clue() {
    let Some(ds) = shared("17-clue.txt") else {
        return;
    };
    assert_eq!(ds.puzzles.len(), 49_158);
    // Every 7th puzzle: 7,023 puzzles, deterministic.
    assert_eq!(solve_all(&ds, |i| i % 7 == 0), 7_023);
}

#[test]
fn agrees_with_mrv_on_unique_puzzles() {
    let Some(ds) = shared("top1465.txt") else {
        return;
    };
    for p in ds.puzzles.iter().step_by(25) {
        let fast = Strategy::Fast.count(&p.board, 2, None).expect("verified");
        let mrv = Strategy::Mrv.count(&p.board, 2, None).expect("verified");
        assert_eq!((fast.end, fast.solutions), (End::Exhausted, 1));
        assert_eq!((mrv.end, mrv.solutions), (End::Exhausted, 1));
        assert_eq!(fast.solution, mrv.solution, "line {}", p.line);
    }
}

/// A random solved grid: a fixed valid grid with digits relabelled, rows
/// shuffled inside bands, bands shuffled, and the same for columns.
/// A random grid cut to a number of givens drawn from `keep` (unique,
/// several or many solutions).
fn cut_grid(rng: &mut ChaCha8Rng, keep: std::ops::Range<usize>) -> Board {
    let grid = random_grid(rng);
    let keep = rng.random_range(keep);
    let mut cells = grid.clone();
    let mut order: Vec<usize> = (0..81).collect();
    order.shuffle(rng);
    for &c in &order[keep..] {
        cells[c] = 0;
    }
    Board::from_cells(BoxSize::NINE, cells).expect("cut from a grid")
}

fn random_grid(rng: &mut ChaCha8Rng) -> Vec<u8> {
    let mut digits: Vec<u8> = (1..=9).collect();
    digits.shuffle(rng);
    let order = |rng: &mut ChaCha8Rng| {
        let mut bands = [0, 1, 2];
        bands.shuffle(rng);
        let mut out = Vec::new();
        for b in bands {
            let mut rows = [0, 1, 2];
            rows.shuffle(rng);
            out.extend(rows.iter().map(|r| 3 * b + r));
        }
        out
    };
    let (rows, cols) = (order(rng), order(rng));
    let mut cells = vec![0u8; 81];
    for r in 0..9 {
        for c in 0..9 {
            let (r0, c0) = (rows[r], cols[c]);
            cells[9 * r + c] = digits[(3 * (r0 % 3) + r0 / 3 + c0) % 9];
        }
    }
    cells
}

#[test]
fn counts_match_mrv_on_seeded_multi_solution_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_fa57);
    let mut several = 0;
    for _ in 0..150 {
        let grid = random_grid(&mut rng);
        let solved = Board::from_cells(BoxSize::NINE, grid.clone()).expect("valid grid");
        assert!(solved.check_solution(&solved).is_ok());
        let keep = rng.random_range(22..=40);
        let mut order: Vec<usize> = (0..81).collect();
        order.shuffle(&mut rng);
        let mut cells = vec![0u8; 81];
        for &c in &order[..keep] {
            cells[c] = grid[c];
        }
        let puzzle = Board::from_cells(BoxSize::NINE, cells).expect("subset of a grid");
        let fast = Strategy::Fast.count(&puzzle, 500, None).expect("verified");
        let mrv = Strategy::Mrv.count(&puzzle, 500, None).expect("verified");
        assert_eq!(
            (fast.end, fast.solutions),
            (mrv.end, mrv.solutions),
            "{puzzle:?}"
        );
        assert!(fast.solutions >= 1);
        if fast.end == End::Exhausted {
            // Every guess is undone when the tree is exhausted.
            assert_eq!(fast.counts.placements, fast.counts.backtracks);
            assert_eq!(fast.counts.placements, fast.counts.guesses);
        }
        several += (fast.solutions > 1) as usize;
    }
    assert!(
        several > 50,
        "the sample must contain multi-solution puzzles"
    );
}

#[test]
fn counts_match_mrv_on_seeded_no_solution_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xdead_0001);
    let mut none = 0;
    let mut tried = 0;
    while tried < 150 {
        let grid = random_grid(&mut rng);
        let keep = rng.random_range(20..=35);
        let mut order: Vec<usize> = (0..81).collect();
        order.shuffle(&mut rng);
        let mut cells = vec![0u8; 81];
        for &c in &order[..keep] {
            cells[c] = grid[c];
        }
        // Change one given to another digit; keep it only if the board is
        // still consistent (no equal givens in a unit).
        let c = order[0];
        cells[c] = (grid[c] % 9) + 1 + rng.random_range(0..8u8);
        if cells[c] > 9 {
            cells[c] -= 9;
        }
        let Ok(puzzle) = Board::from_cells(BoxSize::NINE, cells) else {
            continue;
        };
        tried += 1;
        let fast = Strategy::Fast.count(&puzzle, 100, None).expect("verified");
        let mrv = Strategy::Mrv.count(&puzzle, 100, None).expect("verified");
        assert_eq!(
            (fast.end, fast.solutions),
            (mrv.end, mrv.solutions),
            "{puzzle:?}"
        );
        if fast.solutions == 0 {
            assert_eq!(fast.outcome, Outcome::NoSolution);
            none += 1;
        }
    }
    assert!(none > 30, "the sample must contain no-solution puzzles");
}

#[test]
fn empty_board_counts_up_to_the_limit() {
    let empty = Board::empty(BoxSize::NINE);
    let run = Strategy::Fast.count(&empty, 1000, None).expect("verified");
    assert_eq!((run.end, run.solutions), (End::SolutionLimit, 1000));
}

#[test]
fn node_budget_is_respected() {
    let puzzle = board(HARD);
    let full = Strategy::Fast.solve(&puzzle, None).expect("verified");
    assert_eq!(full.outcome, Outcome::Solved);
    assert!(full.counts.nodes > 5, "the test puzzle must need guessing");
    for budget in [1, 2, 5] {
        let run = Strategy::Fast
            .solve(&puzzle, Some(budget))
            .expect("verified");
        assert_eq!(run.outcome, Outcome::BudgetExceeded);
        assert_eq!(run.end, End::BudgetExceeded);
        assert_eq!(run.counts.nodes, budget);
    }
    let exact = Strategy::Fast
        .solve(&puzzle, Some(full.counts.nodes))
        .expect("verified");
    assert_eq!(exact.outcome, Outcome::Solved);
    let uncounted = Strategy::Fast.run(&puzzle, Limits::solve(Some(3)), NoCount);
    assert_eq!((uncounted.end, uncounted.nodes), (End::BudgetExceeded, 3));
}

#[test]
fn singles_only_puzzle_is_one_node_of_forced_cells() {
    // Solvable by singles alone: no guess, every blank is forced.
    let easy = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    let puzzle = board(easy);
    let run = Strategy::Fast.solve(&puzzle, None).expect("verified");
    assert_eq!(run.outcome, Outcome::Solved);
    assert_eq!(run.counts.nodes, 1);
    assert_eq!(run.counts.guesses, 0);
    assert_eq!(run.counts.placements, 0);
    assert_eq!(run.counts.forced as usize, 81 - puzzle.clues());
    assert!(run.counts.probes > 0);
}

#[test]
fn counted_and_uncounted_runs_visit_the_same_tree() {
    let puzzle = board(HARD);
    for limit in [1, 2] {
        let counted = Strategy::Fast
            .count(&puzzle, limit, None)
            .expect("verified");
        let plain = Strategy::Fast.run(&puzzle, Limits::count(limit, None), NoCount);
        assert_eq!(counted.counts.nodes, plain.nodes);
        assert_eq!(counted.solutions, plain.solutions);
        // Every node but the root comes from one guess.
        assert_eq!(counted.counts.nodes, counted.counts.guesses + 1);
    }
}

#[test]
fn supports_only_9x9() {
    assert!(Strategy::Fast.supports(BoxSize::NINE));
    for b in [2, 4, 5] {
        assert!(!Strategy::Fast.supports(BoxSize::new(b).expect("size")));
    }
    // Another size is refused, never silently solved by another rung
    // (`Strategy::run` panics on it; see tests/strategies.rs).
    let small = BoxSize::new(2).expect("size");
    assert_eq!(
        Strategy::Fast.check_size(small),
        Err("strategy fast does not support 4x4 boards".to_string())
    );
    assert_eq!(Strategy::Fast.name(), "fast");
    // Rung 9, `fast-triads`, is `fast` with one switch: 9×9 only too, and
    // the top of the ladder.
    assert_eq!(
        Strategy::ALL[Strategy::ALL.len() - 2..],
        [Strategy::Fast, Strategy::FastTriads]
    );
    assert_eq!(
        Strategy::FastTriads.check_size(small),
        Err("strategy fast-triads does not support 4x4 boards".to_string())
    );
}

/// `fast`'s variants run by name everywhere but are not in the default
/// selection, and each, like rung 9 (`fast-triads`, `fast` with another
/// switch), counts exactly what `fast` counts (they differ only in how much
/// they infer before a guess, or what they guess on).
#[test]
fn variants_are_named_not_default_and_count_what_fast_counts() {
    let names: Vec<&str> = Strategy::VARIANTS.iter().map(|s| s.name()).collect();
    assert_eq!(
        names,
        [
            "fast-no-cols",
            "fast-stacks",
            "fast-generic",
            "fast-plain-score",
            "fast-triads-tdoku"
        ]
    );
    assert!(!Strategy::FastTriads.is_variant());
    for &v in Strategy::VARIANTS {
        assert!(v.is_variant() && !Strategy::ALL.contains(&v), "{v}");
        assert!(!Strategy::ladder().contains(&v), "{v}");
        assert_eq!(v.name().parse::<Strategy>(), Ok(v));
        assert!(v.supports(BoxSize::NINE) && !v.supports(BoxSize::new(2).expect("size")));
    }
    // `--strategy fast-no-cols,fast,fast-stacks` keeps that order.
    let mut picked = vec![Strategy::FastStacks, Strategy::Fast, Strategy::FastNoCols];
    picked.sort();
    assert_eq!(
        picked,
        [Strategy::FastNoCols, Strategy::Fast, Strategy::FastStacks]
    );
    let mut rng = ChaCha8Rng::seed_from_u64(15);
    let puzzles: Vec<Board> = (0..40)
        .map(|_| cut_grid(&mut rng, 20..30))
        .chain([board(HARD)])
        .collect();
    for puzzle in &puzzles {
        let fast = Strategy::Fast.count(puzzle, 50, None).expect("verified");
        for &v in Strategy::VARIANTS.iter().chain(&[Strategy::FastTriads]) {
            let run = v.count(puzzle, 50, None).expect("verified");
            assert_eq!((run.solutions, run.end), (fast.solutions, fast.end), "{v}");
        }
    }
}

/// `fast-plain-score` is `fast` with the bivalue score it had before #28
/// (row + column + box unsolved counts, first best on ties): the same tree
/// as the old code. The expected counts are the old code's, not this
/// crate's: `sudoku-lab count --stats -s fast docs/puzzles/famous.txt`
/// (limit 2, then `--limit 1`) and `examples/count2` on forum-hardest (all
/// 375: 133,488 guesses, 355.97 per puzzle), built at 6c560d1, the parent
/// of 81acadf that changed the score. `fast` (the new score) differs.
#[test]
fn fast_plain_score_visits_the_tree_of_the_old_bivalue_score() {
    use sudoku_lab::base::Counts;
    // nodes, placements, backtracks, probes, guesses, dead ends, forced.
    #[rustfmt::skip]
    let old: [(&str, &str, [u64; 7], [u64; 7]); 5] = [
        ("Easter Monster",
         "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
         [236, 235, 235, 48156, 235, 118, 2407], [109, 108, 99, 21754, 108, 51, 1134]),
        ("Golden Nugget",
         ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
         [328, 327, 327, 77457, 327, 165, 3304], [272, 271, 264, 63873, 271, 135, 2777]),
        ("Platinum Blonde",
         ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
         [286, 285, 285, 60194, 285, 143, 2243], [74, 73, 67, 16523, 73, 35, 571]),
        ("AI Escargot",
         "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
         [75, 74, 74, 17423, 74, 37, 887], [37, 36, 32, 8362, 36, 17, 379]),
        ("Inkala 2012", HARD,
         [113, 112, 112, 25697, 112, 56, 1105], [76, 75, 67, 17998, 75, 36, 691]),
    ];
    let mut differ = 0;
    for (name, line, to_two, to_one) in old {
        let puzzle = board(line);
        for (limit, expected) in [(2, to_two), (1, to_one)] {
            let plain = Strategy::FastPlainScore
                .count(&puzzle, limit, None)
                .expect("verified");
            assert_eq!(plain.solutions, 1, "{name}");
            assert_eq!(
                plain.counts,
                Counts::from_values(expected),
                "{name}, limit {limit}"
            );
            let fast = Strategy::Fast
                .count(&puzzle, limit, None)
                .expect("verified");
            assert_eq!(fast.solutions, 1, "{name}");
            differ += (fast.counts != plain.counts) as u32;
        }
    }
    assert!(differ > 0, "fast's new score changed none of the trees");
    if let Some(ds) = shared("forum-hardest-1106.txt") {
        assert_eq!(ds.puzzles.len(), 375);
        assert_eq!(corpus_guesses(&ds, Strategy::FastPlainScore), 133_488);
        assert_ne!(corpus_guesses(&ds, Strategy::Fast), 133_488);
    }
}

/// `fast-triads` (tdoku's rules and branch, #28) visits the tree whose
/// guesses its header and docs/08-fast-records.md state: on forum-hardest (all
/// 375, counting to 2) 75,528 guesses (201.41 per puzzle), against
/// `fast`'s 128,950 (343.87) and `fast-triads-tdoku`'s 85,000 (226.67:
/// tdoku's branch throughout, the rung's tree before the hard-puzzle
/// branch). Its guesses are ways of a
/// digit, not placements, and on the famous puzzles it guesses less than
/// `fast` in all.
#[test]
fn fast_triads_visits_the_recorded_tree() {
    let famous = [
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        ".......12........3..23..4....18....5.6..7.8.......9.....85.....9...4.5..47...6...",
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        HARD,
    ];
    let (mut fast, mut triads) = (0, 0);
    for line in famous {
        let puzzle = board(line);
        let f = Strategy::Fast.count(&puzzle, 2, None).expect("verified");
        let t = Strategy::FastTriads
            .count(&puzzle, 2, None)
            .expect("verified");
        assert_eq!((t.solutions, t.end), (f.solutions, f.end), "{line}");
        assert!(
            t.counts.guesses > 0 && t.counts.placements == 0,
            "{line}: {:?}",
            t.counts
        );
        fast += f.counts.guesses;
        triads += t.counts.guesses;
    }
    assert!(triads < fast, "{triads} guesses against fast's {fast}");
    if let Some(ds) = shared("forum-hardest-1106.txt") {
        assert_eq!(ds.puzzles.len(), 375);
        assert_eq!(corpus_guesses(&ds, Strategy::FastTriads), 75_528);
        assert_eq!(corpus_guesses(&ds, Strategy::FastTriadsTdoku), 85_000);
        assert_eq!(corpus_guesses(&ds, Strategy::Fast), 128_950);
    }
}

/// `fast-triads` turns to its hard-puzzle branch only once a search has
/// made `HARD_AFTER` (64) guesses: a search with fewer guesses under
/// tdoku's branch (`fast-triads-tdoku`) is the same search, every counter
/// equal; one with more is not, on the famous puzzles (154 to 330 guesses
/// under tdoku's branch, but for AI Escargot's 38).
#[test]
fn the_hard_branch_waits_for_64_guesses() {
    use sudoku_lab::base::Counts;
    let mut rng = ChaCha8Rng::seed_from_u64(64);
    let (mut same, mut past) = (0, 0);
    let cut = (0..150).map(|_| cut_grid(&mut rng, 17..26));
    let famous =
        Dataset::load(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt"))
            .expect("shipped");
    for puzzle in cut.chain(famous.puzzles.iter().map(|p| p.board.clone())) {
        let limits = Limits::count(2, Some(5_000_000));
        let tdoku = Strategy::FastTriadsTdoku.run(&puzzle, limits, Counts::default());
        let triads = Strategy::FastTriads.run(&puzzle, limits, Counts::default());
        assert_eq!((triads.end, triads.solutions), (tdoku.end, tdoku.solutions));
        if tdoku.counter.guesses < sudoku_lab::base::strategy::HARD_AFTER {
            assert_eq!(triads.counter, tdoku.counter);
            same += 1;
        } else if triads.counter != tdoku.counter {
            past += 1;
        }
    }
    // Most cut grids need few guesses; the famous ones, but one, many.
    assert!(same >= 100, "{same} searches under 64 guesses");
    assert!(past >= 4, "{past} searches past 64 guesses changed");
}

/// `fast` runs a copy of its search compiled for x86-64-v3 when the CPU has
/// it; `fast-generic` always runs the generic copy. Both copies are one
/// source and must visit the same tree: every counter, the end and the first
/// solution are equal, on cut grids with one, several and no solutions and on
/// a public corpus. (The public checks hold both to the fixture table and
/// every invariant: tests/strategies.rs.) Which copy `fast` ran is printed:
/// on a CPU without the v3 features both tests run the generic copy.
#[test]
fn the_cpu_specific_and_generic_copies_visit_the_same_tree() {
    use sudoku_lab::base::Counts;
    println!(
        "fast runs the {} copy on this CPU",
        if sudoku_lab::base::strategy::runs_v3() {
            "x86-64-v3"
        } else {
            "generic"
        }
    );
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    let mut puzzles: Vec<Board> = (0..60)
        .map(|i| {
            let grid = random_grid(&mut rng);
            // 17..30 givens: unique, several and many solutions.
            let keep = rng.random_range(17..30);
            let mut cells = grid.clone();
            let mut order: Vec<usize> = (0..81).collect();
            order.shuffle(&mut rng);
            for &c in &order[keep..] {
                cells[c] = 0;
            }
            if i % 4 == 0 {
                // A given changed to another digit that keeps the board
                // consistent (no equal givens in a unit): often no solution.
                let c = order[0];
                let grid_digit = cells[c];
                for d in (1..=9).filter(|&d| d != grid_digit) {
                    cells[c] = d;
                    if Board::from_cells(BoxSize::NINE, cells.clone()).is_ok() {
                        break;
                    }
                    cells[c] = grid_digit;
                }
            }
            Board::from_cells(BoxSize::NINE, cells).expect("consistent")
        })
        .chain([board(HARD)])
        .collect();
    if let Some(ds) = shared("forum-hardest-1106.txt") {
        puzzles.extend(ds.puzzles.iter().step_by(5).map(|p| p.board.clone()));
    }
    let (mut guessed, mut no_solution, mut several) = (0, 0, 0);
    for puzzle in &puzzles {
        let limits = Limits::count(20, Some(2_000_000));
        let v3 = Strategy::Fast.run(puzzle, limits, Counts::default());
        let generic = Strategy::FastGeneric.run(puzzle, limits, Counts::default());
        assert_eq!(v3.counter, generic.counter);
        assert_eq!(
            (v3.end, v3.solutions, v3.nodes),
            (generic.end, generic.solutions, generic.nodes)
        );
        assert_eq!(
            v3.first.as_ref().map(|b| b.cells().to_vec()),
            generic.first.as_ref().map(|b| b.cells().to_vec())
        );
        if let Some(first) = &v3.first {
            puzzle.check_solution(first).expect("verified solution");
        }
        guessed += (v3.counter.guesses > 0) as u32;
        no_solution += (v3.solutions == 0) as u32;
        several += (v3.solutions > 1) as u32;
    }
    // The sample reaches every kind of tree.
    assert!(
        guessed > 10 && no_solution > 0 && several > 10,
        "{guessed} {no_solution} {several}"
    );
}

/// The guess count through the solver handle (what a benchmark harness reads
/// after `Solver::count`) is the `guesses` counter of a counted run, for
/// `fast` and every other rung, and 0 for a puzzle solved by inference alone.
#[test]
fn the_solver_handle_reports_the_counted_guesses() {
    use sudoku_lab::Solver;
    use sudoku_lab::base::Counts;
    let easy =
        board("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79");
    let hard = board(HARD);
    let mut out = [0u8; 81];
    for &s in Strategy::ALL.iter().chain(Strategy::VARIANTS) {
        if !s.supports(BoxSize::NINE) {
            continue;
        }
        let mut solver = Solver::new(s, BoxSize::NINE).expect("9x9");
        for (puzzle, name) in [(&easy, "easy"), (&hard, "hard")] {
            let counted = s.run(puzzle, Limits::count(2, None), Counts::default());
            assert_eq!(solver.count(puzzle.cells(), 2, &mut out), counted.solutions);
            // Rungs that tell a guess only when counting do not guess a figure.
            let expected = s.info().timed_guesses.then_some(counted.counter.guesses);
            assert_eq!(solver.counted_guesses(), expected, "{s} on {name}");
        }
        // The second call's figure is its own, not a running total.
        solver.count(hard.cells(), 2, &mut out);
        let once = solver.guesses();
        solver.count(hard.cells(), 2, &mut out);
        assert_eq!(solver.guesses(), once, "{s}");
    }
    let mut fast = Solver::new(Strategy::Fast, BoxSize::NINE).expect("9x9");
    assert_eq!(fast.guesses(), None, "no search yet");
    assert_eq!(fast.count(easy.cells(), 2, &mut out), 1);
    assert_eq!(
        fast.guesses(),
        Some(0),
        "fast solves this one by inference alone"
    );
    assert_eq!(fast.count(hard.cells(), 2, &mut out), 1);
    assert!(fast.guesses() > Some(0));
    // Givens that break the rules: no search, no guesses.
    let mut broken = easy.cells().to_vec();
    broken[2] = 5;
    assert_eq!(fast.count(&broken, 2, &mut out), 0);
    assert_eq!(fast.guesses(), Some(0));
    // A counted search of a rung without TIMED_GUESSES knows its guesses.
    let mut naive = Solver::new(Strategy::Naive, BoxSize::NINE).expect("9x9");
    let counted = naive.search(&hard, Limits::solve(Some(50_000)), Counts::default());
    assert_eq!(naive.counted_guesses(), Some(counted.counter.guesses));
    naive.search(&hard, Limits::solve(Some(50_000)), NoCount);
    assert_eq!(naive.guesses(), None);
}

/// `Solver::guesses` is in tdoku's unit (one guess per binary branch, the
/// last way of a branch point a deduction): on the timed path it is what a
/// trace of the same search implies, the guesses less those that entered
/// the highest option of their branch point (the rungs below try options
/// lowest first). On puzzles counted to the end every branch point entered
/// all its ways, so it is also the counted guesses less the branch points.
/// Arto Inkala's puzzle, exactly: `fast-triads` 126 such guesses of 202
/// counted (76 branch points), `fast` 65 of 130 (65 bivalue cells).
#[test]
fn the_solver_handle_counts_guesses_in_tdokus_unit() {
    use sudoku_lab::Solver;
    use sudoku_lab::analysis::{EventKind, Tracer};
    let mut rng = ChaCha8Rng::seed_from_u64(60);
    // Unique, several solutions (cut short by the limit), none.
    let puzzles: Vec<Board> = [board(HARD)]
        .into_iter()
        .chain((0..40).map(|_| cut_grid(&mut rng, 17..30)))
        .collect();
    let mut out = [0u8; 81];
    let mut cut_short = 0;
    for s in [
        Strategy::FastTriads,
        Strategy::FastTriadsTdoku,
        Strategy::Fast,
        Strategy::Propagate,
        Strategy::Mrv,
    ] {
        let mut solver = Solver::new(s, BoxSize::NINE).expect("9x9");
        for (k, puzzle) in puzzles.iter().enumerate() {
            let limits = Limits::count(2, None);
            let traced = s.run(puzzle, limits, Tracer::new(1 << 16));
            let tracer = &traced.counter;
            assert!(!tracer.truncated(), "{s}: trace too long");
            let (mut guesses, mut last) = (0u64, 0u64);
            for e in tracer.events() {
                let (guess, highest) = match e.kind {
                    EventKind::Place {
                        digit,
                        branch: sudoku_lab::base::Branch::Cell { digits, .. },
                        guess,
                        ..
                    } => (guess, digits >> digit == 0),
                    EventKind::Way {
                        way, ways, guess, ..
                    } => (guess, ways >> (way + 1) == 0),
                    _ => continue,
                };
                guesses += guess as u64;
                last += (guess && highest) as u64;
            }
            assert_eq!(guesses, tracer.counts().guesses, "{s}");
            let n = solver.count(puzzle.cells(), 2, &mut out);
            assert_eq!(n, traced.solutions, "{s}");
            assert_eq!(solver.counted_guesses(), Some(guesses), "{s} #{k}");
            assert_eq!(solver.guesses(), Some(guesses - last), "{s} #{k}");
            assert_eq!(solver.guesses() == Some(0), guesses == 0, "{s} #{k}");
            if traced.end == End::SolutionLimit {
                cut_short += (guesses > 0) as u32;
            }
        }
    }
    let mut fast = Solver::new(Strategy::FastTriads, BoxSize::NINE).expect("9x9");
    fast.count(board(HARD).cells(), 2, &mut out);
    assert_eq!(
        (fast.guesses(), fast.counted_guesses()),
        (Some(126), Some(202))
    );
    let mut fast = Solver::new(Strategy::Fast, BoxSize::NINE).expect("9x9");
    fast.count(board(HARD).cells(), 2, &mut out);
    assert_eq!(
        (fast.guesses(), fast.counted_guesses()),
        (Some(65), Some(130))
    );
    assert!(
        cut_short >= 10,
        "{cut_short} searches cut short by the limit"
    );
}

/// `Solver::count` hands `fast` and its variants the 81 values themselves,
/// and they check the rules while entering the givens: every edit of a
/// puzzle that breaks a rule (a second digit in a row, a column, a box)
/// counts 0, every other edit counts what the checked `Board` path counts,
/// and out-of-range values are still errors.
#[test]
fn the_solver_handle_rejects_broken_givens_as_the_board_does() {
    use sudoku_lab::Solver;
    use sudoku_lab::base::BoardError;
    let easy =
        board("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79");
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    let mut out = [0u8; 81];
    let (mut broken, mut kept) = (0, 0);
    for s in [Strategy::Fast].into_iter().chain(
        Strategy::VARIANTS
            .iter()
            .copied()
            .filter(|s| s.name().starts_with("fast")),
    ) {
        let mut solver = Solver::new(s, BoxSize::NINE).expect("9x9");
        for _ in 0..300 {
            let mut cells = easy.cells().to_vec();
            // One to three edits: a digit written into a random cell.
            for _ in 0..rng.random_range(1..=3) {
                cells[rng.random_range(0..81)] = rng.random_range(1..=9);
            }
            let n = solver.count(&cells, 2, &mut out);
            match Board::from_cells(BoxSize::NINE, cells.clone()) {
                Err(BoardError::Conflict(_)) => {
                    assert_eq!(n, 0, "{s}: broken givens {cells:?}");
                    assert_eq!(solver.guesses(), Some(0));
                    broken += 1;
                }
                Ok(b) => {
                    let checked = s.count(&b, 2, None).expect("verified");
                    assert_eq!(n, checked.solutions, "{s}: {cells:?}");
                    kept += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
        let mut cells = easy.cells().to_vec();
        cells[40] = 10;
        assert!(matches!(
            solver.try_count(&cells, 2, &mut out),
            Err(BoardError::OutOfRange {
                cell: 40,
                value: 10,
                ..
            })
        ));
        assert!(matches!(
            solver.try_count(&cells[..80], 2, &mut out),
            Err(BoardError::WrongLength { .. })
        ));
    }
    assert!(broken > 100 && kept > 100, "{broken} {kept}");
}

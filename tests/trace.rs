//! `sudoku-lab trace` on a 4×4 puzzle (every decision derived by hand) and on
//! a 9×9 puzzle (exact totals, cross-checked against `solve --stats`).

use assert_cmd::Command;
use predicates::prelude::*;

/// A 4×4 puzzle in line layout: `1...` / `..3.` / `.4..` / `...2` (docs/puzzles/tiny-4x4.txt).
const TINY_LINE: &str = "1.....3..4.....2\n";
const ANTI: &str =
    "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9\n";

fn lab() -> Command {
    Command::cargo_bin("sudoku-lab").expect("binary built")
}

fn stdout(args: &[&str], input: &str) -> String {
    let out = lab().args(args).write_stdin(input).output().expect("runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The event lines (after the header, before the summary), without
/// the indentation dots.
fn decisions(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.contains("event (indented by depth"))
        .skip(1)
        .take_while(|l| !l.starts_with('('))
        .map(|l| l.replace('·', ""))
        .map(|l| fold_mark(&l))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// A listing line without its fold mark (`»30 `).
fn fold_mark(l: &str) -> String {
    l.split_whitespace()
        .filter(|w| !w.starts_with('»'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The values row of the totals table.
fn totals(text: &str) -> Vec<u64> {
    let header = text
        .lines()
        .position(|l| l.starts_with('|') && l.split('|').nth(1).map(str::trim) == Some("nodes"))
        .expect("totals table");
    text.lines()
        .nth(header + 2)
        .expect("totals row")
        .split('|')
        .filter(|c| !c.trim().is_empty())
        .map(|c| c.trim().replace(',', "").parse().expect("number"))
        .collect()
}

#[test]
fn four_by_four_every_decision() {
    // r1c2 has {2,3}: 2 forces r1c3 = 4 and leaves r1c4 empty-handed; 3 works.
    // r2c1 has {2,4}: 2 leaves r2c2 nothing; 4 leads straight to the solution.
    let expected = [
        "1 0 place r1c2 = 2 (guess from {2,3})",
        "2 1 place r1c3 = 4 (only candidate)",
        "3 2 dead end: r1c4 has no candidate",
        "4 1 undo r1c3 = 4",
        "5 0 undo r1c2 = 2",
        "6 0 place r1c2 = 3 (guess from {2,3})",
        "7 1 place r1c3 = 2 (guess from {2,4})",
        "8 2 place r1c4 = 4 (only candidate)",
        "9 3 place r2c1 = 2 (guess from {2,4})",
        "10 4 dead end: r2c2 has no candidate",
        "11 3 undo r2c1 = 2",
        "12 3 place r2c1 = 4 (guess from {2,4})",
        "13 4 place r2c2 = 2 (only candidate)",
        "14 5 place r2c4 = 1 (only candidate)",
        "15 6 place r3c1 = 2 (guess from {2,3})",
        "16 7 place r3c3 = 1 (only candidate)",
        "17 8 place r3c4 = 3 (only candidate)",
        "18 9 place r4c1 = 3 (only candidate)",
        "19 10 place r4c2 = 1 (only candidate)",
        "20 11 place r4c3 = 4 (only candidate)",
        "21 12 solution",
    ];
    // The four row-major rungs visit the same tree: same decisions.
    for s in ["naive", "blank-list", "used-tables", "bitmask"] {
        let out = stdout(&["trace", "-s", s, "--steps", "50"], TINY_LINE);
        assert_eq!(decisions(&out), expected, "{s}");
        assert!(out.contains("(first 21 of 21 events)"), "{s}");
        let t = totals(&out);
        // nodes, placements, backtracks, (probes), guesses, dead_ends, forced
        assert_eq!((t[0], t[1], t[2]), (16, 15, 3), "{s}");
        assert_eq!((t[4], t[5], t[6]), (6, 2, 0), "{s}");
    }
    // The same puzzle in the compact layout (2239 style) traces the same.
    let compact = "1...\n..3.\n.4..\n...2\n";
    assert_eq!(
        decisions(&stdout(&["trace", "-s", "naive"], compact)),
        expected
    );
}

#[test]
fn four_by_four_histogram_and_steps_limit() {
    let out = stdout(
        &["trace", "-s", "bitmask", "-k", "3", "--depth-histogram"],
        TINY_LINE,
    );
    assert_eq!(decisions(&out).len(), 3);
    assert!(out.contains("(first 3 of 21 events)"));
    // Nodes per depth: one root, two tries at depth 1 and 2, a single path below.
    let hist: Vec<(u64, u64)> = out
        .lines()
        .skip_while(|l| !l.starts_with("nodes per depth"))
        .skip(2)
        .map(|l| {
            let mut w = l.split_whitespace();
            (
                w.next().unwrap().parse().unwrap(),
                w.next().unwrap().parse().unwrap(),
            )
        })
        .collect();
    let expected: Vec<(u64, u64)> = [1, 2, 2, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1]
        .into_iter()
        .enumerate()
        .map(|(d, n)| (d as u64, n))
        .collect();
    assert_eq!(hist, expected);
    assert_eq!(hist.iter().map(|h| h.1).sum::<u64>(), 16);
}

#[test]
fn mrv_needs_no_guess_on_the_4x4() {
    let out = stdout(&["trace", "-s", "mrv", "-k", "2"], TINY_LINE);
    let t = totals(&out);
    assert_eq!((t[0], t[1], t[2], t[4], t[5]), (13, 12, 0, 0, 0));
    // MRV starts with a cell that has a single candidate.
    assert_eq!(decisions(&out)[0], "1 0 place r1c4 = 4 (only candidate)");
}

/// Why this cell: MRV names the next best count when its cell is the only
/// one with the fewest (Golden Nugget's second guess: r3c4 has 2, no other
/// cell fewer than 3), the ties otherwise (checked against the board at
/// every choice by `every_event_tells_the_truth_about_the_board`).
#[test]
fn mrv_says_why_this_cell() {
    let famous = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt");
    let golden = std::fs::read_to_string(&famous)
        .expect("famous.txt")
        .lines()
        .find(|l| l.contains("Golden Nugget"))
        .expect("Golden Nugget")
        .to_string();
    let out = stdout(&["trace", "-s", "mrv", "--steps", "2"], &golden);
    assert_eq!(
        decisions(&out),
        [
            "1 0 place r1c4 = 2 (guess from {2,6,8}; fewest, tied with 16: first in order)",
            "2 1 place r3c4 = 6 (guess from {6,9}; fewest: next best 3)",
        ]
    );
}

#[test]
fn nine_by_nine_two_strategies_side_by_side() {
    let mrv = stdout(&["trace", "-s", "mrv", "--steps", "5"], ANTI);
    assert_eq!(
        decisions(&mrv),
        [
            "1 0 place r2c3 = 6 (guess from {6,7,9}; fewest, tied with 8: first in order)",
            "2 1 place r2c5 = 7 (guess from {7,9}; fewest, tied with 2: first in order)",
            "3 2 place r2c2 = 2 (guess from {2,4}; fewest, tied with 2: first in order)",
            "4 3 place r2c1 = 4 (guess from {4,9}; fewest, tied with 3: first in order)",
            "5 4 place r2c7 = 9 (only candidate)",
        ]
    );
    assert!(mrv.contains("(first 5 of 96,516 events)"));
    assert_eq!(
        totals(&mrv),
        [45_268, 45_267, 45_203, 4_405_083, 12_094, 6_045, 0]
    );

    // Row-major search on the same puzzle: cut off by a budget.
    let out = lab()
        .args([
            "trace",
            "-s",
            "used-tables",
            "--steps",
            "3",
            "--budget",
            "100000",
        ])
        .write_stdin(ANTI)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1), "budget exceeded exits 1");
    let used = String::from_utf8(out.stdout).unwrap();
    assert!(used.contains("result: budget exceeded"));
    assert_eq!(
        decisions(&used),
        [
            // r1c1: 1 is in its box (r3c3), 5 in its column (r7c1).
            "1 0 place r1c1 = 2 (guess from {2,3,4,6,7,8,9})",
            "2 1 place r1c2 = 3 (guess from {3,4,5,6,7,8})",
            // r1c3: 1, 2, 4 are in its column, 2 and 3 already in row 1.
            "3 2 place r1c3 = 5 (guess from {5,6,7,8,9})",
        ]
    );
    let t = totals(&used);
    assert_eq!((t[0], t[1], t[2]), (100_000, 100_000, 99_967));
}

#[test]
fn trace_counts_equal_solve_stats() {
    for s in ["naive", "used-tables", "mrv"] {
        let easy =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";
        let out = stdout(&["trace", "-s", s, "-k", "0"], easy);
        let t = totals(&out);
        let stats = lab()
            .args(["solve", "--stats", "-s", s])
            .write_stdin(easy)
            .output()
            .expect("runs");
        let line = String::from_utf8(stats.stderr).unwrap();
        let want = format!(
            "nodes={} placements={} backtracks={} probes={} guesses={} dead_ends={} forced={}",
            t[0], t[1], t[2], t[3], t[4], t[5], t[6]
        );
        assert!(line.contains(&want), "{s}: {line} vs {want}");
    }
}

#[test]
fn chart_overlays_strategies_as_svg_or_png_and_refuses_other_files() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("depths.svg");
    lab()
        .args(["trace", "-s", "naive,mrv", "-k", "0", "--chart"])
        .arg(&svg)
        .write_stdin(TINY_LINE)
        .assert()
        .success()
        .stdout(predicate::str::contains("chart written to"));
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.trim_end().ends_with("</svg>"));
    // n per series in the legend; a log scale (the counts span decades).
    assert!(text.contains("naive (n = 16 nodes)"), "{text}");
    assert!(text.contains("mrv (n = 13 nodes)"));
    assert!(text.contains("log scale"));
    let png = dir.path().join("depths.png");
    lab()
        .args(["trace", "-s", "naive", "-k", "0", "--chart"])
        .arg(&png)
        .write_stdin(TINY_LINE)
        .assert()
        .success();
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary left"
    );

    lab()
        .args(["trace", "--chart"])
        .arg(dir.path().join("tree.pdf"))
        .write_stdin(TINY_LINE)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(".svg or .png"));
}

/// `--from N`: step N of the listing is event N of the whole search — the
/// same line, word for word, as in a listing from the start.
#[test]
fn from_n_lists_event_n_of_the_whole_search() {
    // Over budget or not, the listing is the same (exit code 1 when over).
    let listing = |args: &[&str]| {
        let out = lab().args(args).write_stdin(ANTI).output().expect("runs");
        assert!(out.status.code() == Some(0) || out.status.code() == Some(1));
        String::from_utf8(out.stdout).expect("utf-8")
    };
    for s in ["naive", "mrv", "propagate", "dlx", "fast"] {
        let whole = decisions(&listing(&[
            "trace", "-s", s, "-k", "400", "--budget", "5000",
        ]));
        let n = whole.len();
        assert!(n >= 40, "{s}: {n} events");
        for from in [1, 2, n / 3, n - 9] {
            let part = listing(&[
                "trace",
                "-s",
                s,
                "-k",
                "10",
                "--budget",
                "5000",
                "--from",
                &from.to_string(),
            ]);
            let lines = decisions(&part);
            let want: Vec<String> = whole.iter().skip(from - 1).take(10).cloned().collect();
            assert_eq!(lines, want, "{s} --from {from}");
            assert!(
                lines[0].starts_with(&format!("{from} ")),
                "{s}: {}",
                lines[0]
            );
            if from > 1 {
                assert!(
                    part.contains(&format!("(events {from}-{} of ", from + 9)),
                    "{part}"
                );
            }
        }
    }
    // Past the end: said, and the totals still printed.
    let out = stdout(&["trace", "-s", "naive", "--from", "22"], TINY_LINE);
    assert!(out.contains("the search had 21 events, --from 22 is past them"));
    assert!(out.contains("result: solved"));
    lab()
        .args(["trace", "--from", "0"])
        .write_stdin(TINY_LINE)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--from counts from 1"));
}

/// The library's window: the same events, numbered as in the whole search.
#[test]
fn a_window_holds_the_same_events_as_the_whole_search() {
    use sudoku_lab::Strategy;
    use sudoku_lab::analysis::{trace, trace_window};
    use sudoku_lab::base::format::parse_one;
    let b = parse_one(ANTI.trim()).unwrap().1.board;
    for &s in Strategy::ALL {
        let whole = trace(s, &b, Some(2_000), 5_000).expect("verified");
        let events = whole.tracer.events();
        // Mid-search, wherever the search ends (fast's is short).
        let from = (events.len() / 2).clamp(1, 1_234);
        let to = (from + 49).min(events.len());
        let part = trace_window(s, &b, Some(2_000), from as u64, 50).expect("verified");
        assert!(to > from + 5, "{s}: a search of {} events", events.len());
        assert_eq!(part.tracer.events(), &events[from - 1..to], "{s}");
        assert_eq!(part.tracer.events()[0].step, from as u64);
        assert_eq!(part.counts, whole.counts, "{s}: the same search");
        assert_eq!(part.tracer.histogram(), whole.tracer.histogram(), "{s}");
    }
}

#[test]
fn tree_has_one_line_per_node_and_says_when_it_is_too_big() {
    let out = stdout(&["trace", "-s", "naive", "-k", "3", "--tree"], TINY_LINE);
    let tree: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("search tree"))
        .skip(1)
        .collect();
    // Derived by hand (see four_by_four_every_decision): r1c2 = 2 fails two
    // levels down, r2c1 = 2 fails at once, the rest is one path.
    let expected = [
        "root (the givens)",
        "├─ r1c2 = 2  (guess from {2,3})",
        "│  r1c3 = 4  (only candidate)  ✗ r1c4 has no candidate",
        "└─ r1c2 = 3  (guess from {2,3})",
        "   r1c3 = 2  (guess from {2,4})",
        "   r1c4 = 4  (only candidate)",
        "   ├─ r2c1 = 2  (guess from {2,4})  ✗ r2c2 has no candidate",
        "   └─ r2c1 = 4  (guess from {2,4})",
        "      r2c2 = 2  (only candidate)",
        "      r2c4 = 1  (only candidate)",
        "      r3c1 = 2  (guess from {2,3})",
        "      r3c3 = 1  (only candidate)",
        "      r3c4 = 3  (only candidate)",
        "      r4c1 = 3  (only candidate)",
        "      r4c2 = 1  (only candidate)",
        "      r4c3 = 4  (only candidate)  ✓ solution",
    ];
    assert_eq!(tree, expected);
    assert!(out.contains("search tree (16 nodes, 12 deep;"));

    // Every rung on AI Escargot: one line per node whenever it is drawn.
    let famous = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt");
    let famous = famous.to_str().unwrap();
    for s in ["naive", "mrv", "propagate", "dlx", "fast"] {
        let out = stdout(
            &[
                "trace", "-s", s, "-k", "0", "--tree", "--puzzle", "4", famous,
            ],
            "",
        );
        let nodes = totals(&out)[0];
        let lines = out
            .lines()
            .skip_while(|l| !l.starts_with("search tree"))
            .skip(1)
            .take_while(|l| !l.is_empty())
            .count() as u64;
        if nodes <= 300 {
            assert_eq!(lines, nodes, "{s}");
            let solved = out.lines().filter(|l| l.ends_with("✓ solution")).count();
            assert_eq!(solved, 1, "{s}");
        } else {
            assert_eq!(lines, 0, "{s}");
            assert!(out.contains("not drawn"), "{s}");
        }
    }
}

#[test]
fn bad_input_and_bad_options() {
    lab()
        .args(["trace"])
        .write_stdin("1.x...3..4.....2\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<stdin>:1:3"));
    lab()
        .args(["trace", "--puzzle", "2"])
        .write_stdin(TINY_LINE)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds 1 puzzle"));
}

/// A 16×16 or 25×25 puzzle: a patterned full grid with 40% of its cells blanked.
fn big_puzzle(b: usize) -> String {
    let n = b * b;
    (0..n * n)
        .map(|i| {
            let (r, c) = (i / n, i % n);
            if (r * 7 + c * 3) % 5 < 2 {
                '.'
            } else {
                let v = (b * (r % b) + r / b + c) % n + 1;
                char::from_digit(v as u32, 36).unwrap().to_ascii_uppercase()
            }
        })
        .chain(['\n'])
        .collect()
}

#[test]
fn sixteen_and_twenty_five_stay_readable() {
    for b in [4, 5] {
        let n = b * b;
        let line = big_puzzle(b);
        let out = stdout(
            &["trace", "-s", "mrv", "-k", "3", "--depth-histogram"],
            &line,
        );
        assert!(out.contains(&format!("{n}x{n}")), "{out}");
        assert!(out.contains("result: solved"));
        assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
        let rows = out
            .lines()
            .skip_while(|l| !l.starts_with("nodes per depth"))
            .count();
        assert!(rows <= 84, "{rows} histogram lines");
    }
}

#[test]
fn row_major_rungs_count_the_same_tree_on_the_famous_puzzles() {
    use sudoku_lab::Strategy;
    use sudoku_lab::io::Dataset;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt");
    let set = Dataset::load(&path).expect("docs/puzzles/famous.txt loads");
    assert_eq!(set.puzzles.len(), 5);
    for p in &set.puzzles {
        let runs: Vec<_> = Strategy::ALL
            .iter()
            .filter(|s| s.is_row_major())
            .map(|s| s.solve(&p.board, None).expect("verified"))
            .collect();
        assert_eq!(runs.len(), 4);
        for r in &runs[1..] {
            let (a, b) = (&runs[0].counts, &r.counts);
            assert_eq!(
                (a.nodes, a.placements, a.backtracks, a.guesses, a.dead_ends),
                (b.nodes, b.placements, b.backtracks, b.guesses, b.dead_ends),
                "{:?}",
                p.name
            );
            assert!(b.probes < a.probes, "each rung reads less: {:?}", p.name);
            assert_eq!(r.solution, runs[0].solution);
        }
    }
}

/// Every recorded event tells the truth about the board the search had in
/// hand: replaying the events onto the givens ([`Position`]), each placement
/// is in an empty cell and among the candidates its branch lists; the listed
/// candidates (or places of a digit in a unit) are exactly the board's;
/// a naked single is the cell's only candidate; a hidden single is the
/// digit's only place in its unit; a dead end's cell has no candidate, its
/// digit no place in its unit, its clashing digits only that cell; an undo
/// takes back a placement on the path; the solution is the verified one;
/// a rung that says why it chose its cell (MRV's rivals) has the next best
/// count and the ties the board gives, and took the first of the ties.
///
/// `fast` eliminates more than the board shows (locked candidates), so its
/// claims are checked one way: the digits it lists are possible on the
/// board, what it calls impossible is not checked. And it fills all the
/// naked singles of a sweep before its band filter runs, so a forced digit
/// may clash with one forced just before it in the same sweep (e.g. two 2s
/// in column 7 on Golden Nugget, step 1,482): the filter then finds the dead
/// end. Its forced digits are only checked to land in empty cells.
#[test]
fn every_event_tells_the_truth_about_the_board() {
    use sudoku_lab::Strategy;
    use sudoku_lab::analysis::{Branch, Chute, DeadEnd, EventKind, Position, Reason, trace};
    use sudoku_lab::base::format::parse_one;
    use sudoku_lab::base::{Board, Cell, Unit};
    use sudoku_lab::io::Dataset;

    fn candidates(b: &Board, values: &[u8], cell: Cell) -> u32 {
        let g = b.geometry();
        let mut used = 0;
        for u in g.units_of(cell) {
            for c in g.unit_cells(u) {
                if values[c.index()] != 0 {
                    used |= 1 << (values[c.index()] - 1);
                }
            }
        }
        g.full & !used
    }
    /// Places (bit i = i-th cell of the unit) where `digit` fits, and whether it is placed.
    fn places(b: &Board, values: &[u8], unit: Unit, digit: u8) -> (u32, bool) {
        let g = b.geometry();
        let mut mask = 0;
        let mut placed = false;
        for (i, c) in g.unit_cells(unit).enumerate() {
            let v = values[c.index()];
            placed |= v == digit;
            if v == 0 && candidates(b, values, c) & (1 << (digit - 1)) != 0 {
                mask |= 1 << i;
            }
        }
        (mask, placed)
    }

    let mut puzzles: Vec<Board> = ["1.....3..4.....2", ANTI.trim()]
        .iter()
        .map(|l| parse_one(l).unwrap().1.board)
        .collect();
    let famous = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/puzzles/famous.txt");
    puzzles.extend(
        Dataset::load(&famous)
            .unwrap()
            .puzzles
            .into_iter()
            .map(|p| p.board),
    );
    let mut checked = std::collections::BTreeMap::<String, u64>::new();
    for b in &puzzles {
        let g = b.geometry();
        for &s in Strategy::ALL {
            if !s.supports(b.size()) {
                continue;
            }
            // `fast` and `fast-triads` force by rules that see more than the
            // board's candidates (a digit's places in a band).
            let exact = !matches!(s, Strategy::Fast | Strategy::FastTriads);
            let t = trace(s, b, Some(30_000), 200_000).expect("verified");
            let mut p = Position::new(b);
            // Ways on the path (`fast-triads`' guesses, which write no cell).
            let mut ways_open = 0usize;
            for e in t.tracer.events() {
                let v = p.values().to_vec();
                let at = format!("{s} step {}: {}", e.step, e.describe(g));
                let placed_now = p
                    .fills()
                    .iter()
                    .filter(|&&f| f == sudoku_lab::analysis::Fill::Placed)
                    .count();
                // An undo's depth is the depth of the node that made the
                // placement (or tried the way).
                let undo = matches!(
                    e.kind,
                    EventKind::Backtrack { .. } | EventKind::WayBack { .. }
                );
                assert_eq!(
                    e.depth as usize,
                    placed_now + ways_open - undo as usize,
                    "{at}: depth"
                );
                let kind = match e.kind {
                    EventKind::Place {
                        cell,
                        digit,
                        branch,
                        guess,
                    } => {
                        let cand = candidates(b, &v, cell);
                        assert_eq!(v[cell.index()], 0, "{at}: cell empty");
                        assert!(cand & (1 << (digit - 1)) != 0, "{at}: digit fits");
                        match branch {
                            Branch::Cell {
                                cell: c,
                                digits,
                                rivals,
                            } => {
                                assert_eq!(c, cell, "{at}");
                                assert!(digits & (1 << (digit - 1)) != 0, "{at}");
                                if exact {
                                    assert_eq!(digits, cand, "{at}: candidates");
                                } else {
                                    assert_eq!(digits & !cand, 0, "{at}: candidates");
                                }
                                assert_eq!(guess, digits.count_ones() > 1, "{at}: guess");
                                // Why this cell: what the other empty cells
                                // had, recounted on the board.
                                if let Some(r) = rivals {
                                    let fewest = digits.count_ones();
                                    let others: Vec<u32> = (0..g.cells)
                                        .filter(|&o| o != cell.index() && v[o] == 0)
                                        .map(|o| candidates(b, &v, Cell(o as u16)).count_ones())
                                        .collect();
                                    let next = others.iter().copied().min().unwrap_or(0);
                                    assert_eq!(u32::from(r.next), next, "{at}: next best");
                                    assert!(fewest <= next || others.is_empty(), "{at}: fewest");
                                    let ties = others.iter().filter(|&&n| n == fewest).count();
                                    assert_eq!(usize::from(r.ties), ties, "{at}: ties");
                                    let first = (0..cell.index()).all(|o| {
                                        v[o] != 0
                                            || candidates(b, &v, Cell(o as u16)).count_ones()
                                                != fewest
                                    });
                                    assert!(first, "{at}: ties go to the first in reading order");
                                    *checked.entry(format!("{s} why this cell")).or_default() += 1;
                                }
                            }
                            Branch::Digit {
                                unit,
                                digit: d,
                                places: m,
                            } => {
                                assert_eq!(d, digit, "{at}");
                                let (want, placed) = places(b, &v, unit, digit);
                                assert!(!placed, "{at}");
                                assert_eq!(m, want, "{at}: places");
                                assert!(g.unit_cells(unit).any(|c| c == cell), "{at}");
                                assert_eq!(guess, m.count_ones() > 1, "{at}: guess");
                            }
                            Branch::Ways { .. } => panic!("{at}: a way places no cell"),
                            Branch::Unstated => panic!("{at}: every rung states its branch"),
                        }
                        "place"
                    }
                    EventKind::Forced {
                        cell,
                        digit,
                        reason,
                    } => {
                        let cand = candidates(b, &v, cell);
                        assert_eq!(v[cell.index()], 0, "{at}: cell empty");
                        if exact {
                            assert!(cand & (1 << (digit - 1)) != 0, "{at}: digit fits");
                        }
                        match reason {
                            Reason::NakedSingle => {
                                if exact {
                                    assert_eq!(cand, 1 << (digit - 1), "{at}: only candidate");
                                }
                                "naked single"
                            }
                            Reason::HiddenSingle(unit) => {
                                assert!(g.unit_cells(unit).any(|c| c == cell), "{at}");
                                let (m, placed) = places(b, &v, unit, digit);
                                assert!(!placed, "{at}");
                                if exact {
                                    assert_eq!(m.count_ones(), 1, "{at}: only place");
                                }
                                "hidden single"
                            }
                            Reason::BandFilter { band, row } => {
                                assert!(g.unit_cells(row).any(|c| c == cell), "{at}");
                                assert_eq!(cell.index() / 27, band as usize, "{at}: band");
                                let (_, placed) = places(b, &v, row, digit);
                                assert!(!placed, "{at}");
                                "band filter"
                            }
                            Reason::Unstated => panic!("{at}: every rung states its reason"),
                        }
                    }
                    EventKind::Backtrack { cell, digit } => {
                        assert_eq!(v[cell.index()], digit, "{at}: undoes what is there");
                        "undo"
                    }
                    EventKind::Way {
                        chute,
                        digit,
                        way,
                        ways,
                        guess,
                    } => {
                        assert!(ways & (1 << way) != 0, "{at}: one of the node's ways");
                        assert_eq!(guess, ways.count_ones() > 1, "{at}: guess");
                        // Where the digit already is in the chute, it is on
                        // the way: in a band, row k of it holds the digit in
                        // box column w[k]; in a stack, band k holds it in
                        // column w[k] of the stack.
                        let w = sudoku_lab::analysis::WAYS[way as usize];
                        for (c, _) in v.iter().enumerate().filter(|&(_, &x)| x == digit) {
                            let (r, col) = (c / 9, c % 9);
                            match chute {
                                Chute::Band(i) if r / 3 == i as usize => {
                                    assert_eq!(col / 3, w[r % 3] as usize, "{at}: on the way")
                                }
                                Chute::Stack(i) if col / 3 == i as usize => {
                                    assert_eq!(col % 3, w[r / 3] as usize, "{at}: on the way")
                                }
                                _ => {}
                            }
                        }
                        ways_open += 1;
                        "way"
                    }
                    EventKind::WayBack { .. } => {
                        assert!(ways_open > 0, "{at}: a way to undo");
                        ways_open -= 1;
                        "undo way"
                    }
                    EventKind::DeadEnd(why) => match why {
                        DeadEnd::Cell(cell) => {
                            assert_eq!(v[cell.index()], 0, "{at}: cell empty");
                            if exact {
                                assert_eq!(candidates(b, &v, cell), 0, "{at}: no candidate");
                            }
                            "dead end: cell"
                        }
                        DeadEnd::Digit { unit, digit } => {
                            let (m, placed) = places(b, &v, unit, digit);
                            assert!(!placed, "{at}: digit not placed in the unit");
                            if exact {
                                assert_eq!(m, 0, "{at}: no place");
                            }
                            "dead end: digit"
                        }
                        DeadEnd::Clash { unit, cell, digits } => {
                            assert!(digits.count_ones() >= 2, "{at}");
                            assert!(g.unit_cells(unit).any(|c| c == cell), "{at}");
                            let i = g.unit_cells(unit).position(|c| c == cell).unwrap();
                            for d in 1..=g.n as u8 {
                                if digits & (1 << (d - 1)) != 0 {
                                    let (m, placed) = places(b, &v, unit, d);
                                    assert!(!placed, "{at}");
                                    assert_eq!(m, 1 << i, "{at}: {d} only fits {cell:?}");
                                }
                            }
                            "dead end: clash"
                        }
                        DeadEnd::Chute { .. } => {
                            assert!(!exact, "{at}: only fast reasons by chutes");
                            "dead end: chute"
                        }
                        DeadEnd::Crowded {
                            line,
                            in_box,
                            digits,
                        } => {
                            assert!(digits.count_ones() >= 4, "{at}: four digits or more");
                            // The three cells exist, and a digit of the set
                            // already in the line is in them (else it would
                            // not need them).
                            let cells: Vec<Cell> = g
                                .unit_cells(line)
                                .filter(|c| g.units_of(*c)[2].index == in_box)
                                .collect();
                            assert_eq!(cells.len(), 3, "{at}: a line crosses a box in 3 cells");
                            for c in g.unit_cells(line) {
                                let x = v[c.index()];
                                if x != 0 && digits & (1 << (x - 1)) != 0 {
                                    assert!(cells.contains(&c), "{at}: {x} is elsewhere");
                                }
                            }
                            "dead end: crowded"
                        }
                        DeadEnd::Unstated => panic!("{at}: every rung states why"),
                    },
                    EventKind::Solution => {
                        assert!(v.iter().all(|&x| x != 0), "{at}: complete");
                        assert_eq!(
                            Some(&v[..]),
                            t.solution.as_ref().map(|s| s.cells()),
                            "{at}: the verified solution"
                        );
                        "solution"
                    }
                };
                *checked.entry(format!("{s}: {kind}")).or_default() += 1;
                p.apply(e);
            }
            if !t.tracer.truncated() && t.outcome == sudoku_lab::Outcome::Solved {
                assert_eq!(
                    Some(p.values()),
                    t.solution.as_ref().map(|s| s.cells()),
                    "{s}: the replayed board ends on the solution"
                );
            }
        }
    }
    // Every kind of claim was exercised somewhere.
    for want in [
        "naive: place",
        "naive: dead end: cell",
        "naive: undo",
        "mrv: solution",
        "mrv why this cell",
        "propagate why this cell",
        "propagate: naked single",
        "propagate: hidden single",
        "propagate: dead end: digit",
        "propagate: dead end: clash",
        "dlx: dead end: digit",
        "fast: hidden single",
        "fast: band filter",
        "fast: dead end: chute",
        "fast-triads: way",
        "fast-triads: undo way",
        "fast-triads: solution",
        "fast-triads: dead end: crowded",
    ] {
        assert!(
            checked.contains_key(want),
            "{want} never checked: {checked:?}"
        );
    }
}

/// Progress of a long traced search (`trace` draws it on a terminal): the
/// tracer publishes its nodes every `PUBLISH_EVERY`, the watcher passes them
/// on, the total is the budget, and the search is the same as without it.
#[test]
fn a_traced_search_reports_its_nodes_as_it_goes() {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicU64, Ordering};
    use sudoku_lab::Strategy;
    use sudoku_lab::analysis::{Tracer, trace_window, trace_window_showing};
    use sudoku_lab::base::Limits;
    use sudoku_lab::base::Progress;
    use sudoku_lab::base::format::parse_one;

    let b = parse_one(ANTI.trim()).unwrap().1.board;
    // The published count, without a watcher: exact.
    let budget = 300_000;
    let nodes = std::sync::Arc::new(AtomicU64::new(0));
    let run = Strategy::Naive.run(
        &b,
        Limits::solve(Some(budget)),
        Tracer::new(10).publishing(nodes.clone()),
    );
    assert_eq!(run.nodes, budget, "the naive rung needs more than this");
    let every = Tracer::PUBLISH_EVERY;
    assert_eq!(nodes.load(Ordering::Relaxed), budget / every * every);

    #[derive(Default)]
    struct Heard {
        total: Mutex<Vec<u64>>,
        at: Mutex<Vec<u64>>,
    }
    impl Progress for Heard {
        fn start(&self, total: u64) {
            self.total.lock().unwrap().push(total);
        }
        fn at(&self, done: u64) {
            self.at.lock().unwrap().push(done);
        }
    }
    let heard = Heard::default();
    let shown = trace_window_showing(Strategy::Naive, &b, Some(budget), 1, 10, &heard).unwrap();
    let plain = trace_window(Strategy::Naive, &b, Some(budget), 1, 10).unwrap();
    assert_eq!(shown.counts, plain.counts);
    assert_eq!(shown.tracer.events(), plain.tracer.events());
    assert_eq!(*heard.total.lock().unwrap(), vec![budget]);
    // However many reports the clock allowed, each is a published count.
    let at = heard.at.lock().unwrap();
    assert!(at.windows(2).all(|w| w[0] <= w[1]), "{at:?}");
    assert!(at.iter().all(|&n| n % every == 0 && n <= budget), "{at:?}");
    // No budget: no total to show against.
    let quiet = Heard::default();
    let tiny = parse_one(TINY_LINE.trim()).unwrap().1.board;
    trace_window_showing(Strategy::Naive, &tiny, None, 1, 10, &quiet).unwrap();
    assert!(quiet.total.lock().unwrap().is_empty());
}

/// Piped, `trace` draws no progress: standard error holds only the one
/// `error:` line of its exit 1 (the budget stops the search).
#[test]
fn trace_draws_nothing_when_not_on_a_terminal() {
    lab()
        .args(["trace", "-s", "naive", "--steps", "3", "--budget", "300000"])
        .write_stdin(ANTI)
        .assert()
        .code(1)
        .stderr("error: the puzzle has no solution or exceeded the budget\n");
}

/// Deep in a long search the listing keeps its columns: nine digits of step,
/// the depth as a number, and indentation folded every 30 levels (`»30`).
#[test]
fn a_listing_deep_in_a_long_search_keeps_its_columns() {
    let out = stdout(
        &[
            "trace",
            "-s",
            "bitmask",
            "--budget",
            "unlimited",
            "--from",
            "100000000",
            "--steps",
            "40",
        ],
        ANTI,
    );
    let header = out
        .lines()
        .position(|l| l.contains("event (indented by depth"))
        .expect("header");
    let lines: Vec<&str> = out.lines().skip(header + 1).take(40).collect();
    assert_eq!(lines.len(), 40);
    // The first lines exactly: nine digits of step fill their column.
    let dots = |n: usize| "·".repeat(n);
    assert_eq!(
        lines[..3],
        [
            format!("100000000     24  {}undo  r4c3 = 3", dots(24)),
            format!(
                "100000001     24  {}place r4c3 = 6  (guess from {{3,6}})",
                dots(24)
            ),
            format!(
                "100000002     25  {}place r4c5 = 3  (guess from {{3,9}})",
                dots(25)
            ),
        ]
    );
    let mut folded = 0;
    for (k, l) in lines.iter().enumerate() {
        // `{step:>9} {depth:>6}  {indent}{event}`
        let step: u64 = l[..9]
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("a step in {l:?}"));
        assert_eq!(step, 100_000_000 + k as u64, "{l:?}");
        assert_eq!(&l[9..10], " ", "{l:?}");
        let depth: usize = l[10..16]
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("a depth in {l:?}"));
        let indent = &l[18..];
        if depth >= 30 {
            folded += 1;
            let rest = indent
                .strip_prefix(&format!("»{} ", depth / 30 * 30))
                .expect("a fold mark");
            assert_eq!(
                rest.chars().take_while(|&c| c == '·').count(),
                depth % 30,
                "{l:?}"
            );
        } else {
            assert_eq!(
                indent.chars().take_while(|&c| c == '·').count(),
                depth,
                "{l:?}"
            );
        }
    }
    assert!(folded > 0, "expected events deeper than 30 there:\n{out}");
}

/// The listing across depth 30, exactly: the depth printed as a number, the
/// indentation folded (`»30` then the rest, so the event stays near the
/// left), nine columns of step. Lines 39-47 of mrv on the anti-backtracking
/// puzzle go from depth 29 down to a dead end at 33 and back.
#[test]
fn the_listing_folds_at_depth_30_exactly() {
    let out = stdout(
        &["trace", "-s", "mrv", "--from", "39", "--steps", "9"],
        ANTI,
    );
    let dots = |n: usize| "·".repeat(n);
    let want = [
        "     step  depth  event (indented by depth, folded every 30 levels)".to_string(),
        format!(
            "       39     29  {}place r9c1 = 6  (only candidate)",
            dots(29)
        ),
        "       40     30  »30 place r8c1 = 9  (only candidate)".to_string(),
        format!(
            "       41     31  »30 {}place r8c6 = 8  (only candidate)",
            dots(1)
        ),
        format!(
            "       42     32  »30 {}place r8c7 = 6  (only candidate)",
            dots(2)
        ),
        format!(
            "       43     33  »30 {}dead end: r8c9 has no candidate",
            dots(3)
        ),
        format!("       44     32  »30 {}undo  r8c7 = 6", dots(2)),
        format!("       45     31  »30 {}undo  r8c6 = 8", dots(1)),
        "       46     30  »30 undo  r8c1 = 9".to_string(),
        format!("       47     29  {}undo  r9c1 = 6", dots(29)),
        "(events 39-47 of 96,516)".to_string(),
    ];
    let got: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("event (indented by depth"))
        .take(want.len())
        .collect();
    assert_eq!(got, want);
}

/// `fast-triads` guesses by keeping one way of a digit through a band,
/// which writes no cell: its trace says so above the listing, and lists
/// each guess as a `way` line (13 on this puzzle, as many as the totals
/// count), a level deeper each, with an `undo way` line for each way left;
/// `fast`'s trace has no note and no way.
#[test]
fn a_trace_whose_guesses_write_no_cell_lists_its_ways() {
    let famous = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/puzzles/famous.txt");
    let args = |s| {
        [
            "trace", "-s", s, "--steps", "100000", "--puzzle", "2", famous,
        ]
    };
    let out = stdout(&args("fast-triads"), "");
    let note = "note: fast-triads guesses by keeping one way of a digit through a band or stack";
    assert!(out.contains(note), "{out}");
    let listing: Vec<String> = decisions(&out)
        .into_iter()
        .filter(|l| !l.is_empty())
        .collect();
    let event = |l: &String| {
        l.split_whitespace()
            .skip(2)
            .collect::<Vec<_>>()
            .join(" ")
            .trim_start_matches('·')
            .to_string()
    };
    let ways: Vec<&String> = listing
        .iter()
        .filter(|l| event(l).starts_with("way "))
        .collect();
    assert_eq!(ways.len(), 13, "{out}");
    assert!(ways.iter().all(|l| l.contains("(guess: way ")), "{out}");
    assert!(
        listing.iter().all(|l| !event(l).starts_with("place ")),
        "{out}"
    );
    // Every way but the one on the solution's path is undone.
    let depth_of = |l: &String| {
        l.split_whitespace()
            .nth(1)
            .and_then(|d| d.parse::<u32>().ok())
    };
    let undone = listing
        .iter()
        .filter(|l| event(l).starts_with("undo way "))
        .count();
    let deepest = listing.iter().filter_map(depth_of).max().unwrap_or(0);
    let solution_depth = listing
        .iter()
        .find(|l| event(l) == "solution")
        .and_then(depth_of)
        .expect("a solution line");
    assert_eq!(undone + solution_depth as usize, 13, "{out}");
    assert!(deepest >= 1, "{out}");
    let totals = out
        .lines()
        .skip_while(|l| !l.starts_with("| nodes"))
        .nth(2)
        .expect("a totals row");
    let cols: Vec<&str> = totals.split('|').map(str::trim).collect();
    assert_eq!(cols[5], "13", "guesses: {totals}");
    let fast = stdout(&args("fast"), "");
    assert!(!fast.contains("note:"), "{fast}");
}

//! # Check your predictions for exercises 1–7 (`docs/exercises.md`)
//!
//! Each of the first seven exercises asks for a prediction. Write yours
//! down, then let the lab judge it:
//!
//! ```sh
//! cargo run --release --example predict -- 1 8970 8970 probes
//! cargo run --release --example predict -- 4 flip-rows
//! cargo run --release --example predict -- 7 my-puzzle.txt fewer
//! ```
//!
//! Without arguments it lists what each exercise expects. Every answer is
//! worked out now, by the lab's own rungs on the tour's puzzle files (never
//! a stored figure), and the verdict says what the lab found: exit 0 when
//! the prediction is right, 1 when it is not, 2 for a question it cannot
//! read (a wrong exercise number, a missing or unreadable answer).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use sudoku_lab::analysis::Transform;
use sudoku_lab::export::thousands;
use sudoku_lab::io::Dataset;
use sudoku_lab::{Board, Counts, EXIT_UNSOLVED, EXIT_USAGE, Outcome, Strategy};

/// What each exercise asks for, in the order of its arguments.
const QUESTIONS: [(&str, &str); 7] = [
    (
        "1 USED-TABLES-NODES BITMASK-NODES COUNTERS",
        "nodes of used-tables and bitmask on AI Escargot, and the counter(s) that differ from naive's (comma-separated)",
    ),
    (
        "2 NAIVE-NODES MRV-GUESSES",
        "nodes of the row-major tree of the 4x4 puzzle, and MRV's guesses on it",
    ),
    (
        "3 PUZZLES",
        "the famous puzzles on which mrv makes more probes than bitmask (comma-separated names, or none)",
    ),
    (
        "4 ORIENTATION",
        "the easiest for row-major search of rot180, flip-rows and flip-columns on the anti-backtracking puzzle",
    ),
    ("5 GUESSES", "MRV's guesses on the easy newspaper puzzle"),
    (
        "6 RUNGS",
        "the rungs of the ladder that print the lexicographically smallest solution of several-solutions.txt (comma-separated)",
    ),
    (
        "7 FILE more|fewer",
        "whether naive needs more or fewer than ten thousand nodes on the first puzzle of FILE",
    ),
];

/// A verdict: right or not, and what the lab found.
#[derive(Debug)]
struct Verdict {
    right: bool,
    found: String,
}

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        println!("usage: cargo run --release --example predict -- EXERCISE ANSWER...\n");
        for (usage, what) in QUESTIONS {
            println!("  {usage}\n      {what}");
        }
        return std::process::ExitCode::SUCCESS;
    }
    match judge(&args) {
        Ok(v) => {
            println!(
                "{}: {}",
                if v.right { "right" } else { "not quite" },
                v.found
            );
            std::process::ExitCode::from(if v.right { 0 } else { EXIT_UNSOLVED })
        }
        Err(why) => {
            eprintln!("error: {why}");
            std::process::ExitCode::from(EXIT_USAGE)
        }
    }
}

/// The tour's puzzle files, found from the crate's folder.
fn puzzles(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs/puzzles")
        .join(file)
}

fn load(path: &Path) -> Result<Dataset, String> {
    Dataset::load(path).map_err(|e| format!("{}: {e:#}", path.display()))
}

/// The puzzle named `name` in a file of the tour.
fn named(file: &str, name: &str) -> Result<Board, String> {
    load(&puzzles(file))?
        .puzzles
        .into_iter()
        .find(|p| p.name.as_deref() == Some(name))
        .map(|p| p.board)
        .ok_or_else(|| format!("{file} has no puzzle named {name:?}"))
}

fn first(path: &Path) -> Result<Board, String> {
    load(path)?
        .puzzles
        .into_iter()
        .next()
        .map(|p| p.board)
        .ok_or_else(|| format!("{}: no puzzle in the file", path.display()))
}

/// A verified, counted run to the first solution.
fn counts(s: Strategy, board: &Board, budget: Option<u64>) -> Result<(Outcome, Counts), String> {
    let run = s
        .solve(board, budget)
        .map_err(|e| format!("{}: {e}", s.name()))?;
    Ok((run.outcome, run.counts))
}

fn number(args: &[String], i: usize) -> Result<u64, String> {
    let a = args
        .get(i)
        .ok_or_else(|| format!("exercise {} expects {}", args[0], usage_of(&args[0])))?;
    a.replace([',', '_'], "")
        .parse()
        .map_err(|_| format!("argument {i}: {a:?} is not a whole number"))
}

fn usage_of(n: &str) -> &'static str {
    QUESTIONS
        .iter()
        .find(|(u, _)| u.split(' ').next() == Some(n))
        .map_or("", |(u, _)| u)
}

/// A comma-separated list, compared without case or surrounding spaces;
/// `none` is the empty list.
fn list(args: &[String], i: usize) -> Result<BTreeSet<String>, String> {
    let a = args
        .get(i)
        .ok_or_else(|| format!("exercise {} expects {}", args[0], usage_of(&args[0])))?;
    Ok(a.split(',')
        .map(|w| w.trim().to_lowercase())
        .filter(|w| !w.is_empty() && w != "none")
        .collect())
}

fn shown(set: &BTreeSet<String>) -> String {
    if set.is_empty() {
        "none".into()
    } else {
        set.iter().cloned().collect::<Vec<_>>().join(", ")
    }
}

fn judge(args: &[String]) -> Result<Verdict, String> {
    match args[0].as_str() {
        "1" => {
            let board = named("famous.txt", "AI Escargot")?;
            let (used, bits) = (number(args, 1)?, number(args, 2)?);
            let said = list(args, 3)?;
            let (_, naive) = counts(Strategy::Naive, &board, None)?;
            let (_, ut) = counts(Strategy::UsedTables, &board, None)?;
            let (_, bm) = counts(Strategy::Bitmask, &board, None)?;
            let differ: BTreeSet<String> = Counts::NAMES
                .iter()
                .zip(naive.values().iter().zip(ut.values()).zip(bm.values()))
                .filter(|(_, ((a, b), c))| *a != b || *a != c)
                .map(|(n, _)| n.replace('_', " "))
                .collect();
            let said: BTreeSet<String> = said.iter().map(|w| w.replace('_', " ")).collect();
            Ok(Verdict {
                right: used == ut.nodes && bits == bm.nodes && said == differ,
                found: format!(
                    "on AI Escargot used-tables needs {} nodes, bitmask {}; the counters that differ from naive's: {}",
                    thousands(ut.nodes),
                    thousands(bm.nodes),
                    shown(&differ)
                ),
            })
        }
        "2" => {
            let board = first(&puzzles("tiny-4x4.txt"))?;
            let (nodes, guesses) = (number(args, 1)?, number(args, 2)?);
            let (_, naive) = counts(Strategy::Naive, &board, None)?;
            let (_, mrv) = counts(Strategy::Mrv, &board, None)?;
            Ok(Verdict {
                right: nodes == naive.nodes && guesses == mrv.guesses,
                found: format!(
                    "the row-major tree has {} nodes; MRV makes {} guess(es) in {} nodes",
                    thousands(naive.nodes),
                    thousands(mrv.guesses),
                    thousands(mrv.nodes)
                ),
            })
        }
        "3" => {
            let said = list(args, 1)?;
            let mut more = BTreeSet::new();
            for p in load(&puzzles("famous.txt"))?.puzzles {
                let (_, bm) = counts(Strategy::Bitmask, &p.board, None)?;
                let (_, mrv) = counts(Strategy::Mrv, &p.board, None)?;
                if mrv.probes > bm.probes {
                    more.insert(p.name.unwrap_or_default().to_lowercase());
                }
            }
            Ok(Verdict {
                right: said == more,
                found: format!("mrv makes more probes than bitmask on: {}", shown(&more)),
            })
        }
        "4" => {
            let said = list(args, 1)?;
            let board = first(&puzzles("anti-backtracking.txt"))?;
            let mut best: Option<(u64, String)> = None;
            let mut all = Vec::new();
            for t in Transform::standard(board.size()) {
                let name = t.name();
                if !["rot180", "flip-rows", "flip-columns"].contains(&name.as_str()) {
                    continue;
                }
                let (_, c) = counts(Strategy::Bitmask, &t.apply(&board), None)?;
                all.push(format!("{name} {}", thousands(c.nodes)));
                if best.as_ref().is_none_or(|(n, _)| c.nodes < *n) {
                    best = Some((c.nodes, name));
                }
            }
            let (_, best) = best.ok_or("no orientation to compare")?;
            Ok(Verdict {
                right: said.len() == 1 && said.contains(&best),
                found: format!(
                    "{best} is the easiest (bitmask nodes: {}); the lesson on orientation says why",
                    all.join(", ")
                ),
            })
        }
        "5" => {
            let said = number(args, 1)?;
            let (_, mrv) = counts(Strategy::Mrv, &first(&puzzles("easy.txt"))?, None)?;
            Ok(Verdict {
                right: said == mrv.guesses,
                found: format!(
                    "MRV makes {} guess(es) on the newspaper puzzle, in {} nodes",
                    thousands(mrv.guesses),
                    thousands(mrv.nodes)
                ),
            })
        }
        "6" => {
            let said = list(args, 1)?;
            let board = first(&puzzles("several-solutions.txt"))?;
            let smallest = smallest_solution(&board).ok_or("the puzzle has no solution")?;
            let mut print_it = BTreeSet::new();
            for &s in Strategy::ALL {
                let run = s
                    .solve(&board, None)
                    .map_err(|e| format!("{}: {e}", s.name()))?;
                if run.solution.as_ref().map(|b| b.cells()) == Some(&smallest[..]) {
                    print_it.insert(s.name().to_string());
                }
            }
            Ok(Verdict {
                right: said == print_it,
                found: format!(
                    "the smallest solution begins {}…; the rungs that print it: {}",
                    smallest[..9]
                        .iter()
                        .map(|d| d.to_string())
                        .collect::<String>(),
                    shown(&print_it)
                ),
            })
        }
        "7" => {
            let path = PathBuf::from(args.get(1).ok_or("exercise 7 expects FILE more|fewer")?);
            let more = match args.get(2).map(|a| a.to_lowercase()).as_deref() {
                Some("more") => true,
                Some("fewer") => false,
                _ => return Err("exercise 7 expects FILE more|fewer".into()),
            };
            let board = first(&path)?;
            // Ten thousand nodes decide it: a budget, so a hard puzzle
            // does not keep the answer waiting.
            const TEN_THOUSAND: u64 = 10_000;
            let (outcome, c) = counts(Strategy::Naive, &board, Some(TEN_THOUSAND + 1))?;
            let over = outcome != Outcome::Solved || c.nodes > TEN_THOUSAND;
            if outcome == Outcome::NoSolution {
                return Err(format!(
                    "{}: the first puzzle has no solution",
                    path.display()
                ));
            }
            Ok(Verdict {
                right: more == over,
                found: if over {
                    "naive needs more than ten thousand nodes on it".into()
                } else {
                    format!("naive needs {} nodes on it", thousands(c.nodes))
                },
            })
        }
        n => Err(format!(
            "{n:?}: no such exercise (1 to 7; run without arguments for the list)"
        )),
    }
}

/// The lexicographically smallest solution, by a search of this file's own
/// (row-major, digits upwards: the first solution it meets is the
/// smallest), so the rungs are judged against something they did not make.
fn smallest_solution(board: &Board) -> Option<Vec<u8>> {
    let g = board.geometry();
    let mut cells = board.cells().to_vec();
    fn fits(g: &sudoku_lab::base::Geometry, cells: &[u8], at: usize, d: u8) -> bool {
        (0..g.cells).all(|c| {
            c == at
                || cells[c] != d
                || (g.row[c] != g.row[at] && g.col[c] != g.col[at] && g.boxi[c] != g.boxi[at])
        })
    }
    fn go(g: &sudoku_lab::base::Geometry, cells: &mut [u8], from: usize) -> bool {
        let Some(at) = (from..g.cells).find(|&c| cells[c] == 0) else {
            return true;
        };
        for d in 1..=g.n as u8 {
            if fits(g, cells, at, d) {
                cells[at] = d;
                if go(g, cells, at + 1) {
                    return true;
                }
                cells[at] = 0;
            }
        }
        false
    }
    go(g, &mut cells, 0).then_some(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(args: &[&str]) -> Verdict {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        judge(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
    }

    /// The answers the tour's answer sections give are judged right; a
    /// prediction off by one, or the wrong choice, is not.
    #[test]
    fn the_tours_answers_are_right_and_others_are_not() {
        let cases: &[(&[&str], &[&str])] = &[
            (
                &["1", "8970", "8,970", "probes"],
                &["1", "8970", "8971", "probes"],
            ),
            (
                &["1", "8970", "8970", "probes"],
                &["1", "8970", "8970", "nodes"],
            ),
            (
                &["3", "Golden Nugget, Inkala 2012"],
                &["3", "Golden Nugget"],
            ),
            (&["4", "flip-columns"], &["4", "rot180"]),
            (&["5", "0"], &["5", "1"]),
            (
                &[
                    "6",
                    "naive,blank-list,used-tables,bitmask,propagate,dlx,fast-triads",
                ],
                &["6", "naive,blank-list,used-tables,bitmask,propagate,dlx"],
            ),
        ];
        for (right, wrong) in cases {
            assert!(verdict(right).right, "{right:?}: {:?}", verdict(right));
            assert!(!verdict(wrong).right, "{wrong:?}: {:?}", verdict(wrong));
        }
        // Exercise 2: the right pair is what the lab counts, and off by one is not.
        let found = verdict(&["2", "0", "0"]).found;
        let nodes: String = found
            .split("has ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .expect("the node count in the verdict")
            .into();
        assert!(verdict(&["2", &nodes, "0"]).right, "{found}");
        let one_more = (nodes.replace(',', "").parse::<u64>().expect("a number") + 1).to_string();
        assert!(!verdict(&["2", &one_more, "0"]).right);
    }

    #[test]
    fn exercise_7_reads_the_students_file() {
        let easy = puzzles("easy.txt");
        let easy = easy.to_str().expect("a UTF-8 path");
        // The newspaper puzzle needs 4,209 row-major nodes (exercises.md).
        assert!(verdict(&["7", easy, "fewer"]).right);
        assert!(!verdict(&["7", easy, "more"]).right);
        let anti = puzzles("anti-backtracking.txt");
        assert!(verdict(&["7", anti.to_str().expect("UTF-8"), "more"]).right);
    }

    #[test]
    fn questions_it_cannot_read_are_usage_errors() {
        let bad = |args: &[&str]| {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            judge(&args).expect_err("a usage error")
        };
        assert!(bad(&["8"]).contains("no such exercise"));
        assert!(bad(&["5", "zero"]).contains("not a whole number"));
        assert!(bad(&["1", "8970"]).contains("expects"));
        assert!(bad(&["7", "no-such-file.txt", "more"]).contains("no-such-file.txt"));
        assert!(bad(&["7", "x.txt", "maybe"]).contains("more|fewer"));
    }

    /// The reference search agrees with the puzzle file's own claim: the
    /// smallest solution is a solution of the puzzle.
    #[test]
    fn the_reference_solution_solves_the_puzzle() {
        let board = first(&puzzles("several-solutions.txt")).expect("the tour's file");
        let sol = smallest_solution(&board).expect("a solution");
        board.check_cells(&sol).expect("a verified solution");
    }
}

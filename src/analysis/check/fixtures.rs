//! The lab's fixture table ([`FIXTURES`]): famous hard puzzles, the two
//! Baekjoon samples, and puzzles with no, one, two and 288 solutions, each
//! with its exact solution count and, where listed, its first solution.

use crate::base::board::Board;

/// One puzzle of the fixture table, with its exact number of solutions.
#[derive(Clone, Copy, Debug)]
pub struct Fixture {
    pub name: &'static str,
    /// The puzzle, in any layout the lab reads.
    pub puzzle: &'static str,
    /// Exact number of solutions.
    pub solutions: u64,
    /// The lexicographically smallest solution (as a line), where listed:
    /// what every [`Rung::ROW_MAJOR`](crate::base::strategy::Rung::ROW_MAJOR) rung must return first.
    pub solution: Option<&'static str>,
}

impl Fixture {
    /// The puzzle as a board.
    pub fn board(&self) -> Board {
        parse(self.puzzle, self.name)
    }

    /// The listed solution as a board.
    pub fn solution_board(&self) -> Option<Board> {
        self.solution.map(|s| parse(s, self.name))
    }
}

/// The table is static data, parsed by a test of its own; a typo is a bug.
fn parse(text: &str, name: &str) -> Board {
    match crate::base::format::parse_one(text) {
        Ok((_, puzzle)) => puzzle.board,
        Err(e) => panic!("BUG: fixture {name:?} does not parse: {e}"),
    }
}

/// The fixture table: every rung must solve each puzzle of a size it
/// supports and count its solutions exactly, within
/// [`Checks::fixture_budget`](super::Checks::fixture_budget). The 9×9 solutions agree with the `sudoku`
/// crate (`tests/strategies.rs` checks it).
///
/// ```
/// use sudoku_lab::{Strategy, analysis::check::FIXTURES};
///
/// for f in FIXTURES.iter().filter(|f| f.solutions == 1) {
///     let run = Strategy::Propagate.solve(&f.board(), None).unwrap(); // verified
///     if let Some(expected) = f.solution_board() {
///         assert_eq!(run.solution, Some(expected), "{}", f.name);
///     }
/// }
/// ```
pub const FIXTURES: &[Fixture] = &[
    Fixture {
        name: "Baekjoon 2580 sample (grid)",
        puzzle: "0 3 5 4 6 9 2 7 8\n7 8 2 1 0 5 6 0 9\n0 6 0 2 7 8 1 3 5\n3 2 1 0 4 6 8 9 7\n8 0 4 9 1 3 5 0 6\n5 9 6 8 2 0 4 1 3\n9 1 7 6 5 2 0 8 0\n6 0 3 7 0 1 9 5 2\n2 5 8 3 9 4 7 6 0\n",
        solutions: 1,
        solution: Some(
            "135469278782135649469278135321546897874913526596827413917652384643781952258394761",
        ),
    },
    Fixture {
        name: "Baekjoon 2239 sample (compact)",
        puzzle: "103000509\n002109400\n000704000\n300502006\n060000050\n700803004\n000401000\n009205800\n804000107\n",
        solutions: 1,
        solution: Some(
            "143628579572139468986754231391542786468917352725863914237481695619275843854396127",
        ),
    },
    Fixture {
        name: "Easter Monster",
        puzzle: "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
        solutions: 1,
        solution: Some(
            "174385962293467158586192734451923876928674315367851249719548623635219487842736591",
        ),
    },
    Fixture {
        name: "Golden Nugget",
        puzzle: ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        solutions: 1,
        solution: Some(
            "751846239892371465643259871238197546974562318165438927319684752527913684486725193",
        ),
    },
    Fixture {
        name: "AI Escargot",
        puzzle: "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
        solutions: 1,
        solution: Some(
            "162857493534129678789643521475312986913586742628794135356478219241935867897261354",
        ),
    },
    Fixture {
        name: "Inkala 2012",
        puzzle: "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        solutions: 1,
        solution: Some(
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
        ),
    },
    Fixture {
        name: "consistent 9x9 with no solution (r1c9 has no candidate)",
        puzzle: "12345678.........9...............................................................",
        solutions: 0,
        solution: None,
    },
    Fixture {
        name: "9x9 with exactly two solutions (Golden Nugget's grid, thinned)",
        puzzle: ".5.8.6.39.9.3.14.5.4.25.8.1.3..9.5.6..4.6.3.81.5.3.92.3.9.84.5.5.79.3.8.4..7.5.9.",
        solutions: 2,
        solution: Some(
            "751846239298371465643259871832197546974562318165438927319684752527913684486725193",
        ),
    },
    Fixture {
        name: "empty 4x4 (288 grids)",
        puzzle: "................",
        solutions: 288,
        solution: Some("1234341221434321"),
    },
    Fixture {
        name: "4x4 unique",
        puzzle: "1...\n..3.\n.4..\n...2\n",
        solutions: 1,
        solution: None,
    },
    Fixture {
        name: "4x4 consistent, no solution",
        puzzle: "12..\n..3.\n....\n.3..\n",
        solutions: 0,
        solution: None,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fixture_parses_and_its_listed_solution_completes_it() {
        for f in FIXTURES {
            let puzzle = f.board();
            if let Some(solution) = f.solution_board() {
                assert_eq!(puzzle.check_solution(&solution), Ok(()), "{}", f.name);
            }
        }
    }
}

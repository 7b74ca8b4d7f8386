//! Backtracking difficulty: how many search nodes a puzzle costs `mrv` and
//! the row-major `used-tables`, and a tier from the `mrv` figure.
//!
//! "Hard for humans" is about which deductions a person needs; "hard for
//! naive search" is about where the row-major tree meets its contradictions.
//! The two `nodes` columns show the difference: a puzzle built against
//! row-major order costs `used-tables` millions of nodes and `mrv` a few
//! hundred, while famous human-hard puzzles are often mild for both.

use std::path::Path;

use serde::Serialize;

use crate::base::format::Puzzle;
use crate::base::search::{Budget, Limits};
use crate::base::strategy::{Outcome, Strategy};
use crate::io::dataset::{DatasetReader, Entry};
use crate::io::sample::Sample;
use crate::measure::exec::ordered;
use crate::measure::{Bug, count};

/// The strategies a rating runs: the tier comes from the first.
const RATERS: [Strategy; 2] = [Strategy::Mrv, Strategy::UsedTables];

/// A difficulty band for backtracking, from `mrv` nodes per blank cell
/// (`nodes / (blanks + 1)`; exactly 1 when every step had a single candidate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// At most 1.5 nodes per blank: hardly any guessing.
    Easy,
    /// At most 10.
    Medium,
    /// At most 100.
    Hard,
    /// More, or `mrv` ran out of budget.
    Extreme,
    /// The puzzle has no solution: there is nothing to rate.
    NoSolution,
}

impl Tier {
    /// Upper bounds (nodes per blank) of the tiers below `Extreme`.
    pub const BOUNDS: [(Tier, f64); 3] =
        [(Tier::Easy, 1.5), (Tier::Medium, 10.0), (Tier::Hard, 100.0)];

    pub fn of(mrv_nodes: u64, blanks: usize, outcome: Outcome) -> Tier {
        match outcome {
            Outcome::BudgetExceeded => return Tier::Extreme,
            Outcome::NoSolution => return Tier::NoSolution,
            _ => {}
        }
        let per_blank = mrv_nodes as f64 / (blanks + 1) as f64;
        Tier::BOUNDS
            .iter()
            .find(|&&(_, bound)| per_blank <= bound)
            .map_or(Tier::Extreme, |&(t, _)| t)
    }

    pub fn name(self) -> &'static str {
        match self {
            Tier::Easy => "easy",
            Tier::Medium => "medium",
            Tier::Hard => "hard",
            Tier::Extreme => "extreme",
            Tier::NoSolution => "no-solution",
        }
    }
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One puzzle's rating: a plain row for the table and CSV exporters.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// 1-based position in the input.
    pub index: usize,
    pub line: usize,
    pub name: String,
    pub size: String,
    pub clues: usize,
    pub mrv_nodes: u64,
    pub mrv_outcome: Outcome,
    pub used_tables_nodes: u64,
    pub used_tables_outcome: Outcome,
    pub tier: Tier,
}

/// Solves the puzzle with each of `RATERS` (counted and verified, within
/// `budget` nodes each) and rates it.
pub fn rate(index: usize, puzzle: &Puzzle, budget: Budget) -> Result<Rating, Bug> {
    let limits = Limits::solve(budget.get());
    let [mrv, used] = RATERS.map(|s| count(s, &puzzle.board, limits));
    let (mrv, used) = (mrv?, used?);
    let clues = puzzle.board.clues();
    let blanks = puzzle.board.size().cells() - clues;
    Ok(Rating {
        index,
        line: puzzle.line,
        name: puzzle.name.clone().unwrap_or_default(),
        size: puzzle.board.size().to_string(),
        clues,
        mrv_nodes: mrv.counts.nodes,
        mrv_outcome: mrv.outcome,
        used_tables_nodes: used.counts.nodes,
        used_tables_outcome: used.outcome,
        tier: Tier::of(mrv.counts.nodes, blanks, mrv.outcome),
    })
}

/// `rate`'s work: rates every puzzle of `file` (standard input when
/// `None`; a seeded `sample` of it when given) on `jobs` threads, handing
/// each rating to `each` in file order as soon as it and those before it
/// are ready. How many could not be rated: no solution, or `mrv` over the
/// budget (the tier is then a bound, not a measurement).
pub fn rate_file(
    file: Option<&Path>,
    sample: Option<Sample>,
    budget: Budget,
    jobs: usize,
    mut each: impl FnMut(Rating) -> anyhow::Result<()>,
) -> anyhow::Result<u64> {
    let reader = DatasetReader::open(file)?;
    let entries: Box<dyn Iterator<Item = anyhow::Result<(u64, Entry)>>> = match sample {
        Some(sample) => Box::new(sample.draw(reader)?.0.into_iter().map(Ok)),
        None => Box::new((0..).zip(reader).map(|(i, e)| Ok((i, e?)))),
    };
    let mut unrated = 0;
    let work = |(i, e): &(u64, Entry)| Ok(rate(*i as usize + 1, &e.puzzle, budget)?);
    ordered(entries, jobs, work, |r: Rating| {
        if r.mrv_outcome != Outcome::Solved {
            unrated += 1;
        }
        each(r)
    })?;
    Ok(unrated)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_follow_the_bounds() {
        assert_eq!(Tier::of(60, 59, Outcome::Solved), Tier::Easy);
        assert_eq!(Tier::of(91, 59, Outcome::Solved), Tier::Medium);
        assert_eq!(Tier::of(600, 59, Outcome::Solved), Tier::Medium);
        assert_eq!(Tier::of(6000, 59, Outcome::Solved), Tier::Hard);
        assert_eq!(Tier::of(6001, 59, Outcome::Solved), Tier::Extreme);
        assert_eq!(Tier::of(10, 59, Outcome::BudgetExceeded), Tier::Extreme);
        // Issue 30: a puzzle without solution was rated "easy".
        assert_eq!(Tier::of(1, 59, Outcome::NoSolution), Tier::NoSolution);
    }

    #[test]
    fn rates_a_puzzle() {
        let (_, p) = crate::base::format::parse_one(
            "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        )
        .unwrap();
        // Built against row-major search: used-tables runs out of budget
        // where mrv finishes.
        let r = rate(1, &p, Budget::nodes(100_000)).unwrap();
        assert_eq!(r.used_tables_outcome, Outcome::BudgetExceeded);
        assert_eq!(r.used_tables_nodes, 100_000);
        assert_eq!(r.mrv_outcome, Outcome::Solved);
        assert!(r.mrv_nodes < 100_000);
        assert_eq!((r.clues, r.tier), (17, Tier::Extreme));
    }
}

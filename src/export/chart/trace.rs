//! What the depth chart shows: nodes per depth of one or more searches of
//! the same puzzle, searches with the same tree on one line, and their
//! legend text. Drawn by the lab's one chart engine
//! ([`crate::export::chart::depth`]) as SVG and PNG.

use std::path::{Path, PathBuf};

use crate::analysis::trace::Trace;
use crate::base::strategy::Outcome;
use crate::base::strategy::Strategy;
use crate::export::chart::{self, Rendered};
use crate::export::present::thousands;

/// One search: its strategy, outcome and nodes per depth.
#[derive(Clone, Debug)]
pub struct Series {
    pub strategy: Strategy,
    pub outcome: Outcome,
    /// Nodes per depth, index = depth (see `Tracer::histogram`).
    pub histogram: Vec<u64>,
}

impl Series {
    /// A traced search's series.
    pub fn of(t: &Trace) -> Series {
        Series {
            strategy: t.strategy,
            outcome: t.outcome,
            histogram: t.tracer.histogram().to_vec(),
        }
    }

    /// Nodes in all (the `n` of the legend).
    pub fn nodes(&self) -> u64 {
        self.histogram.iter().sum()
    }

    fn label_as(&self, names: &str, note: &str) -> String {
        let end = match self.outcome {
            Outcome::Solved => "",
            Outcome::NoSolution => ", no solution",
            Outcome::BudgetExceeded => ", over budget",
            Outcome::Unsupported => ", not run",
            // Traces are of rungs; programs are never traced.
            Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput => {
                ", failed"
            }
        };
        format!("{names} (n = {} nodes{note}{end})", thousands(self.nodes()))
    }
}

/// Where `trace --chart` draws: SVG or PNG, by the file's extension.
#[derive(Clone, Debug)]
pub struct Target {
    path: PathBuf,
    png: bool,
}

impl Target {
    /// The file to draw into, refused (before any search runs) unless it
    /// ends in `.svg` or `.png`.
    pub fn of(path: &Path) -> anyhow::Result<Target> {
        let png = match path.extension().and_then(|e| e.to_str()) {
            Some("svg") => false,
            Some("png") => true,
            _ => anyhow::bail!(
                "--chart {}: give a file name ending in .svg or .png",
                path.display()
            ),
        };
        Ok(Target {
            path: path.to_path_buf(),
            png,
        })
    }

    /// Draws `series` under the title `puzzle` into the file; its path.
    pub fn write(&self, puzzle: &str, series: &[Series]) -> anyhow::Result<&Path> {
        let drawn = render(puzzle, series)?;
        let bytes = if self.png {
            drawn.png
        } else {
            drawn.svg.into_bytes()
        };
        crate::io::output::write_file(&self.path, &bytes)?;
        Ok(&self.path)
    }
}

/// Searches with the same nodes per depth and outcome, drawn as one line
/// (`naive = bitmask`: row-major rungs walk the same tree), in first-seen order.
pub fn groups(series: &[Series]) -> Vec<Vec<&Series>> {
    let mut out: Vec<Vec<&Series>> = Vec::new();
    for s in series {
        match out
            .iter_mut()
            .find(|g| g[0].histogram == s.histogram && g[0].outcome == s.outcome)
        {
            Some(g) => g.push(s),
            None => out.push(vec![s]),
        }
    }
    out
}

/// The legend entry of a group.
pub(crate) fn group_label(g: &[&Series]) -> String {
    let names: Vec<String> = g.iter().map(|s| s.strategy.to_string()).collect();
    let note = if g.len() > 1 {
        " each: the same tree"
    } else {
        ""
    };
    g[0].label_as(&names.join(" = "), note)
}

/// The chart: a title line naming the puzzle, one line per search.
pub(crate) struct DepthChart<'a> {
    pub puzzle: &'a str,
    pub series: &'a [Series],
}

/// Draws the chart as SVG and PNG.
pub fn render(puzzle: &str, series: &[Series]) -> anyhow::Result<Rendered> {
    chart::render(&chart::DEPTH, &DepthChart { puzzle, series })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_trees_share_a_line() {
        let s = |strategy, h: &[u64]| Series {
            strategy,
            outcome: Outcome::Solved,
            histogram: h.to_vec(),
        };
        let all = [
            s(Strategy::Naive, &[1, 2, 1]),
            s(Strategy::Mrv, &[1, 1]),
            s(Strategy::Bitmask, &[1, 2, 1]),
        ];
        let g = groups(&all);
        assert_eq!(g.len(), 2);
        assert_eq!(
            group_label(&g[0]),
            "naive = bitmask (n = 4 nodes each: the same tree)"
        );
        assert_eq!(group_label(&g[1]), "mrv (n = 2 nodes)");
    }

    #[test]
    fn draws_every_series_with_its_n_in_the_legend() {
        let series = [
            Series {
                strategy: Strategy::Naive,
                outcome: Outcome::Solved,
                histogram: vec![1, 2, 4, 9, 3],
            },
            Series {
                strategy: Strategy::Mrv,
                outcome: Outcome::BudgetExceeded,
                histogram: vec![1, 1, 1200],
            },
        ];
        let r = render("a puzzle", &series).expect("drawn");
        assert!(r.svg.starts_with("<svg"));
        assert!(r.svg.contains("naive (n = 19 nodes)"));
        assert!(r.svg.contains("mrv (n = 1,202 nodes, over budget)"));
        assert!(r.svg.contains("log scale"));
        assert_eq!(&r.png[1..4], b"PNG");
    }
}

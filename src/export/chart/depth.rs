//! The depth chart (`trace --chart`): nodes per depth of one or more
//! searches of the same puzzle, searches with the same tree on one line
//! (with their legend text), overlaid on a log scale (counts span decades:
//! one root, thousands of nodes at the widest depth).

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{
    Chart, DEPTH, DrawResult, FAINT, GRID, MUTED, Rendered, decade_label, decades, label_font,
    note_font, rung_color as color, tick_font, title_font,
};
use crate::analysis::trace::Trace;
use crate::base::strategy::{Outcome, Strategy};
use crate::export::present::{fmt_count, thousands};

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
struct DepthChart<'a> {
    puzzle: &'a str,
    series: &'a [Series],
}

/// Draws the chart as SVG and PNG.
pub fn render(puzzle: &str, series: &[Series]) -> anyhow::Result<Rendered> {
    super::render(&DEPTH, &DepthChart { puzzle, series })
}

impl Chart for DepthChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1000, 600)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let area = root.titled(DEPTH.title, title_font())?;
        let (w, _) = area.dim_in_pixel();
        area.draw(&Text::new(
            self.puzzle.to_string(),
            (w as i32 / 2, 2),
            note_font().pos(Pos::new(HPos::Center, VPos::Top)),
        ))?;
        let area = area.margin(22, 0, 0, 0);
        let deepest = self
            .series
            .iter()
            .map(|s| s.histogram.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
            .max(1);
        // One decade of headroom above the widest depth, for the legend.
        let y = decades(
            self.series
                .iter()
                .flat_map(|s| s.histogram.iter().map(|&n| n as f64 * 10.0)),
        );
        let y = 1f64.min(y.start)..y.end;
        let mut c = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(30)
            .x_label_area_size(50)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..deepest as f64, y.log_scale())?;
        c.configure_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .max_light_lines(1)
            .x_labels(deepest.min(20) + 1)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .y_label_formatter(&|v| decade_label(*v, fmt_count))
            .x_desc("depth (placements still on the path: placements minus undos)")
            .y_desc("search nodes at that depth (log scale)")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        for g in groups(self.series) {
            let s = g[0];
            let col = color(s.strategy);
            // Every depth up to the deepest has a node (the path to the
            // deepest node passes through it); zeros are skipped all the same.
            let pts: Vec<(f64, f64)> = s
                .histogram
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(d, &n)| (d as f64, n as f64))
                .collect();
            c.draw_series(LineSeries::new(pts.clone(), col.stroke_width(3)))?
                .label(group_label(&g))
                .legend(move |(x, y)| {
                    PathElement::new([(x - 8, y), (x + 8, y)], col.stroke_width(3))
                });
            c.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, col.filled())))?;
        }
        c.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.9))
            .border_style(MUTED)
            .label_font(tick_font())
            .draw()
    }
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

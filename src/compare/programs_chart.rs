//! The chart of outside programs among the rungs (`programs.svg`/`.png`):
//! per board size, one bar per rung and two per program (whole time, and
//! time beyond its start-up), each the median time per puzzle over the
//! puzzles every program of that size finished (programs that finished
//! none have no bar; sizes without such a puzzle are left out). Drawn only when a run had programs; the rows come
//! from `results.csv` and `programs.csv`.

use std::collections::HashSet;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::draw::{Draw, Rendered, color, fmt_time, render, size_name, subtitle};
use super::programs::{ProgramRow, Startup};
use super::run::Row;
use crate::Strategy;
use crate::chart::{FAINT, GRID, MUTED, decade_label, decades, label_font, tick_font, title_font};
use crate::strategy::Outcome;

/// File stem and title.
pub const STEM: &str = "programs";
pub const TITLE: &str = "Outside programs among the rungs: median time per puzzle";

/// One bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub label: String,
    /// Median time per puzzle (ns); 0 for "not above start-up".
    pub ns: f64,
    /// The rung's colour; `None` for a program's bars.
    pub strategy: Option<Strategy>,
    /// Puzzles the median is over.
    pub n: usize,
}

/// One board size.
#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    pub side: u32,
    /// Puzzles every program of this size finished.
    pub puzzles: usize,
    pub bars: Vec<Bar>,
}

fn finished(o: Outcome) -> bool {
    matches!(o, Outcome::Solved | Outcome::NoSolution)
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    crate::stats::Summary::of(&mut v).map(|s| s.median)
}

/// The panels: per size, the puzzles every program finished, and the
/// median time of each rung and program on them.
pub fn panels(results: &[Row], rows: &[ProgramRow], startups: &[Startup]) -> Vec<Panel> {
    let mut sides: Vec<u32> = rows.iter().map(|r| r.size).collect();
    sides.sort_unstable();
    sides.dedup();
    let mut out = Vec::new();
    for side in sides {
        let mine: Vec<&ProgramRow> = rows.iter().filter(|r| r.size == side).collect();
        let mut programs: Vec<&str> = Vec::new();
        // Programs that finished no puzzle of this size have no bar.
        for r in mine.iter().filter(|r| finished(r.outcome)) {
            if !programs.contains(&r.program.as_str()) {
                programs.push(r.program.as_str());
            }
        }
        let mut puzzles: Vec<(&str, u64)> =
            mine.iter().map(|r| (r.dataset.as_str(), r.index)).collect();
        puzzles.sort_unstable();
        puzzles.dedup();
        let common: HashSet<(&str, u64)> = puzzles
            .into_iter()
            .filter(|&(d, i)| {
                programs.iter().all(|p| {
                    mine.iter().any(|r| {
                        r.program.as_str() == *p
                            && (r.dataset.as_str(), r.index) == (d, i)
                            && finished(r.outcome)
                    })
                })
            })
            .collect();
        if common.is_empty() {
            continue; // no puzzle of this size that every program finished
        }
        let mut bars = Vec::new();
        let mut strategies: Vec<Strategy> = results.iter().map(|r| r.strategy).collect();
        strategies.sort();
        strategies.dedup();
        for s in strategies {
            let times: Vec<f64> = results
                .iter()
                .filter(|r| r.strategy == s && common.contains(&(r.dataset.as_str(), r.index)))
                .filter(|r| finished(r.outcome))
                .filter_map(|r| r.timing.map(|t| t.ns()))
                .collect();
            let n = times.len();
            if let Some(ns) = median(times) {
                bars.push(Bar {
                    label: s.name().to_string(),
                    ns,
                    strategy: Some(s),
                    n,
                });
            }
        }
        for p in &programs {
            let times: Vec<f64> = mine
                .iter()
                .filter(|r| {
                    r.program.as_str() == *p && common.contains(&(r.dataset.as_str(), r.index))
                })
                .filter_map(|r| r.time_ns.map(|t| t as f64))
                .collect();
            let n = times.len();
            let startup = startups
                .iter()
                .find(|s| s.program.as_str() == *p && s.side == side)
                .map(|s| s.ns);
            if let Some(startup) = startup {
                let beyond: Vec<f64> = times.iter().map(|t| (t - startup).max(0.0)).collect();
                if let Some(ns) = median(beyond) {
                    bars.push(Bar {
                        label: format!("{p} beyond start-up"),
                        ns,
                        strategy: None,
                        n,
                    });
                }
            }
            if let Some(ns) = median(times) {
                bars.push(Bar {
                    label: format!("{p} (whole)"),
                    ns,
                    strategy: None,
                    n,
                });
            }
        }
        out.push(Panel {
            side,
            puzzles: common.len(),
            bars,
        });
    }
    out
}

struct ProgramsChart<'a>(&'a [Panel]);

impl ProgramsChart<'_> {
    const ROW: u32 = 24;
    fn rows(&self) -> usize {
        self.0
            .iter()
            .map(|p| p.bars.len() + 1)
            .sum::<usize>()
            .max(1)
    }
}

/// A program's bars: dark grey.
const PROGRAM: RGBColor = RGBColor(0x44, 0x44, 0x44);

impl Draw for ProgramsChart<'_> {
    fn size(&self) -> (u32, u32) {
        (1100, 200 + self.rows() as u32 * Self::ROW)
    }

    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
        root.fill(&WHITE)?;
        let area = root.titled(TITLE, title_font())?;
        let area = subtitle(
            &area,
            "rungs: per-thread CPU time of the search; programs: the process's CPU time (whole), \
             and that time minus the program's start-up; medians over the puzzles every program finished",
        )?;
        let rows = self.rows();
        let x = decades(self.0.iter().flat_map(|p| p.bars.iter().map(|b| b.ns)));
        let labels: Vec<String> = self
            .0
            .iter()
            .flat_map(|p| p.bars.iter().map(|b| b.label.clone()))
            .collect();
        let name_width = labels
            .iter()
            .map(|l| root.estimate_text_size(l, &tick_font()).map(|(w, _)| w))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .max()
            .unwrap_or(60);
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(90)
            .x_label_area_size(56)
            .y_label_area_size(name_width + 24)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..rows as f64)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(FAINT)
            .bold_line_style(GRID)
            .y_labels(0)
            .y_label_formatter(&|_| String::new())
            .x_label_formatter(&|v| decade_label(*v, fmt_time))
            .x_desc("median time per puzzle, log scale")
            .label_style(tick_font())
            .axis_desc_style(label_font())
            .draw()?;
        // Row k (from the top) is the band [rows-1-k, rows-k].
        let mut k = 0usize;
        for p in self.0 {
            let top = (rows - k) as f64;
            let (px, py) = chart.backend_coord(&(x.start, top - 0.5));
            root.draw(&Text::new(
                format!("{} · {} puzzles", size_name(p.side), p.puzzles),
                (px - name_width as i32 - 20, py),
                label_font().pos(Pos::new(HPos::Left, VPos::Center)),
            ))?;
            k += 1;
            for b in &p.bars {
                let y = (rows - k) as f64;
                let c = b.strategy.map_or(PROGRAM, color);
                let end = b.ns.max(x.start);
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x.start, y - 0.8), (end, y - 0.2)],
                    c.filled(),
                )))?;
                let (lx, ly) = chart.backend_coord(&(x.start, y - 0.5));
                root.draw(&Text::new(
                    b.label.clone(),
                    (lx - 8, ly),
                    tick_font().pos(Pos::new(HPos::Right, VPos::Center)),
                ))?;
                let (vx, vy) = chart.backend_coord(&(end, y - 0.5));
                let value = if b.ns > 0.0 {
                    format!("{} (n={})", fmt_time(b.ns), b.n)
                } else {
                    "not above start-up".to_string()
                };
                root.draw(&Text::new(
                    value,
                    (vx + 6, vy),
                    (super::draw::FONT, 12)
                        .into_font()
                        .color(&MUTED)
                        .pos(Pos::new(HPos::Left, VPos::Center)),
                ))?;
                k += 1;
            }
        }
        Ok(())
    }
}

/// The chart, as SVG and PNG.
pub fn render_chart(panels: &[Panel]) -> anyhow::Result<Rendered> {
    render(STEM, TITLE, &ProgramsChart(panels))
}

//! The time-by-dataset chart (`time-by-dataset.svg`/`.png`): per dataset,
//! one row per strategy: the median solve time (its 95% interval as a black
//! whisker) over the 10th to 90th percentile bar, on a log axis.

use plotters::coord::Shift;
use plotters::coord::combinators::LogCoord;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::export::chart::parts::{
    WHISKER, legend_row, strategy_items, subtitle, text_at, whiskers, widest,
};
use super::{
    Chart, DrawResult, FONT, GRID, MUTED, TIME_BY_DATASET, decades,
    rung_color as color, tick_font, title_font,
};
use crate::base::strategy::Strategy;
use crate::analysis::charts::ChartData;
use crate::export::present::{budget_phrase, fmt_time, size_name};
use crate::measure::stats::Interval;

/// The chart of a report's data.
pub fn new(d: &ChartData) -> Option<impl Chart + '_> {
    Some(TimeChart(d))
}

/// The plot: time on a log x axis, dataset bands on y.
type Plot<'a, DB> = ChartContext<'a, DB, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;

/// Where rows sit: dataset `di` is the band [nd-1-di, nd-di] (the first
/// dataset on top), each strategy a row inside it.
struct Rows<'a> {
    d: &'a ChartData,
    nd: usize,
    ns: usize,
}

impl Rows<'_> {
    fn y(&self, di: usize, s: Strategy) -> f64 {
        let k = self.d.strategies.iter().position(|&x| x == s).unwrap_or(0);
        (self.nd - di) as f64 - 0.1 - 0.8 * (k as f64 + 0.5) / self.ns as f64
    }
}

struct TimeChart<'a>(&'a ChartData);

impl TimeChart<'_> {
    /// Pixels per strategy row inside a dataset band.
    const ROW: u32 = 11;
}

impl Chart for TimeChart<'_> {
    fn size(&self) -> (u32, u32) {
        let band = self.0.strategies.len().max(1) as u32 * Self::ROW + 16;
        (1200, (210 + self.0.datasets.len() as u32 * band).max(560))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        let d = self.0;
        let area = root.titled(TIME_BY_DATASET.title, title_font())?;
        let area = subtitle(
            &area,
            &format!(
                "per-thread CPU time; dot = median, black whisker = its 95% interval, coloured bar = 10th to 90th percentile; hollow dot = some runs stopped at {} (times are lower bounds)",
                budget_phrase(d.budget)
            ),
        )?;
        let area = legend_row(&area, &strategy_items(&d.strategies))?;
        let nd = d.datasets.len().max(1);
        let ns = d.strategies.len().max(1);
        let labels: Vec<String> = (0..d.datasets.len()).map(|i| dataset_label(d, i)).collect();
        let name_width = widest(root, &labels)?;
        let x = time_range(d);
        let mut chart = ChartBuilder::on(&area)
            .margin(16)
            .margin_right(36)
            .x_label_area_size(56)
            .y_label_area_size(name_width + 24)
            .build_cartesian_2d(x.clone().log_scale(), 0f64..nd as f64)?;
        super::parts::row_mesh(&mut chart, "time per solve (per-thread CPU time), log scale", fmt_time, super::label_font())?;
        let rows = Rows { d, nd, ns };
        for (di, label) in labels.into_iter().enumerate() {
            let mid = (nd - di) as f64 - 0.5;
            let (px, py) = chart.backend_coord(&(x.start, mid));
            root.draw(&Text::new(
                label,
                (px - 10, py),
                tick_font().pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            if di > 0 {
                let y = (nd - di) as f64;
                chart.draw_series(LineSeries::new(
                    [(x.start, y), (x.end, y)],
                    GRID.stroke_width(1),
                ))?;
            }
        }
        not_run(&area, &chart, &rows, x.start)?;
        for &s in &d.strategies {
            spreads(&mut chart, &rows, s)?;
        }
        Ok(())
    }
}

/// A dataset's label: `name · 9×9`.
fn dataset_label(d: &ChartData, i: usize) -> String {
    let info = &d.datasets[i];
    match info.side {
        Some(s) => format!("{} · {}", info.name, size_name(s)),
        None => info.name.clone(),
    }
}

/// The time axis: every percentile bar and interval, in whole decades.
fn time_range(d: &ChartData) -> std::ops::Range<f64> {
    decades(d.time.iter().flat_map(|t| {
        let i = t.median_interval;
        [
            t.p10,
            t.p90,
            i.map_or(t.p10, |i| i.low),
            i.map_or(t.p90, |i| i.high),
        ]
    }))
}

/// "does not run" notes where a strategy has rows of a dataset but ran none.
fn not_run<'a, DB: DrawingBackend + 'a>(
    area: &DrawingArea<DB, Shift>,
    chart: &Plot<'a, DB>,
    rows: &Rows<'_>,
    x_start: f64,
) -> DrawResult<DB> {
    let d = rows.d;
    for &(di, s) in &d.not_run {
        let (px, py) = chart.backend_coord(&(x_start, rows.y(di, s)));
        let what = match d.datasets[di].side {
            Some(side) => format!("{}: does not run {}", s.name(), size_name(side)),
            None => format!("{}: does not run this size", s.name()),
        };
        text_at(
            area,
            what,
            (px + 6, py),
            (FONT, 11).into_font().color(&MUTED),
            Pos::new(HPos::Left, VPos::Center),
        )?;
    }
    Ok(())
}

/// One strategy's rows: percentile bars, median dots (hollow where runs
/// stopped) and the medians' interval whiskers over the dots.
fn spreads<'a, DB: DrawingBackend + 'a>(chart: &mut Plot<'a, DB>, rows: &Rows<'_>, s: Strategy) -> DrawResult<DB> {
    let d = rows.d;
    let c = color(s);
    let spreads: Vec<_> = d.time.iter().filter(|t| t.strategy == s).collect();
    chart.draw_series(spreads.iter().map(|t| {
        ErrorBar::new_horizontal(
            rows.y(t.dataset, s),
            t.p10,
            t.median,
            t.p90,
            c.stroke_width(2),
            6,
        )
    }))?;
    chart.draw_series(spreads.iter().map(|t| {
        let style = if t.stopped > 0 {
            WHITE.filled()
        } else {
            c.filled()
        };
        Circle::new((t.median, rows.y(t.dataset, s)), 4, style)
    }))?;
    chart.draw_series(
        spreads
            .iter()
            .filter(|t| t.stopped > 0)
            .map(|t| Circle::new((t.median, rows.y(t.dataset, s)), 4, c.stroke_width(2))),
    )?;
    // Over the dot: an interval narrower than the dot stays inside it.
    let cis: Vec<(f64, Interval)> = spreads
        .iter()
        .filter_map(|t| t.median_interval.map(|i| (rows.y(t.dataset, s), i)))
        .collect();
    whiskers(chart, &cis, true, 4, WHISKER.stroke_width(1))?;
    Ok(())
}

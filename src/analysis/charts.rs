//! Chart data: what each of the report's charts shows, computed from an
//! [`Aggregate`] and nothing else. Drawing lives in [`crate::export::chart`], one
//! file per chart.
//!
//! Nothing here pools board sizes where a size would change the reading:
//! node distributions and ladders come per size, the growth chart compares
//! sizes on puzzles with the same share of cells given (`FILL_BAND`).

use std::collections::BTreeMap;

use crate::analysis::ladder::{FullLadder, Ladder};
use crate::analysis::summary::{Aggregate, Kind, Sample};
use crate::base::strategy::Strategy;
use crate::measure::stats::{Interval, median_interval, quantile_sorted_u64};

/// Most points per strategy and board size in the scatter chart (an even
/// stride through the runs, so the picture is deterministic and the SVG
/// stays small).
const SCATTER_MAX: usize = 1500;
/// Most points per CDF curve.
const CDF_MAX: usize = 400;

/// The growth chart compares board sizes on the puzzles whose share of
/// given cells lies in this band (inclusive): 36-46 clues of 81, 113-145 of
/// 256, 275-356 of 625, 8-9 of 16. The shipped sets have puzzles there for
/// every size (25×25: 315-320 clues, where `propagate` and `dlx` guess).
pub(crate) const FILL_BAND: (f64, f64) = (0.44, 0.57);

/// Width of the fill bins of the growth chart's lower panels, in percent of
/// the cells.
pub(crate) const FILL_BIN_PERCENT: u32 = 5;

/// A dataset as the charts label it.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetInfo {
    pub name: String,
    /// Board side of its puzzles (the most common one), if any ran.
    pub side: Option<u32>,
}

/// Chart 1: spread of solve time for one dataset × strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeSpread {
    pub dataset: usize,
    pub strategy: Strategy,
    pub p10: f64,
    pub median: f64,
    pub p90: f64,
    /// 95% interval of the median, bootstrapped over the runs (the
    /// interval of `summary.csv`'s `time_median_low_ns`/`_high_ns`); `None`
    /// for a single run.
    pub median_interval: Option<Interval>,
    /// Runs that hit a limit (their times are lower bounds).
    pub stopped: u64,
}

/// Chart 2: one curve: share of a size's puzzles finished within N nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    /// The strategies with exactly this curve (rungs that keep the same
    /// search order visit identical trees), in ladder order.
    pub strategies: Vec<Strategy>,
    /// (nodes, share of measured runs finished within that many nodes), rising.
    pub points: Vec<(f64, f64)>,
    pub measured: u64,
    pub solved: u64,
    /// Finished by proving there is no solution.
    pub no_solution: u64,
    /// (nodes, share) where each such proof sits on the curve, so the chart
    /// can mark them as proofs, not solves.
    pub proofs: Vec<(f64, f64)>,
    /// Stopped at a limit: the curve ends below 100% by these.
    pub stopped: u64,
    /// An earlier curve of the panel that this one never leaves by more
    /// than `NEAR_GAP` (the strategy first named on it, and the largest
    /// gap between the two, as a share of the puzzles): drawn on top, this
    /// curve would hide it, so the chart dashes this one and says so.
    pub near: Option<(Strategy, f64)>,
}

/// Two node-distribution curves closer than this everywhere (a share of
/// the puzzles: 2 points, about 7 pixels of the plot) read as one line.
const NEAR_GAP: f64 = 0.02;

/// Chart 2: the curves of one board size.
#[derive(Clone, Debug, PartialEq)]
pub struct CdfPanel {
    pub side: u32,
    pub curves: Vec<Cdf>,
    /// Strategies that have rows of this size but ran none of them.
    pub not_run: Vec<Strategy>,
}

/// Chart 3: the runs of one strategy at one board size, one point per run
/// (or an even subsample): sizes are kept apart so the chart can mark each
/// with its own shape (a 25×25 node costs far more than a 4×4 one).
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    pub strategy: Strategy,
    /// Board side of these runs.
    pub side: u32,
    /// (nodes, nanoseconds, stopped at a limit).
    pub points: Vec<(f64, f64, bool)>,
    pub total: usize,
}

/// Chart 5, upper panels: one strategy at one size, over the puzzles of
/// `FILL_BAND`.
#[derive(Clone, Debug, PartialEq)]
pub struct SizePoint {
    pub strategy: Strategy,
    pub side: u32,
    pub median_nanos: f64,
    /// 95% interval of `median_nanos`, bootstrapped over the runs.
    pub nanos_interval: Option<Interval>,
    pub median_nodes: f64,
    pub runs: u64,
    /// Runs that hit a limit (the medians may be lower bounds).
    pub stopped: u64,
}

/// Chart 5, lower panels: one strategy in one fill bin of one size.
#[derive(Clone, Debug, PartialEq)]
pub struct FillPoint {
    pub strategy: Strategy,
    /// Bin index: cells given in `[bin, bin + 1) × FILL_BIN_PERCENT` percent.
    pub bin: u32,
    pub median_nanos: f64,
    /// 95% interval of `median_nanos`, bootstrapped over the runs.
    pub nanos_interval: Option<Interval>,
    pub runs: u64,
    pub stopped: u64,
}

/// Chart 5, one lower panel: median time by share of cells given, one size.
#[derive(Clone, Debug, PartialEq)]
pub struct FillPanel {
    pub side: u32,
    /// (bin, puzzles in it).
    pub bins: Vec<(u32, u64)>,
    pub points: Vec<FillPoint>,
}

/// Everything the growth chart draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Growth {
    /// Puzzles in `FILL_BAND` per side: (side, puzzles).
    pub band: Vec<(u32, u64)>,
    pub by_size: Vec<SizePoint>,
    pub by_fill: Vec<FillPanel>,
    /// Puzzles left out of the growth chart: no strategy solved them and
    /// one proved there is no solution.
    pub no_solution: u64,
}

/// Everything the report's charts draw.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartData {
    pub datasets: Vec<DatasetInfo>,
    pub strategies: Vec<Strategy>,
    pub time: Vec<TimeSpread>,
    /// (dataset, strategy) pairs with rows where nothing ran.
    pub not_run: Vec<(usize, Strategy)>,
    pub cdf: Vec<CdfPanel>,
    pub scatter: Vec<Scatter>,
    /// One ladder per board size, smallest first.
    pub ladders: Vec<Ladder>,
    pub growth: Growth,
    /// The full-set ladder of each board size that has one (cut-off runs
    /// entering with their estimates), in report order.
    pub full: Vec<FullLadder>,
    /// The node budget, where the rows tell it.
    pub budget: Option<u64>,
}

fn sorted(values: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut v: Vec<u64> = values.collect();
    v.sort_unstable();
    v
}

/// The median of values (sorted in place); `None` for none.
fn median(v: &mut [u64]) -> Option<f64> {
    v.sort_unstable();
    (!v.is_empty()).then(|| quantile_sorted_u64(v, 0.5))
}

/// The lab's 95% interval of the median of times (ns), as `summary.csv`
/// computes it ([`median_interval`], over the runs in the order given: the
/// bootstrap draws by position).
fn median_ci(times: impl Iterator<Item = u64>) -> Option<Interval> {
    let times: Vec<f64> = times.map(|t| t as f64).collect();
    median_interval(&times)
}

/// The fill bin of a sample (see [`FillPoint::bin`]).
fn fill_bin(x: &Sample) -> u32 {
    let percent = x.fill() * 100.0;
    ((percent / f64::from(FILL_BIN_PERCENT)).floor() as u32).min(100 / FILL_BIN_PERCENT - 1)
}

/// Whether a sample's puzzle lies in `FILL_BAND`.
pub fn in_band(x: &Sample) -> bool {
    let f = x.fill();
    // A hair of tolerance: 350/625 is 0.56 exactly, but not in binary.
    f >= FILL_BAND.0 - 1e-9 && f <= FILL_BAND.1 + 1e-9
}

/// The budget, as far as the rows tell: a run stopped by the node budget
/// stops at exactly the budget, so the largest such node count is the budget.
fn budget_seen(agg: &Aggregate) -> Option<u64> {
    agg.groups
        .values()
        .flat_map(|g| g.samples.iter().filter(|s| s.stopped()).map(|s| s.nodes))
        .max()
}

/// Which puzzles (by number) have a solution, as far as the runs tell:
/// some strategy solved them. One byte per puzzle.
fn solvable(agg: &Aggregate) -> Vec<bool> {
    let n = agg
        .groups
        .values()
        .filter_map(|g| g.samples.last().map(|s| s.puzzle as usize + 1))
        .max()
        .unwrap_or(0);
    let mut v = vec![false; n];
    for g in agg.groups.values() {
        for s in g.samples.iter().filter(|s| s.solved()) {
            v[s.puzzle as usize] = true;
        }
    }
    v
}

impl ChartData {
    pub fn new(agg: &Aggregate) -> ChartData {
        let strategies = agg.strategies();
        let datasets = dataset_infos(agg);
        let mut time = Vec::new();
        let mut not_run = Vec::new();
        for (&(d, s), g) in &agg.groups {
            if g.count_kind(Kind::NotRun) > 0 && g.samples.is_empty() {
                not_run.push((d, s));
            }
            if g.samples.is_empty() {
                continue;
            }
            let v = sorted(g.samples.iter().map(|x| x.nanos));
            time.push(TimeSpread {
                dataset: d,
                strategy: s,
                p10: quantile_sorted_u64(&v, 0.1),
                median: quantile_sorted_u64(&v, 0.5),
                p90: quantile_sorted_u64(&v, 0.9),
                median_interval: median_ci(g.samples.iter().map(|x| x.nanos)),
                stopped: g.count_kind(Kind::Stopped),
            });
        }
        let cdf = agg
            .sides()
            .into_iter()
            .map(|side| cdf_panel(agg, &strategies, side))
            .collect();

        let scatter = scatter(agg, &strategies);
        ChartData {
            datasets,
            time,
            not_run,
            cdf,
            scatter,
            ladders: agg.ladders(),
            full: full_ladders(agg),
            growth: growth(agg, &strategies),
            budget: budget_seen(agg),
            strategies,
        }
    }
}

/// Each dataset's name and most common board side.
fn dataset_infos(agg: &Aggregate) -> Vec<DatasetInfo> {
    (0..agg.datasets.len())
        .map(|d| {
            let mut sides: BTreeMap<u32, u64> = BTreeMap::new();
            for ((gd, _), g) in &agg.groups {
                if *gd == d {
                    for s in &g.samples {
                        *sides.entry(u32::from(s.side)).or_default() += 1;
                    }
                }
            }
            DatasetInfo {
                name: agg.datasets[d].clone(),
                side: sides
                    .iter()
                    .max_by_key(|&(&side, &n)| (n, std::cmp::Reverse(side)))
                    .map(|(&side, _)| side),
            }
        })
        .collect()
}
/// The scatter chart's series: per strategy and size, an even stride
/// through the runs.
fn scatter(agg: &Aggregate, strategies: &[Strategy]) -> Vec<Scatter> {
    let mut scatter = Vec::new();
    for &s in strategies {
        for side in agg.sides() {
            let runs = || agg.runs(s, side);
            let total = runs().count();
            if total == 0 {
                continue;
            }
            let stride = total.div_ceil(SCATTER_MAX).max(1);
            scatter.push(Scatter {
                strategy: s,
                side,
                points: runs()
                    .step_by(stride)
                    .map(|x| (x.nodes as f64, x.nanos as f64, x.stopped()))
                    .collect(),
                total,
            });
        }
    }
    scatter
}

/// The ladders in the report's order: 9×9 first (the headline), then the
/// other sizes from the smallest.
pub(crate) fn report_order(ladders: &[Ladder]) -> Vec<&Ladder> {
    let mut v: Vec<&Ladder> = ladders.iter().collect();
    v.sort_by_key(|l| (l.side != 9, l.side));
    v
}

/// The full-set ladders of the sizes that have one, in the report's order
/// of sizes (9×9 first).
fn full_ladders(agg: &Aggregate) -> Vec<FullLadder> {
    let mut sides = agg.sides();
    sides.sort_by_key(|&s| (s != 9, s));
    sides
        .into_iter()
        .filter_map(|s| agg.full_ladder(s))
        .collect()
}

/// The node-distribution curves of one size, one strategy at a time (the
/// copies never cover more than one strategy's runs).
fn cdf_panel(agg: &Aggregate, strategies: &[Strategy], side: u32) -> CdfPanel {
    let mut curves: Vec<Cdf> = Vec::new();
    let mut not_run = Vec::new();
    for &s in strategies {
        let runs = || agg.runs(s, side);
        let measured = runs().count();
        if measured == 0 {
            if agg.outcomes(side, s).iter().sum::<u64>() > 0 {
                not_run.push(s);
            }
            continue;
        }
        let finished = sorted(runs().filter(|x| x.kind().finished()).map(|x| x.nodes));
        let step = finished.len().div_ceil(CDF_MAX).max(1);
        let mut points: Vec<(f64, f64)> = Vec::new();
        let mut taken = 0;
        for (i, &n) in finished.iter().enumerate() {
            // The last run at each node count (the top of its step), at
            // most one point per `step` runs, and always the last.
            let last = i + 1 == finished.len();
            let next_differs = finished.get(i + 1) != Some(&n);
            if next_differs && (i + 1 - taken >= step || last) {
                points.push((n as f64, (i + 1) as f64 / measured as f64));
                taken = i + 1;
            }
        }
        let proofs = runs()
            .filter(|x| x.kind() == Kind::NoSolution)
            .map(|x| {
                let within = finished.partition_point(|&n| n <= x.nodes);
                (x.nodes as f64, within as f64 / measured as f64)
            })
            .collect();
        let curve = Cdf {
            strategies: vec![s],
            points,
            proofs,
            measured: measured as u64,
            solved: runs().filter(|x| x.solved()).count() as u64,
            no_solution: runs().filter(|x| x.kind() == Kind::NoSolution).count() as u64,
            stopped: runs().filter(|x| x.stopped()).count() as u64,
            near: None,
        };
        match curves.iter_mut().find(|c| {
            c.points == curve.points
                && (c.measured, c.solved, c.no_solution)
                    == (curve.measured, curve.solved, curve.no_solution)
        }) {
            Some(c) => c.strategies.push(s),
            None => curves.push(curve),
        }
    }
    for k in 1..curves.len() {
        curves[k].near = curves[..k]
            .iter()
            .map(|c| (c.strategies[0], gap(&c.points, &curves[k].points)))
            .filter(|&(_, g)| g <= NEAR_GAP)
            .min_by(|a, b| a.1.total_cmp(&b.1));
    }
    CdfPanel {
        side,
        curves,
        not_run,
    }
}

/// The largest vertical gap between two step curves of (nodes, share)
/// points (each flat at its last share until its next point, 0 before its
/// first): the Kolmogorov-Smirnov distance of the two distributions.
pub fn gap(a: &[(f64, f64)], b: &[(f64, f64)]) -> f64 {
    let level = |c: &[(f64, f64)], x: f64| {
        let k = c.partition_point(|p| p.0 <= x);
        if k == 0 { 0.0 } else { c[k - 1].1 }
    };
    a.iter()
        .chain(b)
        .map(|&(x, _)| (level(a, x) - level(b, x)).abs())
        .fold(0.0, f64::max)
}

/// Chart 1: one rung row of a ladder panel: its three ratios against the
/// ladder's base, each with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LadderBars {
    pub strategy: Strategy,
    /// Fewer nodes, cheaper nodes, speed-up (in the chart's bar order):
    /// each a ratio and its interval, bootstrapped over the puzzles of the
    /// ladder set (`None` below two puzzles).
    pub bars: [(f64, Option<Interval>); 3],
}

/// The bars of every rung of a ladder after its base, in ladder order.
pub(crate) fn ladder_bars(l: &Ladder) -> Vec<LadderBars> {
    l.steps()
        .into_iter()
        .map(|(rung, r, _)| {
            let i = r.intervals;
            LadderBars {
                strategy: rung.strategy,
                bars: [
                    (r.nodes, i.map(|i| i.nodes)),
                    (r.cost, i.map(|i| i.cost)),
                    (r.speedup, i.map(|i| i.speedup)),
                ],
            }
        })
        .collect()
}

/// Growth data: medians per strategy and size over [`FILL_BAND`], and per
/// strategy, size and fill bin; puzzles without a solution left out.
/// Values are bucketed one strategy at a time.
fn growth(agg: &Aggregate, strategies: &[Strategy]) -> Growth {
    let has_solution = solvable(agg);
    let keep = |x: &Sample| has_solution.get(x.puzzle as usize) == Some(&true);
    let mut out = Growth::default();
    // Puzzles per side in the band and per bin: counted once each, from
    // whichever strategy ran them.
    let mut band: BTreeMap<u32, Vec<bool>> = BTreeMap::new();
    let mut bins: BTreeMap<(u32, u32), Vec<bool>> = BTreeMap::new();
    let mut no_solution = vec![false; has_solution.len()];
    for g in agg.groups.values() {
        for x in &g.samples {
            let p = x.puzzle as usize;
            if !keep(x) {
                no_solution[p] |= x.kind() == Kind::NoSolution;
                continue;
            }
            let side = u32::from(x.side);
            if in_band(x) {
                mark(band.entry(side).or_default(), p);
            }
            mark(bins.entry((side, fill_bin(x))).or_default(), p);
        }
    }
    out.no_solution = no_solution.iter().filter(|&&b| b).count() as u64;
    out.band = band
        .into_iter()
        .map(|(side, v)| (side, v.iter().filter(|&&b| b).count() as u64))
        .collect();
    let mut panels: BTreeMap<u32, FillPanel> = BTreeMap::new();
    for ((side, bin), v) in bins {
        panels
            .entry(side)
            .or_insert_with(|| FillPanel {
                side,
                bins: Vec::new(),
                points: Vec::new(),
            })
            .bins
            .push((bin, v.iter().filter(|&&b| b).count() as u64));
    }
    for &s in strategies {
        strategy_points(agg, s, &keep, &mut out, &mut panels);
    }
    out.by_fill = panels.into_values().collect();
    out
}

/// One strategy's growth points: its medians per size over the band, and
/// per size and fill bin (into the bins' panels).
fn strategy_points(
    agg: &Aggregate,
    s: Strategy,
    keep: &impl Fn(&Sample) -> bool,
    out: &mut Growth,
    panels: &mut BTreeMap<u32, FillPanel>,
) {
    // (side) → (nanos, nodes, stopped) in the band; (side, bin) → (nanos, stopped).
    let mut by_size: BTreeMap<u32, (Vec<u64>, Vec<u64>, u64)> = BTreeMap::new();
    let mut by_bin: BTreeMap<(u32, u32), (Vec<u64>, u64)> = BTreeMap::new();
    for (_, g) in agg.groups.iter().filter(|&(&(_, gs), _)| gs == s) {
        for x in g.samples.iter().filter(|x| keep(x)) {
            let side = u32::from(x.side);
            if in_band(x) {
                let e = by_size.entry(side).or_default();
                e.0.push(x.nanos);
                e.1.push(x.nodes);
                e.2 += u64::from(x.stopped());
            }
            let e = by_bin.entry((side, fill_bin(x))).or_default();
            e.0.push(x.nanos);
            e.1 += u64::from(x.stopped());
        }
    }
    for (side, (mut nanos, mut nodes, stopped)) in by_size {
        let nanos_interval = median_ci(nanos.iter().copied());
        out.by_size.push(SizePoint {
            strategy: s,
            side,
            runs: nanos.len() as u64,
            median_nanos: median(&mut nanos).unwrap_or_default(),
            nanos_interval,
            median_nodes: median(&mut nodes).unwrap_or_default(),
            stopped,
        });
    }
    for ((side, bin), (mut nanos, stopped)) in by_bin {
        if let Some(panel) = panels.get_mut(&side) {
            let nanos_interval = median_ci(nanos.iter().copied());
            panel.points.push(FillPoint {
                strategy: s,
                bin,
                runs: nanos.len() as u64,
                median_nanos: median(&mut nanos).unwrap_or_default(),
                nanos_interval,
                stopped,
            });
        }
    }
}

/// Marks puzzle `p` in a growable bit list.
fn mark(v: &mut Vec<bool>, p: usize) {
    if v.len() <= p {
        v.resize(p + 1, false);
    }
    v[p] = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::summary::solved_row;
    use crate::measure::results::Row;

    fn row(index: u64, size: u32, clues: u32, strategy: Strategy, nodes: u64) -> Row {
        let mut r = solved_row("d", index, size, strategy, nodes, nodes * 10);
        r.puzzle.clues = clues;
        r
    }

    /// Size points cover the fill band only, per strategy then side, with
    /// exact medians; fill bins count each puzzle once.
    #[test]
    fn growth_compares_sizes_inside_the_band() {
        let (a, b) = (Strategy::ALL[0], Strategy::ALL[3]);
        let mut agg = Aggregate::default();
        // 9x9: 40 clues (49%, in band) ×3, 25 clues (31%, out); 4x4: 8 clues (50%) ×2.
        for (i, size, clues, nodes) in [
            (1, 9, 40, 30),
            (2, 9, 40, 10),
            (3, 9, 40, 20),
            (4, 9, 25, 9000),
            (5, 4, 8, 4),
            (6, 4, 8, 6),
        ] {
            agg.push(&row(i, size, clues, b, 2 * nodes));
            agg.push(&row(i, size, clues, a, nodes));
        }
        let data = ChartData::new(&agg);
        let got: Vec<(Strategy, u32, f64, f64, u64)> = data
            .growth
            .by_size
            .iter()
            .map(|p| (p.strategy, p.side, p.median_nodes, p.median_nanos, p.runs))
            .collect();
        assert_eq!(
            got,
            vec![
                (a, 4, 5.0, 50.0, 2),
                (a, 9, 20.0, 200.0, 3),
                (b, 4, 10.0, 100.0, 2),
                (b, 9, 40.0, 400.0, 3),
            ]
        );
        assert_eq!(data.growth.band, vec![(4, 2), (9, 3)]);
        let nine = data.growth.by_fill.iter().find(|p| p.side == 9).unwrap();
        // 25/81 = 30.9% → bin 6; 40/81 = 49.4% → bin 9.
        assert_eq!(nine.bins, vec![(6, 1), (9, 3)]);
        // One ladder per size, each on its own puzzles.
        let sets: Vec<(u32, u64)> = data.ladders.iter().map(|l| (l.side, l.set)).collect();
        assert_eq!(sets, vec![(4, 2), (9, 4)]);
    }

    fn timed(index: u64, size: u32, strategy: Strategy, nodes: u64, nanos: u64) -> Row {
        let mut r = solved_row("d", index, size, strategy, nodes, nanos);
        r.puzzle.clues = if size == 9 { 40 } else { 8 };
        r
    }

    /// The chart data carries the 95% intervals the charts whisker: a
    /// dataset's median time (the interval `summary.csv` prints), each
    /// ladder bar's ratio, the growth chart's median times.
    #[test]
    fn chart_data_carries_the_intervals() {
        let (a, b) = (Strategy::Naive, Strategy::Mrv);
        let mut agg = Aggregate::default();
        let times = [1000, 3000, 2000, 9000, 4000];
        for (i, &t) in times.iter().enumerate() {
            let i = i as u64 + 1;
            agg.push(&timed(i, 9, a, 100 * i, t));
            agg.push(&timed(i, 9, b, 10 * i, t / (i + 1)));
        }
        let data = ChartData::new(&agg);
        let want = median_interval(&times.map(|t| t as f64)).unwrap();
        let spread = data.time.iter().find(|t| t.strategy == a).unwrap();
        assert_eq!(spread.median_interval, Some(want));
        assert!(want.contains(spread.median) && want.high > want.low);

        let ladder = &data.ladders[0];
        let bars = ladder_bars(ladder);
        let (_, r, _) = ladder.steps()[0];
        let ci = r.intervals.unwrap();
        assert_eq!(bars.len(), 1);
        assert_eq!(bars[0].strategy, b);
        assert_eq!(
            bars[0].bars,
            [
                (r.nodes, Some(ci.nodes)),
                (r.cost, Some(ci.cost)),
                (r.speedup, Some(ci.speedup)),
            ]
        );
        for (v, i) in bars[0].bars {
            let i = i.unwrap().map(|x| x.ln());
            let v = v.ln();
            assert!(i.low - 1e-9 <= v && v <= i.high + 1e-9, "{v} outside {i:?}");
        }
        // Per-puzzle node ratios are all 10: a point interval (to rounding).
        assert!((ci.nodes.high - ci.nodes.low).abs() < 1e-9, "{ci:?}");
        assert!(ci.speedup.high > ci.speedup.low, "{ci:?}");

        let p = data
            .growth
            .by_size
            .iter()
            .find(|p| p.strategy == a)
            .unwrap();
        assert_eq!(p.nanos_interval, Some(want));
        let bin = &data.growth.by_fill[0].points[0];
        assert_eq!((bin.strategy, bin.nanos_interval), (a, Some(want)));
        // One run: no interval.
        let mut one = Aggregate::default();
        one.push(&timed(1, 9, a, 5, 700));
        assert_eq!(ChartData::new(&one).time[0].median_interval, None);
    }

    /// `nodes-vs-time` keeps board sizes apart: one series per strategy and
    /// size, each with every run of that size.
    #[test]
    fn scatter_series_are_per_size() {
        let s = Strategy::Mrv;
        let mut agg = Aggregate::default();
        for i in 1..=3 {
            agg.push(&timed(i, 4, s, i, 100));
        }
        for i in 4..=5 {
            agg.push(&timed(i, 9, s, 50 * i, 9000));
        }
        let data = ChartData::new(&agg);
        let got: Vec<(Strategy, u32, usize, Vec<f64>)> = data
            .scatter
            .iter()
            .map(|x| {
                (
                    x.strategy,
                    x.side,
                    x.total,
                    x.points.iter().map(|p| p.0).collect(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (s, 4, 3, vec![1.0, 2.0, 3.0]),
                (s, 9, 2, vec![200.0, 250.0])
            ]
        );
    }

    /// Identical node distributions share one curve named after both; a
    /// curve within [`NEAR_GAP`] of an earlier one everywhere (4×4 `dlx`
    /// over `mrv`: one puzzle of 60 apart) is marked, with its largest gap;
    /// a distant one is not.
    #[test]
    fn identical_and_near_curves_stay_visible() {
        let mut agg = Aggregate::default();
        for i in 1..=60u64 {
            let nodes = 8 + i % 5;
            agg.push(&timed(i, 4, Strategy::Naive, 20 + i, 100));
            agg.push(&timed(i, 4, Strategy::BlankList, 20 + i, 90));
            agg.push(&timed(i, 4, Strategy::Mrv, nodes, 80));
            agg.push(&timed(
                i,
                4,
                Strategy::Dlx,
                if i == 7 { 5 } else { nodes },
                70,
            ));
        }
        let panel = &ChartData::new(&agg).cdf[0];
        type Curve = (Vec<Strategy>, Option<(Strategy, f64)>);
        let got: Vec<Curve> = panel
            .curves
            .iter()
            .map(|c| (c.strategies.clone(), c.near))
            .collect();
        assert_eq!(
            got,
            vec![
                (vec![Strategy::Naive, Strategy::BlankList], None),
                (vec![Strategy::Mrv], None),
                (vec![Strategy::Dlx], Some((Strategy::Mrv, 1.0 / 60.0))),
            ]
        );
        assert_eq!(gap(&[(1.0, 0.5), (3.0, 1.0)], &[(2.0, 1.0)]), 0.5);
    }
}

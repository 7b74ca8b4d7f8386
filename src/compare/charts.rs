//! Chart data: what each of the five charts shows, computed from an
//! [`Aggregate`] and nothing else. Drawing lives in `draw.rs`.

use std::collections::BTreeMap;

use super::summary::{Aggregate, PairAcc, Sample};
use crate::Strategy;
use crate::stats::quantile_sorted_u64;

/// Most points per strategy in the scatter chart (an even stride through the
/// runs, so the picture is deterministic and the SVG stays small).
pub const SCATTER_MAX: usize = 1500;
/// Most points per CDF curve.
const CDF_MAX: usize = 400;

/// Chart 1: spread of solve time for one dataset × strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeSpread {
    pub dataset: usize,
    pub strategy: Strategy,
    pub p10: f64,
    pub median: f64,
    pub p90: f64,
    /// Runs that hit the budget (their times are lower bounds).
    pub censored: u64,
}

/// Chart 2: cumulative share of puzzles solved within `nodes`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    /// The strategies with exactly this curve (rungs that keep the same
    /// search order visit identical trees), in ladder order.
    pub strategies: Vec<Strategy>,
    /// (nodes, share of measured runs solved within that many nodes), rising.
    pub points: Vec<(f64, f64)>,
    pub measured: u64,
    pub solved: u64,
}

/// Chart 3: one point per run (or an even subsample).
#[derive(Clone, Debug, PartialEq)]
pub struct Scatter {
    pub strategy: Strategy,
    /// (nodes, nanoseconds).
    pub points: Vec<(f64, f64)>,
    pub total: usize,
}

/// Chart 4: one rung against the baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Rung {
    pub strategy: Strategy,
    pub acc: PairAcc,
}

/// Chart 5: medians of one strategy at one x (board side, or clue count).
#[derive(Clone, Debug, PartialEq)]
pub struct GrowthPoint {
    pub strategy: Strategy,
    pub x: u32,
    pub median_nanos: f64,
    pub median_nodes: f64,
    pub runs: usize,
    /// Runs that hit the budget (the medians may be lower bounds).
    pub censored: usize,
}

/// Everything the five charts draw.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartData {
    pub datasets: Vec<String>,
    pub strategies: Vec<Strategy>,
    pub time: Vec<TimeSpread>,
    pub cdf: Vec<Cdf>,
    pub scatter: Vec<Scatter>,
    /// The first strategy in ladder order that ran: the ladder's reference.
    pub baseline: Option<Strategy>,
    pub ladder: Vec<Rung>,
    pub by_size: Vec<GrowthPoint>,
    /// The board side used for the clue-count panel (the most common one).
    pub clue_side: Option<u32>,
    pub by_clues: Vec<GrowthPoint>,
}

/// Times, node counts and budget-hit count of the runs at one growth point.
type Bucket = (Vec<u64>, Vec<u64>, usize);

fn sorted(values: impl Iterator<Item = u64>) -> Vec<u64> {
    let mut v: Vec<u64> = values.collect();
    v.sort_unstable();
    v
}

impl ChartData {
    pub fn new(agg: &Aggregate) -> ChartData {
        let strategies = agg.strategies();
        let mut time = Vec::new();
        for (&(d, s), g) in &agg.groups {
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
                censored: g.budget_exceeded,
            });
        }

        // Per strategy, pooled over datasets, without copying every sample.
        let mut cdf: Vec<Cdf> = Vec::new();
        let mut scatter = Vec::new();
        for &s in &strategies {
            let groups: Vec<&Vec<Sample>> = agg
                .groups
                .iter()
                .filter(|&(&(_, gs), _)| gs == s)
                .map(|(_, g)| &g.samples)
                .collect();
            let measured: usize = groups.iter().map(|v| v.len()).sum();
            if measured == 0 {
                continue;
            }
            let solved = sorted(
                groups
                    .iter()
                    .flat_map(|v| v.iter())
                    .filter(|x| x.solved)
                    .map(|x| x.nodes),
            );
            let step = solved.len().div_ceil(CDF_MAX).max(1);
            let mut points: Vec<(f64, f64)> = Vec::new();
            for (i, &n) in solved.iter().enumerate() {
                let last = i + 1 == solved.len();
                if (i + 1) % step == 0 || last {
                    points.push((n as f64, (i + 1) as f64 / measured as f64));
                }
            }
            let same = cdf
                .iter_mut()
                .find(|c| c.points == points && c.measured == measured as u64);
            match same {
                Some(c) => c.strategies.push(s),
                None => cdf.push(Cdf {
                    strategies: vec![s],
                    points,
                    measured: measured as u64,
                    solved: solved.len() as u64,
                }),
            }
            let stride = measured.div_ceil(SCATTER_MAX).max(1);
            scatter.push(Scatter {
                strategy: s,
                points: groups
                    .iter()
                    .flat_map(|v| v.iter())
                    .step_by(stride)
                    .map(|x| (x.nodes as f64, x.nanos as f64))
                    .collect(),
                total: measured,
            });
        }

        let baseline = strategies.first().copied();
        let ladder = match baseline {
            Some(base) => strategies[1..]
                .iter()
                .filter_map(|&s| {
                    let acc = agg.pairs.get(&(base, s)).copied()?;
                    (acc.pairs > 0).then_some(Rung { strategy: s, acc })
                })
                .collect(),
            None => Vec::new(),
        };

        // Medians per (strategy, x): values bucketed one strategy at a time,
        // so the copies never cover more than one strategy's runs (16 bytes
        // each; see tests/compare_robustness.rs).
        let growth = |key: &dyn Fn(&Sample) -> Option<u32>| {
            let mut points = Vec::new();
            for &s in &strategies {
                let mut acc: BTreeMap<u32, Bucket> = BTreeMap::new();
                for (_, g) in agg.groups.iter().filter(|&(&(_, gs), _)| gs == s) {
                    for x in &g.samples {
                        if let Some(k) = key(x) {
                            let e = acc.entry(k).or_default();
                            e.0.push(x.nanos);
                            e.1.push(x.nodes);
                            e.2 += usize::from(x.over_budget);
                        }
                    }
                }
                points.extend(
                    acc.into_iter()
                        .map(|(x, (mut nanos, mut nodes, censored))| {
                            nanos.sort_unstable();
                            nodes.sort_unstable();
                            GrowthPoint {
                                strategy: s,
                                x,
                                median_nanos: quantile_sorted_u64(&nanos, 0.5),
                                median_nodes: quantile_sorted_u64(&nodes, 0.5),
                                runs: nanos.len(),
                                censored,
                            }
                        }),
                );
            }
            points
        };
        let by_size = growth(&|x| Some(u32::from(x.side)));
        let mut per_side: BTreeMap<u32, usize> = BTreeMap::new();
        for g in agg.groups.values() {
            for x in &g.samples {
                *per_side.entry(u32::from(x.side)).or_default() += 1;
            }
        }
        // Most runs wins; ties go to the smaller side.
        let clue_side = per_side
            .iter()
            .max_by_key(|&(&side, &n)| (n, std::cmp::Reverse(side)))
            .map(|(&side, _)| side);
        let by_clues = match clue_side {
            Some(cs) => growth(&|x| (u32::from(x.side) == cs).then_some(u32::from(x.clues))),
            None => Vec::new(),
        };

        ChartData {
            datasets: agg.datasets.clone(),
            strategies,
            time,
            cdf,
            scatter,
            baseline,
            ladder,
            by_size,
            clue_side,
            by_clues,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::run::Row;
    use crate::compare::summary::solved_row;

    fn row(index: u64, size: u32, strategy: Strategy, nodes: u64) -> Row {
        solved_row("d", index, size, strategy, nodes, nodes * 10)
    }

    /// Growth points come per strategy in ladder order, then per x rising,
    /// with exact medians (they are bucketed one strategy at a time).
    #[test]
    fn growth_points_are_grouped_by_strategy_then_x() {
        let (a, b) = (Strategy::ALL[0], Strategy::ALL[3]);
        let mut agg = Aggregate::default();
        // Puzzles 1-3 are 9x9, 4-5 are 4x4; b visits twice a's nodes.
        for (i, size, nodes) in [(1, 9, 30), (2, 9, 10), (3, 9, 20), (4, 4, 4), (5, 4, 6)] {
            agg.push(&row(i, size, b, 2 * nodes));
            agg.push(&row(i, size, a, nodes));
        }
        agg.finish();
        let data = ChartData::new(&agg);
        let got: Vec<(Strategy, u32, f64, f64, usize)> = data
            .by_size
            .iter()
            .map(|p| (p.strategy, p.x, p.median_nodes, p.median_nanos, p.runs))
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
        assert_eq!(data.clue_side, Some(9));
        assert_eq!(data.by_clues.len(), 2);
        assert_eq!(data.by_clues[0].strategy, a);
        assert_eq!(data.by_clues[0].median_nodes, 20.0);
    }
}

//! How big is the tree a budget cut off? An estimate of the full search from
//! random probes through the rung's own search (Knuth 1975).
//!
//! **The method.** Follow one random path from the root: at each node choose
//! one of its `d` children uniformly and multiply a weight by `d`. The sum
//! of the weights of the nodes on the path is an unbiased estimate of the
//! number of nodes in the tree (Knuth, "Estimating the efficiency of
//! backtrack programs", *Math. Comp.* 29, 1975): a node at depth `k` is
//! reached with probability `1 / (d₀·d₁⋯d₍ₖ₋₁₎)`, exactly the inverse of its
//! weight. Any cost that a node pays (probes, placements, dead ends…) is
//! estimated the same way, weighting the node's own events. The mean of many
//! independent probes keeps the estimate unbiased and shrinks its spread;
//! the interval's low end is the mean − a Student-t quantile times its
//! standard error, its high end allows for heavy tails (see [`Interval`]).
//!
//! **Which tree.** A search that stops at its first solution does not visit
//! its whole tree. It visits the path to the solution where it stops, and at
//! every node of that path the *whole* subtrees of the children it tries
//! before the solution's child (they hold no solution the search stops at,
//! so it exhausts them). The estimator follows that path exactly (the child
//! whose placements agree with the solution), and runs one Knuth probe into
//! every earlier child: the sum is an unbiased estimate of the visited tree,
//! with the path itself counted exactly (a stratified version of Knuth's
//! probe, in the spirit of Purdom's partial backtracking, 1978). Which
//! solution ends the search:
//!
//! * fewer solutions than the search asks for: none; the search exhausts the
//!   whole tree, and plain Knuth probes estimate it;
//! * exactly one solution: that one, whatever the rung's order;
//! * several, and a row-major rung (`naive`'s cell and digit order): the
//!   lexicographically smallest, found cell by cell with a fast rung;
//! * several, and any other rung: its first solution depends on its order
//!   and is only known by running its search, so there is no estimate
//!   ([`EstimateError::FirstSolutionUnknown`]).
//!
//! **How it steers the search.** The probe is a [`Counter`](crate::Counter) that steers
//! ([`Counter::STEERS`](crate::Counter::STEERS)): [`crate::base::search::Ctx::enter`] asks it before every
//! node, and a skipped child comes back through the parent's
//! [`crate::base::search::Ctx::descend`] as if searched. So the probe runs the
//! rung's real search — its real cell order, digit order and costs — and
//! needs from a rung only what the [`crate::Rung`] contract asks: recursive
//! calls through `descend`, and each branching node's options reported
//! ([`Counter::branch`](crate::Counter::branch)). The probe checks both as it goes: a node that
//! tries a different number of children than it stated is an error, never a
//! silent bias.
//!
//! **Cost.** A probe enters one node per level and skips the siblings, so
//! its cost is about the depth times the branching: [`Options`] caps the
//! probes' total at a small fraction of the budget they replace
//! (`crate::base::defaults::ESTIMATE_SHARE`). Deterministic: the probes' choices
//! come from a ChaCha8 stream seeded by [`Options::seed`], and the stopping
//! rule counts nodes, never time.
//!
//! **How good.** `tests/estimate.rs` compares estimates with exact counts of
//! searches the lab can finish, and `docs/lesson-estimate.md` tabulates the
//! errors and how often the interval covers the truth. Knuth's estimator is
//! heavy-tailed on unbalanced trees: a rare probe that goes deep carries a
//! huge weight, so a small sample usually *under*-estimates and a t interval
//! is then too narrow; the interval's high end allows for that
//! ([`Interval`]). The lesson states what was measured. (Kilby, Slaney,
//! Thiébaux and Walsh, "Estimating search tree size", AAAI 2006, compare
//! this estimator with online ones that reuse the search's own progress.)

use serde::{Deserialize, Serialize};

use crate::base::board::Board;
use crate::base::counters::{Counts, Id};
use crate::base::search::{End, Limits};
use crate::base::solver::{Unsupported, with_solver};
use crate::base::strategy::{Strategy, WrongSolution, verify_cells};

pub(crate) mod check;
pub use check::{Plan, Row, Validation, run, validate};

use crate::base::probe::Fault;
pub use crate::base::probe::Probe;

/// How many probes, and from which random stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seed of the probes' ChaCha8 stream: same seed, same estimate.
    pub seed: u64,
    /// Stop once the probes have entered or skipped this many nodes in
    /// total (and at least [`Options::min_runs`] probes ran).
    pub effort: u64,
    /// At least this many probes (the interval needs a spread).
    pub min_runs: u64,
    /// At most this many probes, whatever the effort.
    pub max_runs: u64,
}

impl Options {
    /// The lab's defaults apart from the budget's share (values in
    /// [`crate::base::defaults`]).
    pub const DEFAULT: Options = Options {
        seed: crate::base::defaults::SEED,
        effort: crate::base::defaults::ESTIMATE_EFFORT,
        min_runs: crate::base::defaults::ESTIMATE_MIN_RUNS,
        max_runs: crate::base::defaults::ESTIMATE_MAX_RUNS,
    };

    /// The lab's defaults for a search cut off at `budget` nodes: probes
    /// worth `crate::base::defaults::ESTIMATE_SHARE` of the budget.
    pub fn for_budget(budget: u64) -> Options {
        let d = Options::DEFAULT;
        Options {
            effort: (budget / crate::base::defaults::ESTIMATE_SHARE).max(d.effort),
            ..d
        }
    }
}

/// An estimate with its 95% interval: the probes' mean, mean − t·SE below,
/// and above the largest of mean + t·SE, Cox's log-normal bound and — when
/// the probes' tail is too heavy for a variance — the largest probe (the
/// reasons, and how often it holds the truth, in `docs/lesson-estimate.md`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub estimate: f64,
    pub low: f64,
    pub high: f64,
}

impl Interval {
    /// Whether `truth` lies in the interval.
    pub fn covers(&self, truth: f64) -> bool {
        self.low <= truth && truth <= self.high
    }
}

/// Which tree the cut-off search would have visited in full.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tree {
    /// The whole tree: the puzzle has fewer solutions than the search stops at.
    Whole,
    /// The path to this solution (where the search stops) and everything
    /// the rung tries before it.
    LeftOf(Board),
}

/// What the probes found.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub tree: Tree,
    /// Probes run.
    pub runs: u64,
    /// Nodes the probes entered or skipped: the estimate's cost, to set
    /// beside the budget it replaces.
    pub effort: u64,
    /// Every counter of [`Counts::NAMES`] (`nodes` first), estimated.
    pub counts: [Interval; Counts::LEN],
}

impl Estimate {
    /// The estimated number of nodes.
    pub fn nodes(&self) -> Interval {
        self.counts[Id::Node as usize]
    }

    /// The estimate of the counter named `name`.
    pub fn get(&self, name: &str) -> Option<Interval> {
        Counts::NAMES
            .iter()
            .position(|&n| n == name)
            .map(|i| self.counts[i])
    }
}

/// Why there is no estimate.
#[derive(Debug, thiserror::Error)]
pub enum EstimateError {
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    #[error(transparent)]
    WrongSolution(#[from] WrongSolution),
    #[error(
        "strategy {0} recurses without Ctx::descend, so a probe cannot skip a subtree (see the Rung contract)"
    )]
    NotSteerable(Strategy),
    #[error(
        "strategy {0} does not say how many children a node has (Counter::branch), so a probe cannot choose one"
    )]
    Unstated(Strategy),
    #[error("strategy {strategy} stated {stated} options at a node but tried {tried}")]
    BranchMismatch {
        strategy: Strategy,
        stated: u32,
        tried: u32,
    },
    #[error(
        "strategy {0}'s search did not lead to the solution it stops at along the child that agrees with it"
    )]
    TargetMissed(Strategy),
    #[error(
        "the puzzle has several solutions and {0} is not row-major: which one it finds first is only known by running its search"
    )]
    FirstSolutionUnknown(Strategy),
    #[error(
        "strategy {0}'s tree depends on the order it is searched in (Rung::ORDER_DEPENDENT), which a probe, seeing one path, cannot follow"
    )]
    OrderDependent(Strategy),
    #[error(
        "the search stops at its {0}th solution of several: only a search stopping at the first (or exhausting the tree) can be estimated"
    )]
    LaterSolution(u64),
}

/// Which tree a search of `strategy` stopping at `max_solutions` solutions
/// visits in full on `puzzle` (see the module documentation). Solutions are
/// found with the fastest rung for the size and verified.
fn visited_tree(
    strategy: Strategy,
    puzzle: &Board,
    max_solutions: u64,
) -> Result<Tree, EstimateError> {
    let size = puzzle.size();
    let checker = Strategy::default_for(size);
    let want = max_solutions.max(1);
    let mut first = vec![0u8; size.cells()];
    // Count one past `want` when it is 1, to tell one solution from several.
    let found = with_solver(checker, size, |s| {
        s.count(puzzle.cells(), want.max(2), &mut first)
    })?;
    if found < want {
        return Ok(Tree::Whole);
    }
    if want > 1 {
        return Err(EstimateError::LaterSolution(want));
    }
    if found == 1 {
        verify_cells(checker, puzzle, &first)?;
        return Ok(Tree::LeftOf(Board::from_raw_unchecked(size, &first)));
    }
    if !strategy.is_row_major() {
        return Err(EstimateError::FirstSolutionUnknown(strategy));
    }
    let lex = lex_first(checker, puzzle)?;
    verify_cells(checker, puzzle, &lex)?;
    Ok(Tree::LeftOf(Board::from_raw_unchecked(size, &lex)))
}

/// The lexicographically smallest solution of a solvable puzzle: each empty
/// cell in row-major order takes the smallest digit that still leaves a
/// solution (found by `checker`).
fn lex_first(checker: Strategy, puzzle: &Board) -> Result<Vec<u8>, EstimateError> {
    let size = puzzle.size();
    let n = size.side() as u8;
    let mut cells = puzzle.cells().to_vec();
    let mut scratch = vec![0u8; size.cells()];
    with_solver(checker, size, |s| {
        for i in 0..cells.len() {
            if cells[i] != 0 {
                continue;
            }
            for d in 1..=n {
                cells[i] = d;
                // A digit that clashes with a peer is a conflict: 0 solutions.
                if matches!(s.try_count(&cells, 1, &mut scratch), Ok(k) if k > 0) {
                    break;
                }
            }
        }
    })?;
    Ok(cells)
}

/// The probes' raw output: what [`estimate`] summarises.
#[derive(Clone, Debug, PartialEq)]
pub struct Samples {
    pub tree: Tree,
    /// One entry per probe: its weighted counts, in [`Counts::NAMES`] order.
    pub values: Vec<[f64; Counts::LEN]>,
    /// Nodes each probe entered or skipped.
    pub costs: Vec<u64>,
}

/// Runs the probes of [`estimate`] and returns them unsummarised.
pub fn samples(
    strategy: Strategy,
    puzzle: &Board,
    limits: Limits,
    options: Options,
) -> Result<Samples, EstimateError> {
    let size = puzzle.size();
    if !strategy.supports(size) {
        return Err(Unsupported { strategy, size }.into());
    }
    if strategy.info().order_dependent {
        return Err(EstimateError::OrderDependent(strategy));
    }
    let tree = visited_tree(strategy, puzzle, limits.max_solutions)?;
    let target = match &tree {
        Tree::Whole => Vec::new(),
        Tree::LeftOf(solution) => solution.cells().to_vec(),
    };
    let unlimited = Limits {
        max_solutions: u64::MAX,
        node_budget: u64::MAX,
    };
    let mut values: Vec<[f64; Counts::LEN]> = Vec::new();
    let mut costs: Vec<u64> = Vec::new();
    let probe = Probe::new(options.seed, target, size.cells());
    with_solver(strategy, size, |solver| {
        let mut probe = probe;
        while (values.len() as u64) < options.max_runs.max(1)
            && ((values.len() as u64) < options.min_runs.max(1) || probe.visits < options.effort)
        {
            probe.reset();
            let before = probe.visits;
            let tally = solver.search(puzzle, unlimited, probe);
            probe = tally.counter;
            if let Some(fault) = probe.fault {
                return Err(match fault {
                    Fault::Unstated => EstimateError::Unstated(strategy),
                    Fault::Mismatch { stated, tried } => EstimateError::BranchMismatch {
                        strategy,
                        stated,
                        tried,
                    },
                    Fault::TargetMissed => EstimateError::TargetMissed(strategy),
                });
            }
            let on_path = !probe.target.is_empty();
            if on_path && !probe.done {
                return Err(EstimateError::TargetMissed(strategy));
            }
            if !on_path {
                // A skipped child that came back to the top: the rung
                // recursed without `descend`.
                if tally.end == End::BudgetExceeded {
                    return Err(EstimateError::NotSteerable(strategy));
                }
                if let Some(&root) = probe.frames.first() {
                    probe.check_closed(root);
                    if let Some(Fault::Mismatch { stated, tried }) = probe.fault {
                        return Err(EstimateError::BranchMismatch {
                            strategy,
                            stated,
                            tried,
                        });
                    }
                }
            }
            values.push(probe.sums);
            costs.push(probe.visits - before);
        }
        Ok(())
    })??;
    Ok(Samples {
        tree,
        values,
        costs,
    })
}

/// Estimates the search of `strategy` on `puzzle` within `limits`' solution
/// limit (the node budget is what is being estimated past, so it is not
/// applied), from random probes. `at_least` holds what a cut-off run counted
/// (exact lower bounds: the interval never drops below them).
pub fn estimate(
    strategy: Strategy,
    puzzle: &Board,
    limits: Limits,
    at_least: Counts,
    options: Options,
) -> Result<Estimate, EstimateError> {
    let Samples {
        tree,
        values,
        costs,
    } = samples(strategy, puzzle, limits, options)?;
    let floor = at_least.values();
    let counts = std::array::from_fn(|i| {
        interval(values.iter().map(|s| s[i]), values.len(), floor[i] as f64)
    });
    Ok(Estimate {
        tree,
        runs: values.len() as u64,
        effort: costs.iter().sum(),
        counts,
    })
}

/// The 95% interval of the mean of `n` samples, the low end raised to
/// `floor` (an exact count the full search cannot be below).
///
/// The low end is mean − t·SE. The high end is the largest of three, because
/// Knuth's probes are heavy-tailed (a rare deep probe carries a huge weight,
/// so a small sample is usually low and its spread too small):
/// * mean + t·SE (Student t on the probes' mean);
/// * Cox's interval for the mean of a log-normal sample (Land 1972; Zhou and
///   Gao 1997), when every sample is positive: `exp(m + s²/2 + t·√(s²/n +
///   s⁴/(2(n−1))))` with `m`, `s²` the mean and variance of the logs;
/// * the largest sample, when the samples' tail looks too heavy for a
///   variance (Hill's estimate of the tail index over the top `√n` samples
///   below 2: see [`tail_index`]); the t interval then means nothing.
fn interval(xs: impl Iterator<Item = f64> + Clone, n: usize, floor: f64) -> Interval {
    let nf = n as f64;
    let mean = xs.clone().sum::<f64>() / nf;
    let estimate = mean.max(floor);
    if n < 2 {
        return Interval {
            estimate,
            low: floor,
            high: f64::INFINITY,
        };
    }
    let t = t975(n - 1);
    let var = xs.clone().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (nf - 1.0);
    let half = t * (var / nf).sqrt();
    let mut high = mean + half;
    if xs.clone().all(|x| x > 0.0) {
        let m = xs.clone().map(f64::ln).sum::<f64>() / nf;
        let s2 = xs.clone().map(|x| (x.ln() - m).powi(2)).sum::<f64>() / (nf - 1.0);
        // No spread: no tail either (and exp(ln x) need not give x back).
        if s2 > 0.0 {
            let cox = (m + s2 / 2.0 + t * (s2 / nf + s2 * s2 / (2.0 * (nf - 1.0))).sqrt()).exp();
            high = high.max(cox);
        }
    }
    let mut sorted: Vec<f64> = xs.collect();
    sorted.sort_by(|a, b| b.total_cmp(a));
    if tail_index(&sorted) < 2.0 {
        high = high.max(sorted[0]);
    }
    Interval {
        estimate,
        low: (mean - half).max(floor),
        high: high.max(estimate),
    }
}

/// Hill's estimate of the tail index α of samples sorted largest first
/// (Hill 1975), over the top `k = max(5, ⌊√n⌋)`: `k / Σᵢ₍ᵢ<ₖ₎ ln(xᵢ / xₖ)`.
/// A tail falling like `x^−α` has a variance only when α > 2. Infinite
/// when there are too few samples or no spread at the top.
fn tail_index(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    let k = ((n as f64).sqrt() as usize).max(5);
    if n <= k || sorted[k] <= 0.0 {
        return f64::INFINITY;
    }
    let sum: f64 = sorted[..k].iter().map(|x| (x / sorted[k]).ln()).sum();
    if sum > 0.0 {
        k as f64 / sum
    } else {
        f64::INFINITY
    }
}

/// The 97.5% quantile of Student's t with `df` degrees of freedom (two-sided
/// 95%): exact table values to 10, then the Cornish–Fisher expansion
/// (within 0.002 of the true quantile from there on).
fn t975(df: usize) -> f64 {
    const TABLE: [f64; 10] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    ];
    if (1..=10).contains(&df) {
        return TABLE[df - 1];
    }
    let z = 1.959_964f64;
    let v = df as f64;
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles() {
        assert_eq!(t975(1), 12.706);
        assert!((t975(20) - 2.086).abs() < 0.002);
        assert!((t975(100) - 1.984).abs() < 0.002);
        assert!((t975(100_000) - 1.960).abs() < 0.001);
    }

    #[test]
    fn a_tail_too_heavy_for_a_variance_raises_the_high_end_to_the_largest_sample() {
        // Pareto with α = 1 (x = 1/u on an even grid of u): Hill reads about 1.
        let n = 400;
        let heavy: Vec<f64> = (1..=n).map(|i| n as f64 / i as f64).collect();
        let mut sorted = heavy.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        let a = tail_index(&sorted);
        assert!((0.7..1.3).contains(&a), "{a}");
        let i = interval(heavy.iter().copied(), n, 0.0);
        assert_eq!(i.high, n as f64);
        // A light tail (an even grid): the high end is the t or Cox one.
        let light: Vec<f64> = (1..=n).map(|i| 100.0 + i as f64 / n as f64).collect();
        let mut sorted = light.clone();
        sorted.sort_by(|a, b| b.total_cmp(a));
        assert!(tail_index(&sorted) > 2.0);
        let i = interval(light.iter().copied(), n, 0.0);
        assert!(i.high < 100.6 && i.low > 100.4, "{i:?}");
    }

    #[test]
    fn interval_of_equal_samples_is_a_point_raised_to_its_floor() {
        let i = interval([5.0, 5.0, 5.0].into_iter(), 3, 0.0);
        assert_eq!((i.estimate, i.low, i.high), (5.0, 5.0, 5.0));
        let i = interval([5.0, 5.0].into_iter(), 2, 7.0);
        assert_eq!((i.estimate, i.low, i.high), (7.0, 7.0, 7.0));
    }
}

//! `diff OLD NEW`'s computing: did a change help? Two report folders
//! (`compare`'s `results.csv` and `meta.csv`, read by [`crate::run::diff`])
//! compared per dataset × strategy:
//!
//! * **node counts exactly**: a search is deterministic, so any puzzle whose
//!   nodes (or outcome) differ is a changed tree, listed puzzle by puzzle
//!   ([`NodeChange`]);
//! * **times as a ratio NEW ÷ OLD**: the geometric mean of the per-puzzle
//!   ratios (the two runs time the same puzzles, so each puzzle is its own
//!   control), with a 95% bootstrap interval over puzzles, seeded
//!   (`crate::measure::stats::bootstrap_mean`); one puzzle alone gets the range of
//!   its samples instead (fastest NEW ÷ slowest OLD to slowest NEW ÷ fastest
//!   OLD); that interval covers the puzzles, not a shift of the whole run,
//!   so it is widened by the run-to-run spread (`--noise`; by default
//!   wider when either run was busy, [`run_to_run`]; added in quadrature
//!   on the log scale, [`widen`]): two runs of the same code then get an
//!   interval holding ×1 even when the machine drifted between them;
//! * **a verdict** read off that interval alone ([`Verdict`]): faster or
//!   slower when the whole interval lies below or above ×1, else no change
//!   within noise, so the verdict and the interval never disagree.
//!
//! The two runs' conditions (CPU, host, load, busy, commit, budget, limit…)
//! are compared from their `meta.csv` files ([`Difference`]). Computing only:
//! the rows are plain serde data; [`crate::export::diff_text`] turns them
//! into tables and [`crate::export::chart::diff`] into a picture.
//! Strategies are kept as names, so a folder written by a program with an
//! outside rung (`examples/lcv.rs`) is read by the plain `sudoku-lab` too.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::bail;
use serde::{Deserialize, Serialize};

use crate::analysis::first_seen as ordered;
use crate::io::meta::Meta;
use crate::io::rows::PuzzleId;

/// What to compare and how strictly.
#[derive(Clone, Debug)]
pub struct Options {
    /// Strategy pairs `(OLD, NEW)` to compare under different names (`mrv`
    /// in OLD against `lcv` in NEW); empty: every strategy both folders hold,
    /// by name.
    pub pairs: Vec<(String, String)>,
    /// Run-to-run spread: two runs of the same code differ by a factor
    /// within `1 ± noise` (95%); added to every interval ([`widen`]).
    /// `None`: by the runs' conditions ([`run_to_run`]).
    pub noise: Option<f64>,
    /// Resamples of the bootstrap.
    pub resamples: usize,
    /// Confidence level of the interval.
    pub level: f64,
    /// Seed of the bootstrap.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            pairs: Vec::new(),
            noise: None,
            resamples: crate::base::defaults::BOOTSTRAP_RESAMPLES,
            level: crate::base::defaults::CONFIDENCE,
            seed: crate::base::defaults::SEED,
        }
    }
}

/// How the time of a dataset × strategy changed, criterion's way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The whole interval lies below ×1.
    Faster,
    /// The whole interval lies above ×1.
    Slower,
    /// The interval holds ×1.
    NoChange,
    /// No puzzle was timed in both runs (nothing ran, or sizes unsupported).
    Untimed,
}

impl Verdict {
    /// The verdict of a ratio's interval (run-to-run spread included):
    /// where it lies against ×1, nothing else.
    pub fn of(low: f64, high: f64) -> Verdict {
        if high < 1.0 {
            Verdict::Faster
        } else if low > 1.0 {
            Verdict::Slower
        } else {
            Verdict::NoChange
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Faster => "faster",
            Verdict::Slower => "slower",
            Verdict::NoChange => "no change within noise",
            Verdict::Untimed => "not timed",
        }
    }
}

/// One dataset × strategy pair: one line of `diff.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiffRow {
    pub dataset: String,
    /// The strategy in OLD.
    pub strategy: String,
    /// The strategy in NEW (the same name unless paired with `--pair`).
    pub new_strategy: String,
    /// Puzzles both runs hold.
    pub puzzles: u64,
    /// Nodes over those puzzles, OLD and NEW (empty when nothing ran).
    pub old_nodes: Option<u64>,
    pub new_nodes: Option<u64>,
    /// Puzzles whose node count or outcome differ (a changed tree).
    pub changed_trees: u64,
    /// Puzzles timed in both runs (the ratio is over these).
    pub timed: u64,
    /// Geometric mean time per puzzle, OLD and NEW (ns).
    pub old_ns: Option<f64>,
    pub new_ns: Option<f64>,
    /// NEW ÷ OLD: the geometric mean of the per-puzzle time ratios.
    pub ratio: Option<f64>,
    /// Its interval at [`Options::level`], run-to-run spread included.
    pub ratio_low: Option<f64>,
    pub ratio_high: Option<f64>,
    pub verdict: Verdict,
    /// The run-to-run spread in the interval, in percent.
    pub noise_pct: f64,
}

impl DiffRow {
    /// `mrv`, or `mrv → lcv` for strategies paired under two names.
    pub fn pair(&self) -> String {
        if self.strategy == self.new_strategy {
            self.strategy.clone()
        } else {
            format!("{} → {}", self.strategy, self.new_strategy)
        }
    }
}

/// A puzzle whose search tree changed: one line of `node-changes.csv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NodeChange {
    pub dataset: String,
    pub strategy: String,
    pub new_strategy: String,
    /// 1-based position in its file.
    pub index: u64,
    pub name: String,
    pub old_outcome: String,
    pub new_outcome: String,
    pub old_nodes: Option<u64>,
    pub new_nodes: Option<u64>,
}

/// Kinds of [`Difference`]: a different machine or conditions make times
/// less comparable (a warning); different code is what a diff usually
/// measures (a note).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    Warning,
    Note,
}

/// A `meta.csv` entry the two runs disagree on (or, for `busy`, that
/// either run was measured on a busy machine).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    pub severity: Severity,
    pub key: String,
    pub old: String,
    pub new: String,
}

/// Everything `diff` found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    pub old: PathBuf,
    pub new: PathBuf,
    pub rows: Vec<DiffRow>,
    pub node_changes: Vec<NodeChange>,
    pub differences: Vec<Difference>,
    /// Datasets or strategies only one run holds (left out), in words.
    pub left_out: Vec<String>,
    /// Confidence level of the intervals (0.95).
    pub level: f64,
    /// The bootstrap's resamples and seed.
    pub resamples: usize,
    pub seed: u64,
    /// The run-to-run spread, as a share (0.10 = 10%).
    pub noise: f64,
}

/// `meta.csv` keys whose difference makes times less comparable: machine,
/// build and conditions, then what was measured.
const WARN_KEYS: [&str; 12] = [
    "cpu",
    crate::io::meta::CPU_CLOCK,
    "host",
    "threads",
    "profile",
    "rustc",
    "plan_budget",
    "plan_limit",
    "plan_sample",
    "plan_timing",
    "budget",
    "limit",
];
/// Keys whose difference is what a diff is usually run for.
const NOTE_KEYS: [&str; 2] = ["plan_commit", "version"];
/// Load averages further apart than this are a warning.
const LOAD_GAP: f64 = 1.0;

/// One `results.csv` row, as much as `diff` needs (read by
/// `crate::run::diff` as the report reads its rows), with the strategy and
/// outcome kept as names (an outside rung's rows read too).
#[derive(Clone, Debug)]
pub(crate) struct Rec {
    pub puzzle: PuzzleId,
    pub strategy: String,
    pub outcome: String,
    pub nodes: Option<u64>,
    /// Median, fastest and slowest time per run (ns).
    pub time: Option<(f64, f64, f64)>,
}

/// A report folder read: where it is, its `results.csv` (named in errors),
/// its meta and rows.
pub(crate) struct Folder {
    pub dir: PathBuf,
    pub results: PathBuf,
    pub meta: Meta,
    pub recs: Vec<Rec>,
}

/// The datasets both folders hold, in OLD's order (those only one holds go
/// to `left_out`); that a dataset of one name is the same file in both is
/// the reader's check (`crate::run::diff`, from the plans in `meta.csv`).
pub(crate) fn common_datasets<'a>(
    a: &'a Folder,
    b: &'a Folder,
    left_out: &mut Vec<String>,
) -> anyhow::Result<Vec<&'a str>> {
    let datasets_a = ordered(a.recs.iter().map(|r| r.puzzle.dataset.as_str()));
    let datasets_b = ordered(b.recs.iter().map(|r| r.puzzle.dataset.as_str()));
    let common: Vec<&str> = datasets_a
        .iter()
        .filter(|d| datasets_b.contains(d))
        .copied()
        .collect();
    for (side, list) in [
        ("OLD", only(&datasets_a, &datasets_b)),
        ("NEW", only(&datasets_b, &datasets_a)),
    ] {
        if !list.is_empty() {
            left_out.push(format!("datasets only in {side}: {}", list.join(", ")));
        }
    }
    if common.is_empty() {
        bail!(
            "mismatched plans: {} and {} have no dataset in common ({} against {})",
            a.results.display(),
            b.results.display(),
            datasets_a.join(", "),
            datasets_b.join(", ")
        );
    }
    Ok(common)
}

/// The names of `xs` that `ys` lacks.
fn only(xs: &[&str], ys: &[&str]) -> Vec<String> {
    xs.iter()
        .filter(|x| !ys.contains(x))
        .map(|x| x.to_string())
        .collect()
}

/// The strategy pairs (OLD, NEW) to compare: `opts.pairs`, or every
/// strategy both hold by name (those only one holds go to `left_out`).
fn strategy_pairs(
    a: &Folder,
    b: &Folder,
    opts: &Options,
    left_out: &mut Vec<String>,
) -> anyhow::Result<Vec<(String, String)>> {
    let strategies_a = ordered(a.recs.iter().map(|r| r.strategy.as_str()));
    let strategies_b = ordered(b.recs.iter().map(|r| r.strategy.as_str()));
    let pairs: Vec<(String, String)> = if opts.pairs.is_empty() {
        for (side, list) in [
            ("OLD", only(&strategies_a, &strategies_b)),
            ("NEW", only(&strategies_b, &strategies_a)),
        ] {
            if !list.is_empty() {
                left_out.push(format!(
                    "strategies only in {side}: {} (compare them under another name with --pair OLD=NEW)",
                    list.join(", ")
                ));
            }
        }
        strategies_a
            .iter()
            .filter(|s| strategies_b.contains(s))
            .map(|s| (s.to_string(), s.to_string()))
            .collect()
    } else {
        for (x, y) in &opts.pairs {
            for (name, list, folder) in [(x, &strategies_a, a), (y, &strategies_b, b)] {
                if !list.contains(&name.as_str()) {
                    bail!(
                        "--pair {x}={y}: {} holds no strategy {name} (it holds {})",
                        folder.results.display(),
                        list.join(", ")
                    );
                }
            }
        }
        opts.pairs.clone()
    };
    if pairs.is_empty() {
        bail!(
            "mismatched plans: {} and {} have no strategy in common ({} against {}); name the pairs to compare with --pair OLD=NEW",
            a.results.display(),
            b.results.display(),
            strategies_a.join(", "),
            strategies_b.join(", ")
        );
    }
    Ok(pairs)
}

/// Both folders' rows, grouped for matching: OLD's by (dataset, strategy),
/// NEW's by (dataset, index, strategy) and counted by (dataset, strategy).
struct Index<'a> {
    a: &'a Folder,
    b: &'a Folder,
    groups_a: HashMap<(&'a str, &'a str), Vec<&'a Rec>>,
    index_b: HashMap<(&'a str, u64, &'a str), &'a Rec>,
    counts_b: HashMap<(&'a str, &'a str), usize>,
}

impl<'a> Index<'a> {
    fn new(a: &'a Folder, b: &'a Folder) -> Index<'a> {
        let mut index = Index {
            a,
            b,
            groups_a: HashMap::new(),
            index_b: HashMap::new(),
            counts_b: HashMap::new(),
        };
        for r in &a.recs {
            let key = (r.puzzle.dataset.as_str(), r.strategy.as_str());
            index.groups_a.entry(key).or_default().push(r);
        }
        for r in &b.recs {
            let (d, s) = (r.puzzle.dataset.as_str(), r.strategy.as_str());
            index.index_b.insert((d, r.puzzle.index, s), r);
            *index.counts_b.entry((d, s)).or_default() += 1;
        }
        index
    }

    /// OLD's puzzles of dataset `d` under `sa`, each with NEW's under `sb`;
    /// `None` when neither folder ran the pair on `d`. Puzzles that do not
    /// match are an error: the runs measured other puzzles.
    fn matched(
        &self,
        d: &str,
        sa: &str,
        sb: &str,
    ) -> anyhow::Result<Option<Vec<(&'a Rec, &'a Rec)>>> {
        let (a, b) = (&self.a.results, &self.b.results);
        let olds: &[&Rec] = self.groups_a.get(&(d, sa)).map_or(&[], Vec::as_slice);
        let news_count = self.counts_b.get(&(d, sb)).copied().unwrap_or(0);
        if olds.is_empty() && news_count == 0 {
            return Ok(None);
        }
        let mut matched = Vec::with_capacity(olds.len());
        for o in olds {
            let Some(n) = self.index_b.get(&(d, o.puzzle.index, sb)) else {
                bail!(
                    "mismatched plans: {} has puzzle #{} of {d} ({sa}), {} has not ({sb}): were they run with another --sample, or cut short?",
                    a.display(),
                    o.puzzle.index,
                    b.display()
                );
            };
            if n.puzzle.clues != o.puzzle.clues {
                bail!(
                    "mismatched plans: puzzle #{} of {d} has {} clues in {} but {} in {}: not the same puzzles",
                    o.puzzle.index,
                    o.puzzle.clues,
                    a.display(),
                    n.puzzle.clues,
                    b.display()
                );
            }
            matched.push((*o, *n));
        }
        if news_count != olds.len() {
            bail!(
                "mismatched plans: {} holds {news_count} puzzles of {d} ({sb}), {} holds {} ({sa}): were they run with another --sample?",
                b.display(),
                a.display(),
                olds.len()
            );
        }
        Ok(Some(matched))
    }
}

/// Compares two folders read over their `common` datasets
/// ([`common_datasets`]); `left_out` says what only one of them holds.
pub(crate) fn compare(
    a: &Folder,
    b: &Folder,
    common: &[&str],
    mut left_out: Vec<String>,
    opts: &Options,
) -> anyhow::Result<Diff> {
    let pairs = strategy_pairs(a, b, opts, &mut left_out)?;
    let noise = opts.noise.unwrap_or_else(|| run_to_run(&a.meta, &b.meta));
    let index = Index::new(a, b);
    let mut rows = Vec::new();
    let mut node_changes = Vec::new();
    for d in common {
        for (sa, sb) in &pairs {
            if let Some(matched) = index.matched(d, sa, sb)? {
                let (row, changes) = pair_row(d, sa, sb, &matched, opts, noise);
                rows.push(row);
                node_changes.extend(changes);
            }
        }
    }
    Ok(Diff {
        old: a.dir.clone(),
        new: b.dir.clone(),
        rows,
        node_changes,
        differences: differences(&a.meta, &b.meta),
        left_out,
        level: opts.level,
        resamples: opts.resamples,
        seed: opts.seed,
        noise,
    })
}

/// The default run-to-run spread: wider when either run was measured on a
/// busy machine, where whole runs drift further ([`crate::base::defaults::DIFF_NOISE_BUSY`]).
pub(crate) fn run_to_run(a: &Meta, b: &Meta) -> f64 {
    if busy(a) || busy(b) {
        crate::base::defaults::DIFF_NOISE_BUSY
    } else {
        crate::base::defaults::DIFF_NOISE
    }
}

/// Whether a run's `meta.csv` says it was measured on a busy machine.
fn busy(m: &Meta) -> bool {
    m.get("busy").is_some_and(|b| !b.is_empty() && b != "no")
}

/// The row of one dataset × strategy pair over its matched puzzles.
fn pair_row(
    dataset: &str,
    old: &str,
    new: &str,
    matched: &[(&Rec, &Rec)],
    opts: &Options,
    noise: f64,
) -> (DiffRow, Vec<NodeChange>) {
    let mut changes = Vec::new();
    let (mut old_nodes, mut new_nodes) = (None::<u64>, None::<u64>);
    let mut logs = Vec::new();
    let (mut log_old, mut log_new) = (0.0, 0.0);
    for (o, n) in matched {
        if let Some(x) = o.nodes {
            old_nodes = Some(old_nodes.unwrap_or(0) + x);
        }
        if let Some(x) = n.nodes {
            new_nodes = Some(new_nodes.unwrap_or(0) + x);
        }
        if o.nodes != n.nodes || o.outcome != n.outcome {
            changes.push(NodeChange {
                dataset: dataset.to_string(),
                strategy: old.to_string(),
                new_strategy: new.to_string(),
                index: o.puzzle.index,
                name: o.puzzle.name.clone(),
                old_outcome: o.outcome.clone(),
                new_outcome: n.outcome.clone(),
                old_nodes: o.nodes,
                new_nodes: n.nodes,
            });
        }
        if let (Some((t, _, _)), Some((u, _, _))) = (o.time, n.time)
            && t > 0.0
            && u > 0.0
        {
            logs.push(u.ln() - t.ln());
            log_old += t.ln();
            log_new += u.ln();
        }
    }
    let timed = logs.len();
    let mean = |s: f64| (timed > 0).then(|| (s / timed as f64).exp());
    let ratio = mean(logs.iter().sum());
    let interval = interval(matched, &logs, opts)
        .zip(ratio)
        .map(|((lo, hi), r)| widen(r, lo, hi, noise));
    let verdict = match interval {
        Some((lo, hi)) => Verdict::of(lo, hi),
        None => Verdict::Untimed,
    };
    let row = DiffRow {
        dataset: dataset.to_string(),
        strategy: old.to_string(),
        new_strategy: new.to_string(),
        puzzles: matched.len() as u64,
        old_nodes,
        new_nodes,
        changed_trees: changes.len() as u64,
        timed: timed as u64,
        old_ns: mean(log_old),
        new_ns: mean(log_new),
        ratio,
        ratio_low: interval.map(|i| i.0),
        ratio_high: interval.map(|i| i.1),
        verdict,
        noise_pct: noise * 100.0,
    };
    (row, changes)
}

/// The interval of the ratio over puzzles, before the run-to-run spread:
/// a bootstrap of the per-puzzle log ratios `logs`, or for one puzzle the
/// range of its samples (not a bootstrap of one); `None` when none was timed.
fn interval(matched: &[(&Rec, &Rec)], logs: &[f64], opts: &Options) -> Option<(f64, f64)> {
    match logs.len() {
        0 => None,
        1 => matched.iter().find_map(|(o, n)| match (o.time, n.time) {
            (Some((_, olo, ohi)), Some((_, nlo, nhi))) if olo > 0.0 && ohi > 0.0 => {
                Some((nlo / ohi, nhi / olo))
            }
            _ => None,
        }),
        _ => crate::measure::stats::bootstrap_mean(logs, opts.resamples, opts.level, opts.seed)
            .map(|(lo, hi)| (lo.exp(), hi.exp())),
    }
}

/// The interval `[lo, hi]` of `ratio` over puzzles widened by a run-to-run
/// spread of `1 ± noise`: each half, on the log scale, added in quadrature
/// to `ln(1 + noise)` (independent errors: the puzzles drawn, and the
/// drift of a whole run that every puzzle of it shares, which resampling
/// puzzles cannot see). A diff of a run against itself gets
/// `[1/(1+noise), 1+noise]`.
pub fn widen(ratio: f64, lo: f64, hi: f64, noise: f64) -> (f64, f64) {
    let (c, run) = (ratio.ln(), noise.ln_1p());
    let half = |end: f64| (end.ln() - c).abs().hypot(run);
    ((c - half(lo)).exp(), (c + half(hi)).exp())
}

/// The `meta.csv` entries the runs disagree on: machine and conditions
/// (warnings), code (notes).
fn differences(a: &Meta, b: &Meta) -> Vec<Difference> {
    let mut out = Vec::new();
    let mut push = |severity, key: &str, x: &str, y: &str| {
        out.push(Difference {
            severity,
            key: key.to_string(),
            old: x.to_string(),
            new: y.to_string(),
        });
    };
    for (keys, severity) in [
        (&WARN_KEYS[..], Severity::Warning),
        (&NOTE_KEYS[..], Severity::Note),
    ] {
        for key in keys {
            // Reports before plan_* keys: compare the plain ones instead.
            if matches!(*key, "budget" | "limit")
                && a.get(&format!("plan_{key}")).is_some()
                && b.get(&format!("plan_{key}")).is_some()
            {
                continue;
            }
            let (x, y) = (a.get(key), b.get(key));
            if x.is_none() && y.is_none() {
                continue;
            }
            let (x, y) = (x.unwrap_or("unknown"), y.unwrap_or("unknown"));
            if x != y {
                push(severity, key, x, y);
            }
        }
    }
    if a.get("commit") != b.get("commit") && a.get("plan_commit").is_none() {
        let (x, y) = (
            a.get("commit").unwrap_or("unknown"),
            b.get("commit").unwrap_or("unknown"),
        );
        push(Severity::Note, "commit", x, y);
    }
    // Every busy run is worth a warning, not only a difference.
    if busy(a) || busy(b) {
        let (x, y) = (a.get("busy").unwrap_or("no"), b.get("busy").unwrap_or("no"));
        push(Severity::Warning, "busy", x, y);
    }
    let load = |m: &Meta| -> Option<f64> { m.get("load")?.split_whitespace().next()?.parse().ok() };
    if let (Some(x), Some(y)) = (load(a), load(b))
        && (x - y).abs() > LOAD_GAP
    {
        push(
            Severity::Warning,
            "load",
            &format!("{x:.2}"),
            &format!("{y:.2}"),
        );
    }
    out
}

impl Diff {
    /// Pairs whose time is slower than `pct` percent with the whole interval
    /// (`--fail-if-slower PCT`): the low end above `1 + pct/100`.
    pub fn slower_than(&self, pct: f64) -> Vec<&DiffRow> {
        self.rows
            .iter()
            .filter(|r| r.ratio_low.is_some_and(|lo| lo > 1.0 + pct / 100.0))
            .collect()
    }

    /// The changes of one row, in puzzle order.
    pub fn changes_of<'a>(&'a self, row: &'a DiffRow) -> impl Iterator<Item = &'a NodeChange> {
        self.node_changes.iter().filter(move |c| {
            c.dataset == row.dataset
                && c.strategy == row.strategy
                && c.new_strategy == row.new_strategy
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_need_the_whole_interval_beyond_one() {
        assert_eq!(Verdict::of(0.80, 0.90), Verdict::Faster);
        assert_eq!(Verdict::of(0.80, 1.01), Verdict::NoChange);
        assert_eq!(Verdict::of(1.06, 1.30), Verdict::Slower);
        assert_eq!(Verdict::of(0.99, 1.30), Verdict::NoChange);
        assert_eq!(Verdict::of(0.5, 2.0), Verdict::NoChange);
    }

    #[test]
    fn the_run_to_run_spread_widens_every_interval() {
        // The A/A case: a tight interval over puzzles that excludes
        // ×1 holds it once a 10% run-to-run spread is in.
        let (lo, hi) = widen(0.954, 0.947, 0.959, 0.10);
        assert!(lo < 0.954 * 0.92 && hi > 1.0, "{lo} {hi}");
        // No spread over puzzles: exactly the run-to-run term.
        let (lo, hi) = widen(1.0, 1.0, 1.0, 0.10);
        assert!((lo - 1.0 / 1.1).abs() < 1e-12 && (hi - 1.1).abs() < 1e-12);
        // No run-to-run term: the interval over puzzles as it was.
        let (lo, hi) = widen(0.9, 0.8, 0.95, 0.0);
        assert!((lo - 0.8).abs() < 1e-12 && (hi - 0.95).abs() < 1e-12);
    }

    fn rec(index: u64, ns: f64, spread: f64) -> Rec {
        Rec {
            puzzle: PuzzleId {
                dataset: "set".into(),
                index,
                line: index,
                name: String::new(),
                size: 9,
                clues: 17,
            },
            strategy: "mrv".into(),
            outcome: "solved".into(),
            nodes: Some(100),
            time: Some((ns, ns / spread, ns * spread)),
        }
    }

    /// Synthetic rows of every kind (one puzzle or many, tight or loose,
    /// every size of change, any noise): the verdict is always where the
    /// printed interval lies against ×1, and the interval holds the ratio.
    #[test]
    fn the_verdict_and_the_interval_never_disagree() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(61);
        let mut seen = [0usize; 3];
        for case in 0..400 {
            let puzzles = [1, 2, 5, 40][case % 4];
            let shift: f64 = rng.random_range(-0.4..0.4);
            let jitter: f64 = rng.random_range(0.0..0.3);
            let noise = [0.0, 0.02, 0.10, 0.5][case / 4 % 4];
            let opts = Options {
                resamples: 200,
                ..Options::default()
            };
            let pairs: Vec<(Rec, Rec)> = (0..puzzles)
                .map(|i| {
                    let t = rng.random_range(1e3..1e6);
                    let u = t * (shift + rng.random_range(-jitter..=jitter)).exp();
                    let s = 1.0 + rng.random_range(0.0..0.2);
                    (rec(i + 1, t, s), rec(i + 1, u, s))
                })
                .collect();
            let matched: Vec<(&Rec, &Rec)> = pairs.iter().map(|(a, b)| (a, b)).collect();
            let (row, _) = pair_row("set", "mrv", "mrv", &matched, &opts, noise);
            let (r, lo, hi) = (
                row.ratio.unwrap(),
                row.ratio_low.unwrap(),
                row.ratio_high.unwrap(),
            );
            assert!(lo <= r && r <= hi, "{row:?}");
            let expected = if hi < 1.0 {
                Verdict::Faster
            } else if lo > 1.0 {
                Verdict::Slower
            } else {
                Verdict::NoChange
            };
            assert_eq!(row.verdict, expected, "{row:?}");
            // The run-to-run term is in: at least 1 ± noise wide around r.
            assert!(hi / r >= (1.0 + noise) * (1.0 - 1e-9), "{row:?}");
            assert!(r / lo >= (1.0 + noise) * (1.0 - 1e-9), "{row:?}");
            seen[match row.verdict {
                Verdict::Faster => 0,
                Verdict::Slower => 1,
                _ => 2,
            }] += 1;
        }
        // Every verdict was reached, so the rule was tested on each.
        assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
    }
}

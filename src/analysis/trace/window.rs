//! `trace`'s work on one puzzle: each strategy asked for, once, traced in
//! turn over the same window of its events (`--from`, `--steps`), with its
//! whole tree when asked. The command only prints what each search hands
//! back, as soon as it ends.

use anyhow::bail;

use crate::analysis::first_seen;
use crate::analysis::trace::{
    MAX_STEPS, Trace, TreeView, check_sizes, trace_window_showing, whole_tree,
};
use crate::base::format::Puzzle;
use crate::base::progress::Progress;
use crate::base::strategy::{Outcome, Strategy};

/// What `trace` watches: the strategies (each once, in the order given),
/// the window of events kept, the node budget, and whether to draw trees.
#[derive(Clone, Debug)]
pub struct Watch {
    pub strategies: Vec<Strategy>,
    pub from: u64,
    pub steps: usize,
    pub budget: Option<u64>,
    pub tree: bool,
}

impl Watch {
    /// Checks the window (`steps` at most [`MAX_STEPS`], `from` counting
    /// from 1) and keeps each strategy once, in the order given.
    pub fn new(
        asked: &[Strategy],
        from: u64,
        steps: usize,
        budget: Option<u64>,
        tree: bool,
    ) -> anyhow::Result<Watch> {
        if steps > MAX_STEPS {
            bail!("--steps {steps} is too large (at most {MAX_STEPS})");
        }
        if from == 0 {
            bail!("--from counts from 1 (the first event of the search)");
        }
        Ok(Watch {
            strategies: first_seen(asked.iter().copied()),
            from,
            steps,
            budget,
            tree,
        })
    }

    /// Traces each strategy in turn on `puzzle` (each must handle its size,
    /// checked before any search runs), telling `progress(strategy)` how the
    /// search goes, and hands each search, with its tree when asked, to
    /// `each` as soon as it ends. Whether every search solved the puzzle.
    pub fn run<P: Progress>(
        &self,
        puzzle: &Puzzle,
        progress: impl Fn(Strategy) -> P,
        mut each: impl FnMut(&Trace, Option<&TreeView>) -> anyhow::Result<()>,
    ) -> anyhow::Result<bool> {
        let b = &puzzle.board;
        check_sizes(&self.strategies, puzzle)?;
        let mut all_solved = true;
        for &strategy in &self.strategies {
            // The progress goes (a bar is cleared) before `each` prints.
            let shown = progress(strategy);
            let t = trace_window_showing(strategy, b, self.budget, self.from, self.steps, &shown);
            drop(shown);
            let t = t?;
            let tree = match self.tree {
                true => Some(whole_tree(b, self.budget, &t)?),
                false => None,
            };
            each(&t, tree.as_ref())?;
            all_solved &= t.outcome == Outcome::Solved;
        }
        Ok(all_solved)
    }
}

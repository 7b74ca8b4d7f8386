//! The strategy ladder. The `ladder!` table below is the one registry of
//! built-in rungs: the CLI, the CSV files and the charts take their names,
//! order and summaries from it, and each rung describes itself in its own
//! file (see [`Rung`]). Adding a rung in this crate is one new file and one
//! line in the table; a rung from outside the crate joins with
//! [`Strategy::add`].
//!
//! A line marked `[variant]` registers a *variant*: a rung's search with one
//! of its switches turned (e.g. `fast-stacks`), so what the switch buys can
//! be measured. A variant runs wherever its name is given (`--strategy`,
//! [`crate::Solver`], the public checks) and `strategies` lists it, but the
//! default selection of `compare`, `ladder` and `speed` ([`Strategy::ALL`],
//! [`Strategy::ladder`]) leaves it out.

use std::any::TypeId;
use std::sync::RwLock;

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::base::board::{Board, BoxSize, VerifyError};
use crate::base::counters::{Counts, NoCount};
use crate::base::search::{End, Limits, Report};

pub(crate) mod rung;
pub use fast::{HARD_AFTER, runs_v3};
pub use rung::{LabCounter, Rung, RungInfo};

/// Declares the rung modules and the [`Strategy`] enum, in ladder order;
/// a line may start with `[variant]` (see the module documentation).
macro_rules! ladder {
    (@is_variant variant) => { true };
    (@is_variant) => { false };
    ($( $([$kind:ident])? $variant:ident => $module:ident :: $rung:ident, )*) => {
        $( mod $module; )*
        $( pub use $module::$rung; )*

        /// Each built-in strategy, with whether it is a variant.
        const BUILT_IN: &[(Strategy, bool)] = &[$( (Strategy::$variant, ladder!(@is_variant $($kind)?)), )*];

        /// How many of [`BUILT_IN`] are variants (or not).
        const fn how_many(variants: bool) -> usize {
            let mut n = 0;
            let mut i = 0;
            while i < BUILT_IN.len() {
                n += (BUILT_IN[i].1 == variants) as usize;
                i += 1;
            }
            n
        }

        /// The built-in strategies that are variants (or not), in table order.
        const fn select<const N: usize>(variants: bool) -> [Strategy; N] {
            let mut out = [Strategy::Naive; N];
            let (mut i, mut k) = (0, 0);
            while i < BUILT_IN.len() {
                if BUILT_IN[i].1 == variants {
                    out[k] = BUILT_IN[i].0;
                    k += 1;
                }
                i += 1;
            }
            out
        }

        /// One rung of the ladder: the name of a strategy on the command line,
        /// in CSV files and on charts. Declaration order is ladder order; rungs
        /// added from outside the crate come after the built-in ones.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Strategy {
            $( $variant, )*
            /// A rung added with [`Strategy::add`].
            Added(Added),
        }

        impl Strategy {
            /// Every built-in rung of the ladder, in ladder order: the default
            /// selection ([`Strategy::ladder`] adds the rungs added from
            /// outside). Variants are in [`Strategy::VARIANTS`].
            pub const ALL: &'static [Strategy] = &select::<{ how_many(false) }>(false);

            /// The built-in variants (lines marked `[variant]`), in table order:
            /// run by name, never by default.
            pub const VARIANTS: &'static [Strategy] = &select::<{ how_many(true) }>(true);

            /// The rung behind this name: description and search.
            pub fn info(self) -> &'static RungInfo {
                match self {
                    $( Strategy::$variant => {
                        static INFO: RungInfo = RungInfo::of::<$module::$rung>();
                        &INFO
                    } )*
                    Strategy::Added(added) => added.info(),
                }
            }
        }
    };
}

ladder! {
    Naive => naive::Naive,
    BlankList => blank_list::BlankList,
    UsedTables => used_tables::UsedTables,
    Bitmask => bitmask::Bitmask,
    Mrv => mrv::Mrv,
    Propagate => propagate::Propagate,
    Dlx => dlx::Dlx,
    [variant] FastNoCols => fast_no_cols::FastNoCols,
    Fast => fast::Fast,
    [variant] FastStacks => fast_stacks::FastStacks,
    [variant] FastGeneric => fast_generic::FastGeneric,
    [variant] FastPlainScore => fast_plain_score::FastPlainScore,
    FastTriads => fast_triads::FastTriads,
    [variant] FastTriadsTdoku => fast_triads_tdoku::FastTriadsTdoku,
}

/// A rung added from outside the crate: its place among the added rungs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Added(u16);

/// The rungs added with [`Strategy::add`], in the order they were added.
static ADDED: RwLock<Vec<(TypeId, &'static RungInfo)>> = RwLock::new(Vec::new());

fn added() -> std::sync::RwLockReadGuard<'static, Vec<(TypeId, &'static RungInfo)>> {
    ADDED.read().unwrap_or_else(|e| e.into_inner())
}

impl Added {
    fn info(self) -> &'static RungInfo {
        added()[self.0 as usize].1
    }
}

/// Why a rung could not be added.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddError {
    #[error(
        "rung name {0:?} is not valid: use lower-case letters, digits and '-', starting with a letter"
    )]
    BadName(&'static str),
    #[error("a different rung is already named {0:?}")]
    Taken(&'static str),
}

impl Strategy {
    /// The strategy used when none is named: the fastest. It is 9×9 only;
    /// [`Strategy::default_for`] picks the fallback for other sizes.
    pub const DEFAULT: Strategy = Strategy::Fast;

    /// The strategy used for a board of this size when none is named:
    /// [`Strategy::DEFAULT`] where it applies, else `propagate` (the fastest
    /// rung for every size). This is the one place that decides defaults for
    /// `solve`, `count` and the generator's uniqueness checks.
    pub fn default_for(size: BoxSize) -> Strategy {
        if Strategy::DEFAULT.supports(size) {
            Strategy::DEFAULT
        } else {
            Strategy::Propagate
        }
    }

    /// Puts rung `R` on the ladder, after the built-in rungs and those added
    /// before it, and returns its name. Adding the same type again returns
    /// the same strategy. From then on it runs wherever a built-in rung
    /// does: [`crate::Solver`], `compare`, `speed`
    /// and `ladder` (by its name, e.g. `--strategy my-rung`).
    ///
    /// ```
    /// use sudoku_lab::base::{Ctx, Flow};
    /// use sudoku_lab::base::strategy::{AddError, Mrv};
    /// use sudoku_lab::{Board, BoxSize, Counter, Rung, Strategy};
    ///
    /// struct MyMrv;
    /// impl Rung for MyMrv {
    ///     const NAME: &'static str = "my-mrv";
    ///     const SUMMARY: &'static str = "mrv's search under a name of my own";
    ///     type Scratch = ();
    ///     fn scratch(_: BoxSize) {}
    ///     fn search<C: Counter>(s: &mut (), puzzle: &Board, ctx: &mut Ctx<C>) -> Flow {
    ///         Mrv::search(s, puzzle, ctx)
    ///     }
    /// }
    ///
    /// let mine = Strategy::add::<MyMrv>().unwrap();
    /// assert_eq!(Strategy::add::<MyMrv>(), Ok(mine)); // the same type: the same strategy
    /// assert_eq!(Strategy::ladder().last(), Some(&mine)); // after the built-in rungs
    /// assert_eq!("my-mrv".parse::<Strategy>().unwrap(), mine); // as the CLI and CSV read it
    ///
    /// struct Impostor;
    /// impl Rung for Impostor {
    ///     const NAME: &'static str = "mrv"; // a built-in rung's name
    ///     const SUMMARY: &'static str = "";
    ///     type Scratch = ();
    ///     fn scratch(_: BoxSize) {}
    ///     fn search<C: Counter>(_: &mut (), _: &Board, ctx: &mut Ctx<C>) -> Flow {
    ///         ctx.enter()
    ///     }
    /// }
    /// assert_eq!(Strategy::add::<Impostor>(), Err(AddError::Taken("mrv")));
    /// ```
    pub fn add<R: Rung>() -> Result<Strategy, AddError> {
        let name = R::NAME;
        let valid = name.starts_with(|c: char| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !valid {
            return Err(AddError::BadName(name));
        }
        let mut table = ADDED.write().unwrap_or_else(|e| e.into_inner());
        let id = TypeId::of::<R>();
        if let Some(i) = table.iter().position(|(t, _)| *t == id) {
            return Ok(Strategy::Added(Added(i as u16)));
        }
        if Strategy::ALL
            .iter()
            .chain(Strategy::VARIANTS)
            .any(|s| s.name() == name)
            || table.iter().any(|(_, r)| r.name == name)
        {
            return Err(AddError::Taken(name));
        }
        let info: &'static RungInfo = Box::leak(Box::new(RungInfo::of::<R>()));
        table.push((id, info));
        Ok(Strategy::Added(Added((table.len() - 1) as u16)))
    }

    /// Every strategy in ladder order: the built-in rungs, then the added ones.
    /// The default selection of the measuring commands (no variants).
    pub fn ladder() -> Vec<Strategy> {
        let extra = added().len();
        Strategy::ALL
            .iter()
            .copied()
            .chain((0..extra).map(|i| Strategy::Added(Added(i as u16))))
            .collect()
    }

    /// Every strategy a name can select: [`Strategy::ladder`], then the
    /// built-in variants.
    pub fn every() -> Vec<Strategy> {
        let mut all = Strategy::ladder();
        all.extend_from_slice(Strategy::VARIANTS);
        all
    }

    /// Whether this strategy is a variant of a rung (not in the default selection).
    pub fn is_variant(self) -> bool {
        Strategy::VARIANTS.contains(&self)
    }

    /// The strategy of this name: a rung (built-in or added) or a variant.
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::every().into_iter().find(|s| s.name() == name)
    }

    /// The CLI/CSV name, e.g. `blank-list`.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// One line: what this rung changes.
    pub fn summary(self) -> &'static str {
        self.info().summary
    }

    /// Whether this strategy handles boards of this size.
    pub fn supports(self, size: BoxSize) -> bool {
        self.info().supports(size)
    }

    /// `Err` with a user-facing message when this strategy cannot run on boards of `size`.
    pub fn check_size(self, size: BoxSize) -> Result<(), String> {
        if self.supports(size) {
            Ok(())
        } else {
            Err(format!("strategy {self} does not support {size} boards"))
        }
    }

    /// True for the rungs that keep `naive`'s cell and digit order and so
    /// visit exactly the same tree.
    pub fn is_row_major(self) -> bool {
        self.info().row_major
    }

    /// Runs with counters on and the clock running, then verifies the
    /// solution against the givens and the rules.
    pub fn run_counted(self, puzzle: &Board, limits: Limits) -> Result<Run, WrongSolution> {
        let start = Instant::now();
        let report = self.run(puzzle, limits, Counts::default());
        let elapsed = start.elapsed();
        let counts = report.counter;
        Run::from_report(self, puzzle, report, counts, elapsed)
    }

    /// Runs with counters off (the timed path) and verifies the solution.
    /// Only `counts.nodes` is filled: the context counts nodes for the budget.
    pub fn run_timed(self, puzzle: &Board, limits: Limits) -> Result<Run, WrongSolution> {
        let start = Instant::now();
        let report = self.run(puzzle, limits, NoCount);
        let elapsed = start.elapsed();
        Run::from_report(self, puzzle, report, Counts::default(), elapsed)
    }

    /// Finds the first solution within an optional node budget.
    pub fn solve(self, puzzle: &Board, budget: Option<u64>) -> Result<Run, WrongSolution> {
        self.run_counted(puzzle, Limits::solve(budget))
    }

    /// Counts solutions up to `limit` within an optional node budget.
    pub fn count(
        self,
        puzzle: &Board,
        limit: u64,
        budget: Option<u64>,
    ) -> Result<Run, WrongSolution> {
        self.run_counted(puzzle, Limits::count(limit, budget))
    }
}

impl std::fmt::Display for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown strategy name; says which names there are.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown strategy {name:?}{hint} (valid: {valid})")]
pub struct UnknownStrategy {
    pub name: String,
    /// ` (did you mean NAME?)`, or empty.
    pub hint: String,
    pub valid: String,
}

impl std::str::FromStr for Strategy {
    type Err = UnknownStrategy;
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Strategy::from_name(name).ok_or_else(|| {
            let every = Strategy::every();
            let names: Vec<&str> = every.iter().map(|s| s.name()).collect();
            UnknownStrategy {
                name: name.to_string(),
                hint: crate::base::names::did_you_mean(name, names.iter().copied()),
                valid: names.join(", "),
            }
        })
    }
}

/// Strategies are written by their registry name and read back by it.
impl Serialize for Strategy {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        ser.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Strategy {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let name = String::deserialize(de)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

/// What happened to one puzzle: the one outcome vocabulary of every
/// command, CSV file and chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// A solution was found (and verified).
    Solved,
    /// The whole tree was searched: there is no solution.
    NoSolution,
    /// The node budget ran out before a solution was found.
    BudgetExceeded,
    /// The strategy does not handle this board size: nothing was run.
    Unsupported,
    /// An outside program ([`crate::io::program`]) answered with a grid that is
    /// not a valid completion of the givens (or, in lex-first mode, not the
    /// lexicographically first one), or with no grid for a solvable puzzle.
    WrongAnswer,
    /// An outside program did not answer within its time limit; it was killed.
    TimeLimit,
    /// An outside program exited with a non-zero status or was killed by a signal.
    Crashed,
    /// An outside program's output could not be read as a grid in its format.
    BadOutput,
}

impl Outcome {
    /// Every outcome, in the order tables list them.
    pub const ALL: [Outcome; 8] = [
        Outcome::Solved,
        Outcome::NoSolution,
        Outcome::BudgetExceeded,
        Outcome::Unsupported,
        Outcome::WrongAnswer,
        Outcome::TimeLimit,
        Outcome::Crashed,
        Outcome::BadOutput,
    ];

    /// How many outcomes there are: the length of per-outcome tables.
    pub const COUNT: usize = Outcome::ALL.len();

    /// The outcomes a rung's run can have (the first four of
    /// [`Outcome::ALL`]): the tables of rungs' rows (`compare`'s
    /// `results.csv`, summary and report) list these only.
    pub const RUNG: [Outcome; 4] = [
        Outcome::Solved,
        Outcome::NoSolution,
        Outcome::BudgetExceeded,
        Outcome::Unsupported,
    ];

    /// True for the outcomes only an outside program can have: it failed
    /// (a rung's wrong answer is a bug in the lab, never an outcome).
    pub fn is_program_failure(self) -> bool {
        matches!(
            self,
            Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput
        )
    }

    /// The outcome of a search that found `solutions` and ended so.
    pub fn of(solutions: u64, end: End) -> Outcome {
        match (solutions, end) {
            (s, _) if s > 0 => Outcome::Solved,
            (_, End::BudgetExceeded) => Outcome::BudgetExceeded,
            _ => Outcome::NoSolution,
        }
    }

    /// The word of the `ladder` tables and the docs (`none`, `budget`):
    /// the same outcomes, shorter.
    pub fn short(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::NoSolution => "none",
            Outcome::BudgetExceeded => "budget",
            Outcome::Unsupported => "unsupported",
            // Outside programs' outcomes keep their one name.
            Outcome::WrongAnswer | Outcome::TimeLimit | Outcome::Crashed | Outcome::BadOutput => {
                self.name()
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::NoSolution => "no-solution",
            Outcome::BudgetExceeded => "budget-exceeded",
            Outcome::Unsupported => "unsupported",
            Outcome::WrongAnswer => "wrong-answer",
            Outcome::TimeLimit => "time-limit",
            Outcome::Crashed => "crashed",
            Outcome::BadOutput => "bad-output",
        }
    }

    /// The outcome of this name (as [`Outcome::name`] writes it).
    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }
}

impl std::fmt::Display for Outcome {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A verified, counted run of one strategy on one puzzle.
#[derive(Clone, Debug)]
pub struct Run {
    pub outcome: Outcome,
    pub end: End,
    /// Solutions found (exact when `end == Exhausted`).
    pub solutions: u64,
    /// The first solution, verified.
    pub solution: Option<Board>,
    /// Work counts; after [`Strategy::run_timed`] only `nodes` is filled.
    pub counts: Counts,
    pub elapsed: Duration,
}

impl Run {
    fn from_report<C>(
        strategy: Strategy,
        puzzle: &Board,
        report: Report<C>,
        mut counts: Counts,
        elapsed: Duration,
    ) -> Result<Run, WrongSolution> {
        if let Some(sol) = &report.first {
            verify(strategy, puzzle, sol)?;
        }
        let outcome = Outcome::of(report.solutions, report.end);
        counts.nodes = report.nodes;
        Ok(Run {
            outcome,
            end: report.end,
            solutions: report.solutions,
            solution: report.first,
            counts,
            elapsed,
        })
    }
}

/// A strategy returned a grid that is not a solution: a bug in the lab,
/// reported loudly, never passed on.
#[derive(Debug, thiserror::Error)]
#[error("BUG: strategy {strategy} returned a wrong solution for {puzzle:?}: {reason}")]
pub struct WrongSolution {
    pub strategy: Strategy,
    pub puzzle: Board,
    pub reason: VerifyError,
}

/// Checks a strategy's answer against the puzzle's givens and the rules.
pub(crate) fn verify(
    strategy: Strategy,
    puzzle: &Board,
    solution: &Board,
) -> Result<(), WrongSolution> {
    verify_cells(strategy, puzzle, solution.cells())
}

/// [`verify`] for an answer given as raw values (e.g. a [`crate::Solver`]'s buffer).
pub(crate) fn verify_cells(
    strategy: Strategy,
    puzzle: &Board,
    solution: &[u8],
) -> Result<(), WrongSolution> {
    puzzle
        .check_cells(solution)
        .map_err(|reason| WrongSolution {
            strategy,
            puzzle: puzzle.clone(),
            reason,
        })
}

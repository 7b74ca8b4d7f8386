//! The shared search context: node budget, solution limit and the first
//! solution's buffer. Every strategy drives its search through a [`Ctx`].

use crate::base::board::Board;
use crate::base::counters::{Admit, Counter};

/// Why a search stopped before exhausting its tree. Propagated with `?`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The requested number of solutions was found.
    SolutionLimit,
    /// The node budget ran out.
    Budget,
    /// A child the size estimator's probe does not follow
    /// ([`crate::analysis::estimate`]): returned by [`Ctx::enter`] only to a steering
    /// counter, and turned back into `Ok(())` by the parent's [`Ctx::descend`].
    Pruned,
    /// The estimator's probe has seen all it needs and ends the search.
    ProbeDone,
}

/// The result type of every recursive search step: `Ok(())` means "this
/// subtree is done, keep going"; `Err(stop)` unwinds the whole search.
pub type Flow = Result<(), Stop>;

/// What a search is asked to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this many solutions (1 = solve, K = count up to K). At least 1.
    pub max_solutions: u64,
    /// Stop after visiting this many nodes (`u64::MAX`: unlimited).
    pub node_budget: u64,
}

impl Limits {
    /// Find the first solution, within an optional budget.
    pub fn solve(budget: Option<u64>) -> Self {
        Limits::count(1, budget)
    }
    /// Count solutions up to `limit`, within an optional budget.
    pub fn count(limit: u64, budget: Option<u64>) -> Self {
        Limits {
            max_solutions: limit.max(1),
            node_budget: budget.unwrap_or(u64::MAX),
        }
    }
}

/// A node budget: at most this many search nodes per puzzle (at least 1,
/// since the root is a node), or unlimited. One type, with one meaning, for
/// every command's `--budget`: a positive number, or `unlimited`; 0 is
/// refused, because a search of 0 nodes would report every puzzle as over
/// budget without looking at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Budget(Option<std::num::NonZeroU64>);

impl Budget {
    /// No limit.
    pub const UNLIMITED: Budget = Budget(None);

    /// At most `n` nodes; `n` must be at least 1.
    pub const fn nodes(n: u64) -> Budget {
        match std::num::NonZeroU64::new(n) {
            Some(n) => Budget(Some(n)),
            None => panic!("a node budget is at least 1"),
        }
    }

    /// The node limit, `None` when unlimited.
    pub fn get(self) -> Option<u64> {
        self.0.map(|n| n.get())
    }
}

/// `5000000` or `unlimited`: what `--budget` takes back.
impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.get() {
            Some(n) => write!(f, "{n}"),
            None => f.write_str("unlimited"),
        }
    }
}

/// Written as a number (`5000000`: JSON readers get a number, not text),
/// or `"unlimited"`.
impl serde::Serialize for Budget {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        match self.get() {
            Some(n) => ser.serialize_u64(n),
            None => ser.serialize_str("unlimited"),
        }
    }
}

/// Reads a number, or any text [`Budget`]'s `FromStr` takes (files
/// written when the budget was text too).
impl<'de> serde::Deserialize<'de> for Budget {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Budget;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number of nodes (at least 1) or \"unlimited\"")
            }
            fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Budget, E> {
                self.visit_str(&n.to_string())
            }
            fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Budget, E> {
                self.visit_str(&n.to_string())
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Budget, E> {
                text.parse().map_err(E::custom)
            }
        }
        de.deserialize_any(Visitor)
    }
}

/// `5000000`, `5_000_000` or `5,000,000` nodes, or `unlimited`.
impl std::str::FromStr for Budget {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("unlimited") || t.eq_ignore_ascii_case("none") {
            return Ok(Budget::UNLIMITED);
        }
        let digits: String = t.chars().filter(|&c| c != '_' && c != ',').collect();
        match digits.parse::<u64>() {
            Ok(0) => Err(
                "a budget of 0 nodes would not even visit the root; give at least 1, or `unlimited`"
                    .to_string(),
            ),
            Ok(n) => Ok(Budget::nodes(n)),
            Err(_) => Err(format!(
                "expected a number of nodes (at least 1) or `unlimited`, got {s:?}"
            )),
        }
    }
}

/// How a search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum End {
    /// The whole tree was explored: the solution count is exact.
    Exhausted,
    /// `max_solutions` solutions were found; there may be more.
    SolutionLimit,
    /// The node budget ran out first.
    BudgetExceeded,
}

/// State shared by a search and its caller. It allocates nothing: the first
/// solution is copied into a buffer the caller owns (a [`crate::Solver`]
/// keeps one for every puzzle it solves).
pub struct Ctx<'a, C> {
    pub counter: C,
    nodes: u64,
    /// Guesses made so far (see [`Ctx::guess`]): kept for every counter,
    /// so a timed run can still say how often it guessed.
    guesses: u64,
    /// Guesses that entered the last way of their branch point
    /// ([`Ctx::last_way`]).
    last_ways: u64,
    budget: u64,
    solutions: u64,
    max_solutions: u64,
    first: &'a mut [u8],
}

impl<'a, C: Counter> Ctx<'a, C> {
    /// A context for one search; `first` receives the first solution and
    /// must hold one value per cell of the board searched.
    pub fn new(limits: Limits, counter: C, first: &'a mut [u8]) -> Self {
        Ctx {
            counter,
            nodes: 0,
            guesses: 0,
            last_ways: 0,
            budget: limits.node_budget,
            solutions: 0,
            max_solutions: limits.max_solutions.max(1),
            first,
        }
    }

    /// Call on entry to every search node. Fails once the budget is spent
    /// (or, for a steering counter only, when the node is not to be searched).
    #[inline(always)]
    pub fn enter(&mut self) -> Flow {
        if C::STEERS {
            match self.counter.admit() {
                Admit::Enter => {}
                Admit::Skip => return Err(Stop::Pruned),
                Admit::Stop => return Err(Stop::ProbeDone),
            }
        }
        if self.nodes == self.budget {
            return Err(Stop::Budget);
        }
        self.nodes += 1;
        self.counter.node();
        Ok(())
    }

    /// Call for every guess: a placement made where more than one candidate
    /// remained (the `guesses` counter). It is counted here for every
    /// counter, [`NoCount`](crate::NoCount) included (one add per guess, a
    /// tiny share of a node's work), so [`crate::Solver::guesses`] is true
    /// on the timed path too; then the counter hears of it.
    #[inline(always)]
    pub fn guess(&mut self) {
        self.guesses += 1;
        self.counter.guess();
    }

    /// Call with the [`Ctx::guess`] of a branch point's last way: tdoku
    /// branches one way against the rest and enters the rest as a
    /// deduction, so a branch point whose `n` ways were all entered is
    /// `n - 1` of its guesses ([`Tally::binary_guesses`]). One add, on
    /// the timed path too.
    #[inline(always)]
    pub fn last_way(&mut self) {
        self.last_ways += 1;
    }

    /// Runs one child of the current node: every recursive call of a search
    /// goes through here (`ctx.descend(|ctx| self.dfs(ctx))?`). For the
    /// lab's ordinary counters it is the call itself; for the size
    /// estimator's probe it turns a skipped child back into `Ok(())` and
    /// tells the probe that a child it followed has returned, so one probe
    /// can follow one random path through the rung's own search
    /// ([`crate::analysis::estimate`]).
    #[inline(always)]
    pub fn descend(&mut self, child: impl FnOnce(&mut Self) -> Flow) -> Flow {
        let flow = child(self);
        if C::STEERS {
            match flow {
                Err(Stop::Pruned) => Ok(()),
                Ok(()) => {
                    self.counter.left();
                    Ok(())
                }
                stop => stop,
            }
        } else {
            flow
        }
    }

    /// Call with a complete grid. Keeps the first one; fails when the
    /// solution limit is reached.
    #[inline]
    pub fn solution(&mut self, cells: &[u8]) -> Flow {
        if self.solutions == 0 {
            let len = self.first.len();
            self.first.copy_from_slice(&cells[..len]);
        }
        self.counter.solution();
        self.solutions += 1;
        if self.solutions >= self.max_solutions {
            Err(Stop::SolutionLimit)
        } else {
            Ok(())
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }
    pub fn solutions(&self) -> u64 {
        self.solutions
    }
    pub fn guesses(&self) -> u64 {
        self.guesses
    }

    /// Ends the search: how it ended, what it counted. The first solution,
    /// if any, is in the caller's buffer.
    pub fn finish(self, flow: Flow) -> Tally<C> {
        let end = match flow {
            Ok(()) => End::Exhausted,
            Err(Stop::SolutionLimit) => End::SolutionLimit,
            // Only a probe's search stops these ways, and it reads its own
            // counter, not this ending.
            Err(Stop::Budget | Stop::Pruned | Stop::ProbeDone) => End::BudgetExceeded,
        };
        Tally {
            end,
            solutions: self.solutions,
            nodes: self.nodes,
            guesses: self.guesses,
            binary_guesses: self.guesses - self.last_ways,
            counter: self.counter,
        }
    }
}

/// How a search ended and what it counted, without the solution (which the
/// caller's buffer holds): what a [`crate::Solver`] returns, allocation-free.
#[derive(Clone, Copy, Debug)]
pub struct Tally<C> {
    pub end: End,
    /// Solutions found (exact only when `end == Exhausted`).
    pub solutions: u64,
    pub nodes: u64,
    /// Guesses made ([`Ctx::guess`]), whatever the counter.
    pub guesses: u64,
    /// The guesses in tdoku's unit, one per binary branch: `guesses` less
    /// those that entered the last way of their branch point
    /// ([`Ctx::last_way`]), which tdoku enters as a deduction.
    pub binary_guesses: u64,
    pub counter: C,
}

/// Everything a search returns: how it ended, what it found, what it counted.
#[derive(Clone, Debug)]
pub struct Report<C> {
    pub end: End,
    /// Solutions found (exact only when `end == Exhausted`).
    pub solutions: u64,
    pub nodes: u64,
    /// The first solution found, *not yet verified*: see [`Board::check_solution`].
    pub first: Option<Board>,
    pub counter: C,
}

#[cfg(test)]
mod budget_tests {
    use super::Budget;

    #[test]
    fn a_budget_is_a_json_number_and_reads_back_from_either_form() {
        let b = Budget::nodes(5_000_000);
        assert_eq!(serde_json::to_string(&b).unwrap(), "5000000");
        assert_eq!(
            serde_json::to_string(&Budget::UNLIMITED).unwrap(),
            "\"unlimited\""
        );
        for text in ["5000000", "\"5000000\"", "\"5,000,000\""] {
            assert_eq!(serde_json::from_str::<Budget>(text).unwrap(), b, "{text}");
        }
        assert_eq!(
            serde_json::from_str::<Budget>("\"unlimited\"").unwrap(),
            Budget::UNLIMITED
        );
        assert!(serde_json::from_str::<Budget>("0").is_err());
    }
}

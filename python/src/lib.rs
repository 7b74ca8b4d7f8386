//! `sudoku_lab._native`: the lab's library called from Python. Every
//! function here calls what the command line calls (`src/cli/*.rs`): the
//! same measurement, verification and counters; this file only converts
//! arguments and rows. The pure-Python half (`sudoku_lab/__init__.py`)
//! adds the pandas helpers.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::{PyException, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use sudoku_lab::analysis::{self, LadderPlan, LadderRow};
use sudoku_lab::analysis::{Event, EventKind, MAX_STEPS};
use sudoku_lab::base::format::{Format, Puzzle, parse_one, parse_str};
use sudoku_lab::base::{Budget, End, Limits};
use sudoku_lab::io::Dataset;
use sudoku_lab::io::Sample;
use sudoku_lab::io::program::{Mode, ProgramName, Reference, judge};
use sudoku_lab::measure::ProgramRow;
use sudoku_lab::measure::{self, Clock, Method};
use sudoku_lab::run::{self, Item, Plan};
use sudoku_lab::{Board, Counts, Outcome, Strategy, base::defaults};

/// How often a long call looks for Ctrl-C while the lab works.
const POLL: Duration = Duration::from_millis(50);

/// A lab error as Python sees it: bad input (positioned, as the command
/// line prints it) is `ValueError`, a failed read `OSError`, a bug the lab
/// found in itself (a wrong answer from a rung) `RuntimeError`.
fn lab_error(e: anyhow::Error) -> PyErr {
    let text = format!("{e:#}");
    if e.chain().any(|c| c.is::<std::io::Error>()) {
        PyOSError::new_err(text)
    } else if e
        .chain()
        .any(|c| c.is::<measure::Bug>() || c.is::<sudoku_lab::base::strategy::WrongSolution>())
    {
        PyRuntimeError::new_err(text)
    } else {
        PyValueError::new_err(text)
    }
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Runs `work` on another thread with the GIL released, looking for
/// Ctrl-C meanwhile: on one, `stop` is set, `work` is awaited (it ends at
/// its next look at `stop`) and `KeyboardInterrupt` raised.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> anyhow::Result<T> + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let (result, signal) = py.detach(|| {
        std::thread::scope(|s| {
            let (done, wait) = mpsc::channel::<()>();
            let stop = &stop;
            let worker = s.spawn(move || {
                let r = work(stop);
                drop(done);
                r
            });
            let mut signal = None;
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(POLL) {
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    stop.store(true, Ordering::SeqCst);
                    signal = Some(e);
                    break;
                }
            }
            (worker.join(), signal)
        })
    });
    if let Some(e) = signal {
        // Says where it struck (Python 3.11 and later show notes).
        let value = e.value(py);
        if value.hasattr("add_note")? {
            value.call_method1("add_note", ("sudoku_lab: the lab's work was stopped",))?;
        }
        return Err(e);
    }
    match result {
        Ok(r) => r.map_err(lab_error),
        Err(_) => Err(PyRuntimeError::new_err("BUG: the lab panicked")),
    }
}

/// The error a stopped `work` of [`interruptible`] ends with (never seen:
/// the `KeyboardInterrupt` is raised instead).
fn stopped(stop: &AtomicBool) -> anyhow::Result<()> {
    if stop.load(Ordering::SeqCst) {
        anyhow::bail!("interrupted");
    }
    Ok(())
}

fn strategy(name: Option<&str>, board: &Board) -> PyResult<Strategy> {
    let s = match name {
        Some(n) => n.parse::<Strategy>().map_err(value_error)?,
        None => Strategy::default_for(board.size()),
    };
    s.check_size(board.size()).map_err(value_error)?;
    Ok(s)
}

/// Strategy names in ladder order, each once; every rung when `None`
/// (as `--strategy` reads them).
fn strategies_arg(names: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Strategy>> {
    let Some(names) = names else {
        return Ok(Strategy::ladder());
    };
    let names = names_arg(names)?;
    let mut v = names
        .iter()
        .map(|n| n.parse::<Strategy>().map_err(value_error))
        .collect::<PyResult<Vec<_>>>()?;
    v.sort();
    v.dedup();
    if v.is_empty() {
        return Err(PyValueError::new_err("strategies: name at least one"));
    }
    Ok(v)
}

/// One name, or a list of names (`"fast"`, `["mrv", "fast"]`).
fn names_arg(names: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    if let Ok(one) = names.extract::<String>() {
        return Ok(vec![one]);
    }
    names
        .extract::<Vec<String>>()
        .map_err(|_| PyValueError::new_err("give a name or a list of names"))
}

/// A node budget: a number of nodes, or `"unlimited"` (as `--budget` reads it).
fn budget_arg(b: Option<&Bound<'_, PyAny>>, default: Budget) -> PyResult<Budget> {
    let Some(b) = b else { return Ok(default) };
    let text = match b.extract::<i64>() {
        Ok(n) => n.to_string(),
        Err(_) => b.extract::<String>().map_err(|_| {
            PyValueError::new_err("budget: give a number of nodes or \"unlimited\"")
        })?,
    };
    text.parse::<Budget>()
        .map_err(|e| PyValueError::new_err(format!("budget: {e}")))
}

/// A puzzle as text in any of the lab's layouts, or as rows of numbers
/// (0 for a blank), which are read as the grid layout, so that every
/// mistake gets the reader's positioned message.
fn puzzle_text(p: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = p.cast::<PyString>() {
        return Ok(s.to_str()?.to_string());
    }
    let rows: Vec<Vec<i64>> = p.extract().map_err(|_| {
        PyValueError::new_err(
            "a puzzle is a string (line, grid or compact layout) or a list of rows of numbers",
        )
    })?;
    Ok(grid_text(&rows))
}

/// Rows of numbers as the grid layout (Baekjoon 2580's), for the lab's readers.
fn grid_text(rows: &[Vec<i64>]) -> String {
    rows.iter()
        .map(|r| r.iter().map(i64::to_string).collect::<Vec<_>>().join(" ") + "\n")
        .collect()
}

fn one_puzzle(p: &Bound<'_, PyAny>) -> PyResult<Puzzle> {
    let text = puzzle_text(p)?;
    Ok(parse_one(&text).map_err(value_error)?.1)
}

/// Puzzles to measure: a puzzle file's path, a shipped dataset's name, one
/// puzzle (or several, as text), or a list of puzzles.
fn puzzles_arg(p: &Bound<'_, PyAny>) -> PyResult<Dataset> {
    let path: Option<PathBuf> = if p.is_instance_of::<PyString>() {
        None
    } else {
        p.extract::<PathBuf>().ok()
    };
    if let Some(path) = path {
        return Dataset::load(&path).map_err(lab_error);
    }
    if let Ok(s) = p.extract::<String>() {
        if Path::new(&s).is_file() {
            return Dataset::load(Path::new(&s)).map_err(lab_error);
        }
        // A shipped dataset's name (`curated/famous-hard`); puzzle text has no `/`.
        if !s.contains('\n')
            && s.contains('/')
            && let Some(source) = run::resolve_sources(std::slice::from_ref(&s))
                .ok()
                .and_then(|v| v.into_iter().next())
        {
            return Dataset::load_named(&source.path, source.name, None).map_err(lab_error);
        }
        let (_, puzzles) = parse_str(&s).map_err(|e| {
            // No puzzle has a `/` or ends in `.txt`: a mistyped file or dataset name.
            let a_name = !s.contains('\n')
                && (s.contains('/') || s.ends_with(".txt") || s.ends_with(".csv"));
            if a_name {
                PyValueError::new_err(format!(
                    "{s}: no such puzzle file or shipped dataset (nor a puzzle: {e})"
                ))
            } else {
                value_error(e)
            }
        })?;
        return Ok(in_memory(puzzles));
    }
    let list = p.cast::<PyList>().map_err(|_| {
        PyValueError::new_err("puzzles: give a file, a dataset name, a puzzle or a list of puzzles")
    })?;
    let puzzles = list
        .iter()
        .enumerate()
        .map(|(i, x)| {
            one_puzzle(&x)
                .map_err(|e| PyValueError::new_err(format!("puzzle {} of the list: {e}", i + 1)))
        })
        .collect::<PyResult<Vec<_>>>()?;
    if puzzles.is_empty() {
        return Err(PyValueError::new_err("puzzles: the list is empty"));
    }
    Ok(in_memory(puzzles))
}

/// Puzzles handed over from Python, as a dataset named `puzzles`.
fn in_memory(puzzles: Vec<Puzzle>) -> Dataset {
    let n = puzzles.len();
    Dataset {
        name: "puzzles".to_string(),
        path: PathBuf::from("<input>"),
        puzzles,
        expected: vec![None; n],
        positions: (1..=n as u64).collect(),
    }
}

fn line(board: &Board) -> String {
    sudoku_lab::base::format::to_line(board)
}

/// Every counter into `d` by its name (`None` each for a run that did not run).
fn put_counters(d: &Bound<'_, PyDict>, counts: Option<&Counts>) -> PyResult<()> {
    let values = counts.map(Counts::values);
    for (i, name) in Counts::NAMES.iter().enumerate() {
        d.set_item(name, values.map(|v| v[i]))?;
    }
    Ok(())
}

fn end_name(end: End) -> &'static str {
    match end {
        End::Exhausted => "exhausted",
        End::SolutionLimit => "solution-limit",
        End::BudgetExceeded => "budget-exceeded",
    }
}

/// The columns kept as text when CSV fields become Python values.
const TEXT_COLUMNS: [&str; 6] = ["dataset", "name", "strategy", "outcome", "reason", "clock"];

/// A CSV row as a dict: the lab's own columns and fields (`results.csv`,
/// `programs.csv`), numbers as numbers, empty fields as `None`.
fn record<'py>(
    py: Python<'py>,
    columns: &[&str],
    fields: &[String],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (c, f) in columns.iter().zip(fields) {
        if f.is_empty() {
            d.set_item(c, py.None())?;
        } else if TEXT_COLUMNS.contains(c) {
            d.set_item(c, f)?;
        } else if let Ok(i) = f.parse::<i64>() {
            d.set_item(c, i)?;
        } else if let Ok(x) = f.parse::<f64>() {
            d.set_item(c, x)?;
        } else {
            d.set_item(c, f)?;
        }
    }
    Ok(d)
}

/// Every strategy (the ladder's rungs, then the variants): name, summary,
/// and whether it is a rung of the ladder.
#[pyfunction]
fn strategies(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    let ladder = Strategy::ladder();
    Strategy::every()
        .into_iter()
        .map(|s| {
            let d = PyDict::new(py);
            d.set_item("name", s.name())?;
            d.set_item("summary", s.summary())?;
            d.set_item("rung", ladder.contains(&s))?;
            Ok(d)
        })
        .collect()
}

/// Counts (and, with `time`, times) one run as `solve --stats` and
/// `count --stats` do, into a dict.
fn measured<'py>(
    py: Python<'py>,
    s: Strategy,
    board: &Board,
    limits: Limits,
    time: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let m = py
        .detach(|| {
            if time {
                measure::measure(s, board, limits, &Method::DEFAULT)
            } else {
                measure::count(s, board, limits)
            }
        })
        .map_err(|e| lab_error(e.into()))?;
    let d = PyDict::new(py);
    d.set_item("strategy", s.name())?;
    d.set_item("outcome", m.outcome.name())?;
    d.set_item("end", end_name(m.end))?;
    d.set_item("solutions", m.solutions)?;
    let c = PyDict::new(py);
    put_counters(&c, Some(&m.counts))?;
    d.set_item("counters", c)?;
    d.set_item("time_ns", m.timing.map(|t| t.ns()))?;
    Ok(d)
}

/// Solves one puzzle: its verified solution (line layout, or `None`),
/// outcome, counters and, with `time`, the lab's time of one run (median
/// per-thread CPU time, as `solve --stats`).
#[pyfunction]
#[pyo3(signature = (puzzle, strategy=None, budget=None, time=true))]
fn solve<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    strategy: Option<&str>,
    budget: Option<&Bound<'py, PyAny>>,
    time: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let p = one_puzzle(puzzle)?;
    let s = self::strategy(strategy, &p.board)?;
    let limits = Limits::solve(budget_arg(budget, defaults::SOLVE_BUDGET)?.get());
    let run = py
        .detach(|| s.run_timed(&p.board, limits))
        .map_err(|e| lab_error(e.into()))?;
    let d = measured(py, s, &p.board, limits, time)?;
    d.set_item("solution", run.solution.as_ref().map(line))?;
    Ok(d)
}

/// Counts the solutions of one puzzle, up to `limit`: `solutions` is exact
/// when `end` is `exhausted`; counters and time as [`solve`].
#[pyfunction]
#[pyo3(signature = (puzzle, strategy=None, limit=2, budget=None, time=true))]
fn count<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    strategy: Option<&str>,
    limit: u64,
    budget: Option<&Bound<'py, PyAny>>,
    time: bool,
) -> PyResult<Bound<'py, PyDict>> {
    if limit == 0 {
        return Err(PyValueError::new_err("limit: at least 1 solution"));
    }
    let p = one_puzzle(puzzle)?;
    let s = self::strategy(strategy, &p.board)?;
    let limits = Limits::count(limit, budget_arg(budget, defaults::SOLVE_BUDGET)?.get());
    measured(py, s, &p.board, limits, time)
}

/// `ladder --json`'s rows: every strategy on every puzzle, measured as the
/// `ladder` command measures them, counters flattened into the row.
/// The GIL is released; Ctrl-C is raised once the measuring ends.
#[pyfunction]
#[pyo3(signature = (puzzles, strategies=None, budget=None, limit=None))]
fn ladder<'py>(
    py: Python<'py>,
    puzzles: &Bound<'py, PyAny>,
    strategies: Option<&Bound<'py, PyAny>>,
    budget: Option<&Bound<'py, PyAny>>,
    limit: Option<u64>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let set = puzzles_arg(puzzles)?;
    let strategies = strategies_arg(strategies)?;
    let budget = budget_arg(budget, defaults::MEASURE_BUDGET)?;
    let method = Method::DEFAULT;
    let plan = LadderPlan {
        strategies: &strategies,
        limits: Limits::count(limit.unwrap_or(defaults::LIMIT).max(1), budget.get()),
        method: &method,
        first: usize::MAX,
        symmetries: false,
    };
    let out = interruptible(py, |_| {
        analysis::ladder(
            &plan,
            &[(set.path.as_path(), &set)],
            &sudoku_lab::base::Quiet,
        )
    })?;
    let mut rows = Vec::new();
    for (set, labelled) in &out {
        for l in labelled {
            let r = LadderRow::of(l);
            let d = PyDict::new(py);
            d.set_item("set", set)?;
            d.set_item("puzzle", &r.puzzle)?;
            d.set_item("strategy", r.strategy.name())?;
            d.set_item("outcome", r.outcome.name())?;
            put_counters(&d, r.counts.as_ref())?;
            d.set_item("time_ns", r.time_ns)?;
            d.set_item("ns_per_node", r.ns_per_node)?;
            rows.push(d);
        }
    }
    Ok(rows)
}

/// The events of one traced search, from event `start` on (1-based), at
/// most `steps` of them, as `trace` lists them.
#[pyfunction]
#[pyo3(signature = (puzzle, strategy=None, steps=30, start=1, budget=None))]
fn trace<'py>(
    py: Python<'py>,
    puzzle: &Bound<'py, PyAny>,
    strategy: Option<&str>,
    steps: usize,
    start: u64,
    budget: Option<&Bound<'py, PyAny>>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    if steps > MAX_STEPS {
        return Err(PyValueError::new_err(format!(
            "steps: {steps} is too large (at most {MAX_STEPS})"
        )));
    }
    if start == 0 {
        return Err(PyValueError::new_err(
            "start counts from 1 (the first event of the search)",
        ));
    }
    let p = one_puzzle(puzzle)?;
    let s = self::strategy(Some(strategy.unwrap_or(Strategy::DEFAULT.name())), &p.board)?;
    let budget = budget_arg(budget, defaults::MEASURE_BUDGET)?.get();
    let t = py
        .detach(|| sudoku_lab::analysis::trace_window(s, &p.board, budget, start, steps))
        .map_err(|e| lab_error(e.into()))?;
    let g = p.board.geometry();
    t.tracer.events().iter().map(|e| event(py, e, g)).collect()
}

fn event<'py>(
    py: Python<'py>,
    e: &Event,
    g: &sudoku_lab::base::Geometry,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("step", e.step)?;
    d.set_item("depth", e.depth)?;
    d.set_item("nodes", e.nodes)?;
    d.set_item("probes", e.probes)?;
    let (kind, cell, digit) = match e.kind {
        EventKind::Place { cell, digit, .. } => ("place", Some(cell), Some(digit)),
        EventKind::Backtrack { cell, digit } => ("backtrack", Some(cell), Some(digit)),
        EventKind::Way { digit, .. } => ("way", None, Some(digit)),
        EventKind::WayBack { digit, .. } => ("way-back", None, Some(digit)),
        EventKind::Forced { cell, digit, .. } => ("forced", Some(cell), Some(digit)),
        EventKind::DeadEnd(_) => ("dead-end", None, None),
        EventKind::Solution => ("solution", None, None),
    };
    d.set_item("kind", kind)?;
    d.set_item("cell", cell.map(|c| g.name(c)))?;
    d.set_item("digit", digit)?;
    d.set_item("text", e.describe(g))?;
    Ok(d)
}

/// `compare`'s rows (`results.csv`, one per puzzle × strategy), measured
/// exactly as `compare` measures them, with the GIL released; Ctrl-C
/// stops it (`KeyboardInterrupt`) once the groups in hand are measured.
#[pyfunction]
#[pyo3(signature = (datasets=None, strategies=None, budget=None, limit=None, sample=None, seed=None, jobs=None))]
#[allow(clippy::too_many_arguments)]
fn compare<'py>(
    py: Python<'py>,
    datasets: Option<&Bound<'py, PyAny>>,
    strategies: Option<&Bound<'py, PyAny>>,
    budget: Option<&Bound<'py, PyAny>>,
    limit: Option<u64>,
    sample: Option<u64>,
    seed: Option<u64>,
    jobs: Option<usize>,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let seed = seed.unwrap_or(defaults::SEED);
    if sample == Some(0) || limit == Some(0) || jobs == Some(0) {
        return Err(PyValueError::new_err(
            "sample, limit and jobs: at least 1 when given",
        ));
    }
    let plan = Plan {
        sources: run::resolve_sources(&datasets.map(names_arg).transpose()?.unwrap_or_default())
            .map_err(lab_error)?,
        strategies: strategies_arg(strategies)?,
        budget: budget_arg(budget, defaults::MEASURE_BUDGET)?,
        limit: limit.unwrap_or(defaults::LIMIT),
        sample: sample.map(|n| Sample { n, seed }),
        method: Method {
            seed,
            ..Method::DEFAULT
        },
        jobs: jobs.unwrap_or_else(defaults::jobs),
        programs: Vec::new(),
        shard: None,
    };
    let rows = interruptible(py, |stop| {
        let prepared = run::prepare(&plan)?;
        let mut rows = Vec::new();
        run::execute(
            &plan,
            &prepared,
            &[],
            &mut |f| {
                stopped(stop)?;
                rows.push(f.row);
                Ok(())
            },
            &|_| {},
        )?;
        Ok(rows)
    })?;
    let columns = measure::columns();
    rows.iter()
        .map(|r| record(py, &columns, &r.record()))
        .collect()
}

/// A Python solver's answer as text the lab's judge reads: rows of
/// numbers become the grid layout; a string is read in the layout its
/// shape says.
fn answer_text(a: &Bound<'_, PyAny>) -> Result<(String, Format), String> {
    if let Ok(s) = a.extract::<String>() {
        let lines = s.lines().filter(|l| !l.trim().is_empty()).count();
        let format = match lines {
            0 | 1 => Format::Line,
            _ if s.trim().contains(' ') => Format::Grid,
            _ => Format::Compact,
        };
        return Ok((s, format));
    }
    let rows: Vec<Vec<i64>> = a
        .extract()
        .map_err(|_| "returned neither rows of numbers nor a string".to_string())?;
    Ok((grid_text(&rows), Format::Grid))
}

/// The puzzle as rows of numbers, 0 for a blank: what a Python solver gets.
fn rows(board: &Board) -> Vec<Vec<i64>> {
    let n = board.size().side();
    board
        .cells()
        .chunks(n)
        .map(|r| r.iter().map(|&v| i64::from(v)).collect())
        .collect()
}

/// Races a Python solver against the rungs on the same puzzles, as
/// `compare --program` races a program: the rungs first (measured as
/// `compare` measures them, GIL released), then `solver` once per puzzle,
/// given the puzzle as rows of numbers (0 for a blank). It answers with
/// the solved rows (or a string), fills the rows it was given and returns
/// `None`, or returns `None` untouched for "no solution". Each answer is
/// judged against the givens and the rules; its time is the per-thread CPU
/// time of the call (the lab's clock). An exception is a `crashed` puzzle
/// (Ctrl-C is not: it stops the race). Returns the rows (`results.csv`'s
/// and `programs.csv`'s columns) and the report's placement sentences.
#[pyfunction]
#[pyo3(signature = (solver, puzzles, strategies=None, name=None, budget=None))]
fn race<'py>(
    py: Python<'py>,
    solver: &Bound<'py, PyAny>,
    puzzles: &Bound<'py, PyAny>,
    strategies: Option<&Bound<'py, PyAny>>,
    name: Option<String>,
    budget: Option<&Bound<'py, PyAny>>,
) -> PyResult<(Vec<Bound<'py, PyDict>>, Vec<String>)> {
    if !solver.is_callable() {
        return Err(PyValueError::new_err("race: the solver must be a function"));
    }
    let program = match name {
        Some(n) => ProgramName::new(&n).map_err(value_error)?,
        // The function's name as a program name (`my_solver` → `my-solver`);
        // a lambda's, or one a rung has, is `python-solver`.
        None => solver
            .getattr("__name__")
            .and_then(|n| n.extract::<String>())
            .ok()
            .and_then(|n| ProgramName::new(&n.to_lowercase().replace('_', "-")).ok())
            .map_or_else(|| ProgramName::new("python-solver"), Ok)
            .map_err(value_error)?,
    };
    let set = puzzles_arg(puzzles)?;
    let strategies = strategies_arg(strategies)?;
    let budget = budget_arg(budget, defaults::MEASURE_BUDGET)?;
    let items: Vec<Item> = set
        .puzzles
        .iter()
        .zip(&set.positions)
        .map(|(p, &index)| Item {
            index,
            line: p.line as u64,
            name: p.name.clone().unwrap_or_default(),
            board: p.board.clone(),
        })
        .collect();
    let rung_rows = interruptible(py, |stop| {
        let mut rows = Vec::new();
        for item in &items {
            for &s in &strategies {
                stopped(stop)?;
                rows.push(run::measure(&set.name, item, s, budget, &Method::DEFAULT)?.0);
            }
        }
        Ok(rows)
    })?;
    let mut mine = Vec::new();
    for item in &items {
        let puzzle_rows = rows(&item.board);
        let given = PyList::new(py, &puzzle_rows)?;
        let clock = Clock::start();
        let answer = solver.call1((given.clone(),));
        let (cpu, wall) = clock.stop();
        let judged = match answer {
            Err(e) if !e.is_instance_of::<PyException>(py) => return Err(e),
            Err(e) => (
                Outcome::Crashed,
                format!("raised {e}")
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .to_string(),
            ),
            Ok(a) => {
                // `None`: the rows it was given, if it filled them in; else no answer.
                let answer = if !a.is_none() {
                    answer_text(&a)
                } else if given.extract::<Vec<Vec<i64>>>().ok().as_ref() != Some(&puzzle_rows) {
                    answer_text(given.as_any())
                } else {
                    Ok((String::new(), Format::Line))
                };
                match answer {
                    Err(why) => (Outcome::BadOutput, why),
                    Ok((text, format)) => {
                        judge(&text, format, Mode::Any, &Reference::new(&item.board))
                            .map_err(|e| lab_error(e.into()))?
                    }
                }
            }
        };
        mine.push(ProgramRow {
            puzzle: item.id(&set.name),
            program: program.clone(),
            outcome: judged.0,
            reason: judged.1,
            time_ns: Some(cpu.round() as u64),
            wall_ns: Some(wall.round() as u64),
            clock: "thread-cpu",
        });
    }
    let placement = run::place(&rung_rows, &mine, &[])
        .iter()
        .map(|p| p.sentence())
        .collect();
    let (rc, pc) = (measure::columns(), measure::program_columns());
    let mut rows = Vec::new();
    for r in &rung_rows {
        rows.push(record(py, &rc, &r.record())?);
    }
    for r in &mine {
        rows.push(record(py, &pc, &r.record())?);
    }
    Ok((rows, placement))
}

/// The compiled half of the `sudoku_lab` package.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(strategies, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(ladder, m)?)?;
    m.add_function(wrap_pyfunction!(trace, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add_function(wrap_pyfunction!(race, m)?)?;
    Ok(())
}

"""The sudoku-lab from Python: the ladder of backtracking Sudoku solvers,
their exact work counters and the lab's timing, for notebooks.

Every function calls the lab's library, the very code behind the
``sudoku-lab`` command line: the same verification, counters and timing.

* ``strategies()`` -- every strategy: name, summary, whether it is a rung.
* ``solve(puzzle, strategy=None, budget=None, time=True)`` -- the verified
  solution, outcome, counters (a dict) and time of one run.
* ``count(puzzle, strategy=None, limit=2, budget=None, time=True)`` --
  how many solutions (exact when ``end == "exhausted"``).
* ``ladder(puzzles, strategies=None, budget=None, limit=None)`` -- every
  strategy on every puzzle, one row each (``ladder --json``).
* ``trace(puzzle, strategy=None, steps=30, start=1, budget=None)`` -- the
  search's events, one dict each (``trace``).
* ``compare(datasets=None, strategies=None, ...)`` -- ``results.csv``'s
  rows; releases the GIL, and Ctrl-C stops it (``KeyboardInterrupt``).
* ``race(solver, puzzles, strategies=None, name=None)`` -- your own
  Python solver beside the rungs, every answer judged (``--program``).
  Its result is a list of rows with ``.placement``: the report's sentences.

A puzzle is a string in any of the lab's layouts (line, grid, compact) or
a list of rows of numbers, 0 for a blank; ``puzzles`` may also be a file's
path, a shipped dataset's name (``"curated/famous-hard"``) or a list of
puzzles. ``strategies`` and ``datasets`` take a name or a list of names.
Bad input raises ``ValueError`` with the lab's positioned message.
The ``*_df`` functions return pandas DataFrames (``pip install pandas``).
"""

from . import _native
from ._native import compare, count, ladder, solve, strategies, trace

__all__ = [
    "strategies",
    "solve",
    "count",
    "ladder",
    "trace",
    "compare",
    "race",
    "Race",
    "compare_df",
    "ladder_df",
    "race_df",
]


class Race(list):
    """``race``'s rows, with ``placement``: where the solver stands among
    the rungs on each board size, as the report of ``--program`` says it."""

    def __init__(self, rows, placement):
        super().__init__(rows)
        self.placement = list(placement)


def race(solver, puzzles, strategies=None, name=None, budget=None):
    """Races ``solver`` (a Python function) against the rungs on
    ``puzzles``, as ``compare --program`` races a program.

    ``solver`` gets each puzzle as rows of numbers (0 for a blank) and
    either returns the solved rows (or a string in a lab layout), fills in
    the rows it was given and returns ``None``, or returns ``None``
    untouched when the puzzle has no solution. Every answer is judged
    against the givens and the rules; an exception counts as a crash.
    Its time is the CPU time of the call, the rungs' the lab's usual
    measurement. ``name`` (default: the function's name, ``_`` as ``-``;
    ``python-solver`` for a lambda) names it in the rows.
    """
    rows, placement = _native.race(solver, puzzles, strategies, name, budget)
    return Race(rows, placement)


def _frame(rows):
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise ImportError("the *_df functions need pandas: pip install pandas") from e
    return pandas.DataFrame(rows)


def compare_df(*args, **kwargs):
    """``compare``'s rows as a pandas DataFrame."""
    return _frame(compare(*args, **kwargs))


def ladder_df(*args, **kwargs):
    """``ladder``'s rows as a pandas DataFrame."""
    return _frame(ladder(*args, **kwargs))


def race_df(*args, **kwargs):
    """``race``'s rows as a pandas DataFrame (``.attrs["placement"]``: the sentences)."""
    result = race(*args, **kwargs)
    frame = _frame(result)
    frame.attrs["placement"] = result.placement
    return frame

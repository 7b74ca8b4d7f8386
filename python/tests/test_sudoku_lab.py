"""The Python package against the lab: the same answers, counters and
errors as the command line. No test depends on how long anything takes."""

import json
import os
import pathlib
import subprocess
import sys
import threading
import _thread

import pytest

import sudoku_lab

ROOT = pathlib.Path(__file__).resolve().parents[2]
FAMOUS = ROOT / "docs" / "puzzles" / "famous.txt"
EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
# A 4×4 whose bottom half is open: 4 solutions.
OPEN_4X4 = "12343412........"
BAEKJOON_2580 = [
    [0, 3, 5, 4, 6, 9, 2, 7, 8],
    [7, 8, 2, 1, 0, 5, 6, 0, 9],
    [0, 6, 0, 2, 7, 8, 1, 3, 5],
    [3, 2, 1, 0, 4, 6, 8, 9, 7],
    [8, 0, 4, 9, 1, 3, 5, 0, 6],
    [5, 9, 6, 8, 2, 0, 4, 1, 3],
    [9, 1, 7, 6, 5, 2, 0, 8, 0],
    [6, 0, 3, 7, 0, 1, 9, 5, 2],
    [2, 5, 8, 3, 9, 4, 7, 6, 0],
]


def cli():
    """The command line built by `cargo test --release` (CI builds it before
    these tests), to hold the package to the same figures."""
    exe = pathlib.Path(os.environ.get("SUDOKU_LAB_BIN", ROOT / "target" / "release" / "sudoku-lab"))
    if not exe.is_file():
        pytest.skip(f"{exe} is not built (cargo build --release)")
    return exe


def plain_backtracking(grid):
    """A student's solver: first empty cell, digits upwards, fills `grid`."""
    n = len(grid)
    b = int(round(n**0.5))
    for r in range(n):
        for c in range(n):
            if grid[r][c] == 0:
                for d in range(1, n + 1):
                    if all(grid[r][k] != d for k in range(n)) and all(grid[k][c] != d for k in range(n)):
                        br, bc = r - r % b, c - c % b
                        if all(grid[br + i][bc + j] != d for i in range(b) for j in range(b)):
                            grid[r][c] = d
                            if plain_backtracking(grid) is not None:
                                return grid
                            grid[r][c] = 0
                return None
    return grid


def test_strategies_are_the_command_lines():
    got = sudoku_lab.strategies()
    out = subprocess.run([cli(), "strategies"], capture_output=True, text=True, check=True).stdout
    assert [s["name"] for s in got] == [line.split()[0] for line in out.splitlines()]
    rungs = [s["name"] for s in got if s["rung"]]
    assert rungs[0] == "naive" and "fast" in rungs
    assert all(s["summary"] for s in got)


def test_solve_gives_a_verified_solution_and_the_counters():
    r = sudoku_lab.solve(EASTER_MONSTER, strategy="mrv")
    assert r["outcome"] == "solved" and r["strategy"] == "mrv"
    sol = r["solution"]
    assert len(sol) == 81 and "." not in sol
    assert all(g == "." or g == s for g, s in zip(EASTER_MONSTER, sol))
    assert set(r["counters"]) >= {"nodes", "placements", "backtracks", "probes"}
    assert r["counters"]["nodes"] > 0
    assert r["time_ns"] > 0
    # The same counters with the timing off, and from a grid of numbers.
    untimed = sudoku_lab.solve(EASTER_MONSTER, strategy="mrv", time=False)
    assert untimed["counters"] == r["counters"] and untimed["time_ns"] is None
    assert sudoku_lab.solve(BAEKJOON_2580)["outcome"] == "solved"


def test_solve_counters_match_the_command_line():
    out = subprocess.run(
        [cli(), "solve", "--stats", "-s", "bitmask"],
        input=EASTER_MONSTER + "\n",
        capture_output=True,
        text=True,
        check=True,
    )
    r = sudoku_lab.solve(EASTER_MONSTER, strategy="bitmask", time=False)
    assert out.stdout.strip() == r["solution"]
    for name, value in r["counters"].items():
        assert f" {name}={value} " in out.stderr, (name, out.stderr)


def test_budget_and_count():
    cut = sudoku_lab.solve(EASTER_MONSTER, strategy="naive", budget=1000, time=False)
    assert cut["outcome"] == "budget-exceeded" and cut["solution"] is None
    assert cut["counters"]["nodes"] == 1000
    four = sudoku_lab.count(OPEN_4X4, limit=5, time=False)
    assert (four["solutions"], four["end"]) == (4, "exhausted")
    capped = sudoku_lab.count(OPEN_4X4, limit=1, time=False)
    assert (capped["solutions"], capped["end"]) == (1, "solution-limit")


def test_bad_input_raises_value_error_with_the_position():
    with pytest.raises(ValueError, match=r"^<input>:1:80: unknown character 'x'"):
        sudoku_lab.solve(EASTER_MONSTER[:79] + "x" + EASTER_MONSTER[80:])
    with pytest.raises(ValueError, match=r"unknown strategy \"nope\""):
        sudoku_lab.solve(EASTER_MONSTER, strategy="nope")
    with pytest.raises(ValueError, match="budget"):
        sudoku_lab.solve(EASTER_MONSTER, budget=0)
    with pytest.raises(ValueError, match="^curated/no-such: no such puzzle file or shipped dataset"):
        sudoku_lab.ladder("curated/no-such")
    with pytest.raises(ValueError, match="puzzle 2 of the list"):
        sudoku_lab.ladder([EASTER_MONSTER, "12"], strategies=["fast"])


def test_bad_file_names_file_line_and_column(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text(EASTER_MONSTER + "\n" + EASTER_MONSTER[:10] + "?" + EASTER_MONSTER[11:] + "\n")
    with pytest.raises(ValueError, match=r"bad\.txt:2:11: "):
        sudoku_lab.compare(datasets=[str(bad)], strategies=["fast"])
    with pytest.raises(ValueError, match="no-such-set"):
        sudoku_lab.compare(datasets=["no-such-set"], strategies=["fast"])


def test_trace_lists_events():
    events = sudoku_lab.trace(EASTER_MONSTER, "naive", 12)
    assert [e["step"] for e in events] == list(range(1, 13))
    assert events[0]["kind"] == "place" and events[0]["cell"] == "r1c2"
    assert {e["kind"] for e in events} <= {"place", "backtrack", "forced", "dead-end", "solution", "way", "way-back"}
    later = sudoku_lab.trace(EASTER_MONSTER, "naive", 3, start=10)
    assert [e["step"] for e in later] == [10, 11, 12] and later == events[9:12]
    with pytest.raises(ValueError, match="start counts from 1"):
        sudoku_lab.trace(EASTER_MONSTER, "naive", 3, start=0)


def test_ladder_rows_match_ladder_json():
    rows = sudoku_lab.ladder(str(FAMOUS), strategies=["mrv", "fast"])
    out = subprocess.run(
        [cli(), "ladder", "--json", "-s", "mrv,fast", FAMOUS], capture_output=True, text=True, check=True
    ).stdout
    want = json.loads(out)
    assert len(rows) == len(want) == 2 * 5
    for r, w in zip(rows, want):
        assert (r["puzzle"], r["strategy"], r["outcome"]) == (w["puzzle"], w["strategy"], w["outcome"])
        assert {k: r[k] for k in w["counts"]} == w["counts"]
        assert r["time_ns"] > 0


def test_compare_rows_are_results_csv_rows():
    rows = sudoku_lab.compare(datasets=["curated/famous-hard"], strategies=["fast", "mrv"], jobs=1)
    assert len(rows) == 2 * 5
    assert [r["strategy"] for r in rows[:2]] == ["mrv", "fast"]  # ladder order
    assert all(r["outcome"] == "solved" and r["dataset"] == "curated/famous-hard" for r in rows)
    for r in rows:
        puzzle = next(
            line.split()[0]
            for line in (ROOT / "datasets" / "curated" / "famous-hard.txt").read_text().splitlines()
            if line and not line.startswith("#")
            and r["name"] in line
        )
        solo = sudoku_lab.count(puzzle, strategy=r["strategy"], limit=1, budget=5_000_000, time=False)
        assert r["nodes"] == solo["counters"]["nodes"]
        assert r["time_ns"] > 0 and r["runs"] >= 1
    pandas = pytest.importorskip("pandas")
    df = sudoku_lab.compare_df(datasets="curated/famous-hard", strategies="fast", sample=2)
    assert isinstance(df, pandas.DataFrame) and len(df) == 2
    assert {"dataset", "strategy", "outcome", "nodes", "time_ns"} <= set(df.columns)


def many_puzzles(tmp_path, n):
    """A puzzle file of n puzzles: enough work that a compare with one job
    lasts seconds on any machine (each puzzle is timed for at least 1 ms)."""
    lines = [line for line in (ROOT / "datasets" / "generated" / "9x9-clues-30-35.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    path = tmp_path / "many.txt"
    path.write_text("\n".join(lines[i % len(lines)] for i in range(n)) + "\n")
    return str(path)


def test_compare_releases_the_gil(tmp_path):
    many = many_puzzles(tmp_path, 2000)
    done = []
    worker = threading.Thread(target=lambda: done.append(sudoku_lab.compare(datasets=[many], strategies=["mrv"], jobs=1)))
    turns = 0
    worker.start()
    # This thread runs Python while the compare measures: it could not,
    # were the GIL held (the compare lasts at least 2000 × 1 ms of CPU).
    while worker.is_alive():
        turns += 1
        worker.join(0.001)
    assert len(done[0]) == 2000
    assert turns >= 20


def test_compare_stops_on_ctrl_c(tmp_path):
    many = many_puzzles(tmp_path, 50_000)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt) as stopped:
            sudoku_lab.compare(datasets=[many], strategies=["mrv"], jobs=1)
    finally:
        timer.cancel()
    # Raised from within the compare (which stopped), not after it ended.
    if sys.version_info >= (3, 11):
        assert stopped.value.__notes__ == ["sudoku_lab: the lab's work was stopped"]


def test_race_judges_and_places_a_python_solver():
    puzzles = str(ROOT / "datasets" / "generated" / "9x9-clues-36-45.txt")
    rows = sudoku_lab.race(plain_backtracking, puzzles, strategies=["naive", "fast"])
    mine = [r for r in rows if r["strategy"] == "plain-backtracking"]
    rungs = [r for r in rows if r["strategy"] != "plain-backtracking"]
    assert len(mine) == 50 and len(rungs) == 100
    assert [r["index"] for r in mine] == list(range(1, 51))
    assert all(r["outcome"] == "solved" and r["reason"] is None for r in mine), mine
    assert all(r["time_ns"] > 0 and r["clock"] == "thread-cpu" for r in mine)
    assert all(r["outcome"] == "solved" and r["nodes"] > 0 for r in rungs)
    assert len(rows.placement) == 1 and "`plain-backtracking`" in rows.placement[0]
    assert "9×9" in rows.placement[0]


def test_race_says_what_went_wrong():
    def ones(grid):
        return [[v or 1 for v in row] for row in grid]

    def broken(grid):
        raise RuntimeError("oops")

    def text(grid):
        return "1234"

    def gives_up(grid):
        return None

    puzzle = [EASTER_MONSTER]
    cases = {ones: "wrong-answer", broken: "crashed", text: "bad-output", gives_up: "wrong-answer"}
    for solver, outcome in cases.items():
        rows = sudoku_lab.race(solver, puzzle, strategies=["fast"], name="student")
        (r,) = [r for r in rows if r["strategy"] == "student"]
        assert r["outcome"] == outcome, (solver.__name__, r)
    crashed = [r for r in sudoku_lab.race(broken, puzzle, strategies=["fast"]) if r["strategy"] == "broken"]
    assert crashed[0]["reason"] == "raised RuntimeError: oops"
    # The rows it returns as a string, in any layout, count as well.
    solved = sudoku_lab.solve(EASTER_MONSTER)["solution"]
    line = [r for r in sudoku_lab.race(lambda g: solved, puzzle, strategies=["fast"], name="by-line")
            if r["strategy"] == "by-line"]
    assert line[0]["outcome"] == "solved"
    unnamed = [r["strategy"] for r in sudoku_lab.race(lambda g: solved, puzzle, strategies=["fast"])]
    assert unnamed == ["fast", "python-solver"]


def test_race_refuses_bad_names_and_passes_ctrl_c_on():
    with pytest.raises(ValueError, match="fast"):
        sudoku_lab.race(plain_backtracking, [EASTER_MONSTER], name="fast")

    def interrupted(grid):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sudoku_lab.race(interrupted, [EASTER_MONSTER], strategies=["fast"])

#!/usr/bin/env python3
"""The lab's top rungs against tdoku and the `sudoku` crate in tdoku's own harness, in rounds:
MEASURING.md's "Against the fastest solvers" tables (and the README's) come from this. A developer's tool: it needs
the tdoku-bench kit (../shared/tools/tdoku-bench) built once by its run.sh.

Each round is one run of the harness over every FILE with the four solvers in one process
(count to 2, `-n 10000` puzzles permuted with `-e 1`), so the ratios of a round compare
solvers on the same puzzles at the same moment. Why rounds: one 3-second run on a shared VM
moves by several percent, so a ratio is given as its median over the rounds with the lowest
and highest round beside it, and puzzles/s as the median.

    LAB_TOP=fast-triads ../shared/tools/tdoku-bench/run.sh -t 1 -s lab_top ../shared/datasets/top1465.txt   # builds the kit once
    scripts/harness-rounds.py [--rounds 5] [--seconds 3] [--top fast-triads] FILE...

Prints a header (date, commit, CPU, load average at the start and the end) and a Markdown
table: corpus | tdoku | crate | fast | top | fast ÷ crate | fast ÷ tdoku | top ÷ crate |
top ÷ tdoku | top ÷ fast. Then the tree sizes, guesses per puzzle from the harness's own column
in tdoku's unit (one per binary branch: the lab's rungs report `Solver::guesses()`, which counts
a branch point of n ways entered as n − 1, as tdoku would), median over the rounds: a faster
top with a tree as large as tdoku's has cheaper nodes, one with a smaller tree may not.
"""
import argparse
import csv
import datetime
import os
import statistics
import subprocess
import sys

from tdoku_kit import FLAGS, HARNESS

SOLVERS = ["tdoku", "rust_sudoku", "lab_fast", "lab_top"]
RATIOS = [("lab_fast", "rust_sudoku"), ("lab_fast", "tdoku"),
          ("lab_top", "rust_sudoku"), ("lab_top", "tdoku"), ("lab_top", "lab_fast")]


def one_round(files, seconds, top):
    """Puzzles/s per (file, solver) from one run of the harness."""
    env = dict(os.environ, LAB_TOP=top)
    out = subprocess.run(
        [HARNESS, "-c", "1", "-t", str(seconds)] + FLAGS + ["-s", ",".join(SOLVERS)] + files,
        capture_output=True, text=True, env=env,
    )
    if out.returncode != 0:
        sys.exit(f"harness-rounds: {HARNESS} exited with {out.returncode}:\n{out.stderr.strip()}")
    rates, guesses = {}, {}
    for row in csv.reader(out.stdout.splitlines()):
        # CSV rows: compiler, _, flags, file, solver, puzzles/s, µs/puzzle, %no_guess, guesses/puzzle
        if len(row) >= 9 and row[4] in SOLVERS:
            rates[(row[3], row[4])] = float(row[5])
            guesses[(row[3], row[4])] = float(row[8])
    missing = [(f, s) for f in files for s in SOLVERS if (f, s) not in rates]
    if missing:
        sys.exit(f"harness-rounds: the harness printed no figure for {missing}")
    return rates, guesses


def rate(x):
    """Puzzles/s, three significant figures kept: 457k, 11.0k, 8.56k, 950."""
    if x >= 100_000:
        return f"{x / 1000:.0f}k"
    if x >= 10_000:
        return f"{x / 1000:.1f}k"
    if x >= 1000:
        return f"{x / 1000:.2f}k"
    return f"{x:.0f}"


def spread(xs):
    return f"{statistics.median(xs):.2f} [{min(xs):.2f}–{max(xs):.2f}]"


def load():
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def cpu():
    info = {}
    with open("/proc/cpuinfo") as f:
        for line in f:
            key, _, value = line.partition(":")
            info.setdefault(key.strip(), value.strip())
    return f"{info.get('model name', '?')} (family {info.get('cpu family', '?')}, model {info.get('model', '?')})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=3)
    ap.add_argument("--top", default="fast-triads", help="the rung `lab_top` runs (LAB_TOP)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.rounds < 1 or args.seconds < 1:
        sys.exit("harness-rounds: --rounds and --seconds must be at least 1")
    if not os.access(HARNESS, os.X_OK):
        sys.exit(f"harness-rounds: needs the tdoku-bench kit built ({HARNESS} is missing): "
                 "build it once with ../shared/tools/tdoku-bench/run.sh (a developers' tool)")
    unreadable = [f for f in args.files if not os.path.isfile(f)]
    if unreadable:
        sys.exit(f"harness-rounds: no such puzzle file: {', '.join(unreadable)}")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip() or "?"
    start = datetime.datetime.now(datetime.timezone.utc)
    load_start = load()
    rounds, trees = [], []
    for r in range(args.rounds):
        rates, guesses = one_round(args.files, args.seconds, args.top)
        rounds.append(rates)
        trees.append(guesses)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    end = datetime.datetime.now(datetime.timezone.utc)
    print(f"{start:%Y-%m-%d %H:%M}–{end:%H:%M} UTC, commit {commit}, {cpu()}, "
          f"load average {load_start} at the start, {load()} at the end; "
          f"{args.rounds} rounds of -t {args.seconds}, lab_top = {args.top}")
    print()
    print("| corpus | tdoku | `sudoku` crate | `fast` | top | fast ÷ crate | fast ÷ tdoku "
          "| top ÷ crate | top ÷ tdoku | top ÷ fast |")
    print("|---|" + "---:|" * 9)
    for f in args.files:
        cells = [os.path.splitext(os.path.basename(f))[0]]
        cells += [rate(statistics.median([r[(f, s)] for r in rounds])) for s in SOLVERS]
        cells += [spread([r[(f, a)] / r[(f, b)] for r in rounds]) for a, b in RATIOS]
        print("| " + " | ".join(cells) + " |")
    print()
    print("Tree size, guesses per puzzle in tdoku's unit (one per binary branch), and "
          "puzzles/s × guesses per puzzle: binary branches per second")
    print()
    print("| corpus | tdoku | `fast` | top | top ÷ tdoku (tree) | top ÷ tdoku (branches/s) |")
    print("|---|" + "---:|" * 5)
    for f in args.files:
        g = {s: statistics.median([t[(f, s)] for t in trees]) for s in SOLVERS}
        per_s = [r[(f, "lab_top")] * t[(f, "lab_top")] / (r[(f, "tdoku")] * t[(f, "tdoku")])
                 for r, t in zip(rounds, trees) if t[(f, "tdoku")] > 0]
        cells = [os.path.splitext(os.path.basename(f))[0]]
        cells += [f"{g[s]:.2f}" for s in ("tdoku", "lab_fast", "lab_top")]
        cells += [f"{g['lab_top'] / g['tdoku']:.2f}" if g["tdoku"] > 0 else "–",
                  spread(per_s) if per_s else "–"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        sys.exit(0)

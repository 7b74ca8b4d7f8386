#!/usr/bin/env python3
"""Do `compare`, `ladder` and `speed` give the same puzzles the same time?

Runs the three commands one after the other on one puzzle file, ROUNDS
times, and prints per round and strategy the mean time per puzzle of each
and the ratios ladder/compare and speed/compare (issue #11 asks for 25%).
A round in which a command flagged its own times ("note: the times may read
high", or compare's `busy` line in meta.csv) is marked FLAGGED: the host ran
the core slow, and the lab said so.

Usage (from the repository root, after `cargo build --release`):
    scripts/agree.py FILE STRATEGIES [ROUNDS] [BIN]
    scripts/agree.py datasets/curated/famous-hard.txt mrv,propagate,dlx,fast 30
"""
import csv
import io
import statistics
import subprocess
import sys
import tempfile

UNIT = {"ns": 1, "µs": 1e3, "ms": 1e6, "s": 1e9}


def one_round(binary, dataset, strategies):
    """Mean time per puzzle (µs) per command and strategy, and the flags."""
    flags = []
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([binary, "compare", "--dataset", dataset, "-s", strategies,
                        "--jobs", "1", "--out", tmp + "/c"], check=True, capture_output=True)
        compare = {}
        with open(tmp + "/c/results.csv", newline="") as f:
            for r in csv.DictReader(f):
                compare.setdefault(r["strategy"], []).append(float(r["time_ns"]))
        with open(tmp + "/c/meta.csv", newline="") as f:
            for r in csv.reader(f):
                if r and r[0] == "busy" and r[1] != "no":
                    flags.append("compare: " + r[1])
    ladder_run = subprocess.run([binary, "ladder", "-s", strategies, dataset],
                                capture_output=True, text=True, check=True)
    ladder = {}
    for line in ladder_run.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 5 and cells[1] in compare:
            value, unit = cells[-2].split()
            ladder.setdefault(cells[1], []).append(float(value) * UNIT[unit])
    speed_run = subprocess.run([binary, "speed", "--csv", "-s", strategies, dataset],
                               capture_output=True, text=True, check=True)
    speed = {r["strategy"]: float(r["us_per_puzzle"])
             for r in csv.DictReader(io.StringIO(speed_run.stdout))}
    for name, run in (("ladder", ladder_run), ("speed", speed_run)):
        flags += [name + ": " + l for l in run.stderr.splitlines() if "note: the times" in l]
    rows = []
    for s, times in compare.items():
        c = statistics.mean(times) / 1e3
        rows.append((s, c, statistics.mean(ladder[s]) / 1e3, speed[s]))
    return rows, flags


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    dataset, strategies = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    binary = sys.argv[4] if len(sys.argv) > 4 else "target/release/sudoku-lab"
    ratios, unflagged, outside_rounds, outside_flagged = [], [], 0, 0
    for k in range(1, rounds + 1):
        rows, flags = one_round(binary, dataset, strategies)
        print(f"round {k}{'  FLAGGED' if flags else ''}")
        for f in flags:
            print("  " + f[:160])
        print(f"  {'strategy':12}{'compare µs':>12}{'ladder µs':>12}{'speed µs':>12}"
              f"{'ladder/c':>10}{'speed/c':>10}")
        this = []
        for s, c, l, v in rows:
            print(f"  {s:12}{c:12.1f}{l:12.1f}{v:12.1f}{l / c:10.2f}{v / c:10.2f}")
            this += [l / c, v / c]
        ratios += this
        if not flags:
            unflagged += this
        if any(r > 1.25 or r < 0.8 for r in this):
            outside_rounds += 1
            outside_flagged += bool(flags)
    within = sum(1 for r in ratios if 0.8 <= r <= 1.25)
    print(f"\n{rounds} rounds: {within} of {len(ratios)} ratios within 25% "
          f"({min(ratios):.2f}-{max(ratios):.2f}); {outside_rounds} rounds with a ratio "
          f"outside, {outside_flagged} of them flagged by the lab", end="")
    if unflagged:
        print(f"; unflagged rounds {min(unflagged):.2f}-{max(unflagged):.2f}")
    else:
        print()


if __name__ == "__main__":
    main()

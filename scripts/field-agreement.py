#!/usr/bin/env python3
"""Does the lab time solvers as the field does? A developer's check (it needs the
tdoku-bench kit in ../shared/tools/tdoku-bench, and its corpora).

For each puzzle file: `sudoku-lab speed FILE --limit 2 --permute -s fast,propagate,dlx`
(the field's workload measured the lab's way), then tdoku's own harness on the same file
with the lab's rungs registered (`lab_fast`, `lab_propagate`, `lab_dlx`), right after.
Prints a Markdown table of µs per puzzle from each, their ratio, and whether it is
within the tolerance (default 15%). Exit 1 when any pair is outside.

Rounds: the two alternate, `--rounds` times per file (default 3), and each side's best
round is compared. Why: on a virtual machine the host slows a core for stretches of
seconds. The lab waits such stretches out before its samples (src/measure/pace.rs); the
harness cannot, so one harness run reads 10-30% high or not depending on when it ran
(two runs minutes apart differed by 20%, measured). The best of a few runs is each
side at full pace.

    cargo build --release
    scripts/field-agreement.py [--seconds 3] [--rounds 3] [--tolerance 0.15] FILE...
"""
import argparse
import csv
import io
import os
import subprocess
import sys

from tdoku_kit import FLAGS, HARNESS, RUN_SH

RUNGS = ["fast", "propagate", "dlx"]
LAB = os.path.join("target", "release", "sudoku-lab")


def lab_speed(path):
    out = subprocess.run(
        [LAB, "speed", path, "--limit", "2", "--permute", "-s", ",".join(RUNGS), "--csv"],
        check=True, capture_output=True, text=True,
    )
    sys.stderr.write(out.stderr)
    return {r["strategy"]: float(r["us_per_puzzle"]) for r in csv.DictReader(io.StringIO(out.stdout))}




def kit(path, seconds, built):
    """One harness run: through the kit's run.sh (which builds) the first time, then its
    built binary with run.sh's own flags."""
    solvers = ",".join("lab_" + r for r in RUNGS)
    if built:
        cmd = [HARNESS, "-t", str(int(seconds))] + FLAGS + ["-s", solvers, path]
    else:
        cmd = [RUN_SH, "-t", str(int(seconds)), "-s", solvers, path]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True)
    figures = {}
    for line in out.stdout.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or not cells[1].startswith("lab_"):
            continue
        name = cells[1].split()[0][len("lab_"):]
        figures[name] = float(cells[3].replace(",", "").replace("'", ""))
    return figures


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--tolerance", type=float, default=0.15)
    p.add_argument("files", nargs="+")
    a = p.parse_args()
    if not os.path.exists(RUN_SH):
        sys.exit(f"needs the tdoku-bench kit at {RUN_SH} (a developer's tool)")
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print(f"load average at the start: {load}\n")
    print(f"| corpus | rung | `speed --limit 2 --permute` µs/puzzle (best of {a.rounds}) | harness µs/puzzle (best of {a.rounds}) | lab ÷ harness | within |")
    print("|---|---|---:|---:|---:|---|")
    outside = 0
    built = False
    for path in a.files:
        ours, theirs = {}, {}
        for _ in range(max(1, a.rounds)):
            for r, v in lab_speed(path).items():
                ours[r] = min(v, ours.get(r, v))
            for r, v in kit(path, a.seconds, built).items():
                theirs[r] = min(v, theirs.get(r, v))
            built = True
        name = os.path.splitext(os.path.basename(path))[0]
        for r in RUNGS:
            ratio = ours[r] / theirs[r]
            ok = abs(ratio - 1) <= a.tolerance
            outside += not ok
            print(f"| {name} | `{r}` | {ours[r]:.1f} | {theirs[r]:.1f} | {ratio:.2f} | {'yes' if ok else 'no'} |")
        sys.stdout.flush()
    load = open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else "?"
    print(f"\nload average at the end: {load}")
    sys.exit(1 if outside else 0)


if __name__ == "__main__":
    main()

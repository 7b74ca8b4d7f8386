"""Where the tdoku-bench kit lives and how the lab's scripts call its harness: one place for
both `field-agreement.py` and `harness-rounds.py`, so their runs stay comparable."""
import os

# The kit's build-and-run script (a developers' tool in ../shared) and the binary it builds.
RUN_SH = os.path.join("..", "shared", "tools", "tdoku-bench", "run.sh")
HARNESS = os.path.join("target", "tdoku-bench", "run_benchmark")
# run.sh's own flags: 1 s of warm-up, 10,000 puzzles permuted with a fixed seed.
FLAGS = ["-w", "1", "-n", "10000", "-e", "1"]

#!/usr/bin/env bash
# Race the lab's two seed programs against the ladder (issue #14, part 4).
#
# The seeds are the Baekjoon write-ups in ../shared/seeds (README there):
#   000_*.txt  Baekjoon 2580, a Python solver: grid layout (rows of
#              space-separated numbers, 0 = blank), any valid completion;
#   001_*.txt  Baekjoon 2239, a C++ solver: compact layout (rows of digits),
#              the lexicographically first solution.
# Their code is never copied into this repository: this script extracts it
# from the write-ups into a temporary folder, builds it (g++ -O2; python3),
# and runs
#
#   sudoku-lab compare --program seed-2239=... --program seed-2580=...
#
# against every rung, on the two Baekjoon sample inputs and a seeded sample
# of a generated 9x9 set. Every answer is checked (2239's in lex-first
# mode); the report (README.md with an "Outside programs" section,
# results.csv, programs.csv, charts) goes to OUT.
#
# Usage: scripts/race-seeds.sh [OUT [extra compare flags...]]
#   OUT defaults to target/race-seeds (not committed).
#   SUDOKU_LAB_SEEDS overrides the seeds folder (default ../shared/seeds).
#   SAMPLE (default 20) is the number of generated puzzles.
# Needs g++ and python3 (.ci/run installs both). Exit status: compare's
# (0, or 1 when a seed failed a puzzle; the report is written either way).
set -euo pipefail
cd "$(dirname "$0")/.."

seeds="${SUDOKU_LAB_SEEDS:-$(cd .. && pwd)/shared/seeds}"
out="${1:-target/race-seeds}"
shift || true
sample="${SAMPLE:-20}"

for tool in g++ python3; do
  command -v "$tool" >/dev/null || { echo "race-seeds: $tool is needed" >&2; exit 2; }
done
# (A glob, not `ls | head`: under pipefail a missing folder ended the script
# silently with ls's status.)
cpp_doc=""; py_doc=""
for f in "$seeds"/001_*.txt; do [ -f "$f" ] && cpp_doc=$f && break; done
for f in "$seeds"/000_*.txt; do [ -f "$f" ] && py_doc=$f && break; done
if [ -z "$cpp_doc" ] || [ -z "$py_doc" ]; then
  echo "race-seeds: needs the seed write-ups 000_*.txt (Baekjoon 2580, Python) and 001_*.txt" \
    "(Baekjoon 2239, C++) in $seeds; set SUDOKU_LAB_SEEDS to the folder that holds them" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The code blocks of the write-ups, as the seeds README extracts them.
sed -n '/^#include <bits\/stdc++.h>/,$p' "$cpp_doc" > "$work/seed2239.cpp"
sed -n '/^import sys/,/^dfs(0)/p' "$py_doc" > "$work/seed2580.py"
for f in "$work/seed2239.cpp" "$work/seed2580.py"; do
  [ -s "$f" ] || { echo "race-seeds: could not extract $(basename "$f") from the write-up" >&2; exit 2; }
done
g++ -O2 -o "$work/seed2239" "$work/seed2239.cpp"

cargo build --release --quiet
status=0
target/release/sudoku-lab compare \
  --dataset curated/baekjoon-2239 \
  --dataset curated/baekjoon-2580 \
  --dataset generated/9x9-clues-22-25 --sample "$sample" \
  --program "seed-2239='$work/seed2239'" \
  --program-format seed-2239=compact --program-mode seed-2239=lex-first \
  --program "seed-2580=python3 '$work/seed2580.py'" \
  --program-format seed-2580=grid \
  --out "$out" "$@" || status=$?
exit "$status"

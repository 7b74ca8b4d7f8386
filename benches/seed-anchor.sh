#!/usr/bin/env bash
# Races `sudoku-lab solve --strategy used-tables` against the Baekjoon 2239
# seed program (C++, `g++ -O2`) on the same puzzle, where both visit the same
# nodes. The seed's code is extracted from ../shared/seeds into a temporary
# folder at run time; it is never part of this repository.
#
#   benches/seed-anchor.sh [PUZZLE_LINE] [RUNS]
#
# Needs g++ and the seed write-up (SUDOKU_LAB_SEEDS, default ../shared/seeds);
# without them it says so and exits 2.
# Prints the minimum and median CPU time (user) of each program over RUNS
# interleaved runs, and the ratio seed/ours (> 1 means ours is faster).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=${SUDOKU_LAB_SEEDS:-$root/../shared/seeds}
# Default: a puzzle built against row-major backtracking (~69 million nodes).
puzzle=${1:-..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9}
runs=${2:-9}

# What it needs, said before anything is built (exit 2, like the lab's usage errors).
command -v g++ >/dev/null 2>&1 || { echo "seed-anchor: needs g++ (to build the seed program)" >&2; exit 2; }
seed_doc=""
for f in "$seeds"/001_*.txt; do [ -f "$f" ] && seed_doc=$f && break; done
if [ -z "$seed_doc" ]; then
  echo "seed-anchor: needs the seed write-up 001_*.txt (Baekjoon 2239, C++) in $seeds;" \
    "set SUDOKU_LAB_SEEDS to the folder that holds it" >&2
  exit 2
fi

d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
sed -n '/^#include <bits\/stdc++.h>/,$p' "$seed_doc" > "$d/seed2239.cpp"
[ -s "$d/seed2239.cpp" ] || { echo "seed-anchor: no C++ code found in $seed_doc" >&2; exit 2; }
g++ -O2 -o "$d/seed2239" "$d/seed2239.cpp"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
lab="$root/target/release/sudoku-lab"

echo "$puzzle" | tr '.' '0' | fold -w9 > "$d/puzzle.txt"
"$d/seed2239" < "$d/puzzle.txt" > "$d/seed.out"
"$lab" solve --strategy used-tables --stats "$d/puzzle.txt" > "$d/ours.out" 2> "$d/stats"
cmp -s "$d/seed.out" "$d/ours.out" || { echo "outputs differ" >&2; exit 1; }
echo "identical output; used-tables $(grep -o 'nodes=[0-9]*' "$d/stats")"

TIMEFORMAT=%3U
seed_t=(); ours_t=()
for _ in $(seq "$runs"); do
  seed_t+=("$( { time "$d/seed2239" < "$d/puzzle.txt" > /dev/null; } 2>&1 )")
  ours_t+=("$( { time "$lab" solve --strategy used-tables "$d/puzzle.txt" > /dev/null; } 2>&1 )")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "%s %s", a[1], a[int((NR+1)/2)]}'; }
read -r s_min s_med <<< "$(stats "${seed_t[@]}")"
read -r o_min o_med <<< "$(stats "${ours_t[@]}")"
echo "seed C++ (g++ -O2): min ${s_min}s median ${s_med}s"
echo "used-tables (ours): min ${o_min}s median ${o_med}s"
awk -v a="$s_min" -v b="$o_min" -v c="$s_med" -v e="$o_med" \
  'BEGIN {printf "seed/ours: %.2f (min), %.2f (median); > 1 means ours is faster\n", a/b, c/e}'

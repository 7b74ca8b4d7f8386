#!/usr/bin/env bash
# A/A check of `diff`'s intervals: N pairs of `compare` runs of one binary on
# one selection, each pair diffed; counts the intervals that hold ×1 and the
# verdicts that disagree with their interval (MEASURING.md, "A/A diffs").
#
#   scripts/aa-rate.sh [PAIRS] [-- COMPARE-ARGS...]   (default: 20 pairs, the selection below)
#
# Runs ${AA_LAB:-target/release/sudoku-lab}; writes under ${AA_DIR:-my-reports/aa}.
set -euo pipefail
pairs="${1:-20}"; shift || true; [ "${1:-}" != "--" ] || shift
[ $# -gt 0 ] || set -- -s mrv,propagate,fast,fast-triads --dataset generated/9x9-clues-30-35 \
  --dataset curated/famous-hard --dataset generated/9x9-clues-22-25 --dataset generated/9x9-minimal
lab="${AA_LAB:-target/release/sudoku-lab}"; dir="${AA_DIR:-my-reports/aa}"; mkdir -p "$dir"
echo "aa-rate: $pairs pairs of: compare $* ($(date -u '+%F %T UTC'))"
all=0
for i in $(seq 1 "$pairs"); do
  for side in a b; do "$lab" compare "$@" --out "$dir/$i$side" >/dev/null 2>&1; done
  "$lab" diff --csv "$dir/${i}a" "$dir/${i}b" 2>/dev/null >"$dir/$i.csv"
  # Columns: 11 ratio, 12 low, 13 high, 14 verdict.
  read -r rows hold bad worst < <(awk -F, 'NR > 1 && $12 != "" {
      n++; inside = $12 <= 1 && 1 <= $13; h += inside
      if (inside != ($14 == "no-change")) b++
      off = inside ? 0 : ($12 > 1 ? $12 : 1 / $13); if (off > w) { w = off; r = $1 " " $2 " x" $11 }
    } END { printf "%d %d %d %s\n", n, h, b + 0, (w ? r : "-") }' "$dir/$i.csv")
  all=$((all + (rows == hold)))
  echo "pair $i: $hold of $rows intervals hold 1, $bad verdicts disagree; worst miss: $worst;$(uptime | sed 's/.*load/ load/')"
done
echo "aa-rate: $all of $pairs diffs have every interval holding 1"

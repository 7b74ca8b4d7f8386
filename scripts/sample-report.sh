#!/usr/bin/env bash
# Regenerates the committed sample report (reports/) from a clean checkout:
# the default comparison (every shipped dataset and strategy), written with
# --out reports, so its meta.csv names a commit that holds exactly the code
# that measured it (no "(modified)"). A user's `compare` never writes here
# (its default is my-reports/, which git ignores).
#
# Usage, from anywhere in the repository (takes minutes: two idle cores
# measure the default run in about nine (528 s on 2026-12-05, nine rungs); a busy machine takes longer and
# the report says so):
#     scripts/sample-report.sh
# Then review and commit reports/. Exit codes: those of `sudoku-lab
# compare`, or 2 when the checkout is not clean or git is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v git >/dev/null 2>&1; then
  echo "sample-report: needs git (to check that the checkout is clean)" >&2
  exit 2
fi
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  echo "sample-report: needs a git checkout of the lab (to name the commit that made the report)" >&2
  exit 2
fi
dirty=$(git status --porcelain --untracked-files=no)
if [ -n "$dirty" ]; then
  echo "sample-report: the checkout has changes; commit or stash them first, so the report names the code that made it:" >&2
  echo "$dirty" >&2
  exit 2
fi
cargo build --release --quiet
exec target/release/sudoku-lab compare --out reports

#!/usr/bin/env bash
# Runs a command while the machine is kept busy, to prove that it does not
# depend on timing or load: CI runs the test suite this way (.ci/run), on a
# 2-core machine that other work already loads.
#
#   scripts/under-load.sh [--spinners N] [COMMAND...]   (default: 2 spinners, cargo test --release)
#
# Each spinner is a shell loop at 100% of a core; they are stopped when the
# command ends, however it ends. The command's exit status is this script's.
set -euo pipefail
spinners=2
if [ "${1:-}" = "--spinners" ]; then
  spinners="${2:?--spinners takes a number}"
  shift 2
fi
[ $# -gt 0 ] || set -- cargo test --release
pids=()
stop() { [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true; }
trap stop EXIT INT TERM
for _ in $(seq 1 "$spinners"); do
  ( while :; do :; done ) &
  pids+=($!)
done
echo "under-load: $spinners spinning processes beside: $*" >&2
"$@"

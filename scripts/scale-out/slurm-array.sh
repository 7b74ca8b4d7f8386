#!/usr/bin/env bash
# One shard of a sudoku-lab `compare` per task of a Slurm job array
# (docs/scale-out.md). Submit from the folder the shards should go to:
#
#   sbatch --array=0-63 slurm-array.sh --shards 64 --dataset 17-clue.txt --budget 1000000
#   # ... when every task has ended:
#   sudoku-lab report merge shards/* --out merged
#
# Every argument goes to `compare`; `--shards N`, the plan's shard count, is
# required: task K is shard K of N (`--shard auto` reads K from
# SLURM_ARRAY_TASK_ID), so the array is 0-based, and its report folder is
# $SHARDS/K. The count travels with the job, not with the array's size: a
# task that died is resubmitted alone (sbatch --array=17 slurm-array.sh
# --shards 64 ...) and reruns exactly shard 17 of 64; a task that finished,
# submitted again, finds its report complete and leaves it as it is. The
# nodes need the lab (on PATH, or SUDOKU_LAB=/path/to/sudoku-lab exported
# with sbatch --export=ALL,SUDOKU_LAB=...) and the datasets at the paths
# given. Give a task more cores with --cpus-per-task (they become --jobs).
#SBATCH --job-name=sudoku-lab
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
: "${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array=0-N-1 ... --shards N}"
case " $* " in
*" --shards "* | *" --shards="*) ;;
*)
  echo "slurm-array.sh: give the plan's shard count, --shards N (sbatch --array=0-N-1 slurm-array.sh --shards N ...): a task resubmitted alone then reruns its own shard" >&2
  exit 2
  ;;
esac
lab="${SUDOKU_LAB:-sudoku-lab}"
shards="${SHARDS:-my-reports/shards}"
exec "$lab" compare "$@" --shard auto --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$shards/$SLURM_ARRAY_TASK_ID"

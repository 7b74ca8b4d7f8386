#!/usr/bin/env bash
# One shard of a sudoku-lab `compare` per task of a Slurm job array
# (docs/scale-out.md). Submit from the folder the shards should go to:
#
#   sbatch --array=0-63 slurm-array.sh --dataset 17-clue.txt --budget 1000000
#   # ... when every task has ended:
#   sudoku-lab report merge shards/* --out merged
#
# Every argument goes to `compare`; the task's shard comes from
# SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (`--shard auto`), and its
# report folder is $SHARDS/$SLURM_ARRAY_TASK_ID. A task that died is
# resubmitted alone (sbatch --array=17 ...); a task that finished, submitted
# again, finds its report complete and leaves it as it is. Give a task more
# cores with --cpus-per-task (they become compare's --jobs).
#SBATCH --job-name=sudoku-lab
#SBATCH --cpus-per-task=1
#SBATCH --output=slurm-%A_%a.out
set -euo pipefail
: "${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array=0-N-1}"
lab="${SUDOKU_LAB:-sudoku-lab}"
shards="${SHARDS:-shards}"
exec "$lab" compare "$@" --shard auto --jobs "${SLURM_CPUS_PER_TASK:-1}" \
  --out "$shards/$SLURM_ARRAY_TASK_ID"

#!/usr/bin/env bash
# A one-node Slurm on this machine, in a folder of its own, to try the job
# array recipe (slurm-array.sh, docs/scale-out.md) without a cluster: munged
# on a private socket, slurmctld and slurmd on free localhost ports. Needs
# root (slurmd starts each job as its user) and Debian's slurm-wlm and munge
# (apt-get install slurm-wlm munge). tests/scale_out.rs runs it as below.
#
#   scripts/scale-out/slurm-one-node.sh start /tmp/slurm   # up when the node is idle
#   export SLURM_CONF=/tmp/slurm/slurm.conf
#   sbatch --wait --array=0-3 --export=ALL,SUDOKU_LAB="$(command -v sudoku-lab)" \
#     scripts/scale-out/slurm-array.sh --shards 4 --dataset 17-clue.txt
#   sudoku-lab report merge my-reports/shards/* --out my-reports/merged
#   scripts/scale-out/slurm-one-node.sh stop /tmp/slurm    # ends the three daemons it started
set -euo pipefail
usage() {
  echo "usage: $0 start|stop|logs DIR" >&2
  exit 2
}
[ $# -eq 2 ] || usage
action=$1
dir=$(realpath -m "$2")
conf=$dir/slurm.conf
socket=$dir/munge/socket
export SLURM_CONF=$conf

logs() {
  for f in slurmctld slurmd munged; do
    echo "--- $dir/log/$f.log"
    tail -n 15 "$dir/log/$f.log" 2>/dev/null || true
  done
}

# A localhost port nothing listens on.
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return
    fi
  done
}

start() {
  for p in munged slurmctld slurmd sinfo; do
    command -v "$p" >/dev/null || {
      echo "$0: $p is not installed (Debian: apt-get install slurm-wlm munge)" >&2
      exit 1
    }
  done
  [ "$(id -u)" -eq 0 ] || {
    echo "$0: run as root: slurmd starts jobs as their users" >&2
    exit 1
  }
  mkdir -p "$dir"/{munge,state,spool,log}
  chmod 700 "$dir/munge"
  (umask 077 && head -c 128 /dev/urandom >"$dir/munge/munge.key")
  munged --force --socket="$socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/seed"
  local host ctld_port d_port
  host=$(hostname -s 2>/dev/null || hostname)
  ctld_port=$(free_port)
  d_port=$(free_port)
  while [ "$d_port" = "$ctld_port" ]; do d_port=$(free_port); done
  cat >"$conf" <<EOF
ClusterName=lab
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=lab1 NodeHostname=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=lab Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  slurmctld -f "$conf" -c -i
  slurmd -f "$conf" -N lab1
  for _ in $(seq 200); do
    if [ "$(sinfo -h -n lab1 -o %T 2>/dev/null)" = idle ]; then
      echo "Slurm is up: export SLURM_CONF=$conf"
      return
    fi
    sleep 0.3
  done
  echo "$0: the Slurm node did not come up within 60 s" >&2
  logs >&2
  exit 1
}

stop() {
  local pids=() f p
  for f in "$dir/slurmctld.pid" "$dir/slurmd.pid" "$dir/munge/munged.pid"; do
    p=$(cat "$f" 2>/dev/null || true)
    [ -n "$p" ] && pids+=("$p")
  done
  scontrol shutdown >/dev/null 2>&1 || true
  munged --stop --socket="$socket" >/dev/null 2>&1 || true
  # What has not ended within ten seconds is ended (only the daemons started here).
  for _ in $(seq 100); do
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive -eq 0 ] && return
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
}

case $action in
start) start ;;
stop) stop ;;
logs) logs ;;
*) usage ;;
esac

#!/usr/bin/env bash
# cei-run under a real Slurm: starts munged, slurmctld and slurmd on this host in a temporary
# folder (one node, 4 CPUs), submits docs/cluster.md's sbatch script with 4 tasks on it (the
# program and 3 workers) and checks the program's result against its -seq twin and that it used 3
# workers; then submits a job that never ends, scancels it and checks nothing of it is left.
#   slurm_test.sh CEI_RUN DOC PROGRAM SEQ ARGS...
# Exits 77 (ctest's skip) when the Slurm or munge binaries are absent.
set -euo pipefail
cei_run=$1 doc=$2 program=$3 seq=$4
shift 4
for b in munged slurmctld slurmd sbatch srun scancel squeue sinfo; do
  command -v "$b" >/dev/null || PATH=$PATH:/usr/sbin command -v "$b" >/dev/null || {
    echo "SKIP: $b not found (scripts/deps.sh installs slurm-wlm and munge)"
    exit 77
  }
done
export PATH=$PATH:/usr/sbin

work=$(mktemp -d)
chmod 700 "$work"
pids=()
no_jobs() { [ -z "$(squeue -h -o %i 2>/dev/null)" ]; }
# Every job ends before the daemons stop (a job step's slurmstepd would outlive slurmd).
cleanup() {
  local status=$?
  set +e # every step runs, whatever one before it returned
  if [ -n "${SLURM_CONF:-}" ]; then
    scancel --quiet --user "$(id -un)" 2>/dev/null
    poll 20 no_jobs || echo "WARNING: jobs left: $(squeue 2>&1)"
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill "${pids[i]}" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  if ((status != 0)); then
    for f in "$work"/*.log "$work"/*.out; do [ -e "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT

fail() { echo "FAIL: $*"; exit 1; }
# poll SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds, for at most SECONDS.
poll() {
  local end=$((SECONDS + $1))
  shift
  until "$@"; do ((SECONDS < end)) || return 1; sleep 0.1; done
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_munge() {
  head -c 1024 /dev/urandom >"$work/munge.key"
  chmod 400 "$work/munge.key"
  munged --foreground --force --socket="$work/munge.sock" --key-file="$work/munge.key" \
    --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge.seed" 2>/dev/null &
  pids+=($!)
  poll 10 test -S "$work/munge.sock" || fail "munged did not start"
}

write_conf() {
  local host
  host=$(hostname -s)
  cat >"$work/slurm.conf" <<EOF
ClusterName=ceitest
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge.sock
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  mkdir -p "$work/state" "$work/spool"
  export SLURM_CONF=$work/slurm.conf
}

node_idle() { [ "$(sinfo -h -o %T 2>/dev/null)" = idle ]; }
start_slurm() {
  slurmctld -D -c -f "$SLURM_CONF" >>"$work/slurmctld.log" 2>&1 &
  pids+=($!)
  slurmd -D -f "$SLURM_CONF" >>"$work/slurmd.log" 2>&1 &
  pids+=($!)
  poll 30 node_idle || fail "the Slurm node did not become idle: $(sinfo 2>&1)"
}

# The sbatch script exactly as docs/cluster.md gives it (the block after "<!-- sbatch -->").
awk '/<!-- sbatch -->/{f=1; next} f && /^```sh/{g=1; next} g && /^```/{exit} g' "$doc" >"$work/cei.sbatch"
grep -q 'srun cei-run' "$work/cei.sbatch" || fail "no sbatch script found in $doc"

start_munge
write_conf
start_slurm
echo "slurm up after ${SECONDS} s"

# One host plays the 4 nodes: the script's geometry (--nodes, --ntasks-per-node) is overridden.
geometry=(--nodes=1 --ntasks=4 --ntasks-per-node=4)
PATH=$(dirname "$(readlink -f "$cei_run")"):$PATH
export PATH CEI_POLICY=dynperf CEI_SUMMARY=1 CEI_RUN_TIMEOUT_S=30
# cei-run's default address (the first of `hostname -I`); a host with loopback only has none.
[ -n "$(hostname -I 2>/dev/null | tr -d ' ')" ] || export CEI_RUN_HOST=127.0.0.1
results() { grep -E '^(checksum|accuracy|edge pixels|heights) ' "$1" || true; }
# No process of this test's jobs: they all name its folder (cei-run's and the program's arguments,
# the workers' token files); the daemons' own command lines name only $work/slurm.conf or munge.
job_gone() { ! pgrep -f -- "$1" >/dev/null; }
job_ended() {
  ! scontrol -o show job "$1" 2>/dev/null | grep -Eq 'JobState=(PENDING|CONFIGURING|RUNNING|COMPLETING) '
}
rendezvous_empty() { [ -z "$(ls -A "$work/.cei-run" 2>/dev/null)" ]; }

# 1. The program with 3 workers: its result is -seq's, and it found the 3 workers.
cd "$work"
mkdir seq && (cd seq && env -u CEI_POLICY "$seq" "$@" >out.txt)
id=$(sbatch --parsable "${geometry[@]}" --output=run.out cei.sbatch "$program" "$@")
# (sbatch --wait polls every few seconds: this is quicker.)
poll 120 job_ended "$id" || fail "job $id did not end within 120 s: $(scontrol show job "$id")"
scontrol -o show job "$id" | grep -q 'JobState=COMPLETED .*ExitCode=0:0' ||
  fail "job $id failed: $(scontrol -o show job "$id")"
results seq/out.txt >seq.results
results run.out >run.results
grep -q '^checksum ' seq.results || fail "$seq printed no checksum"
diff seq.results run.results || fail "the job's results differ from $seq's"
grep -Eq '^cei-run\[0\]: 3 worker\(s\): node1=http://[^ ]+ node2=http://[^ ]+ node3=http://' run.out ||
  fail "cei-run did not report 3 workers"
for node in node1 node2 node3; do
  grep -Eq "^[A-Za-z_:]+ +$node +[1-9]" run.out || fail "no task ran on $node (the program's CEI_SUMMARY)"
done
job_gone "$work/.cei-run" || fail "a worker outlived the program: $(pgrep -af -- "$work/.cei-run")"
poll 5 rendezvous_empty || fail "the rendezvous folder is left: $(ls -AR "$work/.cei-run")"
grep -E "^[A-Za-z_:]+ +node[0-9] " run.out
echo "job 1: results equal, 3 workers, all stopped (${SECONDS} s)"

# 2. scancel: a program that never ends, with its 3 workers; nothing of it may outlive the job.
# shellcheck disable=SC2016 # $0 is the script's, at its run
printf '#!/bin/sh\nexec python3 -c "import time; time.sleep(600)" "$0"\n' >hold
chmod +x hold
ln -s "$program-worker" hold-worker
id=$(sbatch --parsable "${geometry[@]}" --output=hold.out cei.sbatch "$work/hold")
workers_up() { [ "$(pgrep -fc -- "$work/hold-worker")" = 3 ] && pgrep -f -- "import time.*$work/hold" >/dev/null; }
poll 60 workers_up || fail "job $id: the 3 workers and the program did not start"
scancel "$id"
# Slurm's KillWait (30 s) would SIGKILL what SIGTERM left: the check ends before.
poll 20 job_gone "$work/hold" || fail "left after scancel: $(pgrep -af -- "$work/hold")"
poll 5 rendezvous_empty || fail "the rendezvous folder is left after scancel: $(ls -AR "$work/.cei-run")"
echo "job 2: scancel left no process (${SECONDS} s)"
echo PASS

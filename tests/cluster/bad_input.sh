#!/usr/bin/env bash
# cei-run's errors, no Slurm needed (the job's variables are set by hand): each bad input exits 2
# with a line naming it, and a worker task that never reports stops task 0 at CEI_RUN_TIMEOUT_S
# with status 1, naming the task.
#   bad_input.sh CEI_RUN PROGRAM   (PROGRAM has its PROGRAM-worker next to it)
set -euo pipefail
cei_run=$1 program=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
printf '#!/bin/sh\n' >lonely
chmod +x lonely
fail=0

# expect STATUS TEXT ENV... -- ARGS...: cei-run with ENV and ARGS exits STATUS, stderr has TEXT.
expect() {
  local status=$1 text=$2 env=() got=0
  shift 2
  while [ "$1" != -- ]; do env+=("$1"); shift; done
  shift
  env -u SLURM_PROCID -u SLURM_JOB_ID "${env[@]}" "$cei_run" "$@" 2>err.txt || got=$?
  if [ "$got" != "$status" ] || ! grep -qF -- "$text" err.txt; then
    echo "FAIL: ${env[*]} cei-run $*: status $got (expected $status), stderr:"; cat err.txt
    echo "  (expected it to say: $text)"; fail=1
  else
    echo "ok: ${env[*]} cei-run $* -> $status: $(head -n 1 err.txt)"
  fi
}
job=(SLURM_PROCID=0 SLURM_JOB_ID=7 SLURM_NTASKS=2 SLURM_STEP_ID=0)
expect 2 'not inside a Slurm job step' -- "$program"
expect 2 'no PROGRAM given' "${job[@]}" --
expect 2 "PROGRAM: './nope' is not an executable file" "${job[@]}" -- ./nope
expect 2 "PROGRAM: 'no-such-program' not found in PATH" "${job[@]}" -- no-such-program
expect 2 "PROGRAM-worker: './lonely-worker' is not an executable file" "${job[@]}" -- ./lonely
expect 2 "SLURM_NTASKS: expected an integer >= 1, got 'x'" "${job[@]}" SLURM_NTASKS=x -- "$program"
expect 2 "SLURM_PROCID=2 is not below SLURM_NTASKS=2" "${job[@]}" SLURM_PROCID=2 -- "$program"
expect 2 "CEI_RUN_TIMEOUT_S: expected an integer >= 1, got '0'" "${job[@]}" CEI_RUN_TIMEOUT_S=0 -- "$program"
expect 2 "CEI_RUN_MIN_WORKERS: expected an integer >= 1, got '0'" "${job[@]}" CEI_RUN_MIN_WORKERS=0 -- "$program"
expect 2 "CEI_RUN_HOST: expected a host name or address, got 'a b'" "${job[@]}" SLURM_PROCID=1 \
  'CEI_RUN_HOST=a b' -- "$program"
expect 2 "CEI_RUN_DIR: cannot create the rendezvous folder $work/lonely/7.0.0" "${job[@]}" \
  CEI_RUN_DIR="$work/lonely" -- "$program"
# A worker task that refuses its worker's options fails with its status; task 0 names the task.
expect 2 "exited with status 2" "${job[@]}" SLURM_PROCID=1 CEI_RUN_WORKER_ARGS=--no-such-option \
  CEI_RUN_DIR="$work/run" -- "$program"
expect 1 "worker task 1 failed: " "${job[@]}" CEI_RUN_DIR="$work/run" -- "$program"
# No worker task at all: task 0 gives up after CEI_RUN_TIMEOUT_S.
expect 1 "no worker from task(s) 1 of 1 within 1 s (CEI_RUN_TIMEOUT_S)" "${job[@]}" \
  CEI_RUN_TIMEOUT_S=1 SLURM_JOB_ID=8 CEI_RUN_DIR="$work/run" -- "$program"
[ "$fail" = 0 ] && echo PASS

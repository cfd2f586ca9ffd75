#!/usr/bin/env bash
# cei-run with a worker that comes after the program started (no Slurm needed: the job's variables
# are set by hand, and the program and its worker are stand-in scripts). With
# CEI_RUN_MIN_WORKERS=1 task 0 starts the program with node1 in CEI_REMOTE and its rendezvous
# folder in CEI_REMOTE_JOIN; task 2's worker, started only once the program runs, publishes its
# entry in that folder, where the program finds it (the runtime's side of it, the node joining
# the run: tests/remote/join_test.cpp).
#   late_worker.sh CEI_RUN
set -euo pipefail
cei_run=$1
work=$(mktemp -d)
pids=()
cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait
  rm -rf "$work"
}
trap cleanup EXIT
cd "$work"
# The program: says what it was given, then waits (20 s at most) for node2's entry in the folder.
cat >app <<'APP'
#!/usr/bin/env bash
echo "remote: $CEI_REMOTE" >program.out
echo "join: $CEI_REMOTE_JOIN" >>program.out
touch started
for _ in $(seq 200); do
  if [ -e "$CEI_REMOTE_JOIN/worker.2.url" ]; then cat "$CEI_REMOTE_JOIN/worker.2.url" >>program.out; exit 0; fi
  sleep 0.1
done
exit 1
APP
# The worker: listens as far as cei-run can tell, until it is stopped.
cat >app-worker <<'WORKER'
#!/usr/bin/env bash
echo "cei worker listening on http://$2:$4 (0 CEs)"
exec sleep 600
WORKER
chmod +x app app-worker
job=(SLURM_JOB_ID=9 SLURM_NTASKS=3 SLURM_STEP_ID=0 CEI_RUN_DIR="$work/run" CEI_RUN_HOST=127.0.0.1
  CEI_RUN_MIN_WORKERS=1 CEI_RUN_TIMEOUT_S=20)
env "${job[@]}" SLURM_PROCID=1 "$cei_run" ./app 2>task1.err &
pids+=($!)
status=0
env "${job[@]}" SLURM_PROCID=0 "$cei_run" ./app 2>task0.err &
task0=$!
for _ in $(seq 200); do [ -e started ] && break; sleep 0.1; done  # a poll, bounded: 20 s
[ -e started ] || { echo "FAIL: the program did not start with 1 of 2 workers"; cat task0.err; exit 1; }
env "${job[@]}" SLURM_PROCID=2 "$cei_run" ./app 2>task2.err &
pids+=($!)
wait "$task0" || status=$?
fail=0
check() { grep -qF -- "$2" "$1" || { echo "FAIL: $1 lacks '$2':"; cat "$1"; fail=1; }; }
[ "$status" = 0 ] || { echo "FAIL: task 0 exited $status"; fail=1; }
check task0.err "cei-run[0]: 1 worker(s): node1=http://127.0.0.1:"
check task0.err "cei-run[0]: task(s) 2: their workers join the run as they come (CEI_REMOTE_JOIN)"
check program.out "remote: node1=http://127.0.0.1:"
check program.out "join: $work/run/9.0.0"
check program.out "node2=http://127.0.0.1:"
grep -q node2 <(grep '^remote:' program.out) && { echo "FAIL: node2 was in CEI_REMOTE"; fail=1; }
[ "$fail" = 0 ] && echo PASS

#!/usr/bin/env bash
# Several builds of examples/cholesky side by side, in interleaved rounds: each round runs every
# (build, configuration) once, starting with another build and configuration each time, so that
# the load of a shared machine falls on all of them alike. The configurations are run.sh's four
# CEI rows (cpu-only config; default platforms under only:cpu, dynperf, dynperf with a profile
# trained by one unmeasured run per build). One line per run on stdout:
#   BUILD CONFIGURATION GFLOPS TIME_S MAKESPAN_S        (makespan from CEI_SUMMARY=1)
#   bench/cholesky/measure.sh ROUNDS BUILD... | bench/cholesky/summary.py
# A BUILD is a build tree, or a folder with examples/cholesky/cholesky and lib/libcei_runtime.so*
# copied from one (a build kept while the tree moves on).
set -euo pipefail
rounds=$1; shift
builds=()
for b in "$@"; do builds+=("$(cd "$b" && pwd)"); done  # the runs start in a scratch folder
n=${CHOL_N:-2048} tiles=${CHOL_TILES:-8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[platforms.cpu]\ntype = "cpu"\n' >"$work/cpu-only.toml"
run() {  # build label env...
  local b=$1 label=$2; shift 2
  local out
  out=$(cd "$work" && env LD_LIBRARY_PATH="$b/lib:$b/runtime" CEI_SUMMARY=1 "$@" "$b/examples/cholesky/cholesky" $n $tiles 2>&1)
  local g t m
  g=$(awk '/ GFlop\/s$/ { print $(NF - 1) }' <<<"$out")
  t=$(awk '/^time / { print $2 }' <<<"$out")
  m=$(awk '/makespan/ { print $(NF - 1) }' <<<"$out")
  echo "$(basename "$b") $label $g $t $m"
}
for b in "${builds[@]}"; do  # train one profile per build (one unmeasured run, as bench/cholesky/run.sh)
  (cd "$work" && LD_LIBRARY_PATH="$b/lib:$b/runtime" CEI_POLICY=dynperf CEI_PROFILE="$work/$(basename "$b").json" "$b/examples/cholesky/cholesky" $n $tiles >/dev/null)
done
config() {  # BUILD 0-3
  case $2 in
    0) run "$1" cpu-only CEI_PLATFORMS="$work/cpu-only.toml" ;;
    1) run "$1" default-only:cpu CEI_POLICY=only:cpu ;;
    2) run "$1" default-dynperf CEI_POLICY=dynperf ;;
    3) run "$1" default-dynperf+profile CEI_POLICY=dynperf CEI_PROFILE="$work/$(basename "$1").json" ;;
  esac
}
nb=${#builds[@]}
for r in $(seq "$rounds"); do
  # Each round starts with another build and another configuration: no fixed order effect.
  for i in $(seq 0 $((nb - 1))); do
    b=${builds[$(((i + r) % nb))]}
    for j in 0 1 2 3; do config "$b" $(((j + r) % 4)); done
  done
  echo "# round $r done, $(uptime | sed 's/.*load/load/')"
done

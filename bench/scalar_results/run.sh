#!/usr/bin/env bash
# Scalar CE results that only feed other CEs are not waited for: tests/instrumenter/apps/
# scalar_results.cpp (eight independent ~100 ms `work` calls, each result in a local `double`
# handed to an accumulator CE) against its -seq twin, on two cores (CORES, a taskset list).
# Prints the median of RUNS wall times of -seq, of the default policy and of CEI_POLICY=only:cpu,
# and their ratios to -seq; stops if an instrumented run prints anything else than -seq.
#   cmake --build build --target instr_scalar_results instr_scalar_results-seq
#   bench/scalar_results/run.sh [build dir] [iters: ~100 ms a call]
# On a machine other processes keep busy, run it as `chrt -r 1 bench/scalar_results/run.sh`:
# round-robin real-time threads are not slowed by them (nice is, with autogroups), and the
# kernel's real-time throttling still leaves them 5% of every second.
set -euo pipefail
build=${1:-build}
iters=${2:-25000000}
runs=${RUNS:-5}
cores=${CORES:-0,1}
prog=$build/tests/instrumenter/instr_scalar_results
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# Runs the command with $iters, output to $out/run; prints its wall time in ms.
wall_ms() {
  local start end
  start=$(date +%s%N)
  taskset -c "$cores" "$@" "$iters" >"$out/run"
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }

taskset -c "$cores" "$prog-seq" "$iters" >"$out/seq"
declare -A median_ms
for mode in seq default only:cpu; do
  t=()
  for _ in $(seq "$runs"); do
    case $mode in
      seq) t+=("$(wall_ms "$prog-seq")") ;;
      default) t+=("$(CEI_CPU_CORES=2 wall_ms "$prog")") ;;
      *) t+=("$(CEI_CPU_CORES=2 CEI_POLICY=$mode wall_ms "$prog")") ;;
    esac
    cmp -s "$out/run" "$out/seq" || { echo "$mode: output differs from -seq" >&2; exit 1; }
  done
  median_ms[$mode]=$(median "${t[@]}")
  echo "$mode: ${t[*]} ms, median ${median_ms[$mode]} ms"
done
for mode in default only:cpu; do
  awk -v m="$mode" -v a="${median_ms[$mode]}" -v b="${median_ms[seq]}" \
    'BEGIN { printf "%s / seq = %.3f\n", m, a / b }'
done

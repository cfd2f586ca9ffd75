#!/usr/bin/env bash
# Start-up off the critical path (issue 17 item 4): each program run with its OpenCL devices
# opened before the first task (CEI_OPENCL_OPEN=first) and in the background (the default), side
# by side. Prints a Markdown table of the medians of REPS runs: the wall time of the whole process
# and the time from its start to the end of its first task (with CEI_TRACE). Every run's
# output is checked against the sequential program's (exit 1 if one differs); every run's figures
# go to stderr.
#   bench/startup/run.sh BUILD_DIR [REPS=5]
# MATMUL="2048 256" (default "512 64") sizes the matmul rows; DATA=dir has digits.csv.gz. From a
# bundle of bench/gpu/bundle.sh (startup.sh there), on the GPU machine:
#   cd BUNDLE && LD_LIBRARY_PATH=$PWD/lib DATA=data MATMUL="2048 256" bash startup.sh build 5
# The modes share one program cache (CEI_OPENCL_CACHE, a temporary directory): a first run of each
# program fills it (discovery, kernels, profile) and is not counted.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [REPS=5]}
reps=${2:-5}
read -r -a matmul_args <<<"${MATMUL:-512 64}"
data=${DATA:-$(dirname "$0")/../../data}
ex=$build/examples
for p in digits/digits matmul/matmul bezier/bezier; do
  [ -x "$ex/$p" ] && [ -x "$ex/$p-seq" ] || { echo "run.sh: build $ex/$p and $p-seq" >&2; exit 2; }
done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CEI_OPENCL_CACHE=$work/cache
listed=$work/listed.toml  # the first OpenCL device listed: a candidate for every task
printf '[platforms.cpu]\ntype = "cpu"\n\n[platforms.opencl0]\ntype = "opencl"\n' >"$listed"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# The end of the first task in seconds from the process's start: the wall time less what came
# after it (the trace's clock starts once the platforms opened before the first task are open, so
# its own times leave those out).
first_task_s() {  # first_task_s TRACE WALL_S
  python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
x = [e for e in d["traceEvents"] if e.get("ph") == "X"]
first = min(e["ts"] + e["dur"] for e in x if e.get("cat") == "task")
print(float(sys.argv[2]) - (max(e["ts"] + e["dur"] for e in x) - first) / 1e6)' "$1" "$2"
}
# run OUTFILE MODE ENV... -- PROGRAM ARGS...: "wall first_task" on stdout
run() {
  local out=$1 mode=$2
  shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local t0 t1
  t0=$(date +%s.%N)
  env "${envs[@]}" CEI_OPENCL_OPEN="$mode" CEI_TRACE="$work/trace.json" "$@" >"$out" 2>"$work/err"
  t1=$(date +%s.%N)
  local wall
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
  echo "$wall $(first_task_s "$work/trace.json" "$wall")"
}

status=0
row() {  # row LABEL REFERENCE_OUTPUT_FILTER ENV... -- PROGRAM ARGS...
  local label=$1 filter=$2
  shift 2
  local args=("$@") cmd=() seen=0
  for a in "$@"; do
    if [ $seen = 1 ]; then cmd+=("$a"); elif [ "$a" = -- ]; then seen=1; fi
  done
  local prog=${cmd[0]} seq_out=$work/seq.txt
  "$prog-seq" "${cmd[@]:1}" | eval "$filter" >"$seq_out"
  run "$work/out" background "${args[@]}" >/dev/null  # fills the cache
  local first=() background=()
  for _ in $(seq "$reps"); do
    for mode in first background; do
      local f
      f=$(run "$work/out" "$mode" "${args[@]}")
      eval "$filter" <"$work/out" | cmp -s - "$seq_out" || { echo "run.sh: $label ($mode): output differs from ${prog##*/}-seq" >&2; status=1; }
      echo "$label | $mode: $f" >&2
      if [ "$mode" = first ]; then first+=("$f"); else background+=("$f"); fi
    done
  done
  local fw ff bw bf
  fw=$(printf '%s\n' "${first[@]}" | cut -d' ' -f1 | median)
  ff=$(printf '%s\n' "${first[@]}" | cut -d' ' -f2 | median)
  bw=$(printf '%s\n' "${background[@]}" | cut -d' ' -f1 | median)
  bf=$(printf '%s\n' "${background[@]}" | cut -d' ' -f2 | median)
  awk -v l="$label" -v fw="$fw" -v bw="$bw" -v ff="$ff" -v bf="$bf" \
    'BEGIN { printf "| %s | %.3f | %.3f | %.3f | %.4f | %.4f | %.3f |\n", l, fw, bw, bw / fw, ff, bf, bf / ff }'
}

echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')); OpenCL devices: $(clinfo -l 2>/dev/null | grep -c Device || echo '?'); median of $reps runs"
echo
echo "| program | wall s, first | wall s, background | ratio | first task s, first | first task s, background | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
digits=("$ex/digits/digits" 64 "$ex/digits/digits.weights" "$data/digits.csv.gz")
row "digits 64, default platforms and policy" cat -- "${digits[@]}"
row "digits 64, opencl0 listed, dynperf" cat CEI_PLATFORMS="$listed" CEI_POLICY=dynperf -- "${digits[@]}"
bezier=("$ex/bezier/bezier" 64 "$work/out.png" 512)
row "bezier 64 512, default platforms and policy" "grep checksum" -- "${bezier[@]}"
row "bezier 64 512, opencl0 listed, dynperf" "grep checksum" CEI_PLATFORMS="$listed" CEI_POLICY=dynperf -- "${bezier[@]}"
row "matmul ${matmul_args[*]}, dynperf, saved profile" cat CEI_POLICY=dynperf CEI_PROFILE="$work/profile.json" -- "$ex/matmul/matmul" "${matmul_args[@]}"
row "matmul ${matmul_args[*]}, only:opencl0" cat CEI_POLICY=only:opencl0 -- "$ex/matmul/matmul" "${matmul_args[@]}"
exit $status

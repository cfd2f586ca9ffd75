#!/usr/bin/env bash
# The GPU machine's headline numbers (the measurements of the "fast where users run it" work),
# from a bundle made by bench/gpu/bundle.sh, printed as Markdown tables. Minutes, not the suite's
# hour: run it before and after a change on the same warm machine.
#   bash headline.sh [RUNS=3]        (from the bundle's folder, or CEI_BUNDLE=<bundle>)
# Every figure is the median of RUNS runs, seconds. "no meter" runs the same build with NVML
# hidden (an empty libnvidia-ml.so.1 first on the library path), the baseline a meter must match.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
B="${CEI_BUNDLE:-$HERE}"
[ -d "$B/lib" ] || { echo "headline.sh: no bundle at $B" >&2; exit 2; }
RUNS="${1:-3}"
[ -e /etc/OpenCL/vendors/nvidia.icd ] || {
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; }
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CEI_OPENCL_DEVICE="${CEI_OPENCL_DEVICE:-NVIDIA}"
E="$B/build/examples"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/nonvml"
echo 'void cei_no_nvml(void) {}' | cc -shared -x c - -o "$W/nonvml/libnvidia-ml.so.1"

median() { sort -g | awk '{a[NR] = $1} END {print NR ? a[int((NR + 1) / 2)] : "-"}'; }
# makespan ENV... -- CMD...: the run summary's makespan, RUNS times.
makespan() {
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  for _ in $(seq "$RUNS"); do
    env CEI_SUMMARY=1 "${envs[@]}" "$@" 2>&1 >/dev/null |
      sed -n 's/.*makespan \([0-9.]*\) s.*/\1/p' | head -1
  done | median
}
wall() {
  for _ in $(seq "$RUNS"); do
    local t0 t1
    t0=$(date +%s.%N); "$@" >/dev/null 2>&1; t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}'
  done | median
}
nometer="LD_LIBRARY_PATH=$W/nonvml:$LD_LIBRARY_PATH"

echo "## Headline ($(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), $(nproc) cores)"
echo
echo "| measurement | NVML on | no meter |"
echo "|---|---:|---:|"
echo "| matmul 2048 256 only:opencl0, makespan s | $(makespan CEI_POLICY=only:opencl0 -- "$E/matmul/matmul" 2048 256) | $(makespan CEI_POLICY=only:opencl0 "$nometer" -- "$E/matmul/matmul" 2048 256) |"
echo "| bezier 256 4096 only:opencl0, makespan s | $(makespan CEI_POLICY=only:opencl0 -- "$E/bezier/bezier" 256 "$W/b.png" 4096) | $(makespan CEI_POLICY=only:opencl0 "$nometer" -- "$E/bezier/bezier" 256 "$W/b.png" 4096) |"
echo
echo "matmul 2048 256 only:opencl0, the run summary (moved: bytes copied to and from the device):"
echo '```'
CEI_SUMMARY=1 CEI_POLICY=only:opencl0 "$E/matmul/matmul" 2048 256 2>&1 >/dev/null | grep -v '^---'
echo '```'
echo
# StarPU's makespan starts after starpu_init has opened the devices; CEI's, by default, before its
# devices open in the background: "devices first" (CEI_OPENCL_OPEN=first) is the like-for-like
# makespan, and StarPU's start-up its cost of opening the devices: CEI's default makespan compares
# with StarPU's start-up + makespan.
echo "| matmul graph, makespan s | CEI dynperf, saved profile | CEI dynperf, first run (no profile) | CEI dynperf, saved profile, devices first | StarPU 1.3 dmda | StarPU start-up | StarPU start-up + makespan |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for size in "2048 256" "4096 512"; do
  prof="$W/profile-${size// /-}.json"
  CEI_PROFILE="$prof" "$E/matmul/matmul" $size >/dev/null 2>&1  # the saved profile
  CEI_PROFILE="$prof" "$E/matmul/matmul" $size >/dev/null 2>&1
  sp="$B/build/bench/starpu/cei-starpu-matmul"
  export STARPU_HOME="$W/starpu"
  for _ in 1 2 3; do STARPU_CALIBRATE=1 "$sp" $size >/dev/null 2>&1; done  # dmda's history models
  for _ in $(seq "$RUNS"); do "$sp" $size 2>/dev/null | grep makespan; done >"$W/starpu.txt"
  s=$(sed -n 's/.*makespan \([0-9.]*\) s.*/\1/p' "$W/starpu.txt" | median)
  su=$(sed -n 's/.*start-up \([0-9.]*\) s.*/\1/p' "$W/starpu.txt" | median)
  sb=$(sed -n 's/.*makespan \([0-9.]*\) s, start-up \([0-9.]*\) s.*/\1 \2/p' "$W/starpu.txt" |
    awk '{print $1 + $2}' | median)
  c=$(makespan CEI_PROFILE="$prof" -- "$E/matmul/matmul" $size)
  f=$(makespan CEI_POLICY=dynperf -- "$E/matmul/matmul" $size)  # nothing measured: it explores
  d=$(makespan CEI_PROFILE="$prof" CEI_OPENCL_OPEN=first -- "$E/matmul/matmul" $size)
  echo "| $size | $c | $f | $d | $s | $su | $sb |"
done
echo
echo "| start-up, wall s | digits-seq | digits only:cpu |"
echo "|---|---:|---:|"
D="$B/build/examples/digits"
echo "| digits 512 | $(wall "$D/digits-seq" 512 "$D/digits.weights" "$B/data/digits.csv.gz") | $(CEI_POLICY=only:cpu wall "$D/digits" 512 "$D/digits.weights" "$B/data/digits.csv.gz") |"
echo
echo "### cei_opencl_bench 30 256 8 300 5"
"$B/build/bench/opencl/cei_opencl_bench" 30 256 8 300 5 2>&1 | tail -25

#!/usr/bin/env bash
# Two builds of cei_opencl_bench side by side on one machine, taking turns so that the machine's
# state weighs on both alike: each round runs A, then B, on every workload, and prints the lines
# that compare CEI optimized with the hand-written code. The environment passes through: on PoCL,
# CEI_OPENCL_IN_ORDER=1 takes a GPU's launch path (one in-order queue, nothing held on the host).
#   bash bench/opencl/ab.sh A B [rounds=3] [bench args: frames matmul_n matmul_steps tiny_tasks reps]
# In a bundle (bench/gpu/bundle.sh with CEI_BUNDLE_BASELINE set), from the bundle's folder:
#   bash bench/opencl/ab.sh build/bench/opencl/cei_opencl_bench.baseline \
#        build/bench/opencl/cei_opencl_bench 3 30 256 8 300 5
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: ab.sh A B [rounds] [bench args]" >&2; exit 2; }
A="$1" B="$2"
ROUNDS="${3:-3}"
shift $(($# < 3 ? $# : 3))
for bin in "$A" "$B"; do
  [ -x "$bin" ] || { echo "ab.sh: $bin is not an executable" >&2; exit 2; }
done
for round in $(seq "$ROUNDS"); do
  for w in tiny matmul canny; do
    for side in A B; do
      bin="$A"
      [ "$side" = B ] && bin="$B"
      line="$("$bin" "${1:-30}" "${2:-256}" "${3:-8}" "${4:-300}" "${5:-5}" "$w" 2>&1 | grep "^$w:")"
      echo "round $round $side $line"
    done
  done
done

#!/usr/bin/env bash
# A stress loop for the GPU machine: matmul 4096/512 under DynPerf, a fresh CEI_PROFILE every
# four runs (the first run writes it, the next ones send nearly every product to the GPU at once),
# both ways of opening the devices in turn. A run past 20 s is killed and counted as hung. Pageable
# host copies hung NVIDIA's driver in 5 of 8 such runs (docs/opencl.md, "Copies through pinned
# memory"); run it before and after a change to the OpenCL platform.
#   bash hang.sh [SECONDS=150] [VAR=VALUE ...]   (from the bundle's folder, or CEI_BUNDLE=<bundle>)
# e.g. bash hang.sh 100 CEI_OPENCL_PINNED=0
# HANG_MATMUL="N BLOCK" (default "4096 512") and HANG_LIMIT_S (default 20) for a smaller machine.
set -uo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
B="${CEI_BUNDLE:-$HERE}"
[ -d "$B/lib" ] || { echo "hang.sh: no bundle at $B" >&2; exit 2; }
SECONDS_LEFT="${1:-150}"
shift || true
[ -e /etc/OpenCL/vendors/nvidia.icd ] || {
  mkdir -p /etc/OpenCL/vendors && echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd; }
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CEI_OPENCL_DEVICE="${CEI_OPENCL_DEVICE:-NVIDIA}"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
end=$((SECONDS + SECONDS_LEFT))
runs=0 hung=0 failed=0 group=0
while [ $SECONDS -lt $end ]; do
  group=$((group + 1))
  mode=$([ $((group % 2)) = 0 ] && echo first || echo background)
  for _ in 1 2 3 4; do
    [ $SECONDS -lt $end ] || break
    env "$@" CEI_OPENCL_OPEN=$mode CEI_PROFILE="$W/profile-$group.json" \
      timeout -s KILL "${HANG_LIMIT_S:-20}" "$B/build/examples/matmul/matmul" ${HANG_MATMUL:-4096 512} \
      >/dev/null 2>"$W/err.txt"
    rc=$?
    runs=$((runs + 1))
    if [ $rc = 137 ]; then
      hung=$((hung + 1))
      echo "run $runs ($mode, profile run $(( (runs - 1) % 4 + 1 ))): hung"
    elif [ $rc != 0 ]; then
      failed=$((failed + 1))
      echo "run $runs ($mode): exit $rc"
      tail -3 "$W/err.txt"
    fi
  done
done
echo "$runs runs, $hung hung, $failed failed"
[ $hung = 0 ] && [ $failed = 0 ]

#!/usr/bin/env bash
# bench/cholesky's side-by-side table on the GPU machine, for several sizes in one call, from a
# bundle made by bench/gpu/bundle.sh (unpacked at BUNDLE). NVIDIA's ICD is set up first; NVML is
# read by the runtime where the driver has it. One table per size goes to OUTDIR/cholesky-N.md.
#   bash bench/gpu/cholesky.sh BUNDLE OUTDIR REPS N:TILES [N:TILES...]
# CHOLESKY_ROWS (optional, as cholesky.sh reads it) picks rows for the large sizes.
set -euo pipefail
bundle=$(cd "${1:?usage: cholesky.sh BUNDLE OUTDIR REPS N:TILES...}" && pwd)
out=${2:?}; reps=${3:?}; shift 3
mkdir -p "$out"
if [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
  mkdir -p /etc/OpenCL/vendors
  echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export LD_LIBRARY_PATH="$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export STARPU_CHOLESKY="$bundle/build/bench/starpu/cholesky_implicit"
# Debian's OpenBLAS (0.3.21) does not know this machine's CPU model and falls back to its generic
# Prescott kernels: LAPACKE_spotrf ran at 190 GFlop/s on 16 cores instead of 800 (N = 8192, H100
# machine, 5 Dec 2026). The kernels the CPU's flags allow are named for every row alike.
# (The output is kept whole first: `grep -q` would end the pipe early, and pipefail fail it.)
core=$(OPENBLAS_VERBOSE=2 "$bundle/build/bench/cholesky/cei-lapacke-spotrf" 64 1 2>&1 || true)
if [ -z "${OPENBLAS_CORETYPE:-}" ] && grep -q 'Core: Prescott' <<<"$core"; then
  if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
{ echo "OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-}"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
  grep -m1 'model name' /proc/cpuinfo; nproc; } >"$out/machine.txt" 2>&1
for size in "$@"; do
  n=${size%%:*} tiles=${size##*:}
  echo "== N=$n tiles=$tiles" >&2
  bash "$bundle/cholesky.sh" "$bundle/build" "$n" "$tiles" "$reps" >"$out/cholesky-$n.md" 2>"$out/cholesky-$n.log" ||
    echo "cholesky.sh N=$n failed: $(tail -3 "$out/cholesky-$n.log")" >&2
  cat "$out/cholesky-$n.md"
done

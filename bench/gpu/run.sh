#!/usr/bin/env bash
# Runs the benchmark suite from a bundle made by bench/gpu/bundle.sh on a machine with an NVIDIA
# GPU, with opencl0 = the NVIDIA device (NVIDIA's OpenCL driver through the bundled ICD loader),
# and writes OUTDIR/<machine>/ in the same form as scripts/bench.sh (README.md, PNGs, results.json).
#   bash run.sh [OUTDIR=./results] [suite.py options: --quick, --runs N, --only 51,52,others]
# Parts run apart (one per call where a call is limited to minutes) join into one report:
#   python3 bench/suite/suite.py --merge OUT51/<machine> OUT52/<machine> OUTo/<machine> --out DIR
# Copy OUTDIR/<machine> into bench/results/ and run `python3 bench/suite/docs.py` to publish it.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
BUNDLE="${CEI_BUNDLE:-$HERE}"
[ -d "$BUNDLE/lib" ] || BUNDLE="$HERE/bundle"  # run from the source tree: bench/gpu/run.sh
[ -d "$BUNDLE/lib" ] || { echo "run.sh: no bundle; run bench/gpu/bundle.sh first" >&2; exit 2; }
OUT="${1:-$PWD/results}"
shift || true

if [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
  mkdir -p /etc/OpenCL/vendors
  echo libnvidia-opencl.so.1 >/etc/OpenCL/vendors/nvidia.icd
fi
export LD_LIBRARY_PATH="$BUNDLE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export CEI_OPENCL_DEVICE="${CEI_OPENCL_DEVICE:-NVIDIA}"
GPU="$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)"
GPU="${GPU:-NVIDIA GPU}"
# e.g. "NVIDIA H100 80GB HBM3" -> nvidia-h100
export CEI_BENCH_MACHINE="${CEI_BENCH_MACHINE:-$(tr 'A-Z ' 'a-z\n' <<<"$GPU" | head -2 | paste -sd- | tr -cd 'a-z0-9-')}"
# The first interpreter with matplotlib draws the plots; any python3 writes the tables.
PY=python3
for p in /usr/bin/python3 python3; do
  if "$p" -c 'import matplotlib' 2>/dev/null; then PY="$p" && break; fi
done
"$PY" "$BUNDLE/bench/suite/suite.py" --build "$BUNDLE/build" --data "$BUNDLE/data" \
  --out "$OUT/$CEI_BENCH_MACHINE" --device "$GPU" --opencl-w "${CEI_BENCH_OPENCL_W:-300}" "$@"

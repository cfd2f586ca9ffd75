#!/usr/bin/env bash
# Builds CEI (scripts/build.sh), runs the benchmark suite and writes bench/results/<machine>/
# (README.md tables, PNG plots, results.json), then regenerates docs/benchmarks.md.
#   bash scripts/bench.sh [--quick] [suite.py options: --runs N, --cores N, --only 51,52,others]
# <machine> is $CEI_BENCH_MACHINE or a short name from the host name and CPU model.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bench-deps.sh
BUILD="${CEI_BUILD_DIR:-build}"
[ "${CEI_BENCH_NO_BUILD:-0}" = 1 ] || bash scripts/build.sh
# Debian's interpreter: python3-matplotlib installs there, not into a pyenv or venv python.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
"$PY" bench/suite/suite.py --build "$BUILD" "$@"
"$PY" bench/suite/docs.py

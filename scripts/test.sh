#!/usr/bin/env bash
# The whole test suite: set-up, build, ctest. Heavy benchmarks are not part of it (bench/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh "$@"
ctest --test-dir "${CEI_BUILD_DIR:-build}" --output-on-failure -j"$(nproc)" --timeout 600

#!/usr/bin/env bash
# Configures and builds CEI into ${CEI_BUILD_DIR:-build} after making sure the Debian packages
# are there. Extra arguments go to cmake's configure step.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
bash scripts/data.sh
BUILD="${CEI_BUILD_DIR:-build}"
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE="${CEI_BUILD_TYPE:-RelWithDebInfo}" "$@"
cmake --build "$BUILD" -j"$(nproc)"

#!/usr/bin/env bash
# Debian packages only the benchmark suite needs (plots, StarPU's own Cholesky); CI's list stays scripts/deps.sh.
set -euo pipefail
exec bash "$(dirname "$0")/deps.sh" python3-matplotlib starpu-examples

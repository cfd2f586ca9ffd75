#!/bin/sh
# Usage: bench/policies/run.sh BUILD_DIR  — prints the Markdown table for 1 and 2 CPU cores.
set -e
bin="${1:?build dir}/bench/policies/cei_policies_bench"
echo "| CPU cores | blocks | strategy | time (s) | vs best static | energy (J) | energy source | tasks cpu / opencl0 |"
echo "|---|---|---|---|---|---|---|---|"
for cores in 1 2; do CEI_CPU_CORES=$cores "$bin"; done

#!/bin/sh
# Usage: bench/policies/run.sh BUILD_DIR [REPS]  — prints the Markdown table for 1 and 2 CPU cores,
# every figure the median of REPS runs (default 5). Every split's median time goes to stderr.
set -e
bin="${1:?build dir}/bench/policies/cei_policies_bench"
reps="${2:-5}"
echo "| CPU cores | blocks | strategy | time (s) | vs best static | energy (J) | energy from | tasks cpu / opencl0 |"
echo "|---|---|---|---|---|---|---|---|"
for cores in 1 2; do CEI_CPU_CORES=$cores "$bin" --reps "$reps"; done

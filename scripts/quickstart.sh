#!/usr/bin/env bash
# The README's main job: builds CEI and its examples, then runs the Canny edge detector end to end
# (30 frames panned across a real photograph, 120 tasks) on the default platforms: every CPU core
# plus every OpenCL device found. Prints the runtime's summary and where the edge maps and the task
# graph (drawn by Graphviz's dot) went.
# Environment: CEI_BUILD_DIR (default build), CEI_POLICY (default dynperf), anything CEI_* else.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
build="${CEI_BUILD_DIR:-build}"
program="$build/examples/canny/canny"
if [ ! -x "$program" ]; then
  echo "quickstart: $program was not built (cei_add_application needs the instrumenter)" >&2
  exit 1
fi
out="$PWD/$build/quickstart/canny"
mkdir -p "$out"
echo "== canny: 30 frames x 4 CEs, policy ${CEI_POLICY:-dynperf}"
CEI_SUMMARY=1 CEI_GRAPH="$out/graph.dot" CEI_POLICY="${CEI_POLICY:-dynperf}" "$program" 30 "$out"
echo "== the edge maps are PNG files in $out (edges_00.png .. edges_29.png)"
# Graphviz (scripts/deps.sh) draws the task graph the run wrote (CEI_GRAPH).
dot -Tsvg "$out/graph.dot" -o "$out/graph.svg"
echo "== its task graph: $out/graph.svg (dot -Tsvg $out/graph.dot -o graph.svg)"

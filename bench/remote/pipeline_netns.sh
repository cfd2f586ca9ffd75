#!/usr/bin/env bash
# Node-to-node transfers on hosts of their own: the relay pipeline (tests/cluster/pipeline) on 4
# network namespaces, each stage on a node of its own (tests/cluster/netns_test.sh, mode
# pipeline, which checks every run: each value moved once, node to node; results equal -seq's).
# RUNS rounds; each round runs it under both node executors (process: a child process per task,
# the default; direct: the node's threads), each on 1 Gbit/s links and on unshaped links (veth
# speed), so that the four see the same machine. Prints each run's makespan, its ratio to the
# ideal with the data placement known beforehand, and the ratio of the shaped run to the
# unshaped one; then medians (docs/remote.md, "Node-to-node transfers, measured"). As root:
#   bench/remote/pipeline_netns.sh [BUILD_DIR=build] [RUNS=5] [ITEMS=8] [MIB=8] [ROUNDS=1]
set -euo pipefail
build=${1:-build} runs=${2:-5} items=${3:-8} mib=${4:-8} rounds=${5:-1}
dir=$build/tests/cluster/pipeline
test=$(dirname "$0")/../../tests/cluster/netns_test.sh
for p in pipeline pipeline-seq pipeline-worker; do
  [ -x "$dir/$p" ] || {
    echo "bench/remote/pipeline_netns.sh: $dir/$p not built (cmake --build $build --target $p)" >&2
    exit 2
  }
done
# one EXECUTOR [UNSHAPED]: one checked run (no bound on its time: the ratios are what this
# prints); prints "MAKESPAN IDEAL_RATIO".
one() {
  local out
  out=$(CEI_NETNS_WORKER_ARGS="--executor $1" CEI_NETNS_UNSHAPED=${2:-} CEI_PIPELINE_RUNS=1 \
    CEI_PIPELINE_BOUND=inf bash "$test" pipeline "$dir/pipeline" "$dir/pipeline-seq" \
    "$items" "$mib" "$rounds" 2>&1) || {
    echo "$out" >&2
    exit 1
  }
  echo "$out" | sed -nE 's/^run 1: makespan ([0-9.]+) s, .* ratio ([0-9.]+)$/\1 \2/p'
}
median() { sort -n | awk '{r[NR] = $1} END {print (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2}'; }
echo "pipeline: $items items of $mib MiB, $rounds round(s) a stage; 4 nodes, 1 Gbit/s links"
declare -A col
for r in $(seq 1 "$runs"); do
  for executor in process direct; do
    read -r s si < <(one "$executor")
    read -r u _ < <(one "$executor" 1)
    v=$(python3 -c "print(f'{$s / $u:.2f}')")
    echo "round $r, $executor: 1 Gbit/s ${s} s (${si}x the ideal), unshaped ${u} s," \
      "1 Gbit/s / unshaped ${v}"
    col[$executor.s]+="$s " col[$executor.si]+="$si " col[$executor.u]+="$u " col[$executor.v]+="$v "
  done
done
m() { tr ' ' '\n' <<<"${col[$1]}" | grep . | median; }
for executor in process direct; do
  echo "medians, $executor: 1 Gbit/s $(m "$executor.s") s, $(m "$executor.si")x the ideal;" \
    "unshaped $(m "$executor.u") s; 1 Gbit/s / unshaped $(m "$executor.v")"
done

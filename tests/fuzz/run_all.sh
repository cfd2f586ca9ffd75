#!/usr/bin/env bash
# Builds the fuzz targets (preset "fuzz": clang++-14, libFuzzer, ASan, UBSan), runs each for SECONDS
# (one process per target, at most JOBS at once), merges the inputs that add coverage into the
# committed corpora (tests/fuzz/corpus/<target>/, minimized, seeds kept), and prints per target:
# executions, coverage before and after, corpus files before and after, and crash files.
#
#   tests/fuzz/run_all.sh 60          # every target for a minute, all at once
#   tests/fuzz/run_all.sh 600 4       # ten minutes each, four at a time
#   CEI_FUZZ_TARGETS="expr config" tests/fuzz/run_all.sh 30
#
# A crash does not end a target's run: the fuzzer restarts (at most 5 times) for the time left, and
# every crash file stays in BUILD/fuzz-runs/<target>/artifacts/. Exit status 1 if any crashed.
set -euo pipefail

seconds=${1:?usage: run_all.sh SECONDS [JOBS]}
jobs=${2:-$(nproc)}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build-fuzz  # the fuzz preset's binaryDir
targets=${CEI_FUZZ_TARGETS:-expr attr_args config task_request deserialize}

cd "$root"
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$jobs"

runs=$build/fuzz-runs
rm -rf "$runs"

# One target: fuzz until the time is up (restarting after a crash), then merge into the corpus.
fuzz_one() {
  local t=$1 exe=$build/tests/fuzz/cei_fuzz_$1 corpus=$here/corpus/$1 work=$runs/$1
  mkdir -p "$work/new" "$work/artifacts" "$corpus"
  local dict=() end=$((SECONDS + seconds)) attempt=0
  [[ -f $here/dict/$t.dict ]] && dict=(-dict="$here/dict/$t.dict")
  while (( SECONDS < end && attempt < 5 )); do
    attempt=$((attempt + 1))
    "$exe" "${dict[@]}" -max_total_time=$((end - SECONDS)) -max_len=4096 -timeout=10 \
      -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
      "$work/new" "$corpus" >"$work/log.$attempt" 2>&1 || true
    grep -q 'DONE' "$work/log.$attempt" && break  # ran out of time without crashing
  done
  # Minimize: the hand-written seeds and crash regressions (any name but libFuzzer's 40-hex ones)
  # stay, plus the fewest other inputs that keep all the coverage of the old corpus and the new.
  local kept=$work/kept before after
  mkdir -p "$kept"
  find "$corpus" -maxdepth 1 -type f ! -regex '.*/[0-9a-f]\{40\}' -exec cp {} "$kept/" \;
  before=$(ls "$corpus" | wc -l)
  if "$exe" -merge=1 "$kept" "$corpus" "$work/new" >"$work/merge.log" 2>&1; then
    rm -f "$corpus"/*
    cp "$kept"/* "$corpus/"
  fi
  after=$(ls "$corpus" | wc -l)
  echo "$before -> $after" >"$work/files"
}

pids=()
for t in $targets; do
  while (( $(jobs -rp | wc -l) >= jobs )); do wait -n || true; done
  fuzz_one "$t" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done

status=0
printf '\n%-14s %12s %8s %14s %16s %8s\n' target executions exec/s coverage "corpus files" crashes
for t in $targets; do
  work=$runs/$t
  execs=0
  for log in "$work"/log.*; do
    # Final stats when the run ended normally; else the last status line before the crash.
    n=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || true)
    [[ -z $n ]] && n=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
    execs=$((execs + ${n:-0}))
  done
  cov0=$(grep -o 'INITED cov: [0-9]*' "$work/log.1" | grep -o '[0-9]*$' | head -1 || true)
  cov1=$(grep -ho ' cov: [0-9]*' "$work"/log.* | grep -o '[0-9]*$' | sort -n | tail -1 || true)
  ncrash=$(find "$work/artifacts" -type f | wc -l)
  (( ncrash > 0 )) && status=1
  printf '%-14s %12s %8s %14s %16s %8s\n' "$t" "$execs" $((execs / seconds)) \
    "${cov0:-?} -> ${cov1:-?}" "$(cat "$work/files")" "$ncrash"
done
crashes=$(find "$runs"/*/artifacts -type f | sort)
if [[ -n $crashes ]]; then
  echo; echo "crash files (reproduce: build-fuzz/tests/fuzz/cei_fuzz_<target> FILE):"; echo "$crashes"
fi
echo
echo "corpora: $(find "$here/corpus" -type f | wc -l) files," \
  "$(find "$here/corpus" -type f -exec cat {} + | wc -c) bytes; logs in $runs/<target>/"
exit $status

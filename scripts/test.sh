#!/usr/bin/env bash
# The whole test suite: set-up, build, ctest. Heavy benchmarks are not part of it (bench/).
set -euo pipefail
cd "$(dirname "$0")/.."
# Warnings are errors here (CEI_WERROR is off by default, for users' and packagers' compilers).
bash scripts/build.sh -DCEI_WERROR=ON "$@"
build="${CEI_BUILD_DIR:-build}"
status=0
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" --timeout 600 || status=$?
if [ "$status" -ne 0 ]; then
  # With -j the output of a failed test lies far up among the others': repeat it last, where a
  # CI log's tail shows it.
  log="$build/Testing/Temporary/LastTest.log"
  failed="$build/Testing/Temporary/LastTestsFailed.log"
  if [ -f "$failed" ] && [ -f "$log" ]; then
    while IFS=: read -r _ name; do
      echo "===== output of the failed test $name ====="
      awk -v n="$name" 'index($0, " Testing: " n) && substr($0, length($0) - length(n) + 1) == n {on = 1}
        on {print}
        on && index($0, "\"" n "\" time elapsed") {exit}' "$log"
    done < "$failed"
  fi
fi
exit "$status"

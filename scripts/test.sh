#!/usr/bin/env bash
# The whole test suite: set-up, build, ctest, and a Release build. Heavy benchmarks are not part of
# it (bench/).
set -euo pipefail
cd "$(dirname "$0")/.."
# Warnings are errors here (CEI_WERROR is off by default, for users' and packagers' compilers).
bash scripts/build.sh -DCEI_WERROR=ON "$@"
build="${CEI_BUILD_DIR:-build}"

# CEI in Release, as a packager builds it: GCC's optimiser warns at -O3 where it does not at -O2
# (the RelWithDebInfo build above). The libraries, ceic and the tools only: the tests, examples
# and benchmarks would double the suite's time. Its log is shown at the end if it fails.
release="$build-release"
mkdir -p "$release"
echo "== Release build of the libraries, ceic and the tools in $release"
rstatus=0
{ cmake -S . -B "$release" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCEI_WERROR=ON \
    -DCEI_BUILD_TESTS=OFF -DCEI_BUILD_EXAMPLES=OFF -DCEI_BUILD_BENCH=OFF "$@" &&
  cmake --build "$release" -j"$(nproc)"; } >"$release/build.log" 2>&1 || rstatus=$?

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
if [ "$rstatus" -ne 0 ]; then
  echo "===== the Release build failed (exit status $rstatus): the end of $release/build.log ====="
  tail -n 80 "$release/build.log"
  [ "$status" -ne 0 ] || status=$rstatus
fi
exit "$status"

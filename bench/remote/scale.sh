#!/usr/bin/env bash
# The client at full scale: 16 worker nodes on 127.0.0.1 and 100,000 tiny tasks, through the
# scale test (tests/remote/scale_test.cpp), which also runs a tenth of them first. Prints each
# run's peak threads, open sockets and resident memory (docs/remote.md, "Scale of the client").
#   bench/remote/scale.sh [BUILD_DIR=build] [TASKS=100000]
set -euo pipefail
build=${1:-build} tasks=${2:-100000}
test=$build/tests/remote/cei_remote_scale_tests
[ -x "$test" ] || {
  echo "bench/remote/scale.sh: $test not built (cmake --build $build --target cei_remote_scale_tests)" >&2
  exit 2
}
CEI_SCALE_TASKS=$tasks "$test" --gtest_brief=1

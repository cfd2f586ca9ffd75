#!/usr/bin/env bash
# The one list of Debian packages CEI needs; both README commands call this.
# Installs only what is missing, so a second run costs a dpkg query and nothing else.
# Extra package names given as arguments are installed the same way (scripts/bench-deps.sh).
set -euo pipefail
PACKAGES=(
  build-essential cmake ninja-build pkg-config git python3
  clang-14 libclang-14-dev llvm-14-dev libclang-cpp14-dev libclang-rt-14-dev
  ocl-icd-opencl-dev opencl-headers libpocl-dev pocl-opencl-icd clinfo
  libcpprest-dev libboost-dev libssl-dev libuv1-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libtomlplusplus-dev libcli11-dev libfmt-dev libspdlog-dev nlohmann-json3-dev libcereal-dev libstb-dev
  libcairo2-dev zlib1g-dev
  libclblast-dev libopenblas-dev liblapacke-dev   # examples/cholesky and the OpenCL function tests
  graphviz
  libstarpu-dev
  curl
  slurm-wlm munge   # tests/cluster: cei-run under a one-host Slurm (docs/cluster.md)
  openssl   # the tests make their HTTPS certificates with it (not in a minimal Debian)
  "$@"
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "cei: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

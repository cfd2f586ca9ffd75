#!/usr/bin/env bash
# Builds a relocatable bundle of the benchmark suite for a machine with an NVIDIA GPU: the suite's
# programs in their build-tree layout, every shared library `ldd` lists for them except glibc's
# own (libOpenCL's ICD loader, cpprest, boost, spdlog, fmt, StarPU, examples/cholesky's CLBlast,
# OpenBLAS and LAPACKE with OpenBLAS's libgfortran, libstdc++, ...), the inputs and the suite's
# scripts. Copy the folder over and run its run.sh there.
#   bash bench/gpu/bundle.sh [BUILD=build] [OUT=bench/gpu/bundle]    # OUT is git-ignored
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${1:-${CEI_BUILD_DIR:-build}}"
OUT="${2:-bench/gpu/bundle}"

PROGRAMS=()
for app in matmul bezier canny digits cholesky; do
  PROGRAMS+=("examples/$app/$app" "examples/$app/$app-seq" "bench/suite/handwritten/$app-handcl")
done
PROGRAMS+=(examples/bezier_budget/bezier_budget examples/bezier_budget/bezier_budget-seq)
PROGRAMS+=(bench/overhead/cei-bench-overhead bench/opencl/cei_opencl_bench
           bench/remote/cei-bench-remote bench/starpu/cei-starpu-matmul
           bench/second_thoughts/cei_bench_rethink bench/policies/cei_policies_bench
           bench/cholesky/cei-lapacke-spotrf bench/cholesky/cei-cholesky-clblast)

if [ "${CEI_BUNDLE_NO_BUILD:-0}" != 1 ]; then
  [ -f "$BUILD/build.ninja" ] || bash scripts/build.sh
  known="$(ninja -C "$BUILD" -t targets all 2>/dev/null || true)"  # scripts/build.sh uses Ninja
  targets=(digits-weights cltime)
  for p in "${PROGRAMS[@]}"; do
    grep -q "^$(basename "$p"):" <<<"$known" && targets+=("$(basename "$p")")
  done
  cmake --build "$BUILD" -j"${CEI_BUILD_JOBS:-$(nproc)}" --target "${targets[@]}"
fi

rm -rf "$OUT"
mkdir -p "$OUT/lib" "$OUT/data" "$OUT/bench/suite" "$OUT/build/examples/digits"
for p in "${PROGRAMS[@]}"; do
  if [ -x "$BUILD/$p" ]; then
    mkdir -p "$OUT/build/$(dirname "$p")"
    cp "$BUILD/$p" "$OUT/build/$p"
  else
    echo "bundle: $BUILD/$p is not built; the suite will skip it" >&2
  fi
done
# StarPU's own tiled Cholesky (Debian's starpu-examples), for bench/cholesky/run.sh beside ours.
starpu_chol="$(dpkg -L starpu-examples 2>/dev/null | grep '/cholesky_implicit$' | head -1 || true)"
[ -n "$starpu_chol" ] && cp "$starpu_chol" "$OUT/build/bench/starpu/" 2>/dev/null || true
# The policies bench reads its kernel and platforms config from beside itself.
cp bench/policies/platforms.toml examples/bezier/bezier.cl "$OUT/build/bench/policies/" 2>/dev/null || true
# The driver-call timer (bench/opencl/cltime), preloaded by hand when the per-task cost is looked at.
cp "$BUILD/bench/opencl/cltime/libcltime.so" "$OUT/lib/" 2>/dev/null || true
# Another build's cei_opencl_bench (CEI_BUNDLE_BASELINE=path), to compare the two side by side on
# the GPU machine with bench/opencl/ab.sh (its CEI libraries are linked in statically).
mkdir -p "$OUT/bench/opencl"
cp bench/opencl/ab.sh "$OUT/bench/opencl/"
if [ -n "${CEI_BUNDLE_BASELINE:-}" ]; then
  cp "$CEI_BUNDLE_BASELINE" "$OUT/build/bench/opencl/cei_opencl_bench.baseline"
fi
cp "$BUILD/examples/digits/digits.weights" "$OUT/build/examples/digits/" 2>/dev/null ||
  echo "bundle: no digits.weights; digits will be skipped" >&2

# The libraries the dynamic linker resolves for each program, glibc's own excepted: those come with
# every Linux and must match its kernel interface and loader.
GLIBC='^(linux-vdso|ld-linux|libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libnsl|libanl)\.so'
for f in "$OUT"/build/examples/*/* "$OUT"/build/bench/*/* "$OUT"/build/bench/suite/*/*; do
  [ -f "$f" ] && [ -x "$f" ] || continue
  ldd "$f" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3} $2 == "=>" && $3 == "not" {print $1, "MISSING"}' |
    while read -r name path; do
      [[ "$name" =~ $GLIBC ]] && continue
      if [ "$path" = MISSING ]; then echo "bundle: $f needs $name, not found here" >&2; continue; fi
      [ -e "$OUT/lib/$name" ] || cp -L "$path" "$OUT/lib/$name"
    done
done

# Debug info is most of the size and of no use for timing runs.
command -v strip >/dev/null && find "$OUT/build" "$OUT/lib" -type f -perm -u+x -o -type f -name '*.so*' |
  xargs -r strip --strip-debug 2>/dev/null || true

cp data/china.jpg data/digits.csv.gz "$OUT/data/"
# The second-thoughts bench reads its platforms next to itself.
[ -d "$OUT/build/bench/second_thoughts" ] && cp bench/second_thoughts/platforms.toml "$OUT/build/bench/second_thoughts/"
cp bench/suite/suite.py bench/suite/report.py "$OUT/bench/suite/"
cp bench/gpu/run.sh bench/gpu/headline.sh bench/gpu/hang.sh "$OUT/"
cp bench/cholesky/run.sh "$OUT/cholesky.sh"
cp bench/cholesky/cusolver.py "$OUT/"  # cholesky.sh's cuSOLVER row, beside it
cp bench/startup/run.sh "$OUT/startup.sh"
cp bench/budget/sweep.py "$OUT/sweep.py"
echo "bundle: $OUT ($(du -sh "$OUT" | cut -f1)); on the GPU machine: bash $OUT/run.sh [OUTDIR] [--quick]"

#!/usr/bin/env bash
# CEI's tiled Cholesky (examples/cholesky) beside the libraries a user would call instead, all in
# one run: LAPACKE_spotrf on the whole matrix with the BLAS's threads (cei-lapacke-spotrf), the
# same tiled program written by hand on one OpenCL device (cei-cholesky-clblast),
# cuSOLVER's spotrf through PyTorch with the data on the GPU (cusolver.py, where PyTorch sees a
# CUDA device) and StarPU's cholesky_implicit (Debian's starpu-examples, same tiling). Same
# single-precision matrix, same flop count (N^3/3). Prints a Markdown table of the median GFlop/s
# of REPS runs per configuration and its ratio to LAPACKE; every run's figure goes to stderr.
#   bench/cholesky/run.sh BUILD_DIR [N=2048] [TILES=8] [REPS=5]
# CHOLESKY_ROWS=lapacke,cusolver,cpu,first,profiled,opencl,handcl,handclcpu,starpu (default: all) picks rows,
# e.g. to leave out the slow ones at large N.
# STARPU_CHOLESKY=path overrides where cholesky_implicit is looked for (dpkg -L starpu-examples).
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR [N=2048] [TILES=8] [REPS=5]}
n=${2:-2048} tiles=${3:-8} reps=${4:-5}
chol=$build/examples/cholesky/cholesky
[ -x "$chol" ] || { echo "run.sh: no $chol (build the target cholesky)" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
lapacke=${CEI_LAPACKE_SPOTRF:-$build/bench/cholesky/cei-lapacke-spotrf}
handcl=${CEI_CHOLESKY_CLBLAST:-$build/bench/cholesky/cei-cholesky-clblast}
starpu=${STARPU_CHOLESKY:-$(dpkg -L starpu-examples 2>/dev/null | grep '/cholesky_implicit$' | head -1 || true)}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf '[platforms.cpu]\ntype = "cpu"\n' >"$work/cpu-only.toml"

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# "time 1.234 s, 2.32 GFlop/s"; the program exits non-zero if its residual check fails.
cei_run() { env "$@" "$chol" "$n" "$tiles" | awk '/ GFlop\/s$/ { print $(NF - 1) }'; }
# "# size ms GFlop/s" then the figures.
starpu_run() { env STARPU_SILENT=1 "$@" "$starpu" -size "$n" -nblocks "$tiles" | awk '!/^#/ { print $3 }'; }

# The references time REPS runs in one process (after a warm-up for cuSOLVER): "... G GFlop/s".
lapacke_runs() { "$lapacke" "$n" "$reps" | awk '/ GFlop\/s$/ { print $(NF - 1) }'; }
handcl_runs() { "$handcl" "$n" "$tiles" "$reps" "$@" | awk '/ GFlop\/s$/ { print $(NF - 1) }'; }
cusolver_runs() { python3 "$here/cusolver.py" "$n" "$reps" | awk '/ GFlop\/s$/ { print $(NF - 1) }'; }

rows=",${CHOLESKY_ROWS:-lapacke,cusolver,cpu,first,profiled,opencl,handcl,handclcpu,starpu},"
want() { [[ $rows == *",$1,"* ]]; }
reference=""  # LAPACKE's median: every row's ratio is to it
row() {  # row PROGRAM CONFIGURATION RUNNER ENV...
  local program=$1 config=$2 runner=$3
  shift 3
  local runs=()
  for _ in $(seq "$reps"); do runs+=("$("$runner" "$@")"); done
  emit "$program" "$config" "${runs[@]}"
}
emit() {  # emit PROGRAM CONFIGURATION FIGURE...
  local program=$1 config=$2
  shift 2
  echo "$program | $config: $*" >&2
  local m
  m=$(printf '%s\n' "$@" | median)
  echo "| $program | $config | $m | $(awk -v m="$m" -v r="$reference" 'BEGIN { if (r > 0) printf "%.2fx", m / r; else print "-" }') |"
}

echo "N=$n, ${tiles}x$tiles tiles, $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), median of $reps runs"
echo
echo "| program | configuration | GFlop/s | vs LAPACKE |"
echo "|---|---|---|---|"
if ! want lapacke; then
  :
elif [ -x "$lapacke" ]; then
  mapfile -t runs < <(lapacke_runs)
  reference=$(printf '%s\n' "${runs[@]}" | median)
  emit LAPACKE "spotrf on the whole matrix, $(nproc) BLAS threads" "${runs[@]}"
else
  echo "run.sh: no $lapacke (build the target cei-lapacke-spotrf): LAPACKE row skipped" >&2
fi
if want cusolver && mapfile -t runs < <(cusolver_runs 2>/dev/null) && ((${#runs[@]})); then
  emit cuSOLVER "torch.linalg.cholesky, data on the GPU" "${runs[@]}"
fi
! want cpu || row CEI "CEI_PLATFORMS=cpu-only.toml (cpu only)" cei_run CEI_PLATFORMS="$work/cpu-only.toml"
! want first || row CEI "default platforms, first run (no profile)" cei_run
if want profiled; then
  CEI_PROFILE="$work/profile.json" "$chol" "$n" "$tiles" >/dev/null  # trains it
  row CEI "default platforms, CEI_PROFILE saved" cei_run CEI_PROFILE="$work/profile.json"
fi
! want opencl || row CEI "default platforms, CEI_POLICY=only:opencl0" cei_run CEI_POLICY=only:opencl0
if want handcl && [ -x "$handcl" ] && mapfile -t runs < <(handcl_runs) && ((${#runs[@]})); then
  emit "hand-written" "same tiles, CLBlast on one device, the example's device potrf" "${runs[@]}"
fi
if want handclcpu && [ -x "$handcl" ] && mapfile -t runs < <(handcl_runs cpu) && ((${#runs[@]})); then
  emit "hand-written" "same tiles, CLBlast on one device, potrf by LAPACKE on the CPU" "${runs[@]}"
fi
if ! want starpu; then
  :
elif [ -n "$starpu" ] && [ -x "$starpu" ]; then
  starpu_run >/dev/null  # StarPU calibrates the bus on its first run on a machine
  # Debian's StarPU has OpenCL: each OpenCL device takes a core for its driver thread, though
  # cholesky_implicit has no OpenCL codelets; STARPU_NOPENCL=0 gives every core to CPU workers.
  row StarPU "default (STARPU_SCHED unset)" starpu_run
  row StarPU "STARPU_NOPENCL=0" starpu_run STARPU_NOPENCL=0
else
  echo "run.sh: no cholesky_implicit (apt-get install starpu-examples): StarPU rows skipped" >&2
fi

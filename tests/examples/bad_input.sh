#!/usr/bin/env bash
# Bad input to an example: the instrumented PROGRAM and its sequential twin SEQ, run with ARGS,
# must both exit with status 2 and print EXPECTED on stderr (a usage line or the file named),
# never abort.
#   bad_input.sh EXPECTED PROGRAM SEQ ARGS...
set -uo pipefail
expected=$1 program=$2 seq=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
for p in "$program" "$seq"; do
  ( cd "$work" && "$p" "$@" >/dev/null 2>err.txt )
  status=$?
  if [ "$status" -ne 2 ] || ! grep -qF -- "$expected" "$work/err.txt"; then
    echo "FAIL: $p $* exited with $status (expected 2) and printed:"
    cat "$work/err.txt"
    echo "(expected a line with: $expected)"
    fail=1
  fi
done
exit $fail

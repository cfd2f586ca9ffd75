#!/usr/bin/env bash
# Sequential consistency of one example: runs the instrumented PROGRAM (under the caller's
# CEI_POLICY) and its sequential twin SEQ with the same ARGS, each in its own directory, and
# compares what they print and the PNGs they write.
#   compare.sh exact PROGRAM SEQ ARGS...   result lines and PNGs byte for byte
#   compare.sh float PROGRAM SEQ ARGS...   checksums within CEI_COMPARE_RTOL (1e-6) relative,
#                                          PNG pixels within 1 gray level (needs PNG_DIFF)
# Result lines are those starting with: checksum, accuracy, edge pixels, heights.
set -euo pipefail
mode=$1 program=$2 seq=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/run" "$work/seq"
( cd "$work/run" && "$program" "$@" >out.txt )
( cd "$work/seq" && env -u CEI_POLICY "$seq" "$@" >out.txt )

results() { grep -E '^(checksum|accuracy|edge pixels|heights) ' "$1" || true; }
results "$work/seq/out.txt" >"$work/seq.results"
results "$work/run/out.txt" >"$work/run.results"
if ! grep -q '^checksum ' "$work/seq.results"; then
  echo "FAIL: $seq printed no checksum"; cat "$work/seq/out.txt"; exit 1
fi

fail=0
if [ "$mode" = exact ]; then
  if ! diff "$work/seq.results" "$work/run.results"; then fail=1; fi
else
  rtol=${CEI_COMPARE_RTOL:-1e-6}
  paste -d' ' <(awk '$1=="checksum"{print $2}' "$work/seq.results") \
              <(awk '$1=="checksum"{print $2}' "$work/run.results") |
    awk -v rtol="$rtol" '{ d = $1 - $2; if (d < 0) d = -d; s = $1 < 0 ? -$1 : $1;
                           if (NF != 2 || d > rtol * s) { print "checksums differ: " $0; exit 1 } }' ||
    fail=1
fi

count=0
while IFS= read -r png; do
  count=$((count + 1))
  other="$work/run/$png"
  if [ ! -f "$other" ]; then echo "FAIL: $program did not write $png"; fail=1; continue; fi
  if [ "$mode" = exact ]; then
    cmp -s "$work/seq/$png" "$other" || { echo "FAIL: $png differs"; fail=1; }
  else
    "${PNG_DIFF:?set PNG_DIFF to the png_diff tool}" "$work/seq/$png" "$other" 1 >/dev/null ||
      { echo "FAIL: $png differs by more than 1 gray level"; fail=1; }
  fi
done < <(cd "$work/seq" && find . -name '*.png' | sort)

echo "policy=${CEI_POLICY:-default} mode=$mode results=$(wc -l <"$work/seq.results") pngs=$count"
cat "$work/run.results"
[ "$fail" = 0 ] && echo PASS || { echo "--- $program output:"; cat "$work/run/out.txt"; exit 1; }

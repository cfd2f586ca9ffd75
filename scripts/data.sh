#!/usr/bin/env bash
# Real input data for the examples, from Debian's python3-sklearn-lib... package: the sample
# photographs (canny) and the UCI handwritten digits (digits). Unpacked once into data/.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f data/.complete ] && exit 0
mkdir -p data/deb
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
( cd "$tmp" && apt-get download python3-sklearn >/dev/null 2>&1 || { apt-get update -qq && apt-get download python3-sklearn; } )
dpkg -x "$tmp"/python3-sklearn_*.deb "$tmp/x"
find "$tmp/x" \( -name 'china.jpg' -o -name 'flower.jpg' -o -name 'digits.csv.gz' \) -exec cp {} data/ \;
ls data/china.jpg data/flower.jpg data/digits.csv.gz >/dev/null
touch data/.complete

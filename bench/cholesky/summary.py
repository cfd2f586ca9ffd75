#!/usr/bin/env python3
"""Medians of measure.sh's lines (a file, or stdin), one Markdown row per build and configuration:
GFlop/s, the ratio to the same build's cpu-only configuration and to every build's (the cpu-only
runs do the same work in every build), and the median time and makespan."""
import sys, statistics as st, collections
rows = collections.defaultdict(list)
order_b, order_c = [], ['cpu-only', 'default-only:cpu', 'default-dynperf', 'default-dynperf+profile']
for line in (open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin):
    if line.startswith('#') or not line.strip(): continue
    b, c, g, t, m = line.split()
    if b not in order_b: order_b.append(b)
    rows[(b, c)].append((float(g), float(t), float(m)))
pooled = st.median(x[0] for b in order_b for x in rows[(b, 'cpu-only')])
print(f"| build | configuration | runs | GFlop/s (median) | vs its cpu only | vs every build's cpu only ({pooled:.2f}) | time (s) | makespan (s) |")
print("|---|---|---|---|---|---|---|---|")
for b in order_b:
    base = st.median(x[0] for x in rows[(b, 'cpu-only')])
    for c in order_c:
        v = rows[(b, c)]
        g = st.median(x[0] for x in v)
        print(f"| {b} | {c} | {len(v)} | {g:.2f} | {g/base:.2f}x | {g/pooled:.2f}x | {st.median(x[1] for x in v):.3f} | {st.median(x[2] for x in v):.3f} |")

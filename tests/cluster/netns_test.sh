#!/usr/bin/env bash
# Worker nodes on hosts of their own: 4 network namespaces on this machine, each joined to a
# bridge in the root namespace by a veth pair shaped to 1 Gbit/s both ways (tc tbf; 1 ms of delay
# and 0.1% loss too where the kernel has netem: this VM's has not), each running PROGRAM-worker on
# its own address. The program runs in the root namespace (docs/remote.md).
#   netns_test.sh MODE PROGRAM SEQ ARGS...
# MODE plain: CEI_REMOTE names the nodes, beside the program's CPU; the program's results equal
#             SEQ's and every node ran tasks.
# MODE cut:   a platform config names the nodes and nothing else; once node n2 has run tasks,
#             its link is cut (`ip link set ... down`) for 20 s, then restored. The run must
#             outlast the cut: 672 32 makes 18,081 tasks, 40 to 50 s through 4 nodes on a 2-core
#             VM (the test fails, saying so, if it ends first). n2 must be declared lost within
#             docs/remote.md's bound
#             ((health_failures + 1) x health_ms), its unfinished tasks re-placed, n2 re-admitted
#             once the link is back and given tasks again (the trace's membership instants and
#             task slices), and the results equal SEQ's.
# MODE pipeline: a platform config names the nodes and nothing else, and [policy.static] pins
#             each stage of PROGRAM (tests/cluster/pipeline: ITEMS MIB ROUNDS) to a node of its
#             own, n1 to n4: every item's 3 vectors are made on one node and read on the next.
#             The summary's links line must show each of them moving node to node once
#             (n1 → n2, n2 → n3, n3 → n4: ITEMS transfers of MIB MiB each), nothing but the
#             stages' int arguments sent from the program, and only the digests coming back; the
#             results equal SEQ's. It prints the makespan against the run with the data placement
#             known beforehand (below, ideal_makespan) and fails past CEI_PIPELINE_BOUND (default
#             4, generous: a 2-core VM runs 4 nodes and the program, often beside other work;
#             values sent through the program made it 8.6); CEI_PIPELINE_RUNS runs (default 1)
#             are made in a row. The ratios measured: bench/remote/pipeline_netns.sh.
# For bench/remote/pipeline_netns.sh, never the tests: CEI_NETNS_UNSHAPED=1 leaves the links
# unshaped (veth speed); CEI_NETNS_WORKER_ARGS adds options to the workers' command lines
# (`--executor direct`).
# Everything made (namespaces, links, processes) goes in a trap, however the test ends.
# Exits 77 (ctest's skip) when not root, or namespaces, veth, bridges or tbf are unavailable.
set -euo pipefail
mode=$1 program=$2 seq=$3
shift 3
worker=$program-worker
nodes=4 cut_node=2 cut_s=20
health_ms=1000 health_failures=3 # docs/remote.md's defaults (the config's nodes have them)
loss_bound_s=$(((health_failures + 1) * health_ms / 1000)) # docs/remote.md, "A lost node"
slack_s=1.5 # seeing the warning: the 0.1 s poll, and a 2-core VM busy with 4 nodes and the program

skip() {
  echo "SKIP: $*"
  exit 77
}
((EUID == 0)) || skip "needs root (network namespaces, veth pairs, tc); run ctest as root"
command -v ip >/dev/null || skip "ip (iproute2) not found"
command -v tc >/dev/null || PATH=$PATH:/usr/sbin command -v tc >/dev/null || skip "tc not found"
export PATH=$PATH:/usr/sbin

# Names unique to this run (interface names have at most 15 characters), and a /24 of 10/8
# derived from the process id, so that two runs on one machine do not meet.
tag=$(($$ % 100000))
ns() { echo "cei${tag}n$1"; }
host_if() { echo "cv${tag}h$1"; } # the bridge's end, in the root namespace: the one cut
bridge=cb$tag
net=10.$((200 + $$ % 50)).$(($$ / 50 % 250))
addr() { echo "$net.$1"; }
port=8080

work=$(mktemp -d)
chmod 700 "$work"
pids=() made_ns=() made_if=()
cleanup() {
  local status=$?
  set +e
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  for n in "${made_ns[@]}"; do
    # Whatever still runs in the namespace (nothing, unless a worker ignored SIGTERM).
    for pid in $(ip netns pids "$n" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    ip netns del "$n" 2>/dev/null # takes its end of the veth pair, and so the pair
  done
  for i in "${made_if[@]}"; do ip link del "$i" 2>/dev/null; done
  if ((status != 0 && status != 77)); then
    for f in "$work"/*.log "$work"/*.err; do [ -e "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }; done
  fi
  rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
  echo "FAIL: $*"
  exit 1
}
# poll SECONDS COMMAND...: runs COMMAND every 0.1 s until it succeeds, for at most SECONDS.
poll() {
  local end=$((SECONDS + $1))
  shift
  until "$@"; do ((SECONDS < end)) || return 1; sleep 0.1; done
}
now() { date +%s.%N; }
elapsed() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"; }

# shape DEV [NS]: 1 Gbit/s leaving DEV (tbf), and under it 1 ms of delay and 0.1% of the
# packets lost where the kernel has netem (this VM's has not: the links are shaped by rate only).
shape() {
  local in=()
  [ -n "${2:-}" ] && in=(ip netns exec "$2")
  "${in[@]}" tc qdisc add dev "$1" root handle 1: tbf rate 1gbit burst 1mb latency 50ms || return 1
  "${in[@]}" tc qdisc add dev "$1" parent 1:1 handle 10: netem delay 1ms loss 0.1% 2>/dev/null || true
}

make_hosts() {
  ip link add "$bridge" type bridge 2>/dev/null || skip "cannot make a bridge (ip link add type bridge)"
  made_if+=("$bridge")
  ip addr add "$(addr 254)/24" dev "$bridge"
  ip link set "$bridge" up
  for i in $(seq 1 "$nodes"); do
    local n h
    n=$(ns "$i") h=$(host_if "$i")
    ip netns add "$n" 2>/dev/null || skip "ip netns add failed (no network namespaces here?)"
    made_ns+=("$n")
    ip link add "$h" type veth peer name eth0 netns "$n" 2>/dev/null || skip "cannot make a veth pair"
    made_if+=("$h")
    ip link set "$h" master "$bridge" up
    ip netns exec "$n" ip link set lo up
    ip netns exec "$n" ip addr add "$(addr "$i")/24" dev eth0
    ip netns exec "$n" ip link set eth0 up
    [ -n "${CEI_NETNS_UNSHAPED:-}" ] && continue # the bench's reference: links at veth speed
    shape "$h" 2>/dev/null || skip "tc tbf is unavailable (tc qdisc add ... tbf failed)"
    shape eth0 "$n"
  done
}

start_nodes() {
  head -c 32 /dev/urandom | base64 >"$work/token"
  chmod 600 "$work/token"
  local extra
  read -ra extra <<<"${CEI_NETNS_WORKER_ARGS:-}"
  for i in $(seq 1 "$nodes"); do
    # `ip netns exec` execs the worker: $! is the worker itself.
    ip netns exec "$(ns "$i")" "$worker" --host "$(addr "$i")" --port "$port" \
      --token-file "$work/token" --threads 1 "${extra[@]}" >"$work/node$i.log" 2>&1 &
    pids+=($!)
  done
  for i in $(seq 1 "$nodes"); do
    poll 20 grep -qs "listening on" "$work/node$i.log" || fail "node $i did not start"
  done
}

# plain: CEI_REMOTE names the 4 nodes, beside the program's own CPU.
cei_remote() {
  local t entries=()
  t=$(cat "$work/token")
  for i in $(seq 1 "$nodes"); do
    entries+=("n$i=http://$(addr "$i"):$port,token=$t,health_ms=$health_ms,health_failures=$health_failures")
  done
  (IFS=';' && echo "${entries[*]}")
}
# cut: the 4 nodes as the program's only platforms (every task goes through the network, so the
# run lasts through the cut), with docs/remote.md's default timeouts and health checks: the
# bound asserted is the documented one.
platforms_config() {
  local t
  t=$(cat "$work/token")
  for i in $(seq 1 "$nodes"); do
    printf '[platforms.n%s]\ntype = "remote"\nurl = "http://%s:%s"\ntoken = "%s"\n\n' \
      "$i" "$(addr "$i")" "$port" "$t"
  done >"$work/platforms.toml"
}

# pipeline: the nodes, and each stage pinned to one of them (the CE names of pipeline.cei.hpp).
pipeline_config() {
  platforms_config
  printf '[policy.static]\n"PipelineCEI.make" = "n1"\n"PipelineCEI.smooth" = "n2"\n' >>"$work/platforms.toml"
  printf '"PipelineCEI.rescale" = "n3"\n"PipelineCEI.digest" = "n4"\n' >>"$work/platforms.toml"
}

results() { grep -E '^(checksum|accuracy|edge pixels|heights) ' "$1" || true; }
check_results() {
  results "$work/seq.out" >"$work/seq.results"
  results "$work/run.out" >"$work/run.results"
  grep -q . "$work/seq.results" || fail "$seq printed no result line"
  diff "$work/seq.results" "$work/run.results" || fail "the results differ from $seq's"
}
# Tasks each node ran, from the program's CEI_SUMMARY (`CE  node  count ...` rows).
check_every_node_ran() {
  for i in $(seq 1 "$nodes"); do
    grep -Eq "^[A-Za-z_:]+ +n$i +[1-9]" "$work/run.err" || fail "no task ran on n$i (CEI_SUMMARY)"
  done
}

# pipeline: the links line of the summary (`links: A → B 64.0 MiB (8), ...`): each item's vector
# crosses n1 → n2, n2 → n3 and n3 → n4 once, nothing else moves between nodes, only the stages'
# int arguments go from the program to the nodes, and only the digests come back, from n4.
check_links() {
  python3 - "$work/run.err" "$1" "$2" <<'EOF' || fail "the values did not move once each, node to node"
import re, sys
err, items, mib = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
line = next((l for l in open(err, encoding="utf-8") if l.startswith("links: ")), None)
assert line, "no links line in the summary"
print(line.strip())
unit = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
links = {(a, b): (float(v) * unit[u], int(c)) for a, b, v, u, c in
         re.findall(r"(\S+) → (\S+) ([0-9.]+) (B|KiB|MiB|GiB) \((\d+)\)", line)}
want = {("n1", "n2"), ("n2", "n3"), ("n3", "n4")}
for link in want:
    size, count = links.get(link, (0, 0))
    expected = items * mib * 2**20
    assert count == items, f"{link}: {count} transfer(s), not {items}"
    assert abs(size - expected) <= 0.001 * expected, f"{link}: {size:.0f} bytes, not {expected}"
others = {l: v for l, v in links.items() if l not in want and "host" not in l}
assert not others, f"other node-to-node transfers: {others}"
# The program's own inputs and outputs: the stages' int arguments (make has 3, the others 1;
# 12 bytes each as framed), and the digests (one double each, 24 bytes as framed).
small = 64
sent = {l: v for l, v in links.items() if l[0] == "host"}
for node, scalars in (("n1", 3), ("n2", 1), ("n3", 1), ("n4", 1)):
    size, count = sent.pop(("host", node), (0, 0))
    assert count == scalars * items and size <= small * count, \
        f"host → {node}: {size:.0f} bytes in {count} transfer(s): more than its {scalars * items} scalars"
assert not sent, f"values went from the program to a node: {sent}"
back = {l: v for l, v in links.items() if l[1] == "host"}
size, count = back.pop(("n4", "host"), (0, 0))
assert count == items and size <= small * count, f"n4 → host: {size:.0f} bytes in {count}: not the digests"
assert not back, f"values came back to the program: {back}"
EOF
}

# pipeline: the run with the data placement known beforehand, in seconds: every value pushed to
# the node that reads it as soon as it is made, at the link's rate, while both nodes go on with
# their work. The items are alike, so this flow shop (n1, link, n2, link, n3, link, n4) ends at
#   sum(stage) + 3 x + (ITEMS - 1) max(stage..., x)
# with stage the compute time per item of each stage (SEQ's, alone on the machine: stage_s) and
# x a value's time on a 1 Gbit/s link (MIB MiB; 1 ms more where netem delays; 0 on unshaped
# links). No run can beat it: it leaves out the program's messages, the tasks' dispatch and the
# 2 cores the 4 nodes share.
ideal_makespan() {
  python3 - "$work/seq.out" "$1" "$2" "$3" "${CEI_NETNS_UNSHAPED:-}" <<'EOF'
import sys
seq, items, mib, delay_s = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
stage = next([float(v) for v in l.split()[1:]] for l in open(seq) if l.startswith("stage_s "))
x = 0.0 if sys.argv[5] else mib * 2**20 * 8 / 1e9 + delay_s
print(f"{sum(stage) + 3 * x + (items - 1) * max(stage + [x]):.3f}")
EOF
}

start_program() {
  "$program" "$@" >"$work/run.out" 2>"$work/run.err" &
  prog=$!
  pids+=("$prog")
}
finish_program() {
  poll 100 bash -c "! kill -0 $prog 2>/dev/null" || fail "the program did not end within 100 s"
  local status=0
  wait "$prog" || status=$?
  pids=("${pids[@]:0:nodes}") # the program is gone: only the nodes are left to stop
  ((status == 0)) || fail "the program exited with status $status"
  check_results
  check_every_node_ran
}

# pipeline: CEI_PIPELINE_RUNS runs, each checked, each one's makespan against the ideal.
run_pipeline() {
  local items=$1 mib=$2 delay_s=0 ideal ratio makespan bound=${CEI_PIPELINE_BOUND:-4} ratios=()
  [ -n "$netem" ] && delay_s=0.001
  ideal=$(ideal_makespan "$items" "$mib" "$delay_s") || fail "$seq printed no stage_s line"
  pipeline_config
  export CEI_PLATFORMS=$work/platforms.toml CEI_SUMMARY=1 CEI_POLICY=static
  for r in $(seq 1 "${CEI_PIPELINE_RUNS:-1}"); do
    start_program "$@"
    finish_program
    check_links "$items" "$mib"
    makespan=$(awk '/^makespan_s /{print $2}' "$work/run.out")
    ratio=$(python3 -c "print(f'{$makespan / $ideal:.2f}')")
    echo "run $r: makespan ${makespan} s, placement known beforehand ${ideal} s, ratio ${ratio}"
    python3 -c "import sys; sys.exit(0 if $ratio <= float('$bound') else 1)" ||
      fail "makespan ${ratio}x the ideal's, past ${bound}x"
    ratios+=("$ratio")
  done
  echo "ratios: ${ratios[*]} (median $(printf '%s\n' "${ratios[@]}" | sort -n | awk '{r[NR] = $1}
    END {print (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2}'))"
  grep -E "^[A-Za-z_]+::[A-Za-z_]+ +n[0-9] " "$work/run.err" || true
  echo "PASS ($mode, ${SECONDS} s)"
}

make_hosts
netem=
if [ -n "${CEI_NETNS_UNSHAPED:-}" ]; then
  echo "links: unshaped (CEI_NETNS_UNSHAPED): veth speed, no delay"
elif tc qdisc show dev "$(host_if 1)" | grep -q netem; then
  netem=1
  echo "links: tbf 1 Gbit/s, netem 1 ms delay and 0.1% loss"
else
  echo "links: tbf 1 Gbit/s (no netem in this kernel: no delay or loss)"
fi
start_nodes
env -u CEI_POLICY "$seq" "$@" >"$work/seq.out"
echo "4 hosts up, -seq done (${SECONDS} s)"
if [ "$mode" = pipeline ]; then
  run_pipeline "$@"
  exit 0
fi

if [ "$mode" = cut ]; then
  platforms_config
  export CEI_PLATFORMS=$work/platforms.toml
else
  CEI_REMOTE=$(cei_remote)
  export CEI_REMOTE
fi
export CEI_SUMMARY=1 CEI_PROGRESS=1 CEI_TRACE=$work/trace.json CEI_POLICY=dynperf
start_program "$@"

if [ "$mode" = cut ]; then
  # The progress line names each platform's finished count: n2 has run tasks once it is not 0.
  n2_ran() { grep -Eq "  n$cut_node [1-9][0-9]*/" "$work/run.err"; }
  lost() { grep -q "node n$cut_node (.*) lost: " "$work/run.err"; }
  readmitted() { grep -q "node n$cut_node (.*) re-admitted" "$work/run.err"; }
  poll 30 n2_ran || fail "n$cut_node ran no task within 30 s"
  cut_at=$(now)
  ip link set "$(host_if "$cut_node")" down
  echo "link of n$cut_node cut at ${SECONDS} s"
  poll $((loss_bound_s + 5)) lost || fail "n$cut_node not declared lost within $((loss_bound_s + 5)) s of the cut"
  lost_after=$(elapsed "$cut_at" "$(now)")
  kill -0 "$prog" 2>/dev/null || fail "the program ended before the link came back: give it more work"
  # The cut's length is the scenario itself, not a wait for something to happen.
  sleep "$(python3 -c "print(max(0.0, $cut_s - float('$lost_after')))")"
  kill -0 "$prog" 2>/dev/null || fail "the program ended before the link came back: give it more work"
  ip link set "$(host_if "$cut_node")" up
  echo "link of n$cut_node back at ${SECONDS} s"
  poll $((3 * health_ms / 1000 + 5)) readmitted || fail "n$cut_node not re-admitted after the link came back"
  echo "n$cut_node lost ${lost_after} s after the cut (bound ${loss_bound_s} s + ${slack_s} s), re-admitted at ${SECONDS} s"
  python3 -c "import sys; sys.exit(0 if float('$lost_after') <= $loss_bound_s + $slack_s else 1)" ||
    fail "n$cut_node lost ${lost_after} s after the cut: docs/remote.md says within ${loss_bound_s} s"
fi

finish_program

if [ "$mode" = cut ]; then
  grep -Eq "platform n$cut_node lost: [1-9][0-9]* unfinished task\(s\) go to other platforms" \
    "$work/run.err" || fail "no unfinished task of n$cut_node was re-placed"
  # The trace: n2 lost, then re-admitted, then ran tasks again (slices that start after it).
  python3 - "$work/trace.json" "n$cut_node" <<'EOF' || fail "the trace does not show n$cut_node used again"
import json, sys
events, node = json.load(open(sys.argv[1])), sys.argv[2]
events = events["traceEvents"] if isinstance(events, dict) else events
pid = next(e["pid"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"
           and e["args"]["name"].startswith(node + " "))
marks = [(e["ts"], e["name"]) for e in events if e.get("cat") == "membership" and e["pid"] == pid]
assert [m for _, m in sorted(marks)] == ["lost", "re-admitted"], marks
back = max(ts for ts, m in marks if m == "re-admitted")
after = [e for e in events if e.get("ph") == "X" and e["pid"] == pid and e["ts"] > back
         and "ce" in e.get("args", {})]
first = (min(e["ts"] for e in after) - back) / 1e6 if after else float("nan")
print(f"{node}: {len(after)} task(s) started after its re-admission, the first {first:.2f} s after")
assert after, "no task after the re-admission"
EOF
  grep -E "lost|re-admitted|membership" "$work/run.err" | grep -v '^cei: [0-9]' || true
fi
grep -E "^[A-Za-z_]+::[A-Za-z_]+ +n[0-9] " "$work/run.err" || true
echo "PASS ($mode, ${SECONDS} s)"

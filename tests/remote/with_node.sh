#!/usr/bin/env bash
# Runs COMMAND... with a worker node of its own: starts WORKER on a free loopback port with a fresh
# token, waits until it listens, exports CEI_REMOTE naming it NODE, and stops it afterwards.
#   with_node.sh WORKER NODE COMMAND...
# (The examples' only:<node> tests wrap tests/examples/compare.sh with it.)
set -euo pipefail
worker=$1 node=$2
shift 2
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
head -c 24 /dev/urandom | base64 | tr -d '/+=' >"$work/token"
# The node picks its own platforms and policy: the client's CEI_POLICY (only:<node>) is not its.
env -u CEI_POLICY -u CEI_REMOTE "$worker" --host 127.0.0.1 --port "$port" --token-file "$work/token" \
  >"$work/log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  grep -q 'listening on' "$work/log" && break
  kill -0 "$pid" 2>/dev/null || { echo "FAIL: $worker exited:"; cat "$work/log"; exit 1; }
  sleep 0.1
done
grep -q 'listening on' "$work/log" || { echo "FAIL: $worker did not start"; cat "$work/log"; exit 1; }
export CEI_REMOTE="$node=http://127.0.0.1:$port,token=$(cat "$work/token")"
"$@"

#!/usr/bin/env bash
# schemathesis against docs/rest-api.yaml and a live worker node (the test application's).
# Usage: tests/remote/schemathesis.sh BUILD_DIR [max-examples=100]
# Needs `pip install schemathesis`. Passes when no request gets a server error or an answer
# that breaks the schema (status code, content type, headers, body), and every method a path
# lacks gets 405 with an Allow header that names exactly the documented ones.
set -euo pipefail
build=${1:?usage: schemathesis.sh BUILD_DIR [max-examples]}
examples=${2:-100}
root=$(cd "$(dirname "$0")/../.." && pwd)
worker="$build/tests/remote/cei-test-worker"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
token=$(head -c 24 /dev/urandom | base64 | tr -d '/+=')
tokfile=$(mktemp)
cache=$(mktemp -d)  # schemathesis keeps .schemathesis/ in its working directory: not in the tree
echo "$token" > "$tokfile"
"$worker" --host 127.0.0.1 --port "$port" --token-file "$tokfile" --max-body-mb 4 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$tokfile" "$cache"' EXIT
for _ in $(seq 100); do
  curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/v1/health" >/dev/null && break
  sleep 0.1
done
cd "$cache"
schemathesis run "$root/docs/rest-api.yaml" \
  --url "http://127.0.0.1:$port" \
  -H "Authorization: Bearer $token" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method,allow_header_conformance \
  --max-examples "$examples" \
  --seed 1 \
  --workers 1 \
  "${@:3}"

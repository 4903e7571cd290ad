#!/usr/bin/env bash
# Starts exhale on a fresh data directory with the demo household and a read token, then runs the
# MCP conformance suite and the Inspector CLI against it (mcp/conformance/run.sh), then the suite's
# authorization mode against its OAuth authorization server (mcp/conformance/authorization.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
data=$(mktemp -d)
port=$(( 20000 + RANDOM % 20000 ))
export EXHALE_DATA_DIR="$data" EXHALE_PORT="$port" EXHALE_ECB_RATES=off
node bin/exhale.mjs demo
EXHALE_TOKEN=$(node bin/exhale.mjs token create --scope read --name "Conformance suite" | grep -o 'exh_[A-Za-z0-9]*' | head -n 1)
export EXHALE_TOKEN
[ -n "$EXHALE_TOKEN" ] || { echo "could not create a token"; exit 1; }

setsid node bin/exhale.mjs >"$data/exhale.log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || true' EXIT
for i in $(seq 1 60); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  sleep 0.5
done
bash mcp/conformance/run.sh "http://127.0.0.1:$port"
# The OAuth authorization server: the suite's authorization mode (consent answered with a connect code).
bash mcp/conformance/authorization.sh "http://127.0.0.1:$port"

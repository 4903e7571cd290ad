#!/usr/bin/env bash
# Tries Exhale as a newcomer would: `exhale demo`, `npm start` on a fresh data directory, /healthz,
# an op through the CLI, a clear error for bad configuration; then stops it.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=$(mktemp -d)
port=$(( 20000 + RANDOM % 20000 ))
log="$data/exhale.log"
export EXHALE_DATA_DIR="$data" EXHALE_PORT="$port"

# npm install (npm ci) compiled the server, and `exhale` below runs that build (bin/exhale.mjs).
node -e "import('./scripts/serverBuild.mjs').then((b) => process.exit(b.buildIsFresh() ? 0 : 1))" \
  || { echo "npm install left no up-to-date build in dist/"; exit 1; }
node bin/exhale.mjs demo
node bin/exhale.mjs op get_totals '{}' >/dev/null
node bin/exhale.mjs ops | grep -q '^create_subscription'

if EXHALE_PORT=not-a-port node bin/exhale.mjs 2>"$data/err.txt"; then echo "bad config was accepted"; exit 1; fi
grep -q EXHALE_PORT "$data/err.txt"

setsid npm start >"$log" 2>&1 &
pid=$!
trap 'kill -- -$pid 2>/dev/null || true' EXIT
for i in $(seq 1 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then break; fi
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$port/healthz" | grep -q '"ok":true'
grep -q 'Exhale is running' "$log"
kill -- -"$pid"
wait "$pid" 2>/dev/null || true
trap - EXIT
echo "smoke test passed: started on port $port, healthz answered, demo and ops worked"

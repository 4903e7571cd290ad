#!/usr/bin/env bash
# The conformance suite's `authorization` mode against exhale's OAuth authorization server.
#
#   mcp/conformance/authorization.sh BASE_URL
#
#   BASE_URL          base URL of the running exhale (its issuer), such as http://127.0.0.1:8080
#   EXHALE_DATA_DIR   the data dir of that exhale (a connect code is made there for its owner)
#
# Registers a public client for the suite's callback, starts @modelcontextprotocol/conformance
# (0.2.x on Node 22 from the npm registry) in authorization mode, and plays the person in the
# browser: takes the authorization URL it prints, answers the consent page with a connect code
# (`exhale op create_connect_code`), and follows the redirect to the suite's callback. Exits with
# the suite's status.
set -euo pipefail

CONFORMANCE=@modelcontextprotocol/conformance@0.2.0-alpha.12
NODE22=node@22
BASE=${1:?usage: mcp/conformance/authorization.sh BASE_URL}
BASE=${BASE%/}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
WORK=$(mktemp -d)
SUITE_PID=""
cleanup() {
  [[ -n "$SUITE_PID" ]] && kill "$SUITE_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

PORT=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
CALLBACK="http://127.0.0.1:$PORT/callback"
CID=$(curl -fsS -X POST "$BASE/oauth/register" -H 'content-type: application/json' \
  -d "{\"client_name\":\"MCP conformance\",\"redirect_uris\":[\"$CALLBACK\"],\"token_endpoint_auth_method\":\"none\"}" |
  node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).client_id))")
echo "== MCP conformance authorization ($CONFORMANCE) against $BASE (client $CID)"

NPM_CACHE=$(npm config get cache)
mkdir -p "$WORK/home"
HOME="$WORK/home" npm_config_cache="$NPM_CACHE" timeout 300 npx -y -p "$NODE22" -p "$CONFORMANCE" \
  conformance authorization --url "$BASE" --client-id "$CID" --resource "$BASE/mcp" -p "$PORT" \
  -o "$WORK/results" >"$WORK/suite.log" 2>&1 &
SUITE_PID=$!

AUTH_URL=""
for _ in $(seq 1 600); do
  AUTH_URL=$(grep -o "$BASE/oauth/authorize?[^[:space:]]*" "$WORK/suite.log" | head -n 1 || true)
  [[ -n "$AUTH_URL" ]] && grep -q "Callback server started" "$WORK/suite.log" && break
  kill -0 "$SUITE_PID" 2>/dev/null || break
  sleep 0.5
done
[[ -n "$AUTH_URL" ]] || { cat "$WORK/suite.log"; echo "✗ the suite printed no authorization URL"; exit 1; }

# The person: a connect code from exhale, typed on the consent page, Allow.
CODE=$(cd "$ROOT" && node bin/exhale.mjs op create_connect_code | grep -o '[0-9A-Z]\{4\}-[0-9A-Z]\{4\}' | head -n 1)
QUERY=${AUTH_URL#*\?}
LOCATION=$(curl -sS -o /dev/null -w '%{redirect_url}' -X POST "$BASE/oauth/authorize" \
  -H 'content-type: application/x-www-form-urlencoded' --data "$QUERY&decision=allow&connect_code=$CODE")
[[ "$LOCATION" == "$CALLBACK"* ]] || { echo "✗ consent did not redirect to the callback: $LOCATION"; exit 1; }
curl -sS -o /dev/null "$LOCATION"

status=0
wait "$SUITE_PID" || status=$?
SUITE_PID=""
grep -E '✓|✗|passed|failed' "$WORK/suite.log" || cat "$WORK/suite.log"
exit "$status"

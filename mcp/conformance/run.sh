#!/usr/bin/env bash
# MCP conformance suite and Inspector CLI checks against a running exhale.
#
#   mcp/conformance/run.sh BASE_URL
#
#   BASE_URL          base URL of the running exhale, such as http://127.0.0.1:8080 (its /mcp is tested)
#   EXHALE_TOKEN      a token of that exhale (read scope is enough), sent as "Authorization: Bearer"
#   EXHALE_DATA_DIR   a data dir with a household, for the stdio check (run as its local owner)
#   EXHALE_MCP_STDIO  the stdio server command (default: "node bin/exhale.mjs mcp"), run from the repo root
#
# Runs @modelcontextprotocol/conformance on Node 22 from the npm registry for the scenarios that need
# no test-only fixtures, then the Inspector CLI headless over HTTP (both protocol eras) and over stdio,
# listing tools and calling one. Exits non-zero on any failure.
set -euo pipefail

CONFORMANCE=@modelcontextprotocol/conformance@0.2.0-alpha.12
INSPECTOR=@modelcontextprotocol/inspector@2.12.0
NODE22=node@22
SCENARIOS=(server-stateless http-header-validation caching dns-rebinding-protection sep-2164-resource-not-found tools-list resources-list)

BASE=${1:?usage: mcp/conformance/run.sh BASE_URL (with EXHALE_TOKEN set)}
BASE=${BASE%/}
TOKEN=${EXHALE_TOKEN:?set EXHALE_TOKEN to a token of the exhale at $BASE}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
HERE="$ROOT/mcp/conformance"
NODE=$(command -v node)
STDIO=${EXHALE_MCP_STDIO:-node bin/exhale.mjs mcp}

WORK=$(mktemp -d)
PROXY_PID=""
cleanup() {
  [[ -n "$PROXY_PID" ]] && kill "$PROXY_PID" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

failures=0
fail() {
  echo "✗ $*"
  failures=$((failures + 1))
}

# npx on Node 22 from the registry, with a scratch HOME (the Inspector keeps a catalog there) but the
# usual npm cache; the npm engine warnings of Node 20 are noise.
NPM_CACHE=$(npm config get cache)
npx22() {
  HOME="$WORK/home" npm_config_cache="$NPM_CACHE" timeout 300 npx -y -p "$NODE22" "$@" 2> >(grep -v -e 'npm warn' -e EBADENGINE >&2)
}

mkdir -p "$WORK/home" "$WORK/results"
"$NODE" -e "fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" "$BASE/healthz" ||
  { echo "✗ no exhale answers at $BASE/healthz"; exit 1; }

echo "== MCP conformance ($CONFORMANCE) against $BASE/mcp"
# The conformance CLI cannot send headers: a local proxy adds the token and passes Host/Origin through.
EXHALE_TOKEN="$TOKEN" "$NODE" "$HERE/authProxy.mjs" "$BASE" >"$WORK/proxy.url" 2>"$WORK/proxy.log" &
PROXY_PID=$!
for _ in $(seq 50); do [[ -s "$WORK/proxy.url" ]] && break; sleep 0.1; done
PROXY=$(cat "$WORK/proxy.url")
[[ -n "$PROXY" ]] || { echo "✗ the auth proxy did not start: $(cat "$WORK/proxy.log")"; exit 1; }

for scenario in "${SCENARIOS[@]}"; do
  (cd "$WORK" && npx22 -p "$CONFORMANCE" conformance server --url "$PROXY/mcp" --scenario "$scenario" -o "$WORK/results") \
    >"$WORK/conformance-$scenario.log" 2>&1 || true
done
if ! "$NODE" "$HERE/check.mjs" "$WORK/results" "${SCENARIOS[@]}"; then
  fail "conformance (logs: rerun a scenario with: npx -p $NODE22 -p $CONFORMANCE conformance server --url <proxy>/mcp --scenario NAME)"
fi

inspector() {
  local name=$1
  shift
  if (cd "$ROOT" && npx22 -p "$INSPECTOR" mcp-inspector --cli --format json -q "$@") >"$WORK/$name.json" 2>"$WORK/$name.err"; then
    return 0
  fi
  echo "   $(head -c 600 "$WORK/$name.json" "$WORK/$name.err")"
  return 1
}

# tools/list must list tools; tools/call must answer without isError.
expect_tools() { "$NODE" -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8')).result; if(!(r?.tools?.length>0)||!r.tools.some((t)=>t.name==='get_household')) process.exit(1); console.log('   ' + r.tools.length + ' tools')" "$1"; }
expect_call() { "$NODE" -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8')).result; if(!r||r.isError||!r.structuredContent?.currency) process.exit(1)" "$1"; }

echo "== Inspector CLI ($INSPECTOR) over HTTP"
for era in modern legacy; do
  # --strict: a tool schema some client cannot port is an error (exit 6).
  if inspector "http-$era-list" "$BASE/mcp" --header "Authorization: Bearer $TOKEN" --protocol-era "$era" --method tools/list --strict &&
    expect_tools "$WORK/http-$era-list.json"; then echo "✓ tools/list over HTTP ($era era)"; else fail "tools/list over HTTP ($era era)"; fi
  if inspector "http-$era-call" "$BASE/mcp" --header "Authorization: Bearer $TOKEN" --protocol-era "$era" --method tools/call --tool-name get_household --tool-args-json '{}' &&
    expect_call "$WORK/http-$era-call.json"; then echo "✓ tools/call get_household over HTTP ($era era)"; else fail "tools/call over HTTP ($era era)"; fi
done
if "$NODE" -e "fetch(process.argv[1],{method:'POST',headers:{'content-type':'application/json',accept:'application/json, text/event-stream'},body:'{}'}).then((r)=>process.exit(r.status===401&&/^Bearer /.test(r.headers.get('www-authenticate')??'')?0:1),()=>process.exit(1))" "$BASE/mcp"; then
  echo "✓ HTTP without a token gets 401 with a Bearer challenge"
else
  fail "HTTP without a token was not refused with 401 and WWW-Authenticate"
fi

echo "== Inspector CLI over stdio: $STDIO (in $ROOT, as the local owner)"
read -r -a CMD <<<"$STDIO"
# Keep the server on this project's Node, not the registry's Node 22 that runs the Inspector.
[[ "${CMD[0]}" == node ]] && CMD[0]=$NODE
# The Inspector gives the server a clean environment: pass on what locates the database, never the token.
ENV_ARGS=()
for name in EXHALE_DATA_DIR EXHALE_DATABASE_URL; do
  [[ -n "${!name:-}" ]] && ENV_ARGS+=(-e "$name=${!name}")
done
for era in modern legacy; do
  if inspector "stdio-$era-list" --cwd "$ROOT" "${ENV_ARGS[@]}" --protocol-era "$era" --method tools/list --strict -- "${CMD[@]}" &&
    expect_tools "$WORK/stdio-$era-list.json"; then echo "✓ tools/list over stdio ($era era)"; else fail "tools/list over stdio ($era era)"; fi
  if inspector "stdio-$era-call" --cwd "$ROOT" "${ENV_ARGS[@]}" --protocol-era "$era" --method tools/call --tool-name get_household --tool-args-json '{}' -- "${CMD[@]}" &&
    expect_call "$WORK/stdio-$era-call.json"; then echo "✓ tools/call get_household over stdio ($era era)"; else fail "tools/call over stdio ($era era)"; fi
done

if ((failures > 0)); then
  echo "MCP checks: $failures failed"
  exit 1
fi
echo "MCP checks: all passed"

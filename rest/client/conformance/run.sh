#!/usr/bin/env bash
# make clients: what integrators' code generators make of the served OpenAPI
# documents, checked against a live server.
#
#  1. builds einvoice and starts `einvoice dev` on a temporary data dir and
#     free loopback ports (CLIENTS_ADDR to choose the API's);
#  2. fetches /openapi/v1.json and /openapi/v2.json from it;
#  3. generates a client from each with oapi-codegen (default configuration),
#     ogen and openapi-typescript, the versions pinned in go.mod and
#     package-lock.json, failing on any warning they print (but ogen's note
#     that it spells RateLimit-* and X-Request-ID headers canonically);
#  4. compiles them: go build, tsc --noEmit --strict;
#  5. lints both documents with Redocly (recommended) and Spectral (oas):
#     any error or warning fails;
#  6. runs the typical flow against the server with the generated Go client
#     (goflow), the generated TypeScript types and openapi-fetch (flow.ts),
#     and the Go SDK in rest/client (sdkflow).
# Generated code goes to gen/ and out/ (not committed).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
cd "$here"
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1 npm_config_update_notifier=false
started=$(date +%s)
phase_start=$started
phase() {
  local now; now=$(date +%s)
  printf '==> clients: %s (%ss so far)\n' "$1" "$((now - started))"
  phase_start=$now
}

work=$(mktemp -d)
dev_pid=""
cleanup() {
  if [ -n "$dev_pid" ] && kill -0 "$dev_pid" 2>/dev/null; then
    kill "$dev_pid" 2>/dev/null || true
    wait "$dev_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

phase "npm ci (package-lock.json)"
lock_sum=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.einvoice-lock 2>/dev/null || true)" != "$lock_sum" ]; then
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_sum" > node_modules/.einvoice-lock
fi

phase "build einvoice and start einvoice dev"
go build -C "$root" -o "$work/einvoice" ./cmd/einvoice
"$work/einvoice" dev --addr "${CLIENTS_ADDR:-127.0.0.1:0}" --data-dir "$work/data" \
  --temporal-addr 127.0.0.1:0 --temporal-ui-addr 127.0.0.1:0 --log-level warn >"$work/dev.out" 2>"$work/dev.err" &
dev_pid=$!
base=""
for _ in $(seq 1 600); do
  base=$(sed -n 's#^ *API *\(http://[^ ]*\)/api/v2$#\1#p' "$work/dev.out" | head -1)
  if [ -n "$base" ] && curl -sf "$base/health" >/dev/null; then break; fi
  if ! kill -0 "$dev_pid" 2>/dev/null; then
    echo "einvoice dev stopped:" >&2; cat "$work/dev.out" "$work/dev.err" >&2; exit 1
  fi
  sleep 0.1
done
curl -sf "$base/health" >/dev/null || { echo "einvoice dev did not answer at '$base'" >&2; cat "$work/dev.err" >&2; exit 1; }
echo "einvoice dev at $base"

phase "fetch the served documents"
rm -rf gen out
mkdir -p gen/fixtures
for v in v1 v2; do
  mkdir -p "gen/$v"
  curl -sf "$base/openapi/$v.json" -o "gen/$v/openapi.json"
done
cp "$root/testdata/fixtures/invoice-b2b-1.1.json" gen/fixtures/

# quiet runs a generator and fails when it prints anything but the
# lines its filter allows.
quiet() {
  local what=$1 allow=$2; shift 2
  local log="$work/$(echo "$what" | tr ' /' '__').log"
  if ! "$@" >"$log" 2>&1; then
    echo "$what failed:" >&2; cat "$log" >&2; exit 1
  fi
  if grep -vE "$allow" "$log" | grep -q .; then
    echo "$what printed warnings:" >&2; grep -vE "$allow" "$log" >&2; exit 1
  fi
}

phase "generate: oapi-codegen, ogen, openapi-typescript"
for v in v1 v2; do
  mkdir -p "gen/$v/oapi" "gen/$v/ogen"
  go tool oapi-codegen -package oapi -o "gen/$v/oapi/api.gen.go" "gen/$v/openapi.json"
  quiet "ogen $v" '^$|^go: downloading |Header name is not canonical|Convenient errors are not available' \
    go tool ogen -package ogen -target "gen/$v/ogen" -clean "gen/$v/openapi.json"
  quiet "openapi-typescript $v" '^$|^✨ openapi-typescript [0-9.]+$|^🚀 |Found two ambiguous paths: `/api/v[12]/invoices/batches/\{batch_id\}`' \
    node_modules/.bin/openapi-typescript "gen/$v/openapi.json" -o "gen/$v/schema.d.ts"
done

phase "compile: go build, tsc --noEmit --strict"
go build ./gen/... ./goflow ./sdkflow
go vet ./goflow ./sdkflow
node_modules/.bin/tsc -p . --noEmit --strict
node_modules/.bin/tsc -p .

phase "lint: Redocly recommended, Spectral oas"
for v in v1 v2; do
  node_modules/.bin/redocly lint --config redocly.yaml "gen/$v/openapi.json" --format=json >"$work/redocly-$v.json" 2>"$work/redocly-$v.err" || true
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const t = r.totals || {};
    const shown = r.problems.filter((p) => p.severity === "error" || p.severity === "warn");
    for (const p of shown) console.error(`  ${p.severity} ${p.ruleId}: ${p.message} at ${(p.location[0] || {}).pointer}`);
    if (t.errors || t.warnings || shown.length) { console.error(`Redocly ${process.argv[2]}: ${t.errors} errors, ${t.warnings} warnings`); process.exit(1); }
    console.log(`Redocly ${process.argv[2]}: 0 errors, 0 warnings (${t.ignored || 0} ignored)`);
  ' "$work/redocly-$v.json" "$v" || { cat "$work/redocly-$v.err" >&2; exit 1; }
  node_modules/.bin/spectral lint --ruleset .spectral.yaml --fail-severity=warn --display-only-failures "gen/$v/openapi.json" ||
    { echo "Spectral $v: errors or warnings (above)" >&2; exit 1; }
done

phase "flows against einvoice dev: generated Go, generated TypeScript, the SDK"
go run ./goflow -base "$base" -fixtures "$root/testdata/fixtures"
node out/flow.js "$base"
go run ./sdkflow -base "$base" -fixtures "$root/testdata/fixtures"

phase "done"
echo "clients: 3 generators x 2 documents compiled, 2 linters clean, 3 flows passed in $(( $(date +%s) - started ))s"

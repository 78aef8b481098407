#!/usr/bin/env bash
# Measures what einvoice's middleware costs on POST /api/v2/invoices/irn/generate:
# wrk loads a bare chi handler writing the same JSON, then the full router
# (request id, recovery, logs, metrics, body limit, API-key authentication,
# rate limit, idempotency check, handler and IRN query on SQLite), on the
# same machine in the same run. Prints both rates and their ratio.
#
#   bench/middleware/run.sh                 # 3 rounds of 10 s each, 2 threads, 32 connections
#   DURATION=30s CONNECTIONS=64 bench/middleware/run.sh
#   IDEMPOTENCY=1 bench/middleware/run.sh   # every request replayed under one Idempotency-Key
#
# Needs wrk (Debian: apt-get install -y wrk). Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION="${DURATION:-10s}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
BARE_ADDR="${BARE_ADDR:-127.0.0.1:18081}"
FULL_ADDR="${FULL_ADDR:-127.0.0.1:18082}"

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

tmp="$(mktemp -d)"
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/serve" ./bench/middleware
"$tmp/serve" -dir "$tmp" -bare "$BARE_ADDR" -full "$FULL_ADDR" 2>"$tmp/serve.log" &
pid=$!
for _ in $(seq 1 100); do [ -f "$tmp/credentials" ] && break; sleep 0.1; done
[ -f "$tmp/credentials" ] || { echo "the bench server did not start:" >&2; cat "$tmp/serve.log" >&2; exit 1; }
# shellcheck disable=SC1091
. "$tmp/credentials"

idem=""
if [ "${IDEMPOTENCY:-0}" = 1 ]; then idem='wrk.headers["Idempotency-Key"] = "bench-replay"'; fi
cat >"$tmp/irn.lua" <<LUA
wrk.method = "POST"
wrk.body = '$BODY'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Client-Id"] = "$CLIENT_ID"
wrk.headers["X-Client-Secret"] = "$CLIENT_SECRET"
$idem
LUA

# rate URL: one wrk round, printing requests per second; non-2xx answers fail the run.
rate() {
  local out
  out="$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$tmp/irn.lua" "$1")"
  printf '%s\n' "$out" >&2
  if grep -q 'Non-2xx' <<<"$out"; then echo "non-2xx answers from $1" >&2; exit 1; fi
  awk '/^Requests\/sec:/ {print $2}' <<<"$out"
}

# Warm both (connections, caches, heaps), then measure in alternating rounds
# so that a change of load on the machine weighs on both alike; report the
# median of each.
ROUNDS="${ROUNDS:-3}"
DURATION=2s rate "http://$BARE_ADDR/api/v2/invoices/irn/generate" >/dev/null 2>&1
DURATION=2s rate "http://$FULL_ADDR/api/v2/invoices/irn/generate" >/dev/null 2>&1
bares=() fulls=()
for i in $(seq 1 "$ROUNDS"); do
  bares+=("$(rate "http://$BARE_ADDR/api/v2/invoices/irn/generate")")
  fulls+=("$(rate "http://$FULL_ADDR/api/v2/invoices/irn/generate")")
  echo "round $i: bare ${bares[-1]} req/s, full ${fulls[-1]} req/s" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
bare="$(median "${bares[@]}")"
full="$(median "${fulls[@]}")"
ratio="$(awk -v f="$full" -v b="$bare" 'BEGIN { printf "%.1f", 100 * f / b }')"
echo
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds, POST /api/v2/invoices/irn/generate, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bare rounds: ${bares[*]}"
echo "full rounds: ${fulls[*]}"
printf 'bare chi handler  %10.0f req/s (median)\n' "$bare"
printf 'full router       %10.0f req/s (median)\n' "$full"
echo "full / bare       ${ratio} %  (target >= 60 %)"

#!/usr/bin/env bash
# Runs `einvoice dev` (SQLite, embedded Temporal, the stand-in) on a fresh
# data directory with rate limits off (einvoice's, and the stand-in's per
# business and per address: at 100 invoices a second einvoice alone sends
# the stand-in about 470 calls a second from one address, the stand-in's
# default bound being 500) and pprof on, then bench/invoices
# against it with the dev process's CPU and webhook deliveries measured.
#   N=600 RATE=50 bench/invoices/run.sh [extra bench flags]
# PROFILE=1 also takes a CPU profile over the submissions (out/cpu.pprof)
# and an allocation profile at the end (out/allocs.pprof).
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-600}
RATE=${RATE:-50}
PORT=${PORT:-18480}
OUT=${OUT:-$(mktemp -d)}
# EINVOICE_BIN runs an einvoice built elsewhere (another revision, to
# compare one beside the other).
BIN=${EINVOICE_BIN:-$OUT/einvoice}
[ -n "${EINVOICE_BIN:-}" ] || go build -o "$OUT/einvoice" ./cmd/einvoice
go build -o "$OUT/bench" ./bench/invoices
data=$(mktemp -d)
EINVOICE_RATE_LIMIT_SANDBOX=off EINVOICE_RATE_LIMIT_PROJECT_SANDBOX=off EINVOICE_NRS_SANDBOX_RATE_LIMIT=${EINVOICE_NRS_SANDBOX_RATE_LIMIT:-off} EINVOICE_NRS_SANDBOX_IP_RATE_LIMIT=${EINVOICE_NRS_SANDBOX_IP_RATE_LIMIT:-off} EINVOICE_PPROF_ADDR=127.0.0.1:$((PORT + 2)) \
	"$BIN" dev --addr 127.0.0.1:$PORT --data-dir "$data" --temporal-addr 127.0.0.1:$((PORT + 1)) \
	--temporal-ui-addr "" --log-level warn >"$OUT/dev.log" 2>&1 &
dev=$!
trap 'kill $dev 2>/dev/null; wait $dev 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 1 120); do
	curl -fs "http://127.0.0.1:$PORT/ready" >/dev/null 2>&1 && break
	sleep 0.5
done
if [ "${PROFILE:-}" = 1 ]; then
	secs=$(( N / ${RATE%.*} + 5 ))
	curl -fs -o "$OUT/cpu.pprof" "http://127.0.0.1:$((PORT + 2))/debug/pprof/profile?seconds=$secs" &
	prof=$!
fi
"$OUT/bench" -base "http://127.0.0.1:$PORT" -n "$N" -rate "$RATE" -pid "dev=$dev" -webhooks "$@"
if [ "${PROFILE:-}" = 1 ]; then
	wait $prof
	curl -fs -o "$OUT/allocs.pprof" "http://127.0.0.1:$((PORT + 2))/debug/pprof/allocs"
	echo "profiles: $OUT/cpu.pprof $OUT/allocs.pprof (go tool pprof -top $BIN $OUT/cpu.pprof)"
fi

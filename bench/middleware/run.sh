#!/usr/bin/env bash
# Measures what einvoice's middleware costs on POST /api/v2/invoices/irn/generate:
# wrk loads a bare chi handler writing the same JSON, then the full router
# (request id, recovery, logs, metrics, body limit, API-key authentication,
# rate limit, idempotency check, handler and IRN query on SQLite), on the
# same machine in the same run. Prints both rates and their ratio.
#
#   bench/middleware/run.sh                 # 5 rounds of 10 s each, 2 threads, 32 connections
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

# cpu_ticks PID: user + system CPU time of a process, in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
TICK_US=$((1000000 / $(getconf CLK_TCK)))

# rate URL: one wrk round. Prints "req/s server-CPU-us/request wrk-CPU-us/request";
# non-2xx answers fail the run.
rate() {
  local out before after requests wrk_cpu
  before="$(cpu_ticks "$pid")"
  out="$( { TIMEFORMAT='%U %S'; time wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "$tmp/irn.lua" "$1"; } 2>"$tmp/wrk.time")"
  after="$(cpu_ticks "$pid")"
  printf '%s\n' "$out" >&2
  if grep -q 'Non-2xx' <<<"$out"; then echo "non-2xx answers from $1" >&2; exit 1; fi
  requests="$(awk '/requests in/ { print $1 }' <<<"$out")"
  wrk_cpu="$(awk '{ print $1 + $2 }' "$tmp/wrk.time")"
  awk -v rps="$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")" -v n="$requests" -v srv="$(( (after - before) * TICK_US ))" -v w="$wrk_cpu" \
    'BEGIN { printf "%s %.2f %.2f\n", rps, srv / n, w * 1000000 / n }'
}

# Warm both (connections, caches, heaps), then measure in alternating rounds
# so that a change of load on the machine weighs on both alike. Reported:
# the median rate of each and the median of the rounds' ratios.
ROUNDS="${ROUNDS:-5}"
DURATION=2s rate "http://$BARE_ADDR/api/v2/invoices/irn/generate" >/dev/null 2>&1
DURATION=2s rate "http://$FULL_ADDR/api/v2/invoices/irn/generate" >/dev/null 2>&1
bares=() fulls=() ratios=() cpu_bare=() cpu_full=()
for i in $(seq 1 "$ROUNDS"); do
  read -r b bs bw <<<"$(rate "http://$BARE_ADDR/api/v2/invoices/irn/generate")"
  read -r f fs fw <<<"$(rate "http://$FULL_ADDR/api/v2/invoices/irn/generate")"
  bares+=("$b") fulls+=("$f")
  ratios+=("$(awk -v f="$f" -v b="$b" 'BEGIN { printf "%.1f", 100 * f / b }')")
  # CPU per request (server + wrk) does not depend on what else runs on the machine.
  cpu_bare+=("$(awk -v s="$bs" -v w="$bw" 'BEGIN { printf "%.2f", s + w }')")
  cpu_full+=("$(awk -v s="$fs" -v w="$fw" 'BEGIN { printf "%.2f", s + w }')")
  echo "round $i: bare $b req/s (server ${bs} us + wrk ${bw} us CPU/request), full $f req/s (server ${fs} us + wrk ${fw} us), ${ratios[-1]} %" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
bare="$(median "${bares[@]}")"
full="$(median "${fulls[@]}")"
ratio="$(median "${ratios[@]}")"
cb="$(median "${cpu_bare[@]}")"
cf="$(median "${cpu_full[@]}")"
echo
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds, POST /api/v2/invoices/irn/generate, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bare rounds:  ${bares[*]}"
echo "full rounds:  ${fulls[*]}"
echo "ratios (%):   ${ratios[*]}"
printf 'bare chi handler  %10.0f req/s (median), %6.1f us CPU per request (server + wrk)\n' "$bare" "$cb"
printf 'full router       %10.0f req/s (median), %6.1f us CPU per request (server + wrk)\n' "$full" "$cf"
echo "full / bare       ${ratio} % of the rate (median of the rounds; target >= 60 %)"
echo "                  $(awk -v b="$cb" -v f="$cf" 'BEGIN { printf "%.1f", 100 * b / f }') % by CPU per request (what the rate ratio is on an otherwise idle machine)"

#!/usr/bin/env bash
# Measures what einvoice's middleware costs on POST /api/v2/invoices/irn/generate:
# wrk loads a bare chi handler writing the same JSON, then the full router
# (request id, recovery, logs, metrics, body limit, API-key authentication,
# rate limit, idempotency check, handler and IRN query on SQLite), on the
# same machine in the same run. The full router is loaded twice: with the
# same invoice reference in every request (the IRN is then known, a cache
# hit) and with a new reference per request (each one records an IRN: the
# real load). Prints the rates and their ratios to the bare handler's, then
# the latencies of new references sent at half the rate measured for them
# (bench/irnload, open loop, so that the percentiles are not flattered).
#
#   bench/middleware/run.sh                 # 5 rounds of 10 s each, 2 threads, 32 connections
#   DURATION=30s CONNECTIONS=64 bench/middleware/run.sh
#   IDEMPOTENCY=1 bench/middleware/run.sh   # every request replayed under one Idempotency-Key
#   POSTGRES=postgres://postgres@127.0.0.1:5432/test?sslmode=disable bench/middleware/run.sh
#                                           # the full router on a fresh PostgreSQL database (dropped after)
#   PROFILE=/tmp/irn.pprof bench/middleware/run.sh
#                                           # also a CPU profile of the full router's process during the
#                                           # first round of new references (go tool pprof -top /tmp/irn.pprof;
#                                           # that round then carries the profiler's own small cost)
#   APIS=2 POSTGRES=... bench/middleware/run.sh
#                                           # two API processes on that database, each loaded by a wrk of
#                                           # its own with half the threads and connections (rates and CPU
#                                           # summed over both)
#
# Needs wrk (Debian: apt-get install -y wrk). Traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/../.."

DURATION="${DURATION:-10s}"
THREADS="${THREADS:-2}"
CONNECTIONS="${CONNECTIONS:-32}"
BARE_ADDR="${BARE_ADDR:-127.0.0.1:18081}"
FULL_ADDR="${FULL_ADDR:-127.0.0.1:18082}"
FULL2_ADDR="${FULL2_ADDR:-127.0.0.1:18084}"
PPROF_ADDR="${PPROF_ADDR:-127.0.0.1:18083}"
APIS="${APIS:-1}"
case "$APIS" in 1|2) ;; *) echo "APIS is 1 or 2" >&2; exit 1 ;; esac

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install -y wrk" >&2; exit 1; }

tmp="$(mktemp -d)"
pid=""
pid2=""
cleanup() {
  if [ -n "$pid2" ]; then kill "$pid2" 2>/dev/null || true; wait "$pid2" 2>/dev/null || true; fi
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/serve" ./bench/middleware
go build -o "$tmp/irnload" ./bench/irnload
pg=()
if [ -n "${POSTGRES:-}" ]; then pg=(-postgres "$POSTGRES"); fi
if [ -n "${PROFILE:-}" ]; then
  command -v curl >/dev/null || { echo "PROFILE needs curl" >&2; exit 1; }
  pg+=(-pprof "$PPROF_ADDR")
fi
"$tmp/serve" -dir "$tmp" -bare "$BARE_ADDR" -full "$FULL_ADDR" "${pg[@]}" 2>"$tmp/serve.log" &
pid=$!
for _ in $(seq 1 100); do [ -f "$tmp/credentials" ] && break; sleep 0.1; done
[ -f "$tmp/credentials" ] || { echo "the bench server did not start:" >&2; cat "$tmp/serve.log" >&2; exit 1; }
# shellcheck disable=SC1091
. "$tmp/credentials"
pids=("$pid")
if [ "$APIS" = 2 ]; then
  # A second API on the first one's database (its tenant and key hold).
  "$tmp/serve" -join "$tmp" -full "$FULL2_ADDR" 2>"$tmp/serve2.log" &
  pid2=$!
  pids+=("$pid2")
  for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/${FULL2_ADDR%:*}/${FULL2_ADDR##*:}") 2>/dev/null && break; sleep 0.1; done
  (exec 3<>"/dev/tcp/${FULL2_ADDR%:*}/${FULL2_ADDR##*:}") 2>/dev/null || { echo "the second API did not start:" >&2; cat "$tmp/serve2.log" >&2; exit 1; }
fi

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
# New references: every request gets one of its own (thread number, a
# per-round prefix and a counter).
cat >"$tmp/irn-unique.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["X-Client-Id"] = "$CLIENT_ID"
wrk.headers["X-Client-Secret"] = "$CLIENT_SECRET"
$idem
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end
local n = 0
local prefix
function init(args)
  prefix = "U" .. (args[1] or "0") .. "T" .. tid .. "N"
end
function request()
  n = n + 1
  return wrk.format(nil, nil, nil, '{"invoice_reference":"' .. prefix .. n .. '","invoice_type_code":"381","tax_authority_code":"NRS","issue_date":"2026-03-15"}')
end
LUA

# cpu_ticks PID...: user + system CPU time of the processes, in clock ticks.
cpu_ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat"))); done; echo "$t"; }
TICK_US=$((1000000 / $(getconf CLK_TCK)))

# rate URLS [SCRIPT [ARG]]: one wrk round (SCRIPT defaults to the same reference; ARG goes to its init). Prints "req/s server-CPU-us/request wrk-CPU-us/request";
# non-2xx answers fail the run. URLS is one URL, or two (APIS=2): each then gets a wrk of its own with
# half the threads and connections, at the same time, and the rates, requests and CPU times are summed.
rate() {
  local out before after requests wrk_cpu rps urls i
  read -ra urls <<<"$1"
  before="$(cpu_ticks "${pids[@]}")"
  if [ "${#urls[@]}" = 1 ]; then
    { TIMEFORMAT='%U %S'; time wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency -s "${2:-$tmp/irn.lua}" "${urls[0]}" ${3:+"$3"} >"$tmp/wrk.0"; } 2>"$tmp/wrk.time"
  else
    { TIMEFORMAT='%U %S'; time {
      local wrks=()
      for i in 0 1; do
        wrk -t"$(( (THREADS + 1) / 2 ))" -c"$(( (CONNECTIONS + 1) / 2 ))" -d"$DURATION" --latency -s "${2:-$tmp/irn.lua}" "${urls[$i]}" ${3:+"${3}A$i"} >"$tmp/wrk.$i" &
        wrks+=($!)
      done
      wait "${wrks[@]}"
    }; } 2>"$tmp/wrk.time"
  fi
  after="$(cpu_ticks "${pids[@]}")"
  out="$(cat "$tmp"/wrk.[0-9])"
  printf '%s\n' "$out" >&2
  if grep -q 'Non-2xx' <<<"$out"; then echo "non-2xx answers from $1" >&2; exit 1; fi
  requests="$(awk '/requests in/ { n += $1 } END { print n }' <<<"$out")"
  rps="$(awk '/^Requests\/sec:/ { r += $2 } END { printf "%.2f", r }' <<<"$out")"
  wrk_cpu="$(awk '{ print $1 + $2 }' "$tmp/wrk.time")"
  rm -f "$tmp"/wrk.[0-9]
  awk -v rps="$rps" -v n="$requests" -v srv="$(( (after - before) * TICK_US ))" -v w="$wrk_cpu" \
    'BEGIN { printf "%s %.2f %.2f\n", rps, srv / n, w * 1000000 / n }'
}

# Warm all three (connections, caches, heaps), then measure in alternating
# rounds so that a change of load on the machine weighs on all alike.
# Reported: the median rate of each and the median of the rounds' ratios.
ROUNDS="${ROUNDS:-5}"
BARE="http://$BARE_ADDR/api/v2/invoices/irn/generate"
FULL="http://$FULL_ADDR/api/v2/invoices/irn/generate"
if [ "$APIS" = 2 ]; then FULL="$FULL http://$FULL2_ADDR/api/v2/invoices/irn/generate"; fi
run="$$"
DURATION=2s rate "$BARE" >/dev/null 2>&1
DURATION=2s rate "$FULL" >/dev/null 2>&1
DURATION=2s rate "$FULL" "$tmp/irn-unique.lua" "${run}W" >/dev/null 2>&1
bares=() fulls=() uniqs=() ratios=() uratios=() cpu_bare=() cpu_full=() cpu_uniq=()
for i in $(seq 1 "$ROUNDS"); do
  read -r b bs bw <<<"$(rate "$BARE")"
  read -r f fs fw <<<"$(rate "$FULL")"
  prof=""
  if [ -n "${PROFILE:-}" ] && [ "$i" = 1 ]; then
    # The profile spans the round but its first and last second.
    secs="${DURATION%s}"
    case "$secs" in ''|*[!0-9]*) secs=3 ;; *) secs=$((secs > 2 ? secs - 2 : 1)) ;; esac
    (sleep 1; curl -sf -o "$PROFILE" "http://$PPROF_ADDR/debug/pprof/profile?seconds=$secs") &
    prof=$!
  fi
  read -r u us uw <<<"$(rate "$FULL" "$tmp/irn-unique.lua" "${run}R$i")"
  if [ -n "$prof" ]; then wait "$prof" || echo "no CPU profile written" >&2; fi
  bares+=("$b") fulls+=("$f") uniqs+=("$u")
  ratios+=("$(awk -v f="$f" -v b="$b" 'BEGIN { printf "%.1f", 100 * f / b }')")
  uratios+=("$(awk -v f="$u" -v b="$b" 'BEGIN { printf "%.1f", 100 * f / b }')")
  # CPU per request (server + wrk) does not depend on what else runs on the machine.
  cpu_bare+=("$(awk -v s="$bs" -v w="$bw" 'BEGIN { printf "%.2f", s + w }')")
  cpu_full+=("$(awk -v s="$fs" -v w="$fw" 'BEGIN { printf "%.2f", s + w }')")
  cpu_uniq+=("$(awk -v s="$us" -v w="$uw" 'BEGIN { printf "%.2f", s + w }')")
  echo "round $i: bare $b req/s (server ${bs} us + wrk ${bw} us CPU/request), same reference $f req/s (server ${fs} us + wrk ${fw} us), ${ratios[-1]} %, new references $u req/s (server ${us} us + wrk ${uw} us), ${uratios[-1]} %" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
bare="$(median "${bares[@]}")"
full="$(median "${fulls[@]}")"
uniq="$(median "${uniqs[@]}")"
ratio="$(median "${ratios[@]}")"
uratio="$(median "${uratios[@]}")"
cb="$(median "${cpu_bare[@]}")"
cf="$(median "${cpu_full[@]}")"
cu="$(median "${cpu_uniq[@]}")"

# Latency of new references at half the rate measured for them.
half="$(awk -v u="$uniq" 'BEGIN { printf "%d", u / 2 }')"
# With two APIs each gets half of it, from a load of its own, at the same
# time, and reports its own latencies.
read -ra fulls_ <<<"$FULL"
latency=""
loads=()
for i in "${!fulls_[@]}"; do
  "$tmp/irnload" -url "${fulls_[$i]}" -client-id "$CLIENT_ID" -client-secret "$CLIENT_SECRET" -rate "$(( half / ${#fulls_[@]} ))" \
    -duration "$DURATION" -conns "$(( CONNECTIONS / ${#fulls_[@]} ))" -prefix "H${run}A$i" >"$tmp/lat.$i" &
  loads+=($!)
done
wait "${loads[@]}"
for i in "${!fulls_[@]}"; do
  latency+="${latency:+; }$( [ "${#fulls_[@]}" -gt 1 ] && echo "API $((i + 1)): ")$(cat "$tmp/lat.$i")"
done

echo
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION x $ROUNDS rounds, POST /api/v2/invoices/irn/generate, database $( [ -n "${POSTGRES:-}" ] && echo PostgreSQL || echo SQLite), $APIS API process(es), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "bare rounds:            ${bares[*]}"
echo "same reference rounds:  ${fulls[*]}"
echo "new reference rounds:   ${uniqs[*]}"
echo "ratios, same (%):       ${ratios[*]}"
echo "ratios, new (%):        ${uratios[*]}"
printf 'bare chi handler               %10.0f req/s (median), %6.1f us CPU per request (server + wrk)\n' "$bare" "$cb"
printf 'full router, same reference    %10.0f req/s (median), %6.1f us CPU per request (server + wrk)\n' "$full" "$cf"
printf 'full router, new references    %10.0f req/s (median), %6.1f us CPU per request (server + wrk)\n' "$uniq" "$cu"
echo "same reference / bare          ${ratio} % of the rate (median of the rounds; target >= 60 %)"
echo "                               $(awk -v b="$cb" -v f="$cf" 'BEGIN { printf "%.1f", 100 * b / f }') % by CPU per request (what the rate ratio is on an otherwise idle machine)"
echo "new references / bare          ${uratio} % of the rate (median of the rounds; target >= 60 %)"
echo "                               $(awk -v b="$cb" -v f="$cu" 'BEGIN { printf "%.1f", 100 * b / f }') % by CPU per request"
echo "new references at half rate:   $latency (target p99 < 20 ms)"

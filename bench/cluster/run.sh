#!/usr/bin/env bash
# make cluster-test: einvoice as deployed (PostgreSQL, Redis, a Temporal
# server, the NRS sandbox stand-in, two APIs, two workers; each its own
# process), driven and broken on purpose by bench/cluster (see its package
# documentation for what it checks). Uses the ports CLUSTER_PORT ..
# CLUSTER_PORT+99 (default 19500) and two databases on the PostgreSQL
# server at CLUSTER_PG (default postgres://postgres@127.0.0.1:5432), created
# here and dropped at the end: einvoice_cluster and einvoice_cluster_nrs.
# With -bench-invoices (make bench-cluster-invoices) the same cluster is
# measured with bench/invoices instead of broken.
set -euo pipefail
cd "$(dirname "$0")/../.."

PG="${CLUSTER_PG:-postgres://postgres@127.0.0.1:5432}"
PORT="${CLUSTER_PORT:-19500}"
WORK="${CLUSTER_WORK:-$(mktemp -d -t einvoice-cluster.XXXXXX)}"
DB=einvoice_cluster
NRSDB=einvoice_cluster_nrs

log() { printf '==> %s\n' "$*"; }

command -v redis-server >/dev/null || { echo "redis-server is required" >&2; exit 1; }
command -v psql >/dev/null || { echo "psql is required" >&2; exit 1; }

drop() {
  for d in "$DB" "$NRSDB"; do
    psql "$PG/postgres" -qXc "DROP DATABASE IF EXISTS $d WITH (FORCE)" >/dev/null 2>&1 || true
  done
}
cleanup() {
  drop
  if [ -z "${CLUSTER_KEEP:-}" ]; then rm -rf "$WORK"; else log "kept $WORK"; fi
}
trap cleanup EXIT

log "building einvoice, einvoice-temporal and the driver into $WORK/bin"
mkdir -p "$WORK/bin"
CGO_ENABLED=0 go build -tags prod -ldflags '-s -w' -o "$WORK/bin/einvoice" ./cmd/einvoice
CGO_ENABLED=0 go build -ldflags '-s -w' -o "$WORK/bin/einvoice-temporal" ./cmd/einvoice-temporal
go build -o "$WORK/bin/cluster" ./bench/cluster
go build -o "$WORK/bin/bench-invoices" ./bench/invoices

log "databases $DB and $NRSDB"
drop
psql "$PG/postgres" -qXc "CREATE DATABASE $DB" >/dev/null
psql "$PG/postgres" -qXc "CREATE DATABASE $NRSDB" >/dev/null

log "cluster test (logs in $WORK/logs; CLUSTER_KEEP=1 keeps them)"
status=0
"$WORK/bin/cluster" -bin "$WORK/bin" -work "$WORK" -port "$PORT" \
  -database-url "$PG/$DB?sslmode=disable" -sandbox-database-url "$PG/$NRSDB?sslmode=disable" "$@" || status=$?
if [ "$status" -ne 0 ]; then
  for f in "$WORK"/logs/*.log; do
    echo "--- last lines of $f" >&2
    tail -n 15 "$f" >&2 || true
  done
fi
exit "$status"

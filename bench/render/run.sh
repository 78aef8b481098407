#!/usr/bin/env bash
# Compares einvoice's PDF renderer with headless Chromium (HTML to PDF) on the
# shared B2B invoice, both pinned to one CPU core when taskset is available.
# Usage: bench/render/run.sh [N]   (N documents each, default 200)
set -euo pipefail
cd "$(dirname "$0")"
n="${1:-200}"

if [ ! -x /usr/bin/chromium ]; then
  echo "==> installing chromium" >&2
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium
fi
[ -d node_modules/playwright-core ] || npm ci --no-audit --no-fund

bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/gorender" ./gorender

pin=()
if command -v taskset >/dev/null; then pin=(taskset -c 0); fi
GORENDER="$bin/gorender" "${pin[@]}" node bench.mjs "$n"

#!/usr/bin/env bash
# Measures the packages of a git revision (default: the working tree):
# lines, exported functions and methods per package, and the type with the
# most exported methods. Blank lines, test files and generated files are
# left out.
#
#   bench/packages/run.sh [REV] [--md]
set -euo pipefail
cd "$(dirname "$0")/../.."
rev="" md=""
for a in "$@"; do
  case "$a" in
    --md) md="-md" ;;
    *) rev="$a" ;;
  esac
done
if [ -z "$rev" ]; then
  exec go run ./bench/packages $md .
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$rev" | tar -x -C "$tmp"
go run ./bench/packages $md "$tmp"

#!/usr/bin/env bash
# The README's test command: every test, from a clean checkout. Installs Debian's chromium when it
# is missing, installs dependencies, builds, type-checks, runs unit/integration tests (SQLite, and
# PostgreSQL when DATABASE_URL is set), checks the bundle budgets, then runs e2e in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - started ))"; }
summary=$(mktemp)
trap 'rm -f "$summary"' EXIT
# Runs a Vitest command, keeping its "Tests  N passed | M skipped" line for the total at the end.
counted() {
  local log
  log=$(mktemp)
  "$@" 2>&1 | tee "$log"
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' >> "$summary" || true
  rm -f "$log"
}

if ! command -v chromium >/dev/null 2>&1 && [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  step "installing Debian's chromium"
  if [ "$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi
fi

if [ ! -d node_modules/vitest ] || [ ! -f node_modules/better-sqlite3/build/Release/better_sqlite3.node ]; then
  step "installing dependencies"
  npm ci --no-audit --no-fund
fi

if [ "${REQUIRE_POSTGRES:-}" = 1 ]; then
  export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
fi

step "build"
npm run build
step "type-check"
npm run typecheck
step "import boundaries"
npm run lint:boundaries
step "unit and integration tests"
# Two workers: one per core (Vitest would leave one idle on a 2-core machine).
counted npx vitest run --maxWorkers=2
step "bundle budgets"
counted npm run budgets
step "end-to-end tests in Chromium"
counted npm run test:e2e
step "all tests passed"
sum() { grep -oE "[0-9]+ $1" "$summary" | awk '{ n += $1 } END { print n + 0 }'; }
echo "total: $(sum passed) passed, $(sum failed) failed, $(sum skipped) skipped"

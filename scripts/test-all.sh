#!/usr/bin/env bash
# The README's test command: every test, from a clean checkout, on a machine where nothing runs yet.
# It sets up its own bench first (scripts/test-bench/): Debian's chromium and PostgreSQL when
# missing, PostgreSQL started with the database `test` on 127.0.0.1:5432, the pinned Python and Go
# peers in .peers/, and npm dependencies. Then it builds, type-checks, checks import boundaries,
# runs the unit and integration tests (every server suite on SQLite and on PostgreSQL), the bundle
# budgets, the end-to-end tests in Chromium, and the schemathesis fuzzing of the whole API.
# Stages run one after the other (each keeps both cores busy on its own), with these exceptions:
# the build, the type-check beside it and the browser packages' unit tests do not wait for the
# system packages and peers still downloading, nor for better-sqlite3 still compiling (only the
# server's tests need them); and the end-to-end tests have the bundle budgets beside them. Output of a stage run beside
# another is shown once that one is done, and any failure fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { printf '\n== %s (%ss)\n' "$1" "$(( $(date +%s) - started ))"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary="$work/summary"
touch "$summary"

# Runs a Vitest command, keeping its "Tests  N passed | M skipped" line for the total at the end,
# and returns the command's status: a failing command stops the script (errexit), or is collected
# by a caller that tests it.
counted() {
  local log="$work/log.$RANDOM" status=0
  "$@" 2>&1 | tee "$log" || status=$?
  sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +Tests ' >> "$summary" || true
  return "$status"
}
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

step "test bench: system packages, npm dependencies and pinned peers"
missing=()
command -v chromium >/dev/null 2>&1 || [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || missing+=(chromium)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || missing+=(postgresql)
# apt, npm and pip download in parallel; each writes its own log, shown if it fails.
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing Debian's ${missing[*]}"
  ( as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" ) > "$work/apt.log" 2>&1 &
  apt_job=$!
fi
bash scripts/test-bench/peers.sh > "$work/peers.log" 2>&1 &
peers_job=$!
# better-sqlite3 is the one package with an install script: it compiles SQLite from source, about
# 70 s on one core (no prebuilt binary is reachable here), which held up the build and type-check.
# npm installs without running it, and it compiles beside them instead (neither loads it); the
# tests wait for it.
if [ ! -d node_modules/vitest ] || [ ! -f node_modules/better-sqlite3/build/Release/better_sqlite3.node ]; then
  npm ci --no-audit --no-fund --ignore-scripts
  npm rebuild better-sqlite3 > "$work/native.log" 2>&1 &
  native_job=$!
fi

# The build and the boundary lint need only npm's packages: apt and pip go on meanwhile. The
# type-check reads the sources only, never the build's output, so it runs beside the build (and
# better-sqlite3's compile) instead of after it; its output is shown once the lint is done. tsgo
# type-checks on every core: beside the end-to-end tests it took 250 s instead of 22 s and slowed
# them down (issue 12's fresh-clone run), so it stays out of the test stages.
step "build (the type-check beside it)"
npm run typecheck > "$work/typecheck.log" 2>&1 &
typecheck_job=$!
npm run build
step "import boundaries"
npm run lint:boundaries
step "type-check"
typecheck_status=0
wait "$typecheck_job" || typecheck_status=$?
cat "$work/typecheck.log"
if [ "$typecheck_status" != 0 ]; then echo "type-check failed" >&2; exit 1; fi

# The browser packages' unit tests need neither PostgreSQL, the peers nor better-sqlite3: they run
# while those finish installing (better-sqlite3's compile, on one core, was still running when the
# type-check ended, and the other core was idle until the server tests could start).
step "unit tests of the browser packages and the React SDK"
early_projects=(shared login-box login-box-isolated admin-portal checkout loader loader-isolated react-sdk)
late_projects=(server sdk-node)
# Every Vitest project of the root config runs in one of the two groups: one in neither fails here.
node -e '
  const { readFileSync } = require("node:fs");
  const configs = /projects:\s*\[([^\]]*)\]/.exec(readFileSync("vite.config.ts", "utf8"))[1].match(/[\w./-]+\.ts/g);
  const names = configs.map((file) => /name:\s*["\x27]([\w-]+)["\x27]/.exec(readFileSync(file, "utf8"))[1]);
  const grouped = process.argv.slice(1);
  const missing = names.filter((name) => !grouped.includes(name));
  if (missing.length) { console.error(`Vitest projects in no group of scripts/test-all.sh: ${missing.join(", ")}`); process.exit(1); }
' "${early_projects[@]}" "${late_projects[@]}"
counted npx vitest run "${early_projects[@]/#/--project=}" --maxWorkers=2

step "test bench: waiting for the system packages, peers and better-sqlite3, starting PostgreSQL"
if [ -n "${apt_job:-}" ] && ! wait "$apt_job"; then cat "$work/apt.log"; echo "apt-get install ${missing[*]} failed" >&2; exit 1; fi
if ! wait "$peers_job"; then cat "$work/peers.log"; echo "installing the pinned peers failed" >&2; exit 1; fi
if [ -n "${native_job:-}" ] && ! wait "$native_job"; then cat "$work/native.log"; echo "compiling better-sqlite3 failed" >&2; exit 1; fi
cat "$work/peers.log"
bash scripts/test-bench/postgres.sh
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
# The peers are installed by now: a test that needs localstripe or stripe-mock fails instead of skipping.
export REQUIRE_PEERS=1

step "unit and integration tests of the server and the Node SDK"
counted npx vitest run "${late_projects[@]/#/--project=}" --maxWorkers=3

# The throughput bench as a smoke run (about 20 s): the built server and the peers each answer
# every kind of request 2xx and the numbers print; no ratio is judged here (bench/throughput/). It
# runs on its own: beside schemathesis, better-auth's scrypt sign-ins answered none in their 1 s.
step "throughput bench smoke run"
npm run bench:throughput -- --smoke

# Beside the end-to-end tests, the bundle budgets, which measure bytes, not time (its output goes to
# a file of its own, and its name to $work/beside.failed if it fails). schemathesis runs
# after them: beside three Chromium workers on 2 cores its passes ran past their deadline (issue 12).
beside() {
  local failed=()
  { step "bundle budgets"; counted npm run budgets; } > "$work/beside.1" 2>&1 || failed+=("bundle budgets")
  if [ ${#failed[@]} -gt 0 ]; then printf '%s\n' "${failed[@]}" > "$work/beside.failed"; fi
}
step "end-to-end tests in Chromium (with the bundle budgets beside them)"
beside &
beside_job=$!
e2e_status=0
counted npm run test:e2e || e2e_status=$?
wait "$beside_job"
cat "$work"/beside.[0-9]
failed=()
[ "$e2e_status" = 0 ] || failed+=("end-to-end tests")
[ ! -f "$work/beside.failed" ] || mapfile -t -O ${#failed[@]} failed < "$work/beside.failed"
step "schemathesis on every operation of the API"
counted npm run test:fuzz || failed+=(schemathesis)
if [ ${#failed[@]} -gt 0 ]; then
  step "failed: $(IFS=,; echo "${failed[*]}" | sed 's/,/, /g')"
  exit 1
fi

step "all tests passed"
sum() { grep -oE "[0-9]+ $1" "$summary" | awk '{ n += $1 } END { print n + 0 }'; }
echo "total: $(sum passed) passed, $(sum failed) failed, $(sum skipped) skipped"

#!/usr/bin/env bash
# The one command that sets up and runs every test (README's second command; CI runs it).
# Order: cheapest checks first, so a type or lint error fails in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
step() { printf '\n=== %s (%ss)\n' "$1" "$((SECONDS - start))"; }
# Every runner also writes a JSON report here; the last step totals them.
results=test-results/summary
rm -rf "$results" && mkdir -p "$results"
vitest_json() { echo --reporter=default --reporter=json --outputFile.json="$results/$1.json"; }

step "set-up"; ./scripts/setup.sh
# Everything below runs on the Node setup.sh chose (Node 24 from .tools/ on an older system).
source scripts/node-env.sh
use_project_node || true # nothing to do when the system Node is already 24
echo "node $(node -v), electron $(node scripts/electron-runtime.mjs --version)"
step "type-check"; npm run -s typecheck
step "lint"; npm run -s lint
step "format"; npm run -s format:check
step "build"; npm run -s build
step "unit and integration tests (real keychain, SQLite, HTTP)"; ./scripts/with-keyring.sh npm run -s test:unit -- $(vitest_json unit)
step "reliability and security"; ./scripts/with-keyring.sh npm run -s test:reliability -- $(vitest_json reliability)
# Several processes on one data dir for 10 s, then the invariants; exit 1 on any violation.
step "stress (processes sharing a data dir)"; ./scripts/with-keyring.sh npm run -s stress -- --seconds 10
step "UI end-to-end in Chromium (browser preview)"; PLAYWRIGHT_JSON_OUTPUT_FILE="$PWD/$results/e2e.json" ./scripts/with-keyring.sh npm run -s test:e2e -- --reporter=list,json
step "Electron end-to-end"
export PLAYWRIGHT_JSON_OUTPUT_FILE="$PWD/$results/electron.json"
# Never require('electron') to ask: from electron 42 on that downloads the runtime.
if node scripts/electron-runtime.mjs; then
  # The app loads the native modules with Electron's ABI; switch, run, and switch back.
  node scripts/native-modules.mjs electron
  status=0
  ./scripts/with-keyring.sh xvfb-run -a npm run -s test:electron -- --reporter=list,json || status=$?
  use_project_node --headers || true # switching back builds for this Node, with its headers
  node scripts/native-modules.mjs node
  ((status == 0)) || exit "$status"
else
  ./scripts/with-keyring.sh npm run -s test:electron -- --reporter=list,json # skips, saying why
fi
step "done"
node scripts/test-summary.mjs "$results"

#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh Debian/Ubuntu machine or a
# developer's. Idempotent: does nothing that is already done.
#   - system packages: libsecret (keytar builds against it), gnome-keyring + dbus (a real
#     Secret Service for the keychain tests), Chromium (the browser the UI tests drive), Xvfb
#   - Node 24 LTS into .tools/node24 when the system Node is older than 22.12 (scripts/node-env.sh)
#   - npm ci, with the Electron runtime download skipped (it needs a host that may be
#     unreachable); the runtime is then fetched separately, and its absence is not an error.
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(libsecret-1-dev gnome-keyring dbus dbus-bin chromium xvfb)
# A machine without npm gets Debian's, only to fetch Node 24 from the registry below.
command -v npm >/dev/null 2>&1 || SYSTEM_PACKAGES+=(nodejs npm)

missing=()
for pkg in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if ((${#missing[@]} > 0)); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing system packages: ${missing[*]}" >&2
    echo "setup: install them with: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
  echo "setup: installing system packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The Node that Electron embeds (24), for npm ci, the native-module builds and the tests.
source scripts/node-env.sh
ensure_project_node

# npm ci when node_modules is missing or older than the lock file.
if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
  echo "setup: npm ci"
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
fi

# keytar and better-sqlite3 built for this Node (npm start may have switched them to Electron's
# ABI; a Node upgrade changes the ABI too): decided by loading them, see the script.
node scripts/native-modules.mjs node

# The Electron runtime: fetched where its download host is reachable, otherwise skipped.
# Only the Electron end-to-end tests and `npm start` need it.
# Checked without require('electron'), which would itself start the download (electron >= 42).
if ! node scripts/electron-runtime.mjs; then
  if timeout 180 node node_modules/electron/install.js >/dev/null 2>&1; then
    echo "setup: Electron runtime installed"
  else
    echo "setup: Electron runtime not available here (download failed); Electron end-to-end tests will skip"
  fi
fi

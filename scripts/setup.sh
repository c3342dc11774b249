#!/usr/bin/env bash
# Installs everything the build and the tests need, on a fresh Debian/Ubuntu machine or a
# developer's. Idempotent: does nothing that is already done.
#   - system packages: libsecret (keytar builds against it), gnome-keyring + dbus (a real
#     Secret Service for the keychain tests), Chromium (the browser the UI tests drive), Xvfb,
#     openssl (the proxy tests' certificates), a font with Arabic (the right-to-left checks)
#   - Node 24 LTS into .tools/node24 when the system Node is older than 22.12 (scripts/node-env.sh)
#   - npm ci (install scripts as package.json's allowScripts says), with the Electron runtime
#     download skipped (it needs a host that may be unreachable); the runtime is then fetched
#     separately, and its absence is not an error. The steps are scripts/setup-steps.sh's, shared
#     with the README's first command (scripts/start.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/setup-steps.sh

# openssl makes the test CA and certificates of the CLI's proxy tests. fonts-dejavu-core draws
# Arabic (the right-to-left checks measure real glyphs, not empty boxes).
SYSTEM_PACKAGES=(libsecret-1-dev gnome-keyring dbus dbus-bin chromium xvfb openssl fonts-dejavu-core)
# A machine without npm gets Debian's, only to fetch Node 24 from the registry below.
command -v npm >/dev/null 2>&1 || SYSTEM_PACKAGES+=(nodejs npm)
install_system_packages "${SYSTEM_PACKAGES[@]}"

# The Node that Electron embeds (24), for npm ci, the native-module builds and the tests.
source scripts/node-env.sh
ensure_project_node

install_node_modules

# keytar and better-sqlite3 built for this Node (npm start may have switched them to Electron's
# ABI; a Node upgrade changes the ABI too): decided by loading them, see the script.
node scripts/native-modules.mjs node

# The Electron runtime: fetched where its download host is reachable, otherwise skipped.
# Only the Electron end-to-end tests and `npm start` need it.
if ! node scripts/electron-runtime.mjs; then
  if fetch_electron_runtime 180; then
    echo "setup: Electron runtime installed"
  else
    echo "setup: Electron runtime not available here (download failed: ${ELECTRON_DOWNLOAD_ERROR}); Electron end-to-end tests will skip"
  fi
fi

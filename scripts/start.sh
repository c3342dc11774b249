#!/usr/bin/env bash
# The README's first command: sets up what the app needs on this machine, then starts it (npm start).
# On a fresh Debian or Ubuntu as root (or with the packages below already installed), with any Node
# and npm on PATH (Debian 12's Node 20 and npm 11 will do):
#   - system packages: node-gyp's build tools and libsecret's headers (keytar is built from
#     source), and the libraries the Electron runtime loads (the .deb's dependencies in
#     electron-builder.yml, plus libgbm1 and libasound2)
#   - the project's Node: Node 24 into .tools/node24 when the Node on PATH is older (node-env.sh)
#   - npm ci on that Node, running only the install scripts package.json's allowScripts approves
#   - the Electron runtime, downloaded by electron's own installer
# then `npm start` builds the app, switches the native modules to Electron's ABI and opens it.
# Run it again after a failure: what is already done is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-steps.sh

BUILD_PACKAGES=(python3 make g++ pkg-config libsecret-1-dev)
# Keep in step with electron-builder.yml's deb.depends (tests/unit/runtime/startScript.test.ts).
ELECTRON_PACKAGES=(libgtk-3-0 libnotify4 libnss3 libxss1 libxtst6 xdg-utils libatspi2.0-0 libuuid1 libsecret-1-0 libgbm1 libasound2)
NODE_PACKAGES=()
# A machine without npm gets Debian's, only to fetch Node 24 from the registry below.
command -v npm >/dev/null 2>&1 || NODE_PACKAGES=(nodejs npm)
install_system_packages "${BUILD_PACKAGES[@]}" "${ELECTRON_PACKAGES[@]}" "${NODE_PACKAGES[@]}"

source scripts/node-env.sh
ensure_project_node
install_node_modules

if ! fetch_electron_runtime 900; then
  echo "start: the download of the Electron runtime failed (Electron $(node scripts/electron-runtime.mjs --version) for $(node -p 'process.platform + "-" + process.arch') from $(electron_download_source): ${ELECTRON_DOWNLOAD_ERROR}); retry it with: ./scripts/start.sh" >&2
  exit 1
fi

# Only set-up builds against Node's headers: npm start rebuilds the native modules for Electron.
unset npm_config_nodedir
exec npm start

#!/usr/bin/env bash
# Installs the project's Node (24 LTS, from the npm registry) into .tools/node24 when the Node on
# PATH is older: the command the launcher names when no supported Node is found
# (scripts/launch.mjs). Needs only npm, whichever Node runs it. See scripts/node-env.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-env.sh
ensure_project_node
echo "install-node: npm start, npm run cli and npm run preview now run on Node $(node -v) ($(command -v node))"

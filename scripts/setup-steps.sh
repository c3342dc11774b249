# Sourced by scripts/setup.sh (the test command's set-up) and scripts/start.sh (the README's first
# command): the set-up steps both take, each doing nothing that is already done.
#   install_system_packages PKG...  apt-get installs the missing ones (as root), or names the command
#   install_node_modules            npm ci when node_modules is missing or older than the lock file
#   fetch_electron_runtime SECONDS  electron's own installer downloads the runtime unless it is there;
#                                   on failure ELECTRON_DOWNLOAD_ERROR holds what the installer said

install_system_packages() {
  # Not Debian or Ubuntu: the README says what to install.
  command -v dpkg-query >/dev/null 2>&1 || return 0
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  ((${#missing[@]} > 0)) || return 0
  if [[ $(id -u) -ne 0 ]]; then
    echo "setup: missing system packages: ${missing[*]}" >&2
    echo "setup: install them with: sudo apt-get install -y ${missing[*]}" >&2
    return 1
  fi
  echo "setup: installing system packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

install_node_modules() {
  if [[ ! -f node_modules/.package-lock.json || package-lock.json -nt node_modules/.package-lock.json ]]; then
    echo "setup: npm ci"
    # Install scripts run as package.json's allowScripts says (keytar's builds its native module).
    ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error
  fi
}

# Checked without require('electron'), which would itself start the download (electron >= 42).
fetch_electron_runtime() {
  local seconds=$1 output status=0
  ELECTRON_DOWNLOAD_ERROR=
  node scripts/electron-runtime.mjs && return 0
  output=$(timeout "$seconds" node node_modules/electron/install.js 2>&1) || status=$?
  ((status == 0)) && return 0
  if ((status == 124)); then
    ELECTRON_DOWNLOAD_ERROR="no answer within $seconds seconds"
  else
    # install.js prints the error's stack: its first line says what failed.
    ELECTRON_DOWNLOAD_ERROR=$(printf '%s\n' "$output" | grep -m1 -v '^\s*$' || true)
    ELECTRON_DOWNLOAD_ERROR=${ELECTRON_DOWNLOAD_ERROR:-exit code $status}
  fi
  return 1
}

# Where electron's installer downloads from (@electron/get: ELECTRON_MIRROR, else GitHub's releases).
electron_download_source() {
  echo "${ELECTRON_MIRROR:-https://github.com/electron/electron/releases/download/}"
}

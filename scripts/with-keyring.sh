#!/usr/bin/env bash
# Runs a command inside a private D-Bus session with an unlocked gnome-keyring, so keytar
# talks to a real Secret Service. HOME is a temporary folder: the test keyring never touches
# the user's own.
set -euo pipefail
if [[ -n "${REPORT_DESK_KEYRING_READY:-}" ]]; then exec "$@"; fi
test_home="$(mktemp -d -t report-desk-home.XXXXXX)"
trap 'rm -rf "$test_home"' EXIT
export HOME="$test_home" REPORT_DESK_KEYRING_READY=1 REPORT_DESK_TEST_KEYCHAIN=required
# Keep npm's cache where it was: only the keyring needs the temporary HOME.
export npm_config_cache="${npm_config_cache:-${XDG_CACHE_HOME:-/root}/.npm}"
dbus-run-session -- sh -c '
  printf %s "test-keyring-password" | gnome-keyring-daemon --unlock --components=secrets >/dev/null
  exec "$@"' sh "$@"

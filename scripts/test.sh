#!/usr/bin/env bash
# `npm test`: typecheck, unit and integration tests, build, e2e tests. Runs in a
# private D-Bus session with its own unlocked GNOME keyring, so tests use a real
# OS keychain and never touch the user's own.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${QE_TEST_SESSION:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  export QE_TEST_SESSION=1
  # The keyring's files go to a throwaway folder: a user's own login keyring is
  # never opened, and a fresh one is created and unlocked with a known password.
  keyring_home=$(mktemp -d)
  trap 'rm -rf "$keyring_home"' EXIT
  export QE_KEYRING_HOME=$keyring_home
  dbus-run-session -- bash -c 'echo -n "query-explorer-tests" | XDG_DATA_HOME="$QE_KEYRING_HOME" gnome-keyring-daemon --unlock --replace --daemonize --components=secrets >/dev/null; exec bash scripts/test.sh "$@"' bash "$@"
  exit $?
fi
[ -z "${QE_TEST_SESSION:-}" ] && echo "No dbus-run-session/gnome-keyring-daemon: keychain tests will be skipped (run scripts/setup.sh)."

step() { printf '\n=== %s ===\n' "$1"; }
step "typecheck"
npm run -s typecheck
step "unit and integration tests"
npx vitest run
npx vitest run -c vitest.components.config.mts
step "build"
npm run -s build >/dev/null
step "e2e tests"
npx playwright test

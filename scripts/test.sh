#!/usr/bin/env bash
# `npm test`: typecheck, unit and integration tests, build, e2e tests. Runs in a
# private D-Bus session with its own unlocked GNOME keyring, so tests use a real
# OS keychain and never touch the user's own.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${QE_TEST_SESSION:-}" ] && command -v dbus-run-session >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  export QE_TEST_SESSION=1
  exec dbus-run-session -- bash -c 'echo -n "query-explorer-tests" | gnome-keyring-daemon --unlock --replace --daemonize --components=secrets >/dev/null; exec bash scripts/test.sh "$@"' bash "$@"
fi
[ -z "${QE_TEST_SESSION:-}" ] && echo "No dbus-run-session/gnome-keyring-daemon: keychain tests will be skipped (run scripts/setup.sh)."

step() { printf '\n=== %s ===\n' "$1"; }
step "typecheck"
npm run -s typecheck
step "unit and integration tests"
npx vitest run
step "build"
npx electron-vite build >/dev/null
step "e2e tests"
npx playwright test

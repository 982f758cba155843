#!/usr/bin/env bash
# First-time set-up on a fresh machine: the system packages the OS keychain,
# the browser tests, the spreadsheet check of exported CSV and the conformance
# tests (the official Python client needs python3 with requests; the "Copy as
# curl" texts run in bash with curl) need (Debian/Ubuntu, when we may install
# them), then the npm packages, then a build. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(chromium libsecret-1-dev gnome-keyring dbus-x11 xvfb xauth curl libreoffice-calc-nogui python3-requests)

install_system_packages() {
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "No apt-get here: install the equivalents of ${SYSTEM_PACKAGES[*]} yourself (the app runs without them: secrets then stay in memory, and e2e tests need a Chromium)."
    return
  fi
  local missing=()
  for package in "${SYSTEM_PACKAGES[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n)
    else
      echo "Missing system packages: ${missing[*]}. Install them with: sudo apt-get install ${missing[*]}"
      echo "(Continuing: without them secrets stay in memory for a session, and the e2e tests cannot run.)"
      return
    fi
  fi
  echo "Installing system packages: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The conformance tests fail (they do not skip) without these: say what to install now rather than then.
check_conformance_tools() {
  python3 -c 'import requests' >/dev/null 2>&1 ||
    echo "The conformance tests run the official Python client, which needs python3 with requests: install Debian's python3-requests (sudo apt-get install python3-requests) or pip install requests."
  command -v curl >/dev/null 2>&1 ||
    echo "The conformance tests run the \"Copy as curl\" texts, which need curl: install Debian's curl (sudo apt-get install curl)."
}

install_system_packages
check_conformance_tools
npm ci --no-audit --no-fund
npm run -s build
echo "Set-up done. Start the app with: npm start"

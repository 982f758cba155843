'use strict'
// Where the Electron runtime binary is, or why there is none. The npm package
// installs without it (its download script is denied in allowScripts), so
// every caller must handle its absence.
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs')
const { spawnSync } = require('node:child_process')
const { dirname, join } = require('node:path')

const root = join(__dirname, '..')
// A fetch that failed (no network) is tried again after this long, not on every start: each try costs a DNS lookup or a connection timeout.
const RETRY_AFTER_MS = 24 * 60 * 60 * 1000
const FAILED_FETCH = join(root, 'node_modules', '.cache', 'query-explorer', 'electron-fetch-failed.json')

/** Whether a display exists for an Electron window; without one the runtime is of no use. */
function hasDisplay() {
  return process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)
}

function electronRuntime() {
  let path
  try {
    path = require(join(root, 'node_modules', 'electron'))
  } catch {
    return { path: null, reason: 'the Electron runtime is not installed (its download was skipped by npm install)' }
  }
  if (typeof path !== 'string' || !existsSync(path)) {
    return { path: null, reason: `the Electron runtime binary is missing (${String(path)})` }
  }
  if (!hasDisplay()) {
    return { path: null, reason: 'no display is available for an Electron window (DISPLAY is not set)' }
  }
  return { path, reason: null }
}

/** When an earlier fetch failed within RETRY_AFTER_MS, its time; else null. */
function recentFailedFetch(marker, now = Date.now()) {
  try {
    const { failedAt } = JSON.parse(readFileSync(marker, 'utf8'))
    return typeof failedAt === 'number' && now - failedAt < RETRY_AFTER_MS ? failedAt : null
  } catch {
    return null
  }
}

/**
 * Runs electron's own install.js; true when the runtime is there afterwards.
 * A failure is remembered for a day, so a machine without network starts
 * straight away; `force` (npm start -- --fetch-electron) tries regardless.
 */
function tryInstallElectron(log, { force = false, marker = FAILED_FETCH } = {}) {
  const script = join(root, 'node_modules', 'electron', 'install.js')
  if (!existsSync(script)) return false
  const failedAt = force ? null : recentFailedFetch(marker)
  if (failedAt !== null) {
    log(`Not fetching the Electron runtime: the last try (${new Date(failedAt).toISOString()}) failed; it is tried again a day later, or now with \`npm start -- --fetch-electron\`.`)
    return false
  }
  log('Fetching the Electron runtime (one time)…')
  const result = spawnSync(process.execPath, [script], { cwd: join(root, 'node_modules', 'electron'), stdio: 'pipe', timeout: 300_000 })
  if (result.status !== 0) {
    const lines = String(result.stderr || '').trim().split('\n')
    const first = lines.find((line) => /error/i.test(line)) || lines[0] || 'unknown error'
    log(`  could not fetch it: ${first.trim().slice(0, 200)}`)
    try {
      mkdirSync(dirname(marker), { recursive: true })
      writeFileSync(marker, JSON.stringify({ failedAt: Date.now() }))
    } catch {
      // Not remembered: the next start tries again, which is only slower.
    }
    return false
  }
  return true
}

module.exports = { electronRuntime, hasDisplay, tryInstallElectron }

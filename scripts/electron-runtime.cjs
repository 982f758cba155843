'use strict'
// Where the Electron runtime binary is, or why there is none. The npm package
// installs without it (its download script is denied in allowScripts), so
// every caller must handle its absence.
const { existsSync } = require('node:fs')
const { spawnSync } = require('node:child_process')
const { join } = require('node:path')

const root = join(__dirname, '..')

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
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { path: null, reason: 'no display is available for an Electron window (DISPLAY is not set)' }
  }
  return { path, reason: null }
}

/** Runs electron's own install.js once; true when the runtime is there afterwards. */
function tryInstallElectron(log) {
  const script = join(root, 'node_modules', 'electron', 'install.js')
  if (!existsSync(script)) return false
  log('Fetching the Electron runtime (one time)…')
  const result = spawnSync(process.execPath, [script], { cwd: join(root, 'node_modules', 'electron'), stdio: 'pipe', timeout: 300_000 })
  if (result.status !== 0) {
    const lines = String(result.stderr || '').trim().split('\n')
    const first = lines.find((line) => /error/i.test(line)) || lines[0] || 'unknown error'
    log(`  could not fetch it: ${first.trim().slice(0, 200)}`)
    return false
  }
  return true
}

module.exports = { electronRuntime, tryInstallElectron }

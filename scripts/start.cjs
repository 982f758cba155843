'use strict'
// `npm start`: builds when the sources changed, then opens the Electron window
// where a runtime exists (fetching it once if the network allows), else the
// browser host, saying so. Extra arguments go to the browser host
// (`npm start -- --port 4000 --no-open`); `--browser` forces it.
const { spawn, spawnSync } = require('node:child_process')
const { existsSync, statSync } = require('node:fs')
const { join } = require('node:path')
const { electronRuntime, hasDisplay, tryInstallElectron } = require('./electron-runtime.cjs')
const { newestMtime } = require('./newest-mtime.cjs')

const root = join(__dirname, '..')
const log = (line) => process.stdout.write(`${line}\n`)

function buildIfStale() {
  const outputs = ['out/main/index.js', 'out/main/browser-host.js', 'out/preload/index.js', 'out/renderer/index.html', 'out/cli/query-explorer.cjs'].map((p) => join(root, p))
  const inputs = ['src', 'package.json', 'electron.vite.config.ts'].map((p) => join(root, p))
  const builtAt = outputs.every(existsSync) ? Math.min(...outputs.map((p) => statSync(p).mtimeMs)) : 0
  if (builtAt > Math.max(...inputs.map(newestMtime))) return
  log('Building Query Explorer…')
  const cli = join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js')
  const result = spawnSync(process.execPath, [cli, 'build'], { cwd: root, stdio: 'inherit' })
  // The command line's bundle too (package.json "build"), so `query-explorer` starts from built code.
  const cliResult = result.status === 0 ? spawnSync(process.execPath, [join(root, 'scripts', 'build-cli.cjs')], { cwd: root, stdio: 'inherit' }) : result
  if (cliResult.status !== 0) {
    log('The build failed; see the messages above.')
    process.exit(cliResult.status ?? 1)
  }
}

function run(command, args, env) {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env })
  const forward = (signal) => child.kill(signal)
  process.on('SIGINT', forward)
  process.on('SIGTERM', forward)
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
}

function main() {
  const args = process.argv.slice(2)
  const forceBrowser = args.includes('--browser')
  const forceFetch = args.includes('--fetch-electron')
  const hostArgs = args.filter((arg) => arg !== '--browser' && arg !== '--fetch-electron')
  buildIfStale()
  let runtime = electronRuntime()
  // Without a display a fetched runtime could open no window: fetching would only delay the browser host.
  const wanted = !forceBrowser && hasDisplay() && /not installed|missing/.test(runtime.reason ?? '')
  if (wanted && process.env.QE_NO_ELECTRON_DOWNLOAD !== '1') {
    if (tryInstallElectron(log, { force: forceFetch })) runtime = electronRuntime()
  }
  if (!forceBrowser && runtime.path) {
    const env = { ...process.env }
    delete env.ELECTRON_RUN_AS_NODE
    log('Opening the Query Explorer window (Electron).')
    return run(runtime.path, [root], env)
  }
  log(forceBrowser ? 'Starting the browser host (--browser).' : `No Electron window: ${runtime.reason}.`)
  if (!forceBrowser) log('Starting the browser host instead: the same app, served to a browser on this machine.')
  run(process.execPath, [join(root, 'out', 'main', 'browser-host.js'), ...hostArgs], process.env)
}

main()

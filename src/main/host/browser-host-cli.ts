import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { createAppCore } from '../app/app-core'
import { defaultDataDir } from '../app/data-dir'
import { shutdown } from '../app/shutdown'
import { startBrowserHost } from './browser-host'
import { CODE_LIFETIME_MS } from './launch-codes'

/**
 * `node out/main/browser-host.js [--port N] [--data-dir DIR] [--no-open] [--no-demo]`
 * Serves the app to a browser on this machine where no Electron runtime exists.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string' },
      'no-open': { type: 'boolean', default: false },
      'no-demo': { type: 'boolean', default: false },
      'keychain-service': { type: 'string' },
    },
  })
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port must be a whole number from 0 to 65535 (got "${values.port}")`)
  }
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir())
  const core = await createAppCore({
    dataDir,
    host: 'browser',
    version: process.env.npm_package_version ?? '0.1.0',
    keychainService: values['keychain-service'],
    demo: values['no-demo'] ? 'none' : 'embedded',
  })
  const host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: join(__dirname, '../renderer'), port, log: core.log, downloads: core.downloads })
  const keychain = core.secrets.kind === 'os' ? 'OS keychain' : 'memory only (no OS keychain answered)'
  process.stdout.write(
    [
      'Query Explorer (browser host: no Electron runtime is used)',
      `  data folder: ${dataDir}`,
      `  secrets:     ${keychain}`,
      core.demo ? `  demo service: ${core.demo.queryUrl} (workspace ${core.demo.workspace})` : '  demo service: off',
      `Open: ${host.pageUrl()}`,
      `  (it works once, within ${CODE_LIFETIME_MS / 60_000} minutes; the page it opens stays open across reloads)`,
      '',
    ].join('\n'),
  )
  // A code of its own: the printed one stays free for opening by hand.
  if (!values['no-open'] && process.env.DISPLAY) openInChromium(host.pageUrl())

  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    void shutdown(async () => {
      await host.close()
      await core.close()
    }, core.secrets)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/**
 * Chromium's command line is in `ps` for every local user to read, so it
 * carries no code at all: it names a page in a private folder (0700, the file
 * 0600) that sends the browser on to the address with its one-time code. The
 * page is removed once Chromium has had time to read it.
 */
function openInChromium(url: string): void {
  const candidates = [process.env.QE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
  const browser = candidates.find((path) => path && existsSync(path))
  if (!browser) return
  const folder = mkdtempSync(join(tmpdir(), 'query-explorer-open-'))
  const page = join(folder, 'open.html')
  const target = url.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)
  writeFileSync(page, `<!doctype html><meta charset="utf-8"><meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=${target}"><title>Query Explorer</title>\n`, { mode: 0o600 })
  const removePage = () => rmSync(folder, { recursive: true, force: true })
  setTimeout(removePage, 30_000).unref()
  process.once('exit', removePage)
  // Chromium refuses to start as root with its sandbox on.
  const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : []
  const child = spawn(browser, [`--app=${pathToFileURL(page).href}`, '--no-first-run', '--disable-background-networking', ...sandbox], {
    stdio: 'ignore',
    detached: true,
  })
  child.on('error', () => undefined)
  child.unref()
}

main().catch((error: Error) => {
  process.stderr.write(`Query Explorer could not start: ${error.message}\n`)
  process.exit(1)
})

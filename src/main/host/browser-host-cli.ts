import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createAppCore } from '../app/app-core'
import { defaultDataDir } from '../app/data-dir'
import { shutdown } from '../app/shutdown'
import { startBrowserHost } from './browser-host'
import { CODE_LIFETIME_MS } from './launch-codes'
import { cleanStaleLaunchPages, writeLaunchPage, type LaunchPage } from './launch-page'

/**
 * `node out/main/browser-host.js [--port N] [--data-dir DIR] [--no-open] [--no-demo]`
 * Serves the app to a browser on this machine where no Electron runtime exists.
 */
async function main(): Promise<void> {
  // Launch pages of earlier runs that were killed outright; another instance's page of just now stays.
  cleanStaleLaunchPages()
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
  const host = await startBrowserHost({ dispatch: core.dispatch, rendererDir: join(__dirname, '../renderer'), port, log: core.log, downloads: core.downloads, uploads: core.uploads })

  // Before anything is printed or written: a signal that came before its handler would end the process outright, leaving the launch page.
  let launchPage: LaunchPage | null = null
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    // Now, not at exit: the forced path ends the process with SIGKILL, which runs no exit handler.
    launchPage?.remove()
    void shutdown(async () => {
      await host.close()
      await core.close()
    }, core.secrets)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  // A closed terminal: by default it would end the process without an exit handler.
  process.on('SIGHUP', stop)

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
  // (A stop asked for meanwhile runs after this, on the event loop, and finds the page to remove.)
  if (!values['no-open'] && process.env.DISPLAY) launchPage = openInChromium(host.pageUrl())
}

/**
 * Chromium's command line is in `ps` for every local user to read, so it
 * carries no code at all: it names a page in a private folder (0700, the file
 * 0600) that sends the browser on to the address with its one-time code. The
 * page is removed once Chromium has had time to read it, at once if Chromium
 * fails, and on every way the process ends: at exit (process.exit, an uncaught
 * error, the loop running dry) and when a stop begins (the forced path's
 * SIGKILL runs no exit handler). A process killed outright leaves it to the
 * next start's cleanup (cleanStaleLaunchPages).
 */
function openInChromium(url: string): LaunchPage | null {
  const candidates = [process.env.QE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']
  const browser = candidates.find((path) => path && existsSync(path))
  if (!browser) return null
  const page = writeLaunchPage(url)
  process.once('exit', page.remove)
  setTimeout(page.remove, 30_000).unref()
  const failed = (why: string) => {
    // Only while the page is still there: a browser closed (or crashed) later is no news here.
    if (page.remove()) process.stderr.write(`Chromium (${browser}) ${why}: if no window opened, open the address above by hand.\n`)
  }
  // Chromium refuses to start as root with its sandbox on.
  const sandbox = process.getuid?.() === 0 ? ['--no-sandbox'] : []
  const child = spawn(browser, [`--app=${page.href}`, '--no-first-run', '--disable-background-networking', ...sandbox], {
    stdio: 'ignore',
    detached: true,
  })
  child.on('error', (error) => failed(`could not be started (${error.message})`))
  // A Chromium already running takes the page over and the one started here exits with 0 at once.
  child.on('exit', (code, signal) => {
    if (code !== 0) failed(code === null ? `ended by ${signal}` : `ended with exit code ${code}`)
  })
  child.unref()
  return page
}

main().catch((error: Error) => {
  process.stderr.write(`Query Explorer could not start: ${error.message}\n`)
  process.exit(1)
})

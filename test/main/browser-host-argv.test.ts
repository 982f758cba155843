import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

/**
 * `npm start` without Electron opens Chromium with `--app=<address>`, and every
 * local user can read that address in `ps`. This runs the real, built CLI under
 * a virtual display, lets Chromium open its page, then reads the command line
 * of every process on the machine: none may hold a credential the host still
 * accepts, whether as a code (POST /session) or as a session key (an IPC call).
 */

const root = join(__dirname, '../..')
const CLI = join(root, 'out/main/browser-host.js')
const BROWSERS = [process.env.QE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

function missing(): string | null {
  if (!existsSync('/proc/self/cmdline')) return 'no /proc to read command lines from'
  if (spawnSync('xvfb-run', ['--help'], { stdio: 'ignore' }).error) return 'xvfb-run is not installed'
  if (!BROWSERS.some((path) => path && existsSync(path))) return 'no Chromium (set QE_CHROMIUM)'
  return null
}

/** A stale build would test yesterday's host: this test runs `out/`, not the sources. */
function staleBuild(): string | null {
  if (!existsSync(CLI) || !existsSync(join(root, 'out/renderer/index.html'))) return 'out/ is missing: run `npx electron-vite build` first'
  const newest = (path: string): number =>
    statSync(path).isDirectory() ? Math.max(0, ...readdirSync(path).map((entry) => newest(join(path, entry)))) : statSync(path).mtimeMs
  const sources = Math.max(newest(join(root, 'src/main/host')), newest(join(root, 'src/renderer/api')))
  return statSync(CLI).mtimeMs < sources ? 'out/main/browser-host.js is older than its sources: run `npx electron-vite build` first' : null
}

function commandLines(): { pid: number; argv: string[] }[] {
  const lines: { pid: number; argv: string[] }[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean)
      if (argv.length > 0) lines.push({ pid: Number(entry), argv })
    } catch {
      // the process ended while we looked
    }
  }
  return lines
}

function processGroupOf(pid: number): number | null {
  try {
    // The name field may hold spaces and parentheses: the fields after the last ')' are plain.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
  } catch {
    return null
  }
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (check()) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return check()
}

const reason = missing()
if (reason && process.env.CI) throw new Error(`CI needs xvfb-run and Chromium for the browser host's launch test: ${reason}`)

describe.skipIf(reason !== null)(`the browser host's Chromium command line${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let dir = ''
  let home = ''
  let child: ChildProcess | undefined
  let origin = ''

  /** Ours alone: Chromium (a process group of its own, the CLI detaches it) and whatever runs in the throwaway HOME. */
  function ourBrowserProcesses(): number[] {
    if (!origin || !home) return []
    return commandLines()
      .filter(({ argv }) => argv.some((arg) => arg.includes(`--app=${origin}/`) || arg.includes(home) || arg.includes(dir)))
      .map(({ pid }) => pid)
  }

  afterAll(async () => {
    for (const pid of ourBrowserProcesses()) {
      const group = processGroupOf(pid)
      try {
        process.kill(group === pid ? -pid : pid, 'SIGKILL')
      } catch {
        // gone already
      }
    }
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve))
      process.kill(-child.pid, 'SIGTERM')
      const timer = setTimeout(() => {
        try {
          process.kill(-child!.pid!, 'SIGKILL')
        } catch {
          // gone already
        }
      }, 5_000)
      await exited
      clearTimeout(timer)
    }
    // Killed processes may take a moment to let go of the profile they were writing.
    for (let i = 0; i < 50 && ourBrowserProcesses().length > 0; i++) await new Promise((resolve) => setTimeout(resolve, 100))
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 })
  }, 30_000)

  it('holds no credential the host still accepts, once Chromium has opened its page', async () => {
    const stale = staleBuild()
    if (stale) throw new Error(stale)
    dir = mkdtempSync(join(tmpdir(), 'qe-argv-'))
    home = join(dir, 'home')
    const dataDir = join(dir, 'data')
    mkdirSync(home, { recursive: true })
    // The CLI's private launch page lands in this TMPDIR, so Chromium's command line names this test's folder.
    mkdirSync(join(dir, 'tmp'))
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TMPDIR: join(dir, 'tmp'),
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_DATA_HOME: join(home, '.local/share'),
      // No session bus to find, so nothing autolaunches one (via the X display) that outlives this test.
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(dir, 'no-bus')}`,
      NO_AT_BRIDGE: '1',
    }
    // Detached: xvfb-run, Xvfb and the CLI form one process group, ended as one.
    child = spawn(
      'xvfb-run',
      ['-a', process.execPath, CLI, '--port', '0', '--data-dir', dataDir, '--keychain-service', `qe-launch-test-${process.pid}`, '--no-demo'],
      { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))

    const printed = await waitFor(() => /^Open: \S+$/m.test(output), 90_000)
    if (!printed) throw new Error(`the browser host printed no address:\n${output}`)
    const printedUrl = new URL(/^Open: (\S+)$/m.exec(output)![1]!)
    origin = printedUrl.origin

    const logFile = join(dataDir, 'logs/main.log')
    const opened = await waitFor(() => existsSync(logFile) && readFileSync(logFile, 'utf8').includes('browser session opened'), 90_000)

    // Checked before whether the page opened: an old host whose argv carries its key fails here, saying so.
    const lines = commandLines()
    // Chromium rewrites its process title into one space-separated string: look inside, not at the start.
    // It opens a private page that forwards to the host: the command line names that page, never the host's address with a code.
    const chromium = lines.find(({ argv }) => argv.some((arg) => /--app=file:\/\/\S*query-explorer-open-/.test(arg)))
    expect(lines.some(({ argv }) => argv.some((arg) => arg.includes(`${origin}/#`)))).toBe(false)
    const candidates = new Set(lines.flatMap(({ argv }) => argv.flatMap((arg) => arg.match(/[\w-]{16,128}/g) ?? [])))
    const accepted: string[] = []
    for (const candidate of candidates) {
      const asCode = await fetch(`${origin}/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code: candidate }) })
      if (asCode.status === 200) accepted.push(`a code: ${candidate}`)
      const asKey = await fetch(`${origin}/ipc/app:info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': candidate }, body: '{}' })
      if (asKey.status === 200) accepted.push(`a session key: ${candidate}`)
    }
    expect(accepted, 'a command line holds a credential the host accepts').toEqual([])

    expect(chromium, `no Chromium process opened ${origin}:\n${output}`).toBeDefined()
    expect(opened, `the page Chromium opened started no session (see ${logFile}):\n${output}`).toBe(true)
    const log = readFileSync(logFile, 'utf8')
    expect(log).not.toContain(printedUrl.hash.slice(6))

    // The printed address has a code of its own, still unspent, and the probing above would have seen one.
    const session = await fetch(`${origin}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: /code=([\w-]+)/.exec(printedUrl.hash)?.[1] }),
    })
    expect(session.status).toBe(200)
    const { key } = (await session.json()) as { key: string }
    const call = await fetch(`${origin}/ipc/app:info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-explorer-key': key }, body: '{}' })
    expect(call.status).toBe(200)
  }, 120_000)
})

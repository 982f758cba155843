import type { ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { CODE_LIFETIME_MS } from '../../src/main/host/launch-codes'
import { spawnGroup, stopGroup } from '../fixtures/process-group'

/**
 * The browser host writes a private launch page (a folder `query-explorer-open-*`
 * in the temp folder) for Chromium to open. These run the CLI from its sources
 * (through tsx, so the shared build in out/ is not needed) with the temp folder,
 * the keychain and Chromium of the test's own: the page must be gone however the
 * process ends, and pages left by earlier runs are cleaned at start.
 */

const root = join(__dirname, '../..')
const CLI = join(root, 'src/main/host/browser-host-cli.ts')
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const FAKE_KEYTAR = pathToFileURL(join(__dirname, 'fixtures/fake-keytar.ts')).href
/** A guard against a hang, never a measure of speed. */
const HANG_GUARD_MS = 60_000
const PREFIX = 'query-explorer-open-'

/** What the stand-in for Chromium saw: its command line and the page it was sent to. */
interface BrowserReport {
  pid: number
  argv: string[]
  page: string
  html: string
}

/**
 * A stand-in for Chromium: it reads the page its `--app=` names, reports to
 * the test over loopback, then exits with QE_TEST_BROWSER_EXIT (1: a browser
 * that could not start).
 */
const FAKE_BROWSER = `#!${process.execPath}
const { readFileSync } = require('node:fs')
const { connect } = require('node:net')
const { fileURLToPath } = require('node:url')
const app = process.argv.find((arg) => arg.startsWith('--app='))
const page = app ? fileURLToPath(app.slice('--app='.length)) : ''
let html = ''
try { html = readFileSync(page, 'utf8') } catch {}
const report = JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), page, html })
const socket = connect(Number(process.env.QE_TEST_BROWSER_PORT), '127.0.0.1', () => socket.end(report))
socket.on('error', () => process.exit(2))
socket.on('close', () => process.exit(Number(process.env.QE_TEST_BROWSER_EXIT ?? '0')))
`

interface Host {
  child: ChildProcess
  tmp: string
  output: () => string
  /** Resolves once the output has a line that matches; rejects if the host ends first. */
  printed: (pattern: RegExp) => Promise<string>
  /** The first report of the stand-in for Chromium. */
  browser: Promise<BrowserReport>
}

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function launchPages(tmp: string): string[] {
  return readdirSync(tmp).filter((name) => name.startsWith(PREFIX))
}

async function reportServer(): Promise<{ server: Server; port: number; report: Promise<BrowserReport> }> {
  let deliver: (report: BrowserReport) => void = () => undefined
  const report = new Promise<BrowserReport>((resolve) => (deliver = resolve))
  const server = createServer((socket) => {
    let text = ''
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()))
    socket.on('end', () => deliver(JSON.parse(text) as BrowserReport))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as { port: number }).port, report }
}

async function startHost(options: { keytar: 'hang' | 'refuse'; browserExit?: number; args?: string[]; prepare?: (tmp: string) => void }): Promise<Host> {
  const dir = mkdtempSync(join(tmpdir(), 'qe-launch-page-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  // The CLI's temp folder (TMPDIR): its launch page and any stale ones are this test's alone.
  const tmp = join(dir, 'tmp')
  mkdirSync(tmp)
  options.prepare?.(tmp)
  const browserPath = join(dir, 'chromium')
  writeFileSync(browserPath, FAKE_BROWSER, { mode: 0o755 })
  const { server, port, report } = await reportServer()
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())))

  // One node process (tsx through --import), the leader of a group of its own.
  const child = spawnGroup(
    process.execPath,
    ['--import', TSX, '--import', FAKE_KEYTAR, CLI, '--port', '0', '--data-dir', join(dir, 'data'), '--no-demo', '--keychain-service', `qe-launch-page-test-${process.pid}`, ...(options.args ?? [])],
    {
      cwd: root,
      env: {
        ...process.env,
        TMPDIR: tmp,
        // The CLI opens a browser only where a display is named; the stand-in needs none.
        DISPLAY: ':0',
        QE_CHROMIUM: browserPath,
        QE_FAKE_KEYTAR: options.keytar,
        QE_TEST_BROWSER_PORT: String(port),
        QE_TEST_BROWSER_EXIT: String(options.browserExit ?? 0),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  cleanups.push(() => stopGroup(child, 'SIGKILL'))
  let output = ''
  const listeners = new Set<() => void>()
  const onData = (chunk: Buffer) => {
    output += chunk.toString()
    for (const listener of listeners) listener()
  }
  child.stdout!.on('data', onData)
  child.stderr!.on('data', onData)

  const printed = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const guard = setTimeout(() => finish(new Error(`hang guard: no line matching ${pattern} within ${HANG_GUARD_MS / 1000} s:\n${output}`)), HANG_GUARD_MS)
      const onExit = () => finish(new Error(`the host ended (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${output}`))
      const check = () => {
        const line = output.split('\n').find((candidate) => pattern.test(candidate))
        if (line !== undefined) finish(null, line)
      }
      function finish(error: Error | null, line?: string) {
        clearTimeout(guard)
        listeners.delete(check)
        child.off('exit', onExit)
        if (error) reject(error)
        else resolve(line!)
      }
      listeners.add(check)
      child.once('exit', onExit)
      check()
    })

  const browser = new Promise<BrowserReport>((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`hang guard: the stand-in for Chromium never reported:\n${output}`)), HANG_GUARD_MS)
    cleanups.push(() => clearTimeout(guard))
    void report.then((received) => (clearTimeout(guard), resolve(received)))
  })
  // A test that never asks for the report (--no-open) must not see its guard fire later.
  browser.catch(() => undefined)
  return { child, tmp, output: () => output, printed, browser }
}

describe("the browser host's launch page", () => {
  it('is removed when shutdown takes its forced path (a keychain call still held: the process SIGKILLs itself)', async () => {
    const host = await startHost({ keytar: 'hang' })
    await host.printed(/^Open: \S+$/)
    const browser = await host.browser
    // The page Chromium was sent to existed, in the test's temp folder.
    expect(browser.page.startsWith(join(host.tmp, PREFIX))).toBe(true)
    expect(browser.html).toContain('http-equiv="refresh"')
    expect(launchPages(host.tmp)).toHaveLength(1)
    // The keychain never answered its probe: the call is held, so a stop ends in the forced path.
    expect(host.output()).toContain('memory only (no OS keychain answered)')

    await stopGroup(host.child, 'SIGTERM')
    // SIGTERM is handled; only the host's own forced path ends it with SIGKILL (no exit handler runs there).
    expect(host.child.signalCode).toBe('SIGKILL')
    expect(launchPages(host.tmp)).toEqual([])
    expect(existsSync(browser.page)).toBe(false)
  })

  it('is removed at once when the browser fails to start, and the host says to open the address by hand', async () => {
    const host = await startHost({ keytar: 'refuse', browserExit: 1 })
    const browser = await host.browser
    expect(browser.html).toContain('http-equiv="refresh"')
    const line = await host.printed(/Chromium/)
    expect(line).toMatch(/exit code 1/)
    expect(line).toMatch(/open the address above by hand/)
    expect(launchPages(host.tmp)).toEqual([])
    // The host itself goes on serving.
    expect(host.child.exitCode).toBeNull()
    await stopGroup(host.child, 'SIGTERM')
    expect({ code: host.child.exitCode, signal: host.child.signalCode }).toEqual({ code: 0, signal: null })
  })

  it('left by earlier runs is cleaned at start, while a fresh one (another instance running now) stays', async () => {
    const stale = `${PREFIX}Stale1`
    const fresh = `${PREFIX}Fresh1`
    const host = await startHost({
      keytar: 'refuse',
      args: ['--no-open'],
      prepare: (tmp) => {
        for (const name of [stale, fresh]) {
          mkdirSync(join(tmp, name), { mode: 0o700 })
          writeFileSync(join(tmp, name, 'open.html'), '<!doctype html>', { mode: 0o600 })
        }
        // Older than a launch code lives: the page inside could open nothing any more.
        const old = new Date(Date.now() - CODE_LIFETIME_MS - 60_000)
        utimesSync(join(tmp, stale), old, old)
      },
    })
    await host.printed(/^Open: \S+$/)
    expect(launchPages(host.tmp)).toEqual([fresh])
    expect(existsSync(join(host.tmp, fresh, 'open.html'))).toBe(true)
    await stopGroup(host.child, 'SIGTERM')
    expect({ code: host.child.exitCode, signal: host.child.signalCode }).toEqual({ code: 0, signal: null })
    // --no-open wrote no page of its own, and the other instance's is not this one's to remove.
    expect(launchPages(host.tmp)).toEqual([fresh])
  })
})

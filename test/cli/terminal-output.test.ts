import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, cliInProcess, WORLD, type Run } from './spawn-cli'
import { json, startServer, type TestServer } from '../main/support'

/**
 * A shared workspace file or a hostile server must not drive the terminal of
 * whoever runs `query-explorer test` or `compare`: names and server messages
 * carrying ESC sequences (clear the screen, set the window title), C1 CSI and
 * a line feed followed by a fake "✓ pass" line are printed as visible escapes.
 */

const dir = mkdtempSync(join(tmpdir(), 'qe-cli-terminal-'))

/**
 * Clears the screen, sets the window title, opens a C1 CSI, fakes a passing
 * case on a line of its own, and with an RLO makes "Invoice" then "txt.exe" read as "Invoiceexe.txt".
 */
const EVIL = 'Evil \u001b[2J \u001b]0;pwned\u0007 \u009b31m Invoice\u202Etxt.exe\n✓ fake pass'
const EVIL_SHOWN = String.raw`Evil \x1b[2J \x1b]0;pwned\x07 \u009b31m Invoice` + '⟨U+202E⟩' + String.raw`txt.exe\n✓ fake pass`
const EVIL_CONNECTION = 'Demo \u001b[31mred\r'
const EVIL_CONNECTION_SHOWN = String.raw`Demo \x1b[31mred\r`

/** C0 controls but TAB and LF, DEL and C1, and the bidi controls that reorder a line: none may reach the terminal. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/

function expectSafe(run: Run): void {
  for (const [stream, text] of [['stdout', run.stdout], ['stderr', run.stderr]] as const) {
    const found = RAW_CONTROL.exec(text)
    expect(found, `${stream} holds U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(text)}`).toBeNull()
    const fake = text.split('\n').find((line) => line.trimStart().startsWith('✓ fake pass'))
    expect(fake, `${stream} has a line of its own for the fake pass: ${JSON.stringify(text)}`).toBeUndefined()
  }
}

/** The example workspace with a hostile name on the case production fails, and on the Demo connection. */
function hostileWorld(): string {
  const world = JSON.parse(readFileSync(WORLD, 'utf8'))
  const testCase = world.tests.find((each: { name: string }) => each.name === 'Text ranking puts San Potito Sannitico first')
  testCase.name = EVIL
  world.connections[0].name = EVIL_CONNECTION
  const path = join(dir, 'hostile.qxw.json')
  writeFileSync(path, JSON.stringify(world, null, 2))
  return path
}

/** A public connection (no client ID, so no secret and no token) with one case and one saved query. */
function publicWorkspace(): string {
  const request = {
    workspace: 'world',
    api: 'places',
    steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
    responseType: 'results',
    options: { config: 'default', count: 10 },
  }
  const workspace = {
    format: 'query-explorer-workspace',
    version: 1,
    connections: [{ id: 'public', name: 'Public', authUrl: '', queryUrl: 'https://query.invalid/query', workspace: 'world', api: 'places', clientId: '' }],
    queries: [{ name: 'Paris', connection: 'public', request }],
    tests: [{ name: 'Paris answers', connection: 'public', request, expect: {} }],
  }
  const path = join(dir, 'public.qxw.json')
  writeFileSync(path, JSON.stringify(workspace, null, 2))
  return path
}

describe('what the command line prints holds no terminal control sequence', () => {
  let server: TestServer
  const SERVER_MESSAGE = 'bad\u001b[2Jthing\u009b2J\u2067gnp.exe\u2069\n✓ fake pass'
  const SERVER_MESSAGE_SHOWN = String.raw`bad\x1b[2Jthing\u009b2J` + '⟨U+2067⟩gnp.exe⟨U+2069⟩' + String.raw`\n✓ fake pass`

  beforeAll(async () => {
    server = await startServer((_req, res) => json(res, 400, { message: SERVER_MESSAGE }))
  })
  afterAll(async () => {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('test: a case and connection name from the workspace file are printed escaped, on the lines they belong to', async () => {
    const run = await cli(['test', hostileWorld(), '--config', 'production'])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    expectSafe(run)
    expect(run.stdout).toContain(`✗ ${EVIL_SHOWN} (`)
    expect(run.stdout).toContain(`\n✗ ${EVIL_SHOWN}\n    San Potito Sannitico (3167796) expected at rank 1 or better`)
    expect(run.stdout).toMatch(new RegExp(`^Running 9 test cases of hostile\\.qxw\\.json on ${escapeRegExp(EVIL_CONNECTION_SHOWN)} \\(the embedded demo service\\)`, 'm'))
    expect(run.stdout).toMatch(/^7 passed, 2 failed in [\d.]+ s on /m)
  })

  it('test --json: the report stays valid JSON holding the exact name, with nothing raw on the terminal', async () => {
    const run = await cliInProcess(['test', hostileWorld(), '--config', 'production', '--json'])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    expectSafe(run)
    const report = JSON.parse(run.stdout) as { target: string; cases: { name: string; outcome: string }[] }
    expect(report.cases.find((each) => each.name === EVIL)?.outcome).toBe('failed')
    expect(report.target.startsWith(EVIL_CONNECTION)).toBe(true)
  })

  it("test: a server's error message is printed escaped", async () => {
    const run = await cli(['test', publicWorkspace(), '--query-url', `${server.origin}/query`])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    expect(server.seen.length).toBeGreaterThan(0)
    expectSafe(run)
    expect(run.stdout).toContain(`status 200: expected 200, got 400: ${SERVER_MESSAGE_SHOWN}`)
  })

  it("compare: a server's error message on each side is printed escaped", async () => {
    const run = await cli(['compare', publicWorkspace(), '--query', 'Paris', '--a', 'config=default', '--b', 'config=production', '--query-url', `${server.origin}/query`])
    expect(run.status, run.stdout + run.stderr).toBe(1)
    expectSafe(run)
    expect(run.stdout).toContain(SERVER_MESSAGE_SHOWN)
  })

  it('an unknown saved query named with controls is refused with the name escaped (standard error)', async () => {
    const run = await cliInProcess(['compare', publicWorkspace(), '--query', 'x\u001b]0;pwned\u0007'])
    expect(run.status).toBe(2)
    expectSafe(run)
    expect(run.stderr).toContain(String.raw`"x\x1b]0;pwned\x07" is not a saved query`)
  })
})

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

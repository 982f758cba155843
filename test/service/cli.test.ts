import type { ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import { spawnGroup, stopAllGroups, stopGroup } from '../fixtures/process-group'

/** `npm run service` as scripts use it: the first stdout line is one JSON object. */

afterEach(stopAllGroups)

/** Each command is a process group of its own (npx runs the program in a child): stopping the group stops both. */
function start(args: string[]): ChildProcess {
  // What `npm run service` runs, as one process: tsx's own command line would run the service in a child of its own
  // and SIGKILL it when it does not confirm a relayed signal within 30 ms, a race a busy machine loses.
  return spawnGroup(process.execPath, ['--import', 'tsx', 'src/service/cli.ts', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] })
}

/** `query-explorer serve` through the package's bin, as `npx query-explorer serve` runs it. */
function serve(args: string[], viaNpx = false): ChildProcess {
  return viaNpx
    ? spawnGroup('npx', ['--no', 'query-explorer', 'serve', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] })
    : spawnGroup(process.execPath, ['bin/query-explorer.cjs', 'serve', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] })
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => {
      lines.close()
      resolve(line)
    })
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing`)))
  })
}

function exit(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = ''
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })))
}

describe('service cli', () => {
  it('--json prints {authUrl, queryUrl, judgeUrl, workspace, apis, account} first, serves, and stops on SIGTERM', async () => {
    const child = start(['--port', '0', '--token-lifetime', '60', '--quota', '20', '--json'])
    const info = JSON.parse(await firstLine(child))
    expect(Object.keys(info)).toEqual(['authUrl', 'queryUrl', 'judgeUrl', 'workspace', 'apis', 'account'])
    expect(info).toMatchObject({ workspace: 'world', apis: ['places', 'public'], account: { clientId: 'demo' } })
    expect(info.account.clientSecret).toMatch(/^[A-Za-z0-9_-]{24,}$/)
    const token = await fetch(`${info.authUrl}/api/auth`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json-patch+json' },
      body: JSON.stringify({ WorkspaceName: 'world', ClientId: 'demo', ClientSecret: info.account.clientSecret, ForceReauth: false }),
    })
    const { expires_in, access_token } = (await token.json()) as { expires_in: number; access_token: string }
    expect(expires_in).toBe(60)
    expect((await fetch(`${info.queryUrl}/world/api/places/`)).status).toBe(401)
    expect((await fetch(`${info.queryUrl}/world/api/places/`, { headers: { Authorization: `Bearer ${access_token}` } })).status).toBe(200)
    expect((await fetch(`${info.queryUrl}/world/api/public/`)).status).toBe(200)
    const done = exit(child)
    child.kill('SIGTERM')
    expect((await done).code).toBe(0)
  })

  it('takes accounts from --accounts and prints a generated secret once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-cli-'))
    const file = join(dir, 'accounts.json')
    writeFileSync(file, JSON.stringify([{ clientId: 'team', clientSecret: 'team-secret-1234' }, { clientId: 'bot' }]))
    const child = start(['--port', '0', '--accounts', file, '--json'])
    const lines = createInterface({ input: child.stdout! })
    const output: string[] = []
    await new Promise<void>((resolve) => lines.on('line', (line) => output.push(line) === 2 && resolve()))
    expect(JSON.parse(output[0]!).account).toEqual({ clientId: 'team', clientSecret: 'team-secret-1234' })
    expect(JSON.parse(output[1]!)).toMatchObject({ clientId: 'bot' })
    await stopGroup(child)
  })

  it('query-explorer serve --json: the first line a program reads is the JSON, and it stops on SIGTERM', async () => {
    const child = serve(['--json', '--port', '0', '--quota', '5'])
    const info = JSON.parse(await firstLine(child))
    expect(Object.keys(info)).toEqual(['authUrl', 'queryUrl', 'judgeUrl', 'workspace', 'apis', 'account'])
    const token = await fetch(`${info.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'demo', client_secret: info.account.clientSecret }),
    })
    expect(token.status).toBe(200)
    const done = exit(child)
    child.kill('SIGTERM')
    expect((await done).code).toBe(0)
  })

  it('npx query-explorer serve --json prints nothing before the JSON', async () => {
    const child = serve(['--json'], true)
    const info = JSON.parse(await firstLine(child))
    expect(info).toMatchObject({ workspace: 'world', account: { clientId: 'demo' } })
    // npx runs the bin in a child of its own: stop the whole group.
    await stopGroup(child)
  }, 60_000)

  it('query-explorer serve refuses a bad flag with exit code 2, naming it', async () => {
    const { code, stderr } = await exit(serve(['--quota', '0']))
    expect(code).toBe(2)
    expect(stderr).toContain('serve: --quota must be a whole number from 1 to 1000000, not "0"')
  })

  // Each flag's rule and message: serve.test.ts. Here, that npm run service exits 2 on one, saying it.
  it('refuses a bad flag with exit code 2 and a message naming it', async () => {
    const { code, stderr } = await exit(start(['--port', 'eighty']))
    expect(code).toBe(2)
    expect(stderr).toBe('service: --port must be a whole number from 0 to 65535, not "eighty"\n')
  })
})

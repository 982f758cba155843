import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { cli } from '../cli/spawn-cli'
import { call, filesUnder, json, keychainMissing, openCore, search, startServer, type TestServer, untilEnded } from './support'

/**
 * A hostile host on 127.0.0.1 that echoes what it was sent in another
 * spelling: its query errors carry base64 and base64url of the
 * Authorization header ("Bearer <token>") and of "<client id>:<secret>" (as
 * HTTP Basic would send them), and its token refusal the same of the
 * secret. A canary secret and the host's tokens are then looked for, as
 * written and decoded from every base64 run at every offset, in what the
 * command line prints (text and --json), the JUnit it writes, and the
 * evaluation the app keeps: none may hold them.
 */

const CLIENT = 'echo-client'
const REFUSED_CLIENT = 'refused-client'
// + and / in both, so that base64 and base64url spell them differently.
const secret = `canary-${randomBytes(24).toString('base64')}`
const tokens = new Set<string>()
const missing = await keychainMissing()

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')
const b64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url')

/** The echo of what a request carried, as a debugging error page might print it. */
function echo(token: string | null): string {
  const basic = `${CLIENT}:${secret}`
  const bearer = token === null ? [] : [`Bearer ${token}`]
  return [...bearer, basic, `x${basic}`, `xy${basic}`]
    .map((text) => `seen ${b64(text)} and ${b64url(text)}`)
    .join('; ')
}

/** True when the text holds the needle as written, or in any base64 run of it decoded at any offset (either alphabet). */
function holds(text: string, needle: string): boolean {
  if (text.includes(needle)) return true
  const wanted = Buffer.from(needle, 'utf8').toString('latin1')
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    const standard = run.replace(/-/g, '+').replace(/_/g, '/')
    for (let offset = 0; offset < 4; offset++) {
      const part = standard.slice(offset)
      const decoded = Buffer.from(part.slice(0, part.length - (part.length % 4)), 'base64').toString('latin1')
      if (decoded.includes(wanted)) return true
    }
  }
  return false
}

function expectClean(where: string, text: string): void {
  for (const needle of [secret, ...tokens]) expect(holds(text, needle), `${where} holds a secret or token: ${text.slice(0, 300)}`).toBe(false)
}

describe('secrets and tokens a server echoes in base64 are redacted', () => {
  let server: TestServer
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'qe-echoed-'))
    server = await startServer((req, res, body) => {
      if (req.url === '/auth/api/auth') {
        const sent = JSON.parse(body) as { ClientId: string }
        if (sent.ClientId === REFUSED_CLIENT) return json(res, 401, { message: `bad credentials: ${echo(null)}` })
        const token = `tok-${randomBytes(30).toString('base64')}`
        tokens.add(token)
        return json(res, 200, { access_token: token, expires_in: 3600 })
      }
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '')
      json(res, 500, { message: `echo of your request: ${echo(token)}` })
    })
  })
  afterAll(async () => {
    await server?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  /** A workspace whose one connection is the echoing host, with a set of two queries on a template of its own. */
  function workspaceFile(clientId: string): string {
    const connection = { id: 'echo', name: 'Echo', authUrl: `${server.origin}/auth`, queryUrl: `${server.origin}/query`, workspace: 'world', api: 'places', clientId }
    const request = { workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: '{{query}}' } }], responseType: 'results', options: { count: 10 } }
    const file = {
      format: 'query-explorer-workspace',
      version: 1,
      connections: [connection],
      queries: [{ name: 'Template', connection: 'echo', request }],
      tests: [{ name: 'Oslo has results', query: 'Template', expect: { status: 200 } }],
      sets: [{ name: 'Echo set', query: 'Template', queries: [{ id: 'q1', text: 'oslo' }, { id: 'q2', text: 'kyiv' }], judgments: [] }],
    }
    const path = join(dir, `${clientId}.qxw.json`)
    writeFileSync(path, JSON.stringify(file))
    return path
  }

  it('the command line: eval (text, --json, JUnit) and test print and write no spelling of them', async () => {
    const path = workspaceFile(CLIENT)
    const env = { QUERY_EXPLORER_CLIENT_SECRET: secret }
    const junit = join(dir, 'eval.xml')
    const text = await cli(['eval', path, '--junit', junit], env)
    expect(text.status, text.stderr).toBe(1)
    // The server's words reach the person, its echo of the credentials does not.
    expect(text.stdout).toMatch(/echo of your request: seen \S*\[redacted\]/)
    const asJson = await cli(['eval', path, '--json'], env)
    expect(asJson.status, asJson.stderr).toBe(1)
    expect((JSON.parse(asJson.stdout) as { queries: { error: string }[] }).queries[0]!.error).toContain('echo of your request')
    const testJunit = join(dir, 'test.xml')
    const test = await cli(['test', path, '--junit', testJunit], env)
    expect(test.status, test.stderr).toBe(1)
    expect(test.stdout).toContain('echo of your request')
    const refused = await cli(['eval', workspaceFile(REFUSED_CLIENT)], env)
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain('bad credentials')

    expect(tokens.size).toBeGreaterThanOrEqual(3)
    for (const [where, output] of Object.entries({ text, asJson, test, refused })) {
      expectClean(`${where} stdout`, output.stdout)
      expectClean(`${where} stderr`, output.stderr)
    }
    expectClean('eval JUnit', readFileSync(junit, 'utf8'))
    expectClean('test JUnit', readFileSync(testJunit, 'utf8'))
  }, 120_000)

  it.skipIf(missing !== null)('the app: the kept evaluation, its files and every reply hold no spelling of them', async () => {
    const dataDir = join(dir, 'data')
    const core: AppCore = await openCore(dataDir, { echoLog: false })
    const replies: unknown[] = []
    const send = async (channel: string, request: unknown) => {
      const reply = await core.dispatch(channel, request)
      replies.push(reply)
      return reply
    }
    try {
      const saved = (await send('connections:save', {
        name: 'Echo',
        authUrl: `${server.origin}/auth`,
        queryUrl: `${server.origin}/query`,
        workspace: 'world',
        api: 'places',
        clientId: CLIENT,
      })) as { data: ConnectionView }
      const id = saved.data.id
      await send('secrets:set', { connectionId: id, secret })
      const template = { kind: 'editor', connectionId: id, request: search('{{query}}') }
      expect((await send('sets:save', { set: { name: 'Echo set', template, queries: [{ id: 'q1', text: 'oslo' }, { id: 'q2', text: 'kyiv' }] } })).ok).toBe(true)
      await call(core, 'eval:start', { runId: 'echo-eval', set: 'Echo set', target: { connectionId: id }, depth: 10 })
      const ended = await untilEnded(async () => (await call<{ state: string; evaluationId: string | null }>(core, 'eval:status', { runId: 'echo-eval' })))
      const kept = (await send('eval:rankings', { id: ended.evaluationId, offset: 0, limit: 10 })) as { ok: true; data: { rankings: { error: string | null }[] } }
      expect(kept.data.rankings[0]!.error).toMatch(/echo of your request: seen \S*\[redacted\]/)
      await send('query:run', { connectionId: id, requestId: 'echo-query', request: search('oslo') })
    } finally {
      await core.close()
    }
    for (const file of filesUnder(dataDir)) expectClean(file, readFileSync(file, 'latin1'))
    for (const reply of replies) expectClean('an IPC reply', JSON.stringify(reply))
  }, 120_000)
})

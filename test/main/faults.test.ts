import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionCheck, ConnectionTest, ConnectionView } from '../../src/shared/ipc/contract'
import { call, closedPort, failure, json, keychainMissing, openCore, RESULTS_PAGE, search, startServer, type TestServer } from './support'

/** The check of one step; a step that did not run fails the test here, by name. */
function stepOf(result: { checks: ConnectionCheck[] }, step: ConnectionCheck['step']): ConnectionCheck {
  const found = result.checks.find((check) => check.step === step)
  if (!found) throw new Error(`no "${step}" check in ${JSON.stringify(result.checks.map((check) => check.step))}`)
  return found
}

/**
 * Faults of real servers, each with a clear error and the app usable after:
 * small loopback servers that misbehave on purpose, and the embedded service
 * for "still works". Then "Test connection" naming exactly what failed.
 */

const missing = await keychainMissing()
const CAP = 2 * 1024 * 1024

describe.skipIf(missing)('faults of the Query API', () => {
  let service: RunningService
  let bad: TestServer
  let other: TestServer
  let dataDir: string
  let core: AppCore
  /** A core that gives up on a silent server after 2 s; only ever pointed at the one that never answers. */
  let hasty: AppCore
  let good: string

  const connection = async (name: string, origin: string, clientId = 'faulty', on = core) => {
    const view = await call<ConnectionView>(on, 'connections:save', {
      name,
      authUrl: `${origin}/auth`,
      queryUrl: `${origin}/query`,
      workspace: 'world',
      api: 'places',
      clientId,
    })
    await call(on, 'secrets:set', { connectionId: view.id, secret: 'fault-secret' })
    return view.id
  }

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    other = await startServer((_req, res) => json(res, 200, RESULTS_PAGE))
    bad = await startServer((req, res) => {
      if (req.url === '/auth/api/auth') return json(res, 200, { access_token: 'fault-token-123456', expires_in: 3600 })
      const query = decodeURIComponent(req.url ?? '')
      if (query.includes('/p/query/mid-body')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' })
        res.write('{"offset":0,"count":10,"items":[')
        setTimeout(() => res.socket?.destroy(), 20)
      } else if (query.includes('/p/query/html-500')) {
        res.writeHead(500, { 'content-type': 'text/html' })
        res.end('<html><body><h1>Internal Server Error</h1><p>stack trace here</p></body></html>')
      } else if (query.includes('/p/query/malformed')) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"offset": 0, "items": [')
      } else if (query.includes('/p/query/wrong-shape')) {
        json(res, 200, { hello: 'world' })
      } else if (query.includes('/p/query/huge-declared')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) })
        res.write('{')
      } else if (query.includes('/p/query/huge')) {
        // 10 MB, streamed without a length: the cap must stop it while reading.
        res.writeHead(200, { 'content-type': 'application/json' })
        const chunk = Buffer.alloc(64 * 1024, 'a')
        let sent = 0
        const pump = () => {
          while (sent < 10 * 1024 * 1024) {
            sent += chunk.length
            if (!res.write(chunk)) return void res.once('drain', pump)
          }
          res.end()
        }
        pump()
      } else if (query.includes('/p/query/silent')) {
        // never answers
      } else if (query.includes('/p/query/elsewhere')) {
        res.writeHead(302, { location: `${other.origin}/steal` })
        res.end()
      } else if (query.includes('/p/query/same-origin')) {
        res.writeHead(307, { location: '/query/world/api/places/e/search/p/query/ok/results' })
        res.end()
      } else {
        json(res, 200, RESULTS_PAGE)
      }
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-faults-'))
    // The app's own timeouts: every answer below but the silent one comes (or breaks off) by itself, however busy the machine.
    core = await openCore(dataDir, { http: { maxResponseBytes: CAP } })
    hasty = await openCore(join(dataDir, 'hasty'), { http: { headersTimeoutMs: 2_000 } })
    good = await connection('Good', new URL(service.authUrl).origin, service.account.clientId)
    await call(core, 'secrets:set', { connectionId: good, secret: service.account.clientSecret })
  })
  afterAll(async () => {
    await core?.close()
    await hasty?.close()
    await Promise.all([service?.close(), bad?.close(), other?.close()])
    rmSync(dataDir, { recursive: true, force: true })
  })

  async function expectUsable(): Promise<void> {
    const reply = await call<{ status: number }>(core, 'query:run', {
      connectionId: good,
      requestId: 'good',
      request: search(`paris`),
      fresh: true,
    })
    expect(reply.status).toBe(200)
  }

  it('connection refused', async () => {
    const id = await connection('Refused', `http://127.0.0.1:${await closedPort()}`)
    const error = await failure(core, 'query:run', { connectionId: id, requestId: 'a', request: search('x') })
    expect(error.code).toBe('network')
    expect(error.message).toMatch(/^Connection refused by 127\.0\.0\.1:\d+/)
    await expectUsable()
  })

  const cases: [string, string, RegExp][] = [
    ['mid-body', 'network', /closed the connection before the answer was complete/],
    ['html-500', 'http', /answered 500: no readable message \(the body is an HTML page\)/],
    ['malformed', 'bad_response', /results response is not valid JSON/],
    ['wrong-shape', 'bad_response', /does not have the expected shape/],
    ['huge', 'too_large', /larger than 2\.0 MiB; it was not read/],
    ['huge-declared', 'too_large', /10\.0 MiB, over the 2\.0 MiB limit/],
    ['elsewhere', 'http', /redirected the request to another host \(http:\/\/127\.0\.0\.1:\d+\); it was not followed/],
  ]
  for (const [name, code, message] of cases) {
    it(`${name}: ${code}`, async () => {
      const id = await connection(`Fault ${name}`, bad.origin)
      const error = await failure(core, 'query:run', { connectionId: id, requestId: name, request: search(name) })
      expect(error.code).toBe(code)
      expect(error.message).toMatch(message)
      expect(error.message).not.toMatch(/fault-token|fault-secret|Bearer|stack trace/)
      await expectUsable()
    })
  }

  it('silent: timeout, after the headers timeout, and the app goes on', async () => {
    const id = await connection('Fault silent', bad.origin, 'faulty', hasty)
    const error = await failure(hasty, 'query:run', { connectionId: id, requestId: 'silent', request: search('silent') })
    expect(error.code).toBe('timeout')
    expect(error.message).toMatch(/did not answer within 2 s \(timeout\)/)
    expect(error.message).not.toMatch(/fault-token|fault-secret|Bearer|stack trace/)
    await expectUsable()
  })

  it('the other host of a redirect never sees the request, let alone the token', () => {
    expect(other.seen).toHaveLength(0)
  })

  it('a redirect within the same origin is followed, with the timings of the request', async () => {
    const id = await connection('Same origin', bad.origin)
    const reply = await call<{ status: number; timings: { connectMs: number; firstByteMs: number; totalMs: number } }>(core, 'query:run', {
      connectionId: id,
      requestId: 'same',
      request: search('same-origin'),
    })
    expect(reply.status).toBe(200)
    expect(reply.timings.connectMs).toBeGreaterThanOrEqual(0)
    expect(reply.timings.firstByteMs).toBeGreaterThanOrEqual(reply.timings.connectMs)
    expect(reply.timings.totalMs).toBeGreaterThanOrEqual(reply.timings.firstByteMs)
  })

  it('a running query can be cancelled, and the app goes on', async () => {
    const id = await connection('Cancel', bad.origin)
    const from = bad.seen.length
    const running = core.dispatch('query:run', { connectionId: id, requestId: 'to-cancel', request: search('silent') })
    // Cancelled while the server holds it: once it has arrived there.
    await vi.waitFor(() => expect(bad.seen.slice(from).some((seen) => seen.url.includes('/p/query/silent'))).toBe(true), { timeout: 60_000 })
    expect(await call(core, 'query:cancel', { requestId: 'to-cancel' })).toEqual({ cancelled: true })
    const result = await running
    expect(result).toMatchObject({ ok: false, error: { code: 'cancelled' } })
    await expectUsable()
  })
})

describe.skipIf(missing)('Test connection says exactly what failed', () => {
  let service: RunningService
  let refusing: TestServer
  let dataDir: string
  let core: AppCore
  /** Gives up on a silent auth host after 2 s; only ever pointed at one that never answers. */
  let hasty: AppCore

  const test = async (fields: { authUrl: string; queryUrl: string; clientId?: string; api?: string; workspace?: string; config?: string }, secret = 'a-test-secret', on = core) => {
    const view = await call<ConnectionView>(on, 'connections:save', {
      name: 'Under test',
      workspace: 'world',
      api: 'places',
      clientId: 'demo',
      ...fields,
    })
    if (view.clientId) await call(on, 'secrets:set', { connectionId: view.id, secret })
    return call<ConnectionTest>(on, 'connections:test', { connectionId: view.id })
  }

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    refusing = await startServer((req, res) => {
      const body = req.url?.includes('/forbidden') ? [403, 'The account does not belong to workspace world'] : [429, 'Token request quota exceeded']
      json(res, body[0] as number, { message: body[1] }, body[0] === 429 ? { 'retry-after': '30' } : {})
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-test-conn-'))
    core = await openCore(dataDir)
    hasty = await openCore(join(dataDir, 'hasty'), { http: { headersTimeoutMs: 2_000 } })
  })
  afterAll(async () => {
    await core?.close()
    await hasty?.close()
    await Promise.all([service?.close(), refusing?.close()])
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('works: the API needs a token, a token, the API description with it, the status route', async () => {
    const result = await test({ authUrl: service.authUrl, queryUrl: service.queryUrl }, service.account.clientSecret)
    expect(result.ok).toBe(true)
    expect(result.checks.map((check) => check.step)).toEqual(['access', 'token', 'description', 'status'])
    expect(stepOf(result, 'access').message).toBe('API "places" needs a token: without one it answered 401.')
    expect(stepOf(result, 'description').message).toMatch(/API "places" answered: \d+ endpoints/)
    expect(stepOf(result, 'status').message).toBe('The status route answered 200 ("ok"): API "places" with configuration "default" is served.')
    expect(result.connection.tokenRequestsLastHour).toBe(1)
  })

  it('401: wrong secret', async () => {
    const result = await test({ authUrl: service.authUrl, queryUrl: service.queryUrl }, 'wrong')
    expect(result.checks.map((check) => check.step)).toEqual(['access', 'token'])
    expect(stepOf(result, 'token')).toMatchObject({ ok: false, code: 'auth', status: 401 })
    expect(stepOf(result, 'token').message).toContain('Invalid client credentials')
  })

  it('403, 429, 404', async () => {
    const forbidden = await test({ authUrl: `${refusing.origin}/forbidden`, queryUrl: service.queryUrl })
    expect(stepOf(forbidden, 'token')).toMatchObject({ ok: false, code: 'auth', status: 403 })
    const quota = await test({ authUrl: `${refusing.origin}/quota`, queryUrl: service.queryUrl })
    expect(stepOf(quota, 'token')).toMatchObject({ ok: false, code: 'quota', status: 429, retryAfterSeconds: 30 })
    const wrongAuthPath = await test({ authUrl: `${service.authUrl}/nope`, queryUrl: service.queryUrl }, service.account.clientSecret)
    expect(stepOf(wrongAuthPath, 'token')).toMatchObject({ ok: false, status: 404 })
    expect(stepOf(wrongAuthPath, 'token').message).toContain('Check the auth URL')
    // No such API: the probe says so (with the names to check), the token is still tried, nothing else is asked.
    const noApi = await test({ authUrl: service.authUrl, queryUrl: service.queryUrl, api: 'no-such-api' }, service.account.clientSecret)
    expect(noApi.checks.map((check) => [check.step, check.ok])).toEqual([['access', false], ['token', true]])
    expect(stepOf(noApi, 'access')).toMatchObject({ status: 404, code: 'http' })
    expect(stepOf(noApi, 'access').message).toBe(
      'The service answered 404: No such api: world/no-such-api. Check the API name ("no-such-api") and the workspace ("world"): the service has no such API in that workspace.',
    )
  })

  it('refused, DNS, TLS, timeout', async () => {
    const port = await closedPort()
    const refused = await test({ authUrl: `http://127.0.0.1:${port}`, queryUrl: service.queryUrl })
    expect(stepOf(refused, 'token').message).toMatch(/^Connection refused by 127\.0\.0\.1/)
    const dns = await test({ authUrl: 'http://no-such-host.invalid', queryUrl: service.queryUrl })
    expect(stepOf(dns, 'token')).toMatchObject({ ok: false, code: 'network' })
    expect(stepOf(dns, 'token').message).toContain('could not be resolved (DNS)')
    const tls = await test({ authUrl: service.authUrl.replace('http:', 'https:'), queryUrl: service.queryUrl })
    expect(stepOf(tls, 'token')).toMatchObject({ ok: false, code: 'network' })
    expect(stepOf(tls, 'token').message).toMatch(/TLS connection to 127\.0\.0\.1:\d+ failed/)
    // The query URL unreachable: the probe says so first, and nothing more is asked of it.
    const noQueryHost = await test({ authUrl: service.authUrl, queryUrl: `http://127.0.0.1:${port}/query` }, service.account.clientSecret)
    expect(noQueryHost.checks.map((check) => [check.step, check.ok])).toEqual([['access', false], ['token', true]])
    expect(stepOf(noQueryHost, 'access').message).toMatch(/^Connection refused by 127\.0\.0\.1/)
    const silent = await startServer(() => undefined)
    try {
      const timeout = await test({ authUrl: silent.origin, queryUrl: service.queryUrl }, 'a-test-secret', hasty)
      expect(stepOf(timeout, 'token')).toMatchObject({ ok: false, code: 'timeout' })
      expect(stepOf(timeout, 'token').message).toContain('did not answer within 2 s')
    } finally {
      await silent.close()
    }
  })

  it('a public API: it answers without a token, so none is asked for', async () => {
    const result = await test({ authUrl: '', queryUrl: service.queryUrl, clientId: '', api: 'public' })
    expect(result.ok).toBe(true)
    expect(stepOf(result, 'access').message).toBe('API "public" answered without a token (200): it is public, so no token is needed.')
    expect(stepOf(result, 'token').message).toBe('No client ID: none is needed, the API is public.')
    expect(stepOf(result, 'status')).toMatchObject({ ok: true })
  })

  it('a protected API and no client ID: the token check says which fields to fill in', async () => {
    const result = await test({ authUrl: '', queryUrl: service.queryUrl, clientId: '', api: 'places' })
    expect(result.ok).toBe(false)
    expect(stepOf(result, 'token')).toMatchObject({ ok: false, code: 'auth' })
    expect(stepOf(result, 'token').message).toContain('API "places" needs a token, and this connection has no client ID: enter the client ID and secret')
  })

  it('an unknown configuration: read with the token, the API root names the config sent', async () => {
    const result = await test({ authUrl: service.authUrl, queryUrl: service.queryUrl, config: 'staging' }, service.account.clientSecret)
    expect(result.ok).toBe(false)
    expect(result.checks.map((check) => [check.step, check.ok])).toEqual([['access', true], ['token', true], ['description', false], ['status', false]])
    expect(stepOf(result, 'description').message).toBe(
      'The service answered 404: No such workspace configuration: world/staging. Check the configuration: "staging" was sent, and workspace "world" has no configuration of that name.',
    )
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { ManualClock } from '../fixtures/manual-clock'
import { call, failure, json, keychainMissing, openCore, RESULTS_PAGE, search, startServer, type TestServer } from './support'

/**
 * The token manager over real HTTP: against the embedded service (expiry,
 * revocation, ForceReauth) and against small servers that refuse on purpose
 * (a 401 that never ends, a 429 with Retry-After).
 */

const missing = await keychainMissing()

describe.skipIf(missing)('tokens against the embedded service', () => {
  let service: RunningService
  let dataDir: string
  let core: AppCore
  let id: string

  // One clock for the service and the app: an hour-long token expires when the test moves it on.
  const clock = new ManualClock()

  beforeAll(async () => {
    service = await startService({ port: 0, tokenLifetimeSeconds: 3600, log: () => undefined, clock })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-tokens-'))
    core = await openCore(dataDir, { clock })
    const view = await call<ConnectionView>(core, 'connections:save', {
      name: 'Short tokens',
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      workspace: service.workspace,
      api: 'places',
      clientId: service.account.clientId,
    })
    id = view.id
    await call(core, 'secrets:set', { connectionId: id, secret: service.account.clientSecret })
  })
  afterAll(async () => {
    await core?.close()
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('50 concurrent queries when the token has expired cause exactly one token request', async () => {
    await call(core, 'query:run', { connectionId: id, requestId: 'warm', request: search('paris') })
    clock.advance(3_600_000)
    const before = service.tokenRequestCount()
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call<{ status: number; body: { items: { rank: number }[] } }>(core, 'query:run', {
          connectionId: id,
          requestId: `q${i}`,
          request: search('san', { count: 1, offset: i }),
        }),
      ),
    )
    expect(replies.every((reply) => reply.status === 200)).toBe(true)
    expect(replies.map((reply) => reply.body.items[0]?.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    expect(service.tokenRequestCount() - before).toBe(1)
  })

  it('a token revoked on the server is replaced once, for 20 concurrent queries, and they all succeed', async () => {
    await call(core, 'query:run', { connectionId: id, requestId: 'warm', request: search('lyon'), fresh: true })
    service.revokeTokens()
    const before = service.tokenRequestCount()
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call<{ status: number }>(core, 'query:run', { connectionId: id, requestId: `r${i}`, request: search('lyon', { count: 1, offset: i }) }),
      ),
    )
    expect(replies.every((reply) => reply.status === 200)).toBe(true)
    expect(service.tokenRequestCount() - before).toBe(1)
  })

  it('Re-authenticate asks for a new token (ForceReauth true) and the count beside the connection goes up', async () => {
    const before = (await call<ConnectionView[]>(core, 'connections:list', {})).find((c) => c.id === id)!
    const requests = service.tokenRequestCount()
    const after = await call<ConnectionView>(core, 'connections:reauth', { connectionId: id })
    expect(service.tokenRequestCount()).toBe(requests + 1)
    expect(after.tokenRequestsLastHour).toBe(before.tokenRequestsLastHour + 1)
    expect(after.tokenExpiresAt).toBe(clock.now() + 3_600_000)
    // The old token is revoked by ForceReauth; queries go on with the new one.
    const reply = await call<{ status: number }>(core, 'query:run', { connectionId: id, requestId: 'after', request: search('rome') })
    expect(reply.status).toBe(200)
  })
})

describe.skipIf(missing)('tokens against servers that refuse', () => {
  let dataDir: string
  let core: AppCore
  let server: TestServer
  let mode: 'always-401' | 'quota' = 'always-401'
  let retryAfter = '120'
  // Time stands still unless the test moves it: a Retry-After is read against exactly this moment.
  const clock = new ManualClock()

  const save = async (name: string) => {
    const view = await call<ConnectionView>(core, 'connections:save', {
      name,
      authUrl: `${server.origin}/auth`,
      queryUrl: `${server.origin}/query`,
      workspace: 'world',
      api: 'places',
      clientId: name.toLowerCase().replace(/\s+/g, '-'),
    })
    await call(core, 'secrets:set', { connectionId: view.id, secret: 'a-secret-for-refusals' })
    return view.id
  }

  beforeAll(async () => {
    let issued = 0
    server = await startServer((req, res) => {
      if (req.url === '/auth/api/auth') {
        if (mode === 'quota') return json(res, 429, { message: 'Token request quota exceeded' }, { 'retry-after': retryAfter })
        return json(res, 200, { access_token: `token-${++issued}`, token_type: 'Bearer', expires_in: 3600 })
      }
      if (mode === 'always-401') return json(res, 401, { message: 'Invalid or expired token' }, { 'www-authenticate': 'Bearer error="invalid_token"' })
      json(res, 200, RESULTS_PAGE)
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-refuse-'))
    core = await openCore(dataDir, { clock })
  })
  afterAll(async () => {
    await core?.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('a second 401 surfaces as an error: one renewal, one replay, no loop', async () => {
    mode = 'always-401'
    const id = await save('Always 401')
    server.seen.length = 0
    const error = await failure(core, 'query:run', { connectionId: id, requestId: 'x', request: search('paris') })
    expect(error.code).toBe('auth')
    expect(error.status).toBe(401)
    expect(error.message).toContain('refused a freshly issued token')
    const tokenRequests = server.seen.filter((seen) => seen.url === '/auth/api/auth')
    expect(tokenRequests.map((seen) => JSON.parse(seen.body).ForceReauth)).toEqual([false, true])
    expect(server.seen.filter((seen) => seen.url.startsWith('/query/'))).toHaveLength(2)
    expect(error.message).not.toContain('token-')
  })

  it('on 429 no token request is sent before Retry-After, and the reply says when to retry', async () => {
    mode = 'quota'
    const id = await save('Quota')
    server.seen.length = 0
    const first = await failure(core, 'query:run', { connectionId: id, requestId: 'a', request: search('paris') })
    expect(first).toMatchObject({ code: 'quota', status: 429, retryAfterSeconds: 120 })
    expect(first.message).toMatch(/retry in 120 s/)
    const second = await failure(core, 'query:run', { connectionId: id, requestId: 'b', request: search('rome') })
    expect(second.code).toBe('quota')
    expect(second.retryAfterSeconds).toBe(120)
    const reauth = await failure(core, 'connections:reauth', { connectionId: id })
    expect(reauth.code).toBe('quota')
    expect(server.seen.filter((seen) => seen.url === '/auth/api/auth')).toHaveLength(1)
    const view = (await call<ConnectionView[]>(core, 'connections:list', {})).find((c) => c.id === id)!
    expect(view.retryAt).toBe(clock.now() + 120_000)
    expect(view.tokenRequestsLastHour).toBe(1)
  })

  it('a Retry-After out of bounds or unreadable is clamped to 1 s – 1 h (60 s when unreadable), and the retry time is always a real time', async () => {
    mode = 'quota'
    const cases: [string, number][] = [
      ['1e308', 60],
      ['99999999999999999999999', 3_600],
      ['0', 1],
      ['-5', 60],
      ['soon', 60],
      ['NaN', 60],
      ['Wed, 21 Oct 2999 07:28:00 GMT', 3_600],
      ['Wed, 21 Oct 2015 07:28:00 GMT', 1],
    ]
    for (const [header, seconds] of cases) {
      retryAfter = header
      const id = await save(`Retry ${header.replace(/[^a-z0-9]/gi, '')}`)
      const error = await failure(core, 'query:run', { connectionId: id, requestId: 'r', request: search('paris') })
      expect(error, header).toMatchObject({ code: 'quota', retryAfterSeconds: seconds })
      expect(error.message, header).toMatch(new RegExp(`retry in ${seconds} s \\(at \\d\\d:\\d\\d:\\d\\d\\)`))
      const view = (await call<ConnectionView[]>(core, 'connections:list', {})).find((c) => c.id === id)!
      expect(view.retryAt! - clock.now(), header).toBe(seconds * 1000)
    }
    retryAfter = '120'
  })
})

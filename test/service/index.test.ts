import { createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import { ManualClock } from '../fixtures/manual-clock'

/**
 * Starting the embedded service: its options checked before anything
 * starts, what a client needs to reach it, the token requests it counts by
 * route, and a close that stops it. Over real HTTP on 127.0.0.1.
 */

const tokenBody = (clientId: string, clientSecret: string) => JSON.stringify({ WorkspaceName: 'world', ClientId: clientId, ClientSecret: clientSecret, ForceReauth: false })

async function requestToken(service: RunningService, clientId = service.account.clientId, clientSecret = service.account.clientSecret): Promise<Response> {
  return fetch(`${service.authUrl}/api/auth`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: tokenBody(clientId, clientSecret) })
}

describe('startService options', () => {
  it('refuses a token lifetime, quota, query budget or waiting bound it cannot use, naming it, before starting', async () => {
    for (const [options, message] of [
      [{ tokenLifetimeSeconds: 0 }, 'tokenLifetimeSeconds must be above 0, not 0'],
      [{ quota: 0 }, 'quota must be a whole number, 1 or more, not 0'],
      [{ quota: 2.5 }, 'quota must be a whole number, 1 or more, not 2.5'],
      [{ queryBudgetMs: -1 }, 'queryBudgetMs must be above 0, not -1'],
      [{ maxWaitingQueries: 0 }, 'maxWaitingQueries must be a whole number, 1 or more, not 0'],
    ] as const) {
      await expect(startService({ port: 0, log: () => undefined, ...options }), JSON.stringify(options)).rejects.toThrow(new RangeError(message))
    }
  })

  it('rejects a port already taken with the system’s EADDRINUSE', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    try {
      const port = (taken.address() as AddressInfo).port
      await expect(startService({ port, log: () => undefined })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    } finally {
      await new Promise((resolve) => taken.close(resolve))
    }
  })
})

describe('a started service', () => {
  let service: RunningService
  /** What the service told its operator: nothing, unless a test fails (then the message shows it). */
  const logged: string[] = []
  beforeAll(async () => {
    service = await startService({ port: 0, log: (message) => void logged.push(message) })
  })
  afterAll(() => service?.close())

  it('reports its URLs on 127.0.0.1, the demo workspace and its APIs, and the demo account with a secret made for this start', () => {
    expect(service.authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/auth$/)
    expect(service.queryUrl).toBe(service.authUrl.replace(/\/auth$/, '/query'))
    expect(service.workspace).toBe('world')
    expect(service.apis).toEqual(['places', 'public'])
    expect(service.account.clientId).toBe('demo')
    expect(service.account.clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(service.accounts).toHaveLength(1)
    expect(service.accounts[0]).toMatchObject({ clientId: 'demo', generatedSecret: true })
    expect(service.startupMs).toBeGreaterThanOrEqual(0)
  })

  it('counts the token requests it serves, in all and by route', async () => {
    const json = service.tokenRequestCount('json')
    const oauth = service.tokenRequestCount('oauth')
    expect((await requestToken(service)).status).toBe(200)
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: 'demo', client_secret: service.account.clientSecret })
    expect((await fetch(`${service.authUrl}/oauth/token`, { method: 'POST', body: form })).status).toBe(200)
    expect((await requestToken(service, 'demo', 'wrong')).status).toBe(401)
    expect([service.tokenRequestCount('json'), service.tokenRequestCount('oauth'), service.tokenRequestCount()]).toEqual([json + 2, oauth + 1, json + oauth + 3])
  })

  it('revokes every token it issued at once', async () => {
    const { access_token: token } = (await (await requestToken(service)).json()) as { access_token: string }
    const query = `${service.queryUrl}/world/api/places/e/search/p/query/paris/count`
    expect((await fetch(query, { headers: { Authorization: `Bearer ${token}` } })).status, logged.join('\n')).toBe(200)
    service.revokeTokens()
    expect((await fetch(query, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(401)
  })
})

describe('accounts, lifetime and quota', () => {
  it('serves the accounts given, reporting the first and every secret it made; measures tokens and the quota on the clock given', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 9))
    const service = await startService({
      port: 0,
      log: () => undefined,
      clock,
      tokenLifetimeSeconds: 60,
      quota: 2,
      quotaWindowMs: 10_000,
      accounts: [{ clientId: 'ci-runner', clientSecret: 'ci-secret' }, { clientId: 'loader', roles: ['Data Provider'] }],
    })
    try {
      expect(service.account).toEqual({ clientId: 'ci-runner', clientSecret: 'ci-secret' })
      expect(service.accounts.map((account) => [account.clientId, account.generatedSecret])).toEqual([
        ['ci-runner', false],
        ['loader', true],
      ])
      const first = (await (await requestToken(service, 'ci-runner', 'ci-secret')).json()) as { expires_in: number }
      expect(first.expires_in).toBe(60)
      expect((await requestToken(service, 'ci-runner', 'ci-secret')).status).toBe(200)
      const refused = await requestToken(service, 'ci-runner', 'ci-secret')
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '10'])
      clock.advance(10_000)
      // The window moved on, and the token of a minute ago has 50 seconds left of its 60.
      const later = (await (await requestToken(service, 'ci-runner', 'ci-secret')).json()) as { expires_in: number }
      expect(later.expires_in).toBe(50)
    } finally {
      await service.close()
    }
  })

  it('stops listening once closed', async () => {
    const service = await startService({ port: 0, log: () => undefined })
    await service.close()
    await expect(fetch(`${service.queryUrl}/world/api/public`)).rejects.toThrow()
  })
})

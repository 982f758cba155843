import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TokenReplySchema } from '../../src/shared/auth'
import { PLACES, openSession, type Session } from './service-session'
import { ManualClock } from '../fixtures/manual-clock'

/** The auth host and the Query API's token checks (SERVICE-CONTRACT "Authentication"). */

const QUERY = `${PLACES}/e/search/p/query/paris/results`

let s: Session
beforeAll(async () => {
  s = await openSession({
    accounts: [
      { clientId: 'demo', roles: ['API Usage'], workspaces: ['world'] },
      { clientId: 'loader', clientSecret: 'loader-secret', roles: ['Data Provider'], workspaces: ['world'] },
      { clientId: 'roamer', clientSecret: 'roamer-secret', roles: ['API Usage'], workspaces: ['world', 'sandbox'] },
      { clientId: 'greedy', clientSecret: 'greedy-secret', workspaces: ['world'] },
      { clientId: 'revoker', clientSecret: 'revoker-secret', workspaces: ['world'] },
    ],
  })
})
afterAll(() => s.service.close())

const body = (clientId: string, clientSecret: string, extra: Record<string, unknown> = {}) => ({
  WorkspaceName: 'world',
  ClientId: clientId,
  ClientSecret: clientSecret,
  ForceReauth: false,
  ...extra,
})

async function tokenFor(clientId: string, clientSecret: string, extra: Record<string, unknown> = {}): Promise<string> {
  const reply = await s.requestToken(body(clientId, clientSecret, extra))
  expect(reply.status, reply.text).toBe(200)
  return TokenReplySchema.parse(reply.json()).access_token
}

describe('token request', () => {
  it('answers {access_token, token_type: Bearer, expires_in} with no-store, for either JSON content type', async () => {
    for (const type of ['application/json-patch+json', 'application/json', 'application/json; charset=utf-8']) {
      const reply = await s.requestToken(body('demo', s.service.account.clientSecret), type)
      expect(reply.status).toBe(200)
      const token = TokenReplySchema.parse(reply.json())
      expect(token.expires_in).toBeGreaterThan(3590)
      expect(token.expires_in).toBeLessThanOrEqual(3600)
      expect(reply.headers.get('cache-control')).toBe('no-store')
    }
  })

  it('counts the token requests it serves', async () => {
    const before = s.service.tokenRequestCount()
    await s.requestToken(body('demo', s.service.account.clientSecret))
    expect(s.service.tokenRequestCount()).toBe(before + 1)
  })

  it('ForceReauth false returns the same still-valid token', async () => {
    const first = await tokenFor('demo', s.service.account.clientSecret)
    const second = await tokenFor('demo', s.service.account.clientSecret)
    expect(second).toBe(first)
    expect((await s.get(QUERY, second)).status).toBe(200)
  })

  it('ForceReauth true returns a new token and the old one gets 401', async () => {
    const old = await tokenFor('demo', s.service.account.clientSecret)
    const fresh = await tokenFor('demo', s.service.account.clientSecret, { ForceReauth: true })
    expect(fresh).not.toBe(old)
    expect((await s.get(QUERY, fresh)).status).toBe(200)
    const refused = await s.get(QUERY, old)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    expect(refused.json().message.startsWith('Invalid or expired token')).toBe(true)
  })

  it('400 names each missing or mistyped field', async () => {
    const reply = await s.requestToken({ WorkspaceName: 'world', ClientId: 7, ForceReauth: 'false' })
    expect(reply.status).toBe(400)
    const { message } = reply.json()
    expect(message).toContain('ClientId must be a string, not a number')
    expect(message).toContain('ClientSecret is missing')
    expect(message).toContain('ForceReauth must be a boolean, not a string')
    expect(message).not.toContain('WorkspaceName')
  })

  it('401 Invalid client credentials for an unknown client or a wrong secret, without echoing it', async () => {
    for (const [id, secret] of [['nobody', 'x'], ['demo', 'wrong-secret-value']] as const) {
      const reply = await s.requestToken(body(id, secret))
      expect(reply.status).toBe(401)
      expect(reply.json().message.startsWith('Invalid client credentials')).toBe(true)
      expect(reply.text).not.toContain(secret)
    }
  })

  it('403 when the account does not belong to the workspace', async () => {
    for (const workspace of ['sandbox', 'elsewhere']) {
      const reply = await s.requestToken(body('demo', s.service.account.clientSecret, { WorkspaceName: workspace }))
      expect(reply.status).toBe(403)
      expect(reply.json().message).toContain(`workspace "${workspace}"`)
    }
  })

  // 415 for a body that is not JSON by its content type: auth-route.test.ts; 405 for GET: server.test.ts.
  it('the 21st token request of an account in the hour gets 429 with Retry-After', async () => {
    for (let i = 1; i <= 20; i++) {
      const reply = await s.requestToken(body('greedy', 'greedy-secret', { ForceReauth: i % 2 === 0 }))
      expect(reply.status, `request ${i}`).toBe(200)
    }
    const refused = await s.requestToken(body('greedy', 'greedy-secret'))
    expect(refused.status).toBe(429)
    expect(refused.json().message.startsWith('Token request quota exceeded')).toBe(true)
    const retry = Number(refused.headers.get('retry-after'))
    expect(Number.isInteger(retry)).toBe(true)
    expect(retry).toBeGreaterThan(3500)
    expect(retry).toBeLessThanOrEqual(3600)
    // The quota is per account: another account is unaffected.
    expect((await s.requestToken(body('roamer', 'roamer-secret'))).status).toBe(200)
  })
})

describe('Query API token checks', () => {
  it('403 for an account with only the Data Provider role', async () => {
    const token = await tokenFor('loader', 'loader-secret')
    const reply = await s.get(QUERY, token)
    expect(reply.status).toBe(403)
    expect(reply.json().message).toContain('API Usage')
  })

  it('403 for a token of another workspace', async () => {
    const token = await tokenFor('roamer', 'roamer-secret', { WorkspaceName: 'sandbox' })
    expect((await s.get(`/sandbox/api/places/e/search/p/query/paris/results`, token)).status).toBe(200)
    const reply = await s.get(QUERY, token)
    expect(reply.status).toBe(403)
    expect(reply.json().message).toContain('"sandbox"')
  })

  it('revokeTokens makes every issued token 401; a new token request works', async () => {
    const token = await tokenFor('revoker', 'revoker-secret')
    expect((await s.get(QUERY, token)).status).toBe(200)
    s.service.revokeTokens()
    const refused = await s.get(QUERY, token)
    expect(refused.status).toBe(401)
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    const renewed = await tokenFor('revoker', 'revoker-secret')
    expect(renewed).not.toBe(token)
    expect((await s.get(QUERY, renewed)).status).toBe(200)
  })
})

describe('token lifetime', () => {
  // The service's clock is the test's: an hour passes when the test says so.
  const clock = new ManualClock()
  let timed: Session
  beforeAll(async () => {
    timed = await openSession({ tokenLifetimeSeconds: 3600, clock })
  })
  afterAll(() => timed.service.close())

  it('an expired token gets 401 with WWW-Authenticate; ForceReauth false then issues a new one', async () => {
    const request = { WorkspaceName: 'world', ClientId: 'demo', ClientSecret: timed.service.account.clientSecret, ForceReauth: false }
    const first = TokenReplySchema.parse((await timed.requestToken(request)).json())
    expect(first.expires_in).toBe(3600)
    clock.advance(3_599_000)
    expect((await timed.get(QUERY, first.access_token)).status).toBe(200)
    expect(TokenReplySchema.parse((await timed.requestToken(request)).json())).toMatchObject({ access_token: first.access_token, expires_in: 1 })
    clock.advance(1_000)
    const expired = await timed.get(QUERY, first.access_token)
    expect(expired.status).toBe(401)
    expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    expect(expired.json().message.startsWith('Invalid or expired token')).toBe(true)
    const second = TokenReplySchema.parse((await timed.requestToken(request)).json())
    expect(second.access_token).not.toBe(first.access_token)
    expect(second.expires_in).toBe(3600)
  })
})

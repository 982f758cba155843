import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TokenReplySchema } from '../../src/shared/auth'
import { ManualClock } from '../fixtures/manual-clock'
import { PLACES, openSession, type Session } from './service-session'

/**
 * `POST {auth_url}/oauth/token`: OAuth 2.0 client credentials as the official
 * client libraries ask for tokens (a form with grant_type, client_id,
 * client_secret and the query URL as audience; errors as
 * `{error, error_description}`), with the same accounts, tokens and quota as
 * `/api/auth` (SERVICE-CONTRACT "Authentication").
 */

const QUERY = `${PLACES}/e/search/p/query/paris/count`

let s: Session
beforeAll(async () => {
  s = await openSession({
    // Tokens and the quota on a clock that stands still: a slow run changes no lifetime or Retry-After.
    clock: new ManualClock(Date.UTC(2026, 0, 1, 9)),
    accounts: [
      { clientId: 'demo', clientSecret: 'demo-secret-1234', workspaces: ['world'] },
      { clientId: 'loader', clientSecret: 'loader-secret', roles: ['Data Provider'], workspaces: ['world'] },
      { clientId: 'roamer', clientSecret: 'roamer-secret', workspaces: ['world', 'sandbox'] },
      { clientId: 'greedy', clientSecret: 'greedy-secret', workspaces: ['world'] },
      { clientId: 'sharer', clientSecret: 'sharer-secret', workspaces: ['world'] },
    ],
  })
})
afterAll(() => s.service.close())

const form = (clientId: string, clientSecret: string, extra: Record<string, string> = {}) => ({
  grant_type: 'client_credentials',
  client_id: clientId,
  client_secret: clientSecret,
  ...extra,
})

async function oauthToken(clientId: string, clientSecret: string, extra: Record<string, string> = {}): Promise<string> {
  const reply = await s.requestOAuthToken(form(clientId, clientSecret, extra))
  expect(reply.status, reply.text).toBe(200)
  return TokenReplySchema.parse(reply.json()).access_token
}

async function jsonToken(clientId: string, clientSecret: string, force = false): Promise<string> {
  const reply = await s.requestToken({ WorkspaceName: 'world', ClientId: clientId, ClientSecret: clientSecret, ForceReauth: force })
  expect(reply.status, reply.text).toBe(200)
  return TokenReplySchema.parse(reply.json()).access_token
}

async function oauthRefusal(reply: Awaited<ReturnType<Session['requestOAuthToken']>>, status: number, error: string) {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/)
  expect(reply.headers.get('cache-control')).toBe('no-store')
  const body = reply.json()
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description'])
  expect(body.error).toBe(error)
  return body.error_description as string
}

describe('OAuth client credentials', () => {
  it('answers {access_token, token_type: Bearer, expires_in} with no-store, and the token runs queries', async () => {
    const reply = await s.requestOAuthToken(form('demo', 'demo-secret-1234', { audience: s.service.queryUrl }))
    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    const token = TokenReplySchema.parse(reply.json())
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    expect((await s.get(QUERY, token.access_token)).status).toBe(200)
  })

  it('takes the form as the client libraries write it: unencoded values, audience with a trailing slash, charset on the type', async () => {
    const body = `grant_type=client_credentials&client_id=demo&client_secret=demo-secret-1234&audience=${s.service.queryUrl}/`
    const reply = await s.requestOAuthToken(body, 'application/x-www-form-urlencoded; charset=UTF-8')
    expect(reply.status, reply.text).toBe(200)
    // Reached as localhost rather than 127.0.0.1, the audience is the query URL by that name.
    const local = s.service.authUrl.replace('127.0.0.1', 'localhost')
    const answer = await fetch(`${local}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form('demo', 'demo-secret-1234', { audience: s.service.queryUrl.replace('127.0.0.1', 'localhost') })),
    })
    expect(answer.status).toBe(200)
  })

  it('issues a new token every time and leaves the previous one valid until it expires', async () => {
    const first = await oauthToken('demo', 'demo-secret-1234')
    const second = await oauthToken('demo', 'demo-secret-1234')
    expect(second).not.toBe(first)
    expect((await s.get(QUERY, first)).status).toBe(200)
    expect((await s.get(QUERY, second)).status).toBe(200)
  })

  it('shares tokens with /api/auth: ForceReauth false hands back the OAuth token, ForceReauth true revokes it', async () => {
    const oauth = await oauthToken('sharer', 'sharer-secret')
    expect(await jsonToken('sharer', 'sharer-secret')).toBe(oauth)
    const forced = await jsonToken('sharer', 'sharer-secret', true)
    expect(forced).not.toBe(oauth)
    expect((await s.get(QUERY, oauth)).status).toBe(401)
    expect((await s.get(QUERY, forced)).status).toBe(200)
  })

  it('shares the quota with /api/auth: the 21st request over both routes is a 429 with Retry-After', async () => {
    for (let i = 1; i <= 20; i++) {
      const reply = i % 2 === 0 ? await s.requestOAuthToken(form('greedy', 'greedy-secret')) : await s.requestToken({ WorkspaceName: 'world', ClientId: 'greedy', ClientSecret: 'greedy-secret', ForceReauth: false })
      expect(reply.status, `request ${i}`).toBe(200)
    }
    const refused = await s.requestOAuthToken(form('greedy', 'greedy-secret'))
    const description = await oauthRefusal(refused, 429, 'too_many_requests')
    expect(description).toMatch(/^Token request quota exceeded for account "greedy"/)
    // The first of the 21 was asked at this very moment: it leaves the hour's window in 3600 s.
    expect(refused.headers.get('retry-after')).toBe('3600')
    const json = await s.requestToken({ WorkspaceName: 'world', ClientId: 'greedy', ClientSecret: 'greedy-secret', ForceReauth: false })
    expect(json.status).toBe(429)
  })

  it('401 invalid_client for an unknown client or a wrong secret, never echoing the secret', async () => {
    for (const [id, secret] of [
      ['demo', 'wrong-secret-value'],
      ['nobody', 'demo-secret-1234'],
    ]) {
      const reply = await s.requestOAuthToken(form(id!, secret!))
      expect(await oauthRefusal(reply, 401, 'invalid_client')).toMatch(/^Invalid client credentials/)
      expect(reply.text).not.toContain(secret)
    }
  })

  it('400 invalid_request naming each missing or repeated field; unsupported_grant_type for another grant', async () => {
    expect(await oauthRefusal(await s.requestOAuthToken({ grant_type: 'client_credentials' }), 400, 'invalid_request')).toBe(
      'The token request is invalid: client_id is missing; client_secret is missing',
    )
    expect(await oauthRefusal(await s.requestOAuthToken('grant_type=client_credentials&client_id=demo&client_id=x&client_secret=demo-secret-1234'), 400, 'invalid_request')).toBe(
      'The token request is invalid: client_id is given more than once',
    )
    expect(await oauthRefusal(await s.requestOAuthToken(form('demo', 'demo-secret-1234', { grant_type: 'password' })), 400, 'unsupported_grant_type')).toMatch(
      /grant_type=client_credentials/,
    )
  })

  it('400 invalid_request for a body that is not form-encoded (JSON belongs to /api/auth)', async () => {
    const reply = await s.requestOAuthToken(JSON.stringify(form('demo', 'demo-secret-1234')), 'application/json')
    expect(await oauthRefusal(reply, 400, 'invalid_request')).toMatch(/form-encoded \(application\/x-www-form-urlencoded\)/)
  })

  it('403 access_denied for an audience that is not this query URL', async () => {
    const reply = await s.requestOAuthToken(form('demo', 'demo-secret-1234', { audience: 'https://rest.example.com/' }))
    expect(await oauthRefusal(reply, 403, 'access_denied')).toContain(s.service.queryUrl)
  })

  it("uses the account's workspace; an account of several names one with workspace", async () => {
    expect(await oauthRefusal(await s.requestOAuthToken(form('roamer', 'roamer-secret')), 400, 'invalid_request')).toMatch(/several workspaces \(world, sandbox\)/)
    const sandbox = await oauthToken('roamer', 'roamer-secret', { workspace: 'sandbox' })
    expect((await s.get('/sandbox/api/places/e/search/p/query/paris/count', sandbox)).status).toBe(200)
    expect((await s.get(QUERY, sandbox)).status).toBe(403)
    expect(await oauthRefusal(await s.requestOAuthToken(form('demo', 'demo-secret-1234', { workspace: 'sandbox' })), 403, 'unauthorized_client')).toMatch(
      /does not belong to the workspace "sandbox"/,
    )
  })

  it('a token of a Data Provider account is refused by the Query API (403), as from /api/auth', async () => {
    const token = await oauthToken('loader', 'loader-secret')
    const reply = await s.get(QUERY, token)
    expect(reply.status).toBe(403)
    expect(reply.json().message).toContain('API Usage')
  })

  it('405 for GET; 413 in the OAuth shape for an oversized body', async () => {
    const get = await fetch(`${s.service.authUrl}/oauth/token`)
    expect(get.status).toBe(405)
    expect(get.headers.get('allow')).toBe('POST')
    const big = await s.requestOAuthToken(`${new URLSearchParams(form('demo', 'demo-secret-1234'))}&pad=${'x'.repeat(20_000)}`)
    expect(await oauthRefusal(big, 413, 'invalid_request')).toMatch(/^Request body too large/)
  })
})

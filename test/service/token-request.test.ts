import { describe, expect, it } from 'vitest'
import { AccountDirectory, createAccount } from '../../src/service/auth/accounts'
import { TokenQuota } from '../../src/service/auth/quota'
import { answerTokenRequest, grantToken, QuotaExceeded, readTokenRequest, type TokenService } from '../../src/service/auth/token-request'
import { TokenStore } from '../../src/service/auth/tokens'
import { serviceRefusal } from '../fixtures/service-refusal'

/**
 * `POST {auth_url}/api/auth` without HTTP: the body checked field by field,
 * then the credentials, the workspace and the quota; ForceReauth false hands
 * back a still-valid token. (auth.test.ts sends the same over HTTP.)
 */

function service(quota = 20): TokenService & { advance: (ms: number) => void } {
  let now = Date.UTC(2026, 0, 1, 9)
  const clock = () => now
  return {
    accounts: new AccountDirectory([
      createAccount({ clientId: 'demo', clientSecret: 'demo-secret' }),
      createAccount({ clientId: 'roamer', clientSecret: 'roamer-secret', workspaces: ['world', 'sandbox'] }),
    ]),
    tokens: new TokenStore(3600, clock),
    quota: new TokenQuota(quota, 3_600_000, clock),
    workspaces: new Set(['world', 'sandbox']),
    advance: (ms) => void (now += ms),
  }
}

const body = (extra: Record<string, unknown> = {}) => ({ WorkspaceName: 'world', ClientId: 'demo', ClientSecret: 'demo-secret', ForceReauth: false, ...extra })

describe('readTokenRequest', () => {
  it('reads the four fields, leaving out anything else', () => {
    expect(readTokenRequest({ ...body({ ForceReauth: true }), Extra: 1 })).toEqual({ WorkspaceName: 'world', ClientId: 'demo', ClientSecret: 'demo-secret', ForceReauth: true })
  })

  it('names every missing or mistyped field in one 400, so one answer lists all the fixes', () => {
    expect(serviceRefusal(() => readTokenRequest({ WorkspaceName: ['world'], ClientId: null, ForceReauth: 1 }))).toEqual({
      status: 400,
      message: 'The token request is invalid: WorkspaceName must be a string, not an array; ClientId must be a string, not null; ClientSecret is missing; ForceReauth must be a boolean, not a number',
    })
  })

  it('refuses a body that is not an object, saying what it is', () => {
    for (const [value, what] of [[null, 'null'], [[1], 'an array'], ['text', 'a string'], [7, 'a number']] as const) {
      expect(serviceRefusal(() => readTokenRequest(value)).message).toBe(`The request body must be a JSON object with WorkspaceName, ClientId, ClientSecret, ForceReauth, not ${what}`)
    }
  })
})

describe('answerTokenRequest', () => {
  it('answers a Bearer token for the hour; ForceReauth false hands back the same one, true a new one', () => {
    const s = service()
    const first = answerTokenRequest(s, body())
    expect(first).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    s.advance(1_000)
    expect(answerTokenRequest(s, body())).toEqual({ ...first, expires_in: 3599 })
    const renewed = answerTokenRequest(s, body({ ForceReauth: true }))
    expect(renewed.access_token).not.toBe(first.access_token)
    expect(s.tokens.check(first.access_token).ok).toBe(false)
  })

  it('401 for a wrong secret or an unknown client, never echoing the secret', () => {
    for (const request of [body({ ClientSecret: 'wrong-secret-value' }), body({ ClientId: 'nobody' })]) {
      expect(serviceRefusal(() => answerTokenRequest(service(), request))).toEqual({ status: 401, message: 'Invalid client credentials: no account has this client id and secret' })
    }
  })

  it('403 for a workspace the account does not belong to, or the service does not host', () => {
    const s = service()
    expect(serviceRefusal(() => answerTokenRequest(s, body({ WorkspaceName: 'sandbox' })))).toEqual({ status: 403, message: 'The account "demo" does not belong to the workspace "sandbox"' })
    expect(serviceRefusal(() => answerTokenRequest(s, body({ ClientId: 'roamer', ClientSecret: 'roamer-secret', WorkspaceName: 'elsewhere' }))).status).toBe(403)
    expect(answerTokenRequest(s, body({ ClientId: 'roamer', ClientSecret: 'roamer-secret', WorkspaceName: 'sandbox' })).token_type).toBe('Bearer')
  })

  it('429 past the quota, with Retry-After, even for ForceReauth false: every request counts', () => {
    const s = service(2)
    answerTokenRequest(s, body())
    answerTokenRequest(s, body())
    expect(() => answerTokenRequest(s, body())).toThrow(QuotaExceeded)
    expect(() => answerTokenRequest(s, body())).toThrow(expect.objectContaining({
      status: 429,
      retryAfterSeconds: 3600,
      headers: { 'Retry-After': '3600' },
      message: 'Token request quota exceeded for account "demo" in workspace "world"; reuse the token you have, or retry in 3600 seconds',
    }))
  })
})

describe('grantToken', () => {
  it('additional (OAuth) issues a new token and leaves the previous one valid', () => {
    const s = service()
    const demo = s.accounts.get('demo')!
    const reused = grantToken(s, demo, 'world', 'reuse')
    const additional = grantToken(s, demo, 'world', 'additional')
    expect(additional.access_token).not.toBe(reused.access_token)
    expect(s.tokens.check(reused.access_token).ok).toBe(true)
    // The newest is the one a later ForceReauth false hands back.
    expect(grantToken(s, demo, 'world', 'reuse').access_token).toBe(additional.access_token)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AccountDirectory, createAccount } from '../../src/service/auth/accounts'
import { TokenQuota } from '../../src/service/auth/quota'
import type { TokenService } from '../../src/service/auth/token-request'
import { TokenStore } from '../../src/service/auth/tokens'
import { answerAuth, answerOAuth } from '../../src/service/http/auth-route'
import type { HostRoute } from '../fixtures/host-route'
import { startRouteServer } from '../fixtures/route-server'

/**
 * The HTTP side of the two token routes, each alone on a server on
 * 127.0.0.1: the content types each takes, the body read and parsed, the
 * answer never cached, and every refusal of the OAuth route in OAuth's
 * shape. (auth.test.ts and oauth-request.test.ts run them in the whole service.)
 */

const QUERY_URL = 'http://127.0.0.1:1/query'
const auth: TokenService = {
  accounts: new AccountDirectory([createAccount({ clientId: 'demo', clientSecret: 'demo-secret' })]),
  tokens: new TokenStore(3600),
  quota: new TokenQuota(1000),
  workspaces: new Set(['world']),
}
const BODY = JSON.stringify({ WorkspaceName: 'world', ClientId: 'demo', ClientSecret: 'demo-secret', ForceReauth: false })
const FORM = 'grant_type=client_credentials&client_id=demo&client_secret=demo-secret'

let json: HostRoute
let oauth: HostRoute
beforeAll(async () => {
  json = await startRouteServer((request) => answerAuth(auth, request))
  oauth = await startRouteServer((request) => answerOAuth(auth, request, QUERY_URL))
})
afterAll(async () => {
  await json?.close()
  await oauth?.close()
})

const post = (server: HostRoute, body: string, type?: string) => fetch(server.origin, { method: 'POST', headers: type === undefined ? {} : { 'Content-Type': type }, body })

describe('answerAuth (/api/auth)', () => {
  it('takes either JSON content type, with parameters, and answers a token that nothing may cache', async () => {
    for (const type of ['application/json-patch+json', 'application/json', 'Application/JSON; charset=utf-8']) {
      const reply = await post(json, BODY, type)
      expect(reply.status, type).toBe(200)
      expect(reply.headers.get('cache-control')).toBe('no-store')
      expect(reply.headers.get('pragma')).toBe('no-cache')
      expect(await reply.json()).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    }
  })

  it('415 for a body that is not JSON by its content type, naming the type given', async () => {
    const plain = await post(json, BODY, 'text/plain')
    expect(plain.status).toBe(415)
    expect(await plain.json()).toEqual({ message: 'The token request must be sent as application/json-patch+json or application/json, not "text/plain"' })
    const none = await fetch(json.origin, { method: 'POST', body: new Uint8Array(Buffer.from(BODY)) })
    expect(((await none.json()) as { message: string }).message).toMatch(/, not "no Content-Type"$/)
  })

  it('400 for a body that is not JSON, without quoting it (it may hold the secret)', async () => {
    const reply = await post(json, '{"ClientSecret": "hunter2-secret",', 'application/json')
    expect(reply.status).toBe(400)
    const text = await reply.text()
    expect(JSON.parse(text)).toEqual({ message: 'The request body is not valid JSON; send an object with WorkspaceName, ClientId, ClientSecret and ForceReauth' })
    expect(text).not.toContain('hunter2')
  })
})

describe('answerOAuth (/oauth/token)', () => {
  it('takes a form and answers a token that nothing may cache, the query URL it was given being the audience', async () => {
    const reply = await post(oauth, `${FORM}&audience=${encodeURIComponent(`${QUERY_URL}/`)}`, 'application/x-www-form-urlencoded; charset=UTF-8')
    expect(reply.status).toBe(200)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(await reply.json()).toMatchObject({ token_type: 'Bearer' })
    const elsewhere = await post(oauth, `${FORM}&audience=${encodeURIComponent('http://127.0.0.1:2/query')}`, 'application/x-www-form-urlencoded')
    expect(elsewhere.status).toBe(403)
    expect(((await elsewhere.json()) as { error: string }).error).toBe('access_denied')
  })

  it('400 invalid_request, in OAuth shape, for a body that is not form-encoded', async () => {
    const reply = await post(oauth, BODY, 'application/json')
    expect(reply.status).toBe(400)
    expect(reply.headers.get('cache-control')).toBe('no-store')
    expect(await reply.json()).toEqual({
      error: 'invalid_request',
      error_description: 'The token request must be sent form-encoded (application/x-www-form-urlencoded), not as "application/json"',
    })
  })

  it('413 for a body past the cap still in OAuth shape, closing the connection', async () => {
    const reply = await post(oauth, `${FORM}&pad=${'x'.repeat(20_000)}`, 'application/x-www-form-urlencoded')
    expect(reply.status).toBe(413)
    expect(reply.headers.get('connection')).toBe('close')
    expect(await reply.json()).toEqual({ error: 'invalid_request', error_description: 'Request body too large: at most 16384 bytes are accepted' })
  })
})

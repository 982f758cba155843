import { describe, expect, it } from 'vitest'
import { AccountDirectory, createAccount } from '../../src/service/auth/accounts'
import { authorize } from '../../src/service/auth/bearer'
import { TokenStore } from '../../src/service/auth/tokens'
import { serviceRefusal } from '../fixtures/service-refusal'

/** The guard of a protected API: a valid Bearer token, of this workspace, of an account allowed to query. */

let now = Date.UTC(2026, 0, 1, 9)
const tokens = new TokenStore(60, () => now)
const demo = createAccount({ clientId: 'demo', clientSecret: 'demo-secret' })
const loader = createAccount({ clientId: 'loader', clientSecret: 'loader-secret', roles: ['Data Provider'] })
const accounts = new AccountDirectory([demo, loader])

const INVALID = 'Invalid or expired token: request a new one from the auth host'
const CHALLENGE = { 'WWW-Authenticate': 'Bearer error="invalid_token"' }
const refusal = (header: string | undefined) => serviceRefusal(() => authorize(header, 'world', tokens, accounts))
/** A 401 carries the challenge the client libraries read. */
const challenged = (header: string | undefined, message: string) =>
  expect(() => authorize(header, 'world', tokens, accounts)).toThrow(expect.objectContaining({ status: 401, message, headers: CHALLENGE }))

describe('authorize', () => {
  it("lets a valid token of the workspace's API Usage account through, in any case of Bearer and spacing", () => {
    const { token } = tokens.issue(demo, 'world')
    expect(() => authorize(`Bearer ${token}`, 'world', tokens, accounts)).not.toThrow()
    expect(() => authorize(`bearer   ${token}  `, 'world', tokens, accounts)).not.toThrow()
  })

  it('401 with the invalid_token challenge for no header, another scheme or a malformed one, saying which', () => {
    challenged(undefined, `${INVALID} (no Authorization header was sent)`)
    challenged('  ', `${INVALID} (no Authorization header was sent)`)
    for (const header of ['Basic ZGVtbzpzZWNyZXQ=', 'Bearer', 'Bearer a b', 'Bearer tok\u0000en', 'Token abc']) challenged(header, `${INVALID} (the Authorization header must be "Bearer <token>")`)
  })

  it('401 for a token it never issued, one revoked, or one expired', () => {
    expect(refusal('Bearer made-up-token').message).toBe(`${INVALID} (the token is unknown, expired or revoked)`)
    const revoked = tokens.issue(demo, 'world').token
    tokens.issue(demo, 'world')
    expect(refusal(`Bearer ${revoked}`).status).toBe(401)
    const expiring = tokens.issue(demo, 'world').token
    now += 60_000
    challenged(`Bearer ${expiring}`, `${INVALID} (the token is unknown, expired or revoked)`)
  })

  it("403 for another workspace's token, and for an account without the API Usage role", () => {
    const sandbox = tokens.issue(demo, 'sandbox').token
    expect(refusal(`Bearer ${sandbox}`)).toEqual({ status: 403, message: 'The token was issued for the workspace "sandbox", not "world"' })
    const loaded = tokens.issue(loader, 'world').token
    expect(refusal(`Bearer ${loaded}`)).toEqual({ status: 403, message: 'The account "loader" lacks the API Usage role that the Query API requires' })
  })
})

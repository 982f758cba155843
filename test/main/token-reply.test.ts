import { describe, expect, it } from 'vitest'
import { readTokenReply, DEFAULT_LIFETIME_SECONDS } from '../../src/main/auth/token-reply'

/** A token request's answer as real deployments write it: the token under one of three names, its lifetime under one of several. */

describe('reading token replies as real deployments write them', () => {
  const now = 1_700_000_000_000
  it('reads access_token/accessToken/token with expires_in, expiresIn, epoch or ISO expires, a JWT exp, or five minutes', () => {
    expect(readTokenReply({ access_token: 'a', expires_in: 60 }, now)).toMatchObject({ token: 'a', expiresAt: now + 60_000 })
    expect(readTokenReply({ accessToken: 'b', expiresIn: '120' }, now)).toMatchObject({ token: 'b', expiresAt: now + 120_000 })
    expect(readTokenReply({ token: 'c', expires: 1_700_000_600 }, now).expiresAt).toBe(1_700_000_600_000)
    expect(readTokenReply({ token: 'd', expires: '2030-01-01T00:00:00Z' }, now).expiresAt).toBe(Date.parse('2030-01-01T00:00:00Z'))
    const jwt = ['e30', Buffer.from(JSON.stringify({ exp: 1_700_000_900 })).toString('base64url'), 'sig'].join('.')
    expect(readTokenReply({ access_token: jwt }, now).expiresAt).toBe(1_700_000_900_000)
    expect(readTokenReply({ access_token: 'f' }, now).expiresAt).toBe(now + DEFAULT_LIFETIME_SECONDS * 1000)
  })
  it('refuses a reply without a token, saying which fields it looked for', () => {
    expect(() => readTokenReply({ expires_in: 5 }, now)).toThrow(/access_token, accessToken or token/)
    expect(() => readTokenReply('nope', now)).toThrow(/not a JSON object/)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TokenManager, type TokenAccount } from '../../src/main/auth/token-manager'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { AuthorizedGet } from '../../src/main/http/authorized-get'
import { HttpClient } from '../../src/main/http/http-client'
import { failureOf } from '../fixtures/failure-of'
import { json, startServer, type TestServer } from './support'

/**
 * The query runner's GETs with a connection's token, against a real auth
 * and query host on 127.0.0.1: the token goes to its query origin only; a
 * 401 gets one renewal (ForceReauth) and one replay, never a loop;
 * redirects are followed within the origin only, three at most; a host
 * that echoes the token never gets it back into the answer.
 */

describe('authorized GET', () => {
  let server: TestServer
  let other: TestServer
  let issued = 0
  const http = new HttpClient()
  const tokens = new TokenManager(http)
  const gets = new AuthorizedGet(http, tokens)

  beforeAll(async () => {
    other = await startServer((_req, res) => json(res, 200, { message: 'the other host' }))
    server = await startServer((req, res) => {
      const path = req.url ?? '/'
      const bearer = req.headers.authorization ?? ''
      if (path === '/auth/api/auth') return json(res, 200, { access_token: `token-${++issued}-of-the-test`, token_type: 'Bearer', expires_in: 3600 })
      if (path === '/query/always-401') return json(res, 401, { message: 'Invalid or expired token' })
      // Refuses the first token it sees, takes the next.
      if (path === '/query/expire-once' && bearer === 'Bearer token-1-of-the-test') return json(res, 401, { message: 'Invalid or expired token' })
      const hop = /^\/query\/hop\/(\d+)$/.exec(path)
      if (hop && Number(hop[1]) > 0) return res.writeHead(302, { location: `/query/hop/${Number(hop[1]) - 1}` }).end()
      if (path === '/query/away') return res.writeHead(302, { location: `${other.origin}/query/x` }).end()
      json(res, 200, { path, echoed: bearer })
    })
  })
  afterAll(async () => {
    await http.close()
    await Promise.all([server.close(), other.close()])
  })

  let accounts = 0
  const account = (): TokenAccount => ({
    key: `account-${accounts++}`,
    authUrl: `${server.origin}/auth`,
    queryOrigin: server.origin,
    workspace: 'world',
    clientId: 'client',
    secret: async () => 'the-secret-of-the-test',
    cache: memorySecretStore('test memory'),
  })
  const bodyOf = (response: { body: Buffer }) => JSON.parse(response.body.toString('utf8')) as { path: string; echoed: string }
  const tokenRequests = () => server.seen.filter((seen) => seen.url === '/auth/api/auth').map((seen) => JSON.parse(seen.body).ForceReauth as boolean)
  const queriesTo = (path: string) => server.seen.filter((seen) => seen.url === path)

  it('sends the token to its query origin, and nothing to a request without an account', async () => {
    const withToken = await gets.get(`${server.origin}/query/ok`, account())
    expect(withToken.status).toBe(200)
    expect(queriesTo('/query/ok').at(-1)!.headers.authorization).toMatch(/^Bearer token-\d+-of-the-test$/)
    // A host echoing the token gets it back redacted.
    expect(bodyOf(withToken).echoed).toBe('Bearer [redacted]')
    const without = await gets.get(`${server.origin}/query/ok`, null)
    expect(bodyOf(without).echoed).toBe('')
  })

  it('never sends the token to another origin: the request is refused before it is sent', async () => {
    const refused = await failureOf(gets.get(`${other.origin}/query/x`, account()))
    expect(refused.toIpc()).toEqual({ code: 'auth', message: `The token of this connection is only sent to ${server.origin}; the request to ${other.origin} was not sent.` })
    expect(other.seen).toHaveLength(0)
  })

  it('after a 401 renews the token once (ForceReauth) and replays once: the second answer is the one given', async () => {
    issued = 0
    server.seen.length = 0
    const response = await gets.get(`${server.origin}/query/expire-once`, account())
    expect([response.status, bodyOf(response).path]).toEqual([200, '/query/expire-once'])
    expect(tokenRequests()).toEqual([false, true])
    expect(queriesTo('/query/expire-once')).toHaveLength(2)
  })

  it('a second 401 is an auth error, never a loop, and the message holds no token', async () => {
    server.seen.length = 0
    const error = await failureOf(gets.send(`${server.origin}/query/always-401`, account(), {}))
    expect(error).toMatchObject({ code: 'auth', extra: { status: 401, serviceError: 'unauthorized' } })
    expect(error.message).toMatch(/^The service refused a freshly issued token \(401: Invalid or expired token\)/)
    expect(error.message).not.toContain('token-')
    expect(tokenRequests()).toEqual([false, true])
    expect(queriesTo('/query/always-401')).toHaveLength(2)
  })

  it('follows redirects within the origin, three at most, and never one to another host', async () => {
    const three = await gets.send(`${server.origin}/query/hop/3`, account(), {})
    expect(bodyOf(three).path).toBe('/query/hop/0')
    const four = await failureOf(gets.get(`${server.origin}/query/hop/4`, account()))
    expect(four.toIpc()).toEqual({ code: 'http', message: 'The service redirected the request more than 3 times; stopped.', status: 302 })
    const away = await failureOf(gets.get(`${server.origin}/query/away`, account()))
    expect(away.message).toBe(`The service redirected the request to another host (${other.origin}); it was not followed, so that the token stays with ${server.origin}. Check the query URL.`)
    expect(other.seen).toHaveLength(0)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RunningService } from '../../src/service'
import { TokenManager, type TokenAccount } from '../../src/main/auth/token-manager'
import { probeUrls, testConnection } from '../../src/main/connections/connection-test'
import type { StoredConnection } from '../../src/main/connections/connection-store'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { HttpClient } from '../../src/main/http/http-client'
import { QueryRunner } from '../../src/main/http/query-runner'
import { json, startServer, type TestServer } from './support'
import { startWorldService } from '../fixtures/world-service'

/**
 * "Test connection" (connection-test.ts) over real HTTP: against the embedded
 * service with a real token, and a small server that answers as a deployment
 * without our API description does.
 */

describe('testConnection', () => {
  const secret = 'probe-secret'
  let service: RunningService
  let bare: TestServer
  let tokens: TokenManager
  let runner: QueryRunner

  beforeAll(async () => {
    service = await startWorldService('probe', secret)
    // A deployment of another kind: a public API with no description at its root, and a status route; nothing else.
    bare = await startServer((req, res) => {
      if (req.url === '/world/api/open/?config=default') return json(res, 404, { message: 'Not Found' })
      if (req.url === '/world/api/open/status?config=default') return json(res, 200, { status: 'up' })
      if (req.url?.startsWith('/world/api/locked/')) return json(res, 401, { message: 'Unauthorized' })
      json(res, 500, { message: 'boom' })
    })
    const http = new HttpClient()
    tokens = new TokenManager(http)
    runner = new QueryRunner(http, tokens, { ttlMs: 0 })
  })
  afterAll(async () => {
    await Promise.all([service?.close(), bare?.close()])
  })

  const serviceProfile = (extra: Partial<StoredConnection> = {}): StoredConnection => ({
    id: 'probe',
    name: 'Probe',
    authUrl: service.authUrl,
    queryUrl: service.queryUrl,
    workspace: 'world',
    api: 'places',
    clientId: 'probe',
    ...extra,
  })
  const accountOf = (connection: StoredConnection, typed: string | null = secret): TokenAccount => ({
    key: connection.id,
    authUrl: connection.authUrl,
    queryOrigin: new URL(connection.queryUrl).origin,
    workspace: connection.workspace,
    clientId: connection.clientId,
    secret: async () => typed,
    cache: memorySecretStore('test'),
  })
  const bareProfile = (api: string): StoredConnection => ({ id: api, name: api, authUrl: '', queryUrl: bare.origin, workspace: 'world', api, clientId: '' })

  it('writes the root and status URLs with the version and the configuration, "default" when none is set', () => {
    const connection = { ...bareProfile('open'), queryUrl: 'https://q.example.com/base/', version: '4' }
    expect(probeUrls(connection, 'places')).toEqual({
      root: 'https://q.example.com/base/4/world/api/places/?config=default',
      status: 'https://q.example.com/base/4/world/api/places/status?config=default',
    })
    expect(probeUrls({ ...connection, config: 'a b' }, 'places').status).toBe('https://q.example.com/base/4/world/api/places/status?config=a%20b')
  })

  it('against the embedded service: access needs a token, the token is issued, the description and status answer', async () => {
    const connection = serviceProfile()
    const checks = await testConnection(tokens, runner, connection, accountOf(connection))
    expect(checks.map((check) => [check.step, check.ok])).toEqual([
      ['access', true],
      ['token', true],
      ['description', true],
      ['status', true],
    ])
    expect(checks[0]!.message).toMatch(/^API "places" needs a token: without one it answered 40[13]\.$/)
    expect(checks[1]!.message).toMatch(/^A token was issued for workspace "world"/)
    expect(checks[2]!.message).toMatch(/^API "places" answered: \d+ endpoints?, configurations /)
  })

  it('a wrong secret fails the token step, and nothing after it is asked', async () => {
    const connection = serviceProfile({ id: 'probe-wrong' })
    const checks = await testConnection(tokens, runner, connection, accountOf(connection, 'wrong'), 'force')
    expect(checks.map((check) => [check.step, check.ok, check.code])).toEqual([
      ['access', true, undefined],
      ['token', false, 'auth'],
    ])
  })

  it('an API that does not exist fails access as every query would', async () => {
    const connection = serviceProfile({ id: 'probe-none', api: 'no-such-api' })
    const checks = await testConnection(tokens, runner, connection, accountOf(connection))
    expect(checks).toHaveLength(2)
    expect(checks[0]).toMatchObject({ step: 'access', ok: false })
  })

  it('a deployment without a description: its 404 is said, never a failure, and the status route decides', async () => {
    const checks = await testConnection(tokens, runner, bareProfile('open'), null)
    expect(checks.map((check) => [check.step, check.ok])).toEqual([
      ['access', true],
      ['token', true],
      ['description', true],
      ['status', true],
    ])
    expect(checks[0]!.message).toBe(
      'The API\'s root (…/api/open/?config=default) answered 404 without a token: Not Found. A deployment without an API description answers so; whether a token is needed is learned below.',
    )
    expect(checks[1]!.message).toBe('No client ID: queries are sent without a token (public API).')
    expect(checks[3]!.message).toBe('The status route answered 200 ("up"): API "open" with configuration "default" is served.')
  })

  it('an API that needs a token from a profile without a client ID says what to enter', async () => {
    const checks = await testConnection(tokens, runner, bareProfile('locked'), null)
    expect(checks.map((check) => [check.step, check.ok, check.code])).toEqual([
      ['access', true, undefined],
      ['token', false, 'auth'],
    ])
    expect(checks[1]!.message).toMatch(/^API "locked" needs a token, and this connection has no client ID/)
  })

  it('with no API set, nothing is asked of the Query API', async () => {
    const before = bare.seen.length
    const checks = await testConnection(tokens, runner, bareProfile(''), null)
    expect(checks.map((check) => check.step)).toEqual(['token', 'description'])
    expect(checks[1]!.message).toBe('No default API is set, so nothing was asked of the Query API.')
    expect(bare.seen.length).toBe(before)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { startService, type RunningService } from '../../src/service'
import type { ConnectionView, QueryReply } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { emptyWorkspace, type Workspace } from '../../src/shared/workspace/workspace-file'
import { openRunTarget, SECRET_VARIABLE } from '../../src/cli/run-target'
import { call, failure, json, keychainMissing, openCore, RESULTS_PAGE, search, startServer, storedToken, type TestServer } from './support'

/**
 * The main process speaking the whole Query API as the official client
 * libraries do: every response type read through the app core, tokens by
 * OAuth 2.0 client credentials (the connection's "Token request") with the
 * same keychain cache, renewal and quota handling as the seed's JSON request,
 * and the protected API description. Against the embedded service over real
 * HTTP, and against small servers that answer what the test writes. Runs
 * with the real OS keychain (inside `npm test`'s private keyring session).
 */

const missing = await keychainMissing()

const places = (steps: QueryRequest['steps'], responseType: QueryRequest['responseType'], options: QueryRequest['options'] = {}, facet?: string): QueryRequest => ({
  workspace: 'world',
  api: 'places',
  steps,
  responseType,
  ...(facet ? { facet } : {}),
  options,
})
const SAN = { endpoint: 'search', parameters: { query: 'san' } }

describe.skipIf(missing)('a connection with Token request "oauth" against the embedded service', () => {
  let service: RunningService
  let dataDir: string
  let core: AppCore
  let id: string

  const run = (request: QueryRequest, requestId = 'r') => call<QueryReply>(core, 'query:run', { connectionId: id, requestId, request })

  beforeAll(async () => {
    service = await startService({ port: 0, log: () => undefined })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-oauth-'))
    core = await openCore(dataDir)
    const view = await call<ConnectionView>(core, 'connections:save', {
      name: 'OAuth',
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      version: '4',
      workspace: service.workspace,
      api: 'places',
      clientId: service.account.clientId,
      tokenRequest: 'oauth',
    })
    id = view.id
    await call(core, 'secrets:set', { connectionId: id, secret: service.account.clientSecret })
  })
  afterAll(async () => {
    await core?.close()
    await service?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  it('keeps the choice with the profile, across a restart', async () => {
    const listed = await call<ConnectionView[]>(core, 'connections:list', {})
    expect(listed.find((view) => view.id === id)?.tokenRequest).toBe('oauth')
    const again = await openCore(dataDir)
    try {
      const reloaded = await call<ConnectionView[]>(again, 'connections:list', {})
      expect(reloaded.find((view) => view.id === id)?.tokenRequest).toBe('oauth')
    } finally {
      await again.close()
    }
  })

  it('runs a query through the app core with a token from /oauth/token, cached in the keychain and reused', async () => {
    const json = service.tokenRequestCount('json')
    const oauth = service.tokenRequestCount('oauth')
    const first = await run(places([SAN], 'results', { count: 10 }), 'a')
    expect(first.status).toBe(200)
    expect((first.body as { items: unknown[] }).items).toHaveLength(10)
    await run(places([SAN], 'count'), 'b')
    expect(service.tokenRequestCount('oauth') - oauth).toBe(1)
    expect(service.tokenRequestCount('json') - json).toBe(0)
    expect(await storedToken(id)).toMatch(/^[A-Za-z0-9_-]{20,}$/)
  })

  it('after a 401 asks once for a new token and replays once', async () => {
    await run(places([SAN], 'count'), 'warm')
    service.revokeTokens()
    const before = service.tokenRequestCount('oauth')
    const reply = await run(places([{ endpoint: 'search', parameters: { query: 'paris' } }], 'count'), 'after-revoke')
    expect(reply.status).toBe(200)
    expect(service.tokenRequestCount('oauth') - before).toBe(1)
  })

  it('Re-authenticate gets a new token from /oauth/token', async () => {
    await run(places([SAN], 'count'), 'before-reauth')
    const old = await storedToken(id)
    const before = service.tokenRequestCount('oauth')
    const view = await call<ConnectionView>(core, 'connections:reauth', { connectionId: id })
    expect(service.tokenRequestCount('oauth') - before).toBe(1)
    expect(await storedToken(id)).not.toBe(old)
    expect(view.tokenRequestsLastHour).toBeGreaterThan(0)
  })

  it('reads the protected API description (401 without a token, then with one)', async () => {
    const description = await call<{ api: string; public: boolean }>(core, 'api:describe', { connectionId: id, api: 'places' })
    expect(description).toMatchObject({ api: 'places', public: false })
  })

  it('reads every response type', async () => {
    const count = await run(places([SAN], 'count'))
    const total = (count.body as { total: number }).total
    expect(total).toBeGreaterThan(100)
    expect(count.url).toBe(`${service.queryUrl}/4/world/api/places/e/search/p/query/san/count`)

    const both = (await run(places([SAN], 'results,count', { count: 5 }))).body as [{ items: unknown[] }, { total: number }]
    expect(both[0].items).toHaveLength(5)
    expect(both[1].total).toBe(total)

    const page = (await run(places([SAN], 'resultpage', { count: 3 }))).body as { items: { tuple: Record<string, unknown>[] }[] }
    expect(page.items[0]!.tuple[0]).toMatchObject({ id: expect.any(String), class: 'city', name: expect.any(String) })

    const item = await run(places([SAN], 'resultitem', { rank: 3 }))
    expect(item.url).toMatch(/\/resultitem\?rank=3$/)
    expect(item.body).toEqual(page.items[2]!.tuple[0])

    const options = await run(places([SAN, { endpoint: 'continent:FILTER', parameters: { value: 'Europe' } }], 'options', { multiselect: true }, 'country'))
    expect(options.url).toBe(`${service.queryUrl}/4/world/api/places/e/search/p/query/san/e/continent:FILTER/p/value/Europe/options/country?multiselect=true`)
    const body = options.body as { id: string; selected: unknown[]; options: { id: string; score: number }[] }
    expect(body).toMatchObject({ id: 'country', title: 'Country', selected: [] })
    expect(body.options.find((option) => option.id === 'ES')?.score).toBeGreaterThan(0)
  })

  it('takes a bare facet value and says why a misplaced option is refused, before sending anything', async () => {
    const bare = await run(places([SAN, { endpoint: 'country:FILTER', parameters: { value: 'ES' } }], 'count'))
    const quoted = await run(places([SAN, { endpoint: 'country:FILTER', parameters: { value: '1("ES")' } }], 'count'))
    expect(bare.body).toEqual(quoted.body)
    const refused = await failure(core, 'query:run', { connectionId: id, requestId: 'x', request: places([SAN], 'statistics', { rank: 2 }) })
    expect(refused).toMatchObject({ code: 'validation', message: 'Option rank applies to resultitem only, not to statistics' })
  })

  it('accepts a request that leaves out parameters and options, as the client libraries\' Query does', async () => {
    const reply = await call<QueryReply>(core, 'query:run', {
      connectionId: id,
      requestId: 'short',
      request: { workspace: 'world', api: 'places', steps: [{ endpoint: 'countries' }], responseType: 'count' },
    })
    expect(reply.body).toEqual({ total: expect.any(Number) })
  })

  it('shows the OAuth error description of a refused token request', async () => {
    const view = await call<ConnectionView>(core, 'connections:save', {
      name: 'Wrong secret',
      authUrl: service.authUrl,
      queryUrl: service.queryUrl,
      workspace: service.workspace,
      api: 'places',
      clientId: service.account.clientId,
      tokenRequest: 'oauth',
    })
    await call(core, 'secrets:set', { connectionId: view.id, secret: 'not-the-secret' })
    const error = await failure(core, 'query:run', { connectionId: view.id, requestId: 'w', request: search('paris') })
    expect(error).toMatchObject({ code: 'auth', status: 401 })
    expect(error.message).toBe(
      'The token request was refused (401: Invalid client credentials: no account has this client id and secret (invalid_client)). Check the client ID and secret.',
    )
  })
})

describe.skipIf(missing)('the token requests on the wire', () => {
  let dataDir: string
  let core: AppCore
  let server: TestServer
  let answer: (path: string) => { status: number; body: unknown; headers?: Record<string, string> }

  beforeAll(async () => {
    server = await startServer((req, res) => {
      const reply = req.url?.startsWith('/query/') ? { status: 200, body: RESULTS_PAGE } : answer(req.url ?? '')
      json(res, reply.status, reply.body, reply.headers)
    })
  })
  afterAll(() => server.close())
  afterEach(async () => {
    await core?.close()
    rmSync(dataDir, { recursive: true, force: true })
    server.seen.length = 0
  })

  async function connect(tokenRequest?: 'json' | 'oauth'): Promise<string> {
    dataDir = mkdtempSync(join(tmpdir(), 'qe-wire-'))
    core = await openCore(dataDir)
    const view = await call<ConnectionView>(core, 'connections:save', {
      name: 'Wire',
      authUrl: `${server.origin}/auth/`,
      queryUrl: `${server.origin}/query/`,
      workspace: 'world',
      api: 'places',
      clientId: 'client one',
      ...(tokenRequest ? { tokenRequest } : {}),
    })
    await call(core, 'secrets:set', { connectionId: view.id, secret: 's3cret+&=/' })
    return view.id
  }

  it('oauth: POST <auth URL>/oauth/token, form-encoded grant_type, client_id, client_secret and the query URL, as typed, as audience', async () => {
    answer = () => ({ status: 200, body: { access_token: 'tok-1', token_type: 'Bearer', expires_in: 600 } })
    const id = await connect('oauth')
    await call(core, 'query:run', { connectionId: id, requestId: 'r', request: search('paris') })
    const [token, query] = server.seen
    expect(token).toMatchObject({ method: 'POST', url: '/auth/oauth/token' })
    expect(token!.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(Object.fromEntries(new URLSearchParams(token!.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client one',
      client_secret: 's3cret+&=/',
      audience: `${server.origin}/query/`,
    })
    expect(query!.headers.authorization).toBe('Bearer tok-1')
  })

  it('json (the default, and when the profile names none): POST <auth URL>/api/auth as the seed gives it', async () => {
    answer = () => ({ status: 200, body: { access_token: 'tok-2', token_type: 'Bearer', expires_in: 600 } })
    const id = await connect()
    await call(core, 'query:run', { connectionId: id, requestId: 'r', request: search('paris') })
    const [token] = server.seen
    expect(token).toMatchObject({ method: 'POST', url: '/auth/api/auth' })
    expect(token!.headers['content-type']).toBe('application/json-patch+json')
    expect(JSON.parse(token!.body)).toEqual({ WorkspaceName: 'world', ClientId: 'client one', ClientSecret: 's3cret+&=/', ForceReauth: false })
  })

  it('oauth: an error answer is shown by its description, or by its code when it has none', async () => {
    answer = () => ({ status: 400, body: { error: 'invalid_request', error_description: 'audience is not allowed for this client' } })
    const id = await connect('oauth')
    const described = await failure(core, 'query:run', { connectionId: id, requestId: 'r', request: search('paris') })
    expect(described.message).toBe('The token request failed (400: audience is not allowed for this client (invalid_request)).')
    answer = () => ({ status: 403, body: { error: 'unauthorized_client' } })
    const bare = await failure(core, 'query:run', { connectionId: id, requestId: 's', request: search('rome') })
    expect(bare.message).toBe('The token request was refused (403: unauthorized_client). The account does not belong to this workspace or lacks the role.')
    expect(JSON.stringify([described, bare])).not.toContain('s3cret')
  })

  it('oauth: a 429 blocks further token requests until Retry-After, as for the JSON request', async () => {
    answer = () => ({ status: 429, body: { error: 'too_many_requests', error_description: 'quota' }, headers: { 'retry-after': '120' } })
    const id = await connect('oauth')
    const first = await failure(core, 'query:run', { connectionId: id, requestId: 'r', request: search('paris') })
    expect(first).toMatchObject({ code: 'quota', retryAfterSeconds: 120 })
    const second = await failure(core, 'query:run', { connectionId: id, requestId: 's', request: search('rome') })
    expect(second.code).toBe('quota')
    expect(server.seen.filter((seen) => seen.url === '/auth/oauth/token')).toHaveLength(1)
  })
})

describe.skipIf(missing)('reading the new response types from a deployment', () => {
  let dataDir: string
  let core: AppCore
  let server: TestServer
  let body: unknown
  let id: string

  beforeAll(async () => {
    server = await startServer((_req, res) => json(res, 200, body))
    dataDir = mkdtempSync(join(tmpdir(), 'qe-shapes-'))
    core = await openCore(dataDir)
    const view = await call<ConnectionView>(core, 'connections:save', { name: 'Shapes', authUrl: '', queryUrl: server.origin, workspace: 'world', api: 'public', clientId: '' })
    id = view.id
  })
  afterAll(async () => {
    await core?.close()
    await server.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const ask = (request: QueryRequest) => core.dispatch('query:run', { connectionId: id, requestId: 'r', request, fresh: true })
  const steps = [{ endpoint: 'search', parameters: { query: 'x' } }]

  it('reads an options answer without title or selected (selecting nothing), as the client libraries check it, keeping fields it does not know', async () => {
    body = { id: 'genre', options: [{ id: 'g1', score: 3, value: 'g1', title: 'Drama', extra: true }] }
    const reply = await ask(places(steps, 'options', {}, 'genre'))
    expect(reply).toMatchObject({ ok: true, data: { body: { id: 'genre', selected: [], options: [{ id: 'g1', extra: true }] } } })
  })

  it.each([
    ['options', { id: 'genre', options: 'none' }, 'options'],
    ['results,count', [RESULTS_PAGE], 'body: expected a list of [results, statistics]'],
    ['results,count', [RESULTS_PAGE, { total: 'many' }], '1.total'],
    ['results,count', [{ ...RESULTS_PAGE, items: 'x' }, { total: 1, stats: [] }], '0.items'],
    ['resultpage', { offset: 0, count: 10, items: [{ rank: 1, probability: 1, tuple: ['text'] }] }, 'items.0.tuple'],
    ['resultitem', ['not', 'an', 'object'], 'body'],
  ] as const)('refuses a %s answer of the wrong shape, saying where', async (type, answer, where) => {
    body = answer
    const reply = await ask(places(steps, type, {}, type === 'options' ? 'genre' : undefined))
    expect(reply.ok).toBe(false)
    if (!reply.ok) {
      expect(reply.error.code).toBe('bad_response')
      expect(reply.error.message).toContain(`The ${type} response does not have the expected shape (${where}`)
    }
  })
})

describe.skipIf(missing)('an auth server that matches the audience exactly, as Auth0 does', () => {
  let server: TestServer
  let dataDir: string
  let core: AppCore
  /** The one audience the auth server issues tokens for; anything else is 403 "Service not found". */
  let accepted: string

  beforeAll(async () => {
    server = await startServer((req, res, body) => {
      if (req.url === '/auth/oauth/token') {
        const audience = new URLSearchParams(body).get('audience')
        if (audience !== accepted) return json(res, 403, { error: 'access_denied', error_description: 'Service not found' })
        return json(res, 200, { access_token: 'aud-token', token_type: 'Bearer', expires_in: 600 })
      }
      if (req.headers.authorization !== 'Bearer aud-token') return json(res, 401, { message: 'Invalid or expired token' })
      return json(res, 200, RESULTS_PAGE)
    })
    dataDir = mkdtempSync(join(tmpdir(), 'qe-audience-'))
    core = await openCore(dataDir)
  })
  afterAll(async () => {
    await core?.close()
    await server?.close()
    rmSync(dataDir, { recursive: true, force: true })
  })

  const profile = (extra: Partial<ConnectionView> = {}) => ({
    name: `Exact ${Math.random()}`,
    authUrl: `${server.origin}/auth`,
    queryUrl: `${server.origin}/query/`,
    version: '4',
    workspace: 'world',
    api: 'places',
    clientId: 'm2m',
    tokenRequest: 'oauth' as const,
    ...extra,
  })
  const audiencesSent = () => server.seen.filter((seen) => seen.url === '/auth/oauth/token').map((seen) => new URLSearchParams(seen.body).get('audience'))

  async function saved(extra: Partial<ConnectionView> = {}): Promise<string> {
    const view = await call<ConnectionView>(core, 'connections:save', profile(extra))
    await call(core, 'secrets:set', { connectionId: view.id, secret: 'm2m-secret' })
    return view.id
  }

  it('a query URL ending in "/" is the audience with its slash: the token comes and the query runs', async () => {
    accepted = `${server.origin}/query/`
    server.seen.length = 0
    const id = await saved()
    const reply = await call<QueryReply>(core, 'query:run', { connectionId: id, requestId: 'slash', request: search('paris') })
    expect(reply.status).toBe(200)
    expect(audiencesSent()).toEqual([`${server.origin}/query/`])
  })

  it('an explicit Audience is sent instead of the query URL, exactly as typed but for surrounding space', async () => {
    accepted = 'https://rest.spinque.com/'
    server.seen.length = 0
    const id = await saved({ audience: '  https://rest.spinque.com/ ' })
    const listed = await call<ConnectionView[]>(core, 'connections:list', {})
    expect(listed.find((view) => view.id === id)?.audience).toBe('https://rest.spinque.com/')
    const reply = await call<QueryReply>(core, 'query:run', { connectionId: id, requestId: 'explicit', request: search('rome') })
    expect(reply.status).toBe(200)
    expect(audiencesSent()).toEqual(['https://rest.spinque.com/'])
  })

  it('says what the auth server said when the audience is not the one it knows', async () => {
    accepted = 'https://rest.spinque.com/'
    const id = await saved()
    const refused = await failure(core, 'query:run', { connectionId: id, requestId: 'other', request: search('oslo') })
    expect(refused).toMatchObject({ code: 'auth', status: 403 })
    expect(refused.message).toContain('Service not found (access_denied)')
  })

  it('a changed Audience gets a token of its own, not the one issued for the old one', async () => {
    accepted = 'urn:first'
    server.seen.length = 0
    const id = await saved({ audience: 'urn:first' })
    expect((await call<QueryReply>(core, 'query:run', { connectionId: id, requestId: 'first', request: search('bern'), fresh: true })).status).toBe(200)
    const view = (await call<ConnectionView[]>(core, 'connections:list', {})).find((each) => each.id === id)!
    const { id: _id, builtIn: _b, hasSecret: _h, tokenRequestsLastHour: _t, secretStore: _s, tokenExpiresAt: _e, retryAt: _r, ...input } = view
    accepted = 'urn:second'
    await call(core, 'connections:save', { ...input, id, audience: 'urn:second' })
    expect((await call<QueryReply>(core, 'query:run', { connectionId: id, requestId: 'second', request: search('bern'), fresh: true })).status).toBe(200)
    expect(audiencesSent()).toEqual(['urn:first', 'urn:second'])
  })

  it('Test connection on an unsaved form sends the form’s audience', async () => {
    accepted = 'api://exact'
    server.seen.length = 0
    const result = await call<{ ok: boolean; checks: { step: string; ok: boolean }[] }>(core, 'connections:check', {
      connection: profile({ audience: 'api://exact' }),
      secret: 'typed-secret',
    })
    expect(result.checks.find((check) => check.step === 'token')).toMatchObject({ ok: true })
    expect(audiencesSent()).toEqual(['api://exact'])
  })

  it('the command line sends a workspace file connection’s audience, else its query URL as written', async () => {
    for (const [audience, expected] of [
      [undefined, `${server.origin}/query/`],
      ['urn:file-audience', 'urn:file-audience'],
    ] as const) {
      accepted = expected
      server.seen.length = 0
      const workspace: Workspace = {
        ...emptyWorkspace(),
        connections: [{ id: 'c1', ...profile(audience ? { audience } : {}), name: 'Exact' }],
      }
      const run = await openRunTarget(workspace, {}, { [SECRET_VARIABLE]: 'm2m-secret' }, 'exact.qxw.json')
      try {
        await run.warmUp(() => undefined)
        const reply = await run.runner.run('cli', run.target, search('lima'), { fresh: true })
        expect(reply.status).toBe(200)
      } finally {
        await run.close()
      }
      expect(audiencesSent()).toEqual([expected])
    }
  })
})

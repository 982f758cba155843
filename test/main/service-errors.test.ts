import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import type { AppCore } from '../../src/main/app/app-core'
import type { ConnectionTest, ConnectionView } from '../../src/shared/ipc/contract'
import type { QueryRequest } from '../../src/shared/query/model'
import { cliInProcess } from '../cli/spawn-cli'
import { call, failure, json, keychainMissing, openCore, RESULTS_PAGE, startServer, type TestServer } from './support'

/**
 * Error statuses read as the official clients type them (SERVICE-CONTRACT
 * "Real deployments"), and worded once (shared/query/error-answer-text.ts): the
 * main process's reply and the command line's output carry the same
 * sentence, naming what to check. A double of a real deployment (version
 * segment, `{message}` errors, no API description, a status route) answers
 * each case over real HTTP; the embedded service answers those it produces.
 */

const missing = await keychainMissing()
const SECRET = `double-${randomBytes(12).toString('hex')}`
const TOKEN = `token-${randomBytes(12).toString('hex')}`

/** A deployment as the official clients expect one: `/4/shop/api/products/…`, a token needed, no description. */
function deployment(): Promise<TestServer> {
  return startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://double')
    if (url.pathname === '/auth/api/auth') return json(res, 200, { access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 })
    const prefix = '/query/4/shop/api/'
    if (!url.pathname.startsWith(prefix)) return json(res, 404, { message: `No such api: nothing at ${url.pathname}` })
    const [api = '', ...rest] = url.pathname.slice(prefix.length).split('/')
    if (api !== 'products' && api !== 'strict') return json(res, 404, { message: `No such api: shop/${api}` })
    // "strict" refuses every token: as an API does whose auth server issued it for another audience.
    if (api === 'strict' || req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { message: 'Unauthorized' })
    const config = url.searchParams.get('config') ?? 'default'
    if (config !== 'default') return json(res, 404, { message: `No such workspace configuration: shop/${config}` })
    if (rest.join('/') === '') return json(res, 404, { message: 'Not Found' })
    if (rest[0] === 'status') return json(res, 200, { status: 'ok' })
    // The chain's last endpoint decides: `e/<name>` pairs, the response type after them.
    const endpoint = decodeURIComponent(rest.filter((_segment, at) => rest[at - 1] === 'e').at(-1) ?? '')
    switch (endpoint) {
      case 'search':
        return json(res, 200, RESULTS_PAGE)
      case 'boom':
        return json(res, 500, { message: 'Internal server error' })
      case 'teapot':
        res.writeHead(418)
        return res.end()
      case 'odd':
        return json(res, 409, { message: 'Conflict \u001b[2J\u202e here' })
      default:
        return json(res, 400, { message: `no endpoint ${endpoint}` })
    }
  })
}

const request = (endpoints: string[], options: QueryRequest['options'] = {}, api = 'products', workspace = 'shop'): QueryRequest => ({
  workspace,
  api,
  steps: endpoints.map((endpoint): { endpoint: string; parameters: Record<string, string> } => ({ endpoint, parameters: endpoint === 'search' ? { query: 'shoe' } : {} })),
  responseType: 'results',
  options: { count: 10, ...options },
})

/** Each case: the request, and the sentence both the window and the command line show. */
const CASES: { name: string; request: QueryRequest; status: number; sentence: string }[] = [
  {
    name: 'no such api',
    request: request(['search'], {}, 'gone'),
    status: 404,
    sentence: 'The service answered 404: No such api: shop/gone. Check the API name ("gone") and the workspace ("shop"): the service has no such API in that workspace.',
  },
  {
    name: 'no such configuration',
    request: request(['search'], { config: 'staging' }),
    status: 404,
    sentence:
      'The service answered 404: No such workspace configuration: shop/staging. Check the configuration: "staging" was sent, and workspace "shop" has no configuration of that name.',
  },
  {
    name: 'no endpoint',
    request: request(['search', 'nope']),
    status: 400,
    sentence: 'The service answered 400: no endpoint nope. Check the endpoint name "nope": API "products" has no endpoint of that name.',
  },
  {
    name: 'server error',
    request: request(['boom']),
    status: 500,
    sentence:
      "The service answered 500: Internal server error. This is a fault of the service, not of the request: try again later, or report the request URL to the service's administrators.",
  },
  { name: 'no body', request: request(['teapot']), status: 418, sentence: 'The service answered 418: no message (the body is empty).' },
  { name: 'controls in the message', request: request(['odd']), status: 409, sentence: 'The service answered 409: Conflict \\x1b[2J⟨U+202E⟩ here' },
  {
    name: 'a token refused',
    request: request(['search'], {}, 'strict'),
    status: 401,
    sentence:
      "The service refused a freshly issued token (401: Unauthorized). Check the connection's client ID and secret, its Token request (the /api/auth route or OAuth) and auth URL, and for OAuth its Audience: the Query API accepts only tokens issued for it.",
  },
]

const NO_TOKEN_SENT =
  'The service answered 401: Unauthorized. This API needs a token and none was sent: give the connection a client ID and secret (with the Token request and auth URL its deployment uses).'

/** The embedded service's own refusals, on its public API (no token). */
const EMBEDDED: { name: string; request: QueryRequest; sentence: string }[] = [
  {
    name: 'unknown api',
    request: request(['search'], {}, 'nope', 'world'),
    sentence: 'The service answered 404: No such api: world/nope. Check the API name ("nope") and the workspace ("world"): the service has no such API in that workspace.',
  },
  {
    name: 'unknown config',
    request: request(['search'], { config: 'nope' }, 'public', 'world'),
    sentence:
      'The service answered 404: No such workspace configuration: world/nope. Check the configuration: "nope" was sent, and workspace "world" has no configuration of that name.',
  },
  {
    name: 'unknown endpoint',
    request: request(['search', 'nope'], {}, 'public', 'world'),
    sentence:
      'The service answered 400: no endpoint named "nope" in api "public" (it has: search, country, country:FILTER, city, countries). Check the endpoint name "nope": API "public" has no endpoint of that name.',
  },
]

describe('error statuses as the official clients type them', () => {
  let double: TestServer
  let service: RunningService
  const dir = mkdtempSync(join(tmpdir(), 'qe-service-errors-'))

  beforeAll(async () => {
    double = await deployment()
    service = await startService({ port: 0, log: () => undefined })
  })
  afterAll(async () => {
    await Promise.all([double?.close(), service?.close()])
    rmSync(dir, { recursive: true, force: true })
  })

  const shop = () => ({ name: 'Shop', authUrl: `${double.origin}/auth`, queryUrl: `${double.origin}/query`, version: '4', workspace: 'shop', api: 'products', config: 'default', clientId: 'shop-ci' })
  const world = () => ({ name: 'World', authUrl: service.authUrl, queryUrl: service.queryUrl, workspace: 'world', api: 'public', config: 'default', clientId: '' })

  describe.skipIf(missing)('in the main process reply', () => {
    let dataDir: string
    let core: AppCore
    let shopId: string
    let anonymousId: string
    let worldId: string

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'qe-service-errors-core-'))
      core = await openCore(dataDir, { replyCache: { ttlMs: 0 } })
      shopId = (await call<ConnectionView>(core, 'connections:save', shop())).id
      await call(core, 'secrets:set', { connectionId: shopId, secret: SECRET })
      anonymousId = (await call<ConnectionView>(core, 'connections:save', { ...shop(), name: 'Shop, no client ID', clientId: '' })).id
      worldId = (await call<ConnectionView>(core, 'connections:save', world())).id
    })
    afterAll(async () => {
      await core?.close()
      rmSync(dataDir, { recursive: true, force: true })
    })

    it('a query that works on the double works: the sentences below are about the request, not the set-up', async () => {
      expect((await call<{ status: number }>(core, 'query:run', { connectionId: shopId, requestId: 'ok', request: request(['search']) })).status).toBe(200)
    })

    for (const { name, request: sent, status, sentence } of CASES) {
      it(`${name}: ${status}`, async () => {
        const error = await failure(core, 'query:run', { connectionId: shopId, requestId: name, request: sent })
        expect(error.message).toBe(sentence)
        expect(error.status).toBe(status)
      })
    }

    it('the kind and the server\'s own words travel beside the sentence', async () => {
      const reply = await core.dispatch('query:run', { connectionId: shopId, requestId: 'kind', request: CASES[1]!.request })
      expect(reply).toMatchObject({ ok: false, error: { code: 'http', serviceError: 'config-not-found', serverMessage: 'No such workspace configuration: shop/staging' } })
      const refused = await core.dispatch('query:run', { connectionId: shopId, requestId: 'refused', request: request(['search'], {}, 'strict') })
      expect(refused).toMatchObject({ ok: false, error: { code: 'auth', serviceError: 'unauthorized' } })
    })

    it('401 without a token: the API needs one, and the connection has none', async () => {
      const error = await failure(core, 'query:run', { connectionId: anonymousId, requestId: 'anonymous', request: request(['search']) })
      expect(error).toMatchObject({ code: 'auth', status: 401, message: NO_TOKEN_SENT })
    })

    for (const { name, request: sent, sentence } of EMBEDDED) {
      it(`the embedded service: ${name}`, async () => {
        expect((await failure(core, 'query:run', { connectionId: worldId, requestId: name, request: sent })).message).toBe(sentence)
      })
    }

    it('Test connection passes on the double: no description (404) is said, not failed; the status route answers', async () => {
      const result = await call<ConnectionTest>(core, 'connections:test', { connectionId: shopId })
      expect(result.checks.map((check) => [check.step, check.ok])).toEqual([['access', true], ['token', true], ['description', true], ['status', true]])
      expect(result.ok).toBe(true)
      expect(result.checks[0]!.message).toBe('API "products" needs a token: without one it answered 401.')
      expect(result.checks[2]!.message).toBe('API "products" serves no API description (404: Not Found): endpoints and parameters are typed by name, and facets declared by hand.')
      expect(result.checks[3]!.message).toBe('The status route answered 200 ("ok"): API "products" with configuration "default" is served.')
      // As the official clients send them: the version segment, a trailing slash, config always.
      const probes = double.seen.filter((seen) => seen.url.startsWith('/query/4/shop/api/products/?') || seen.url.includes('/status?'))
      expect(probes.map((seen) => [seen.url, seen.headers.authorization === undefined ? 'no token' : 'token'])).toEqual([
        ['/query/4/shop/api/products/?config=default', 'no token'],
        ['/query/4/shop/api/products/?config=default', 'token'],
        ['/query/4/shop/api/products/status?config=default', 'token'],
      ])
    })

    it('Test connection fails where every query would: a token the Query API refuses', async () => {
      const strict = (await call<ConnectionView>(core, 'connections:save', { ...shop(), name: 'Strict', api: 'strict' })).id
      await call(core, 'secrets:set', { connectionId: strict, secret: SECRET })
      const result = await call<ConnectionTest>(core, 'connections:test', { connectionId: strict })
      expect(result.ok).toBe(false)
      expect(result.checks.map((check) => [check.step, check.ok])).toEqual([['access', true], ['token', true], ['description', false]])
      expect(result.checks[2]).toMatchObject({ code: 'auth', status: 401, message: CASES[6]!.sentence })
    })
  })

  describe('in the command line output', () => {
    function workspaceFile(name: string, connection: Record<string, unknown>, cases: { name: string; request: QueryRequest }[]): string {
      const file = join(dir, name)
      const queries = cases.map((each) => ({ name: each.name, connection: 'c', request: each.request }))
      const tests = cases.map((each) => ({ name: each.name, query: each.name, expect: {} }))
      writeFileSync(file, JSON.stringify({ format: 'query-explorer-workspace', version: 1, connections: [{ id: 'c', ...connection }], queries, tests }))
      return file
    }

    it('`test` prints each sentence under its case, and exits 1', async () => {
      const file = workspaceFile('shop.qxw.json', shop(), [{ name: 'works', request: request(['search']) }, ...CASES])
      const run = await cliInProcess(['test', file], { env: { QUERY_EXPLORER_CLIENT_SECRET: SECRET } })
      expect(run.status, run.stdout + run.stderr).toBe(1)
      expect(run.stdout).toContain(`1 passed, ${CASES.length} failed`)
      for (const { status, sentence } of CASES) {
        // The case's line quotes the service's words after its status, as the expectations judge them.
        const said = sentence.replace(/^The service answered \d{3}: /, '')
        expect(run.stdout).toContain(`status 200: expected 200, got ${status}: ${said}`)
      }
      expect(run.stdout).not.toContain('\u001b')
      expect(run.stdout + run.stderr).not.toContain(SECRET)
    })

    it('`test` without a client ID: the 401 says a token is needed', async () => {
      const file = workspaceFile('anonymous.qxw.json', { ...shop(), clientId: '' }, [{ name: 'anonymous', request: request(['search']) }])
      const run = await cliInProcess(['test', file])
      expect(run.status, run.stdout + run.stderr).toBe(1)
      expect(run.stdout).toContain(`got 401: ${NO_TOKEN_SENT.replace(/^The service answered 401: /, '')}`)
    })

    it('`test` on the embedded service: unknown api, config and endpoint', async () => {
      const file = workspaceFile('world.qxw.json', world(), EMBEDDED)
      const run = await cliInProcess(['test', file])
      expect(run.status, run.stdout + run.stderr).toBe(1)
      for (const { sentence } of EMBEDDED) expect(run.stdout).toContain(sentence.replace(/^The service answered \d{3}: /, ''))
    })

    it('`compare` prints the failed side with the same sentence, and exits 1', async () => {
      const file = workspaceFile('compare.qxw.json', shop(), [{ name: 'search', request: request(['search']) }])
      const run = await cliInProcess(['compare', file, '--query', 'search', '--a', 'config=default', '--b', 'config=staging'], { env: { QUERY_EXPLORER_CLIENT_SECRET: SECRET } })
      expect(run.status, run.stdout + run.stderr).toBe(1)
      expect(run.stdout).toContain(`B  Shop, config staging: failed: ${CASES[1]!.sentence}`)
    })
  })
})

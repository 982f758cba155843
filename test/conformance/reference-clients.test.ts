import { createRequire } from 'node:module'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../src/service'
import { SECRET_VARIABLE, copyAsText, type CopyAsConnection, type CopyAsKind } from '../../src/shared/copy-as/copy-as'
import { pythonClientUrl, typeScriptClientUrl } from '../../src/shared/copy-as/client-urls'
import type { QueryRequest, ResponseType } from '../../src/shared/query/model'
import { startRealDeployment, type RealDeployment } from '../fixtures/real-deployment'
import { bounded, openReferenceClients, type ProgramRun, type ReferenceClients } from './reference-clients'
import { locateReferenceClients, referenceClientsRequired } from './reference-clients-location'
import { BY_TYPE, embeddedConnection, expectedFirst, firstItem, request, search, serviceToken } from './scenarios'

/**
 * Conformance with the official clients (../shared/reference-clients), run
 * as they are published, against the embedded service and against a test
 * double of a real deployment (exact OAuth audience, a version segment, no
 * description of ours, `{message}` errors, unknown options ignored):
 * first the clients themselves, then every "Copy as" text the app writes,
 * run as a user would run it (tsx, python3, bash).
 *
 * A clone without the clients skips the suite with its reason; where they
 * are required (CI), their absence fails.
 */

const location = locateReferenceClients()
// Said when the file is read: vitest does not print what a skipped test wrote.
if (!location.found && !referenceClientsRequired()) console.warn(`Conformance tests skipped: ${location.reason}`)

if (!location.found) {
  describe('conformance with the official clients', () => {
    it(`is skipped: ${location.reason}`, ({ skip }) => {
      if (referenceClientsRequired()) throw new Error(`The conformance suite is required here (QE_REQUIRE_REFERENCE_CLIENTS=1), but ${location.reason}`)
      skip(location.reason)
    })
  })
}

describe.runIf(location.found)('conformance with the official clients', () => {
  let service: RunningService
  let deployment: RealDeployment
  /** The same deployment kind, also serving the seed's JSON token route, and a description of another shape. */
  let jsonDeployment: RealDeployment
  /** One whose auth server knows the API by an identifier of its own, not its query URL. */
  let audienceDeployment: RealDeployment
  const AUDIENCE = 'https://rest.example.org/'
  let clients: ReferenceClients
  let token: string

  beforeAll(async () => {
    ;[service, clients] = await Promise.all([startService({ port: 0, log: () => {}, quota: 1_000_000 }), openReferenceClients(location.found ? location.dir : '')])
    deployment = await startRealDeployment({ service })
    jsonDeployment = await startRealDeployment({ service, jsonTokenRoute: true, description: 'other-shape' })
    audienceDeployment = await startRealDeployment({ service, audience: AUDIENCE })
    token = await serviceToken(service)
  })
  afterAll(async () => {
    await deployment?.close()
    await jsonDeployment?.close()
    await audienceDeployment?.close()
    await service?.close()
    clients?.close()
  })

  const TYPES = Object.keys(BY_TYPE) as ResponseType[]

  describe('the official TypeScript client, as published', () => {
    const load = () => createRequire(__filename)(clients.typeScriptClientDir) as any
    const noCache = { get: () => null, set: () => {} }
    const targets = () => [
      { name: 'the embedded service', baseUrl: service.queryUrl, authServer: service.authUrl },
      { name: 'a real deployment', baseUrl: deployment.queryUrl, authServer: deployment.authUrl },
      { name: 'a real deployment with a description of its own', baseUrl: jsonDeployment.queryUrl, authServer: jsonDeployment.authUrl },
    ]
    const clientApi = (baseUrl: string, authServer: string, extra: Record<string, unknown> = {}) => {
      const { Api } = load()
      return new Api({
        baseUrl,
        workspace: 'world',
        api: 'places',
        authentication: { type: 'client-credentials', clientId: service.account.clientId, clientSecret: service.account.clientSecret, authServer, tokenCache: noCache },
        ...extra,
      })
    }
    /** The request model as the client's queries: a facet's options endpoint goes last. */
    const queriesOf = (query: QueryRequest) => [...query.steps, ...(query.facet ? [{ endpoint: query.facet }] : [])]

    for (const target of ['the embedded service', 'a real deployment', 'a real deployment with a description of its own']) {
      it(`runs every request type on ${target}, with the answer the service gives`, async () => {
        const { baseUrl, authServer } = targets().find((candidate) => candidate.name === target)!
        const api = clientApi(baseUrl, authServer)
        for (const type of TYPES) {
          const query = BY_TYPE[type]
          const { config: _config, ...options } = query.options
          const answer = await api.fetch(queriesOf(query), options, type)
          expect(firstItem(type, answer), type).toEqual(await expectedFirst(service, token, query))
        }
      })
    }

    it("sends the base URL, slash and all, as the OAuth audience: the deployment accepts exactly that, and refuses it without the slash", async () => {
      const before = deployment.requests.length
      await clientApi(deployment.queryUrl, deployment.authUrl).fetch([search()], {}, 'count')
      const tokenRequests = deployment.requests.slice(before).filter((seen) => seen.host === 'auth')
      expect(tokenRequests.map((seen) => [seen.audience, seen.status])).toEqual([[deployment.queryUrl, 200]])

      const bare = deployment.queryUrl.replace(/\/$/, '')
      await expect(clientApi(bare, deployment.authUrl).fetch([search()], {}, 'count')).rejects.toThrow('Service not found')
    })

    it('uses one token for many requests, and after a revocation renews it once and replays', async () => {
      const api = clientApi(service.queryUrl, service.authUrl)
      const before = service.tokenRequestCount()
      await api.fetch([search()], {}, 'count')
      await api.fetch([search()], {}, 'count')
      expect(service.tokenRequestCount() - before).toBe(1)
      service.revokeTokens()
      expect(await api.fetch([search()], {}, 'count')).toEqual({ total: expect.any(Number) })
      expect(service.tokenRequestCount() - before).toBe(2)
      token = await serviceToken(service)
    })

    it('sees a public API as public (its description answers without a token) and sends it no token', async () => {
      const before = service.tokenRequestCount()
      const api = clientApi(service.queryUrl, service.authUrl, { api: 'public' })
      expect((await api.fetch([search()])).items.length).toBeGreaterThan(0)
      expect(api.authentication).toBeUndefined()
      expect(service.tokenRequestCount()).toBe(before)
    })

    it("filters by a single-select facet (the bare id) and a multiple one (1(a)|1(b)), with the client's own tuple writer", async () => {
      const { tupleListToString } = load()
      const api = clientApi(deployment.queryUrl, deployment.authUrl)
      const total = async (value: string) => (await api.fetch([search(), { endpoint: 'country:FILTER', parameters: { value } }], {}, 'count')).total as number
      const spain = await total('ES')
      const mexico = await total('MX')
      expect(spain).toBeGreaterThan(0)
      expect(await total(tupleListToString(['ES', 'MX']))).toBe(spain + mexico)
      // A facet's options are asked without its own filter, under the others: Spain counts its cities, Mexico is not in Europe.
      const options = await api.fetch([search(), { endpoint: 'continent:FILTER', parameters: { value: 'Europe' } }, { endpoint: 'country' }], {}, 'options')
      expect(options.options.find((option: { id: string }) => option.id === 'ES').score).toBe(spain)
      expect(options.options.some((option: { id: string }) => option.id === 'MX')).toBe(false)
    })

    it('gets the error classes it matches on, from {message} bodies on the embedded service and the deployment alike', async () => {
      const { EndpointNotFoundError, ApiNotFoundError, WorkspaceConfigNotFoundError, UnauthorizedError, Api } = load()
      for (const { baseUrl, authServer } of targets()) {
        await expect(clientApi(baseUrl, authServer).fetch([{ endpoint: 'lookup' }])).rejects.toBeInstanceOf(EndpointNotFoundError)
        await expect(clientApi(baseUrl, authServer).fetch([search(), { endpoint: 'genre' }], {}, 'options')).rejects.toBeInstanceOf(EndpointNotFoundError)
        await expect(clientApi(baseUrl, authServer, { config: 'staging' }).fetch([search()])).rejects.toBeInstanceOf(WorkspaceConfigNotFoundError)
        await expect(clientApi(baseUrl, authServer, { api: 'weather' }).fetch([search()])).rejects.toBeInstanceOf(ApiNotFoundError)
        await expect(new Api({ baseUrl, workspace: 'world', api: 'places' }).fetch([search()])).rejects.toBeInstanceOf(UnauthorizedError)
      }
    })

    it('is told why a token is refused, in the message it throws', async () => {
      const { Api } = load()
      const api = new Api({
        baseUrl: service.queryUrl,
        workspace: 'world',
        api: 'places',
        authentication: { type: 'client-credentials', clientId: service.account.clientId, clientSecret: 'not-the-secret', authServer: service.authUrl, tokenCache: noCache },
      })
      await expect(api.fetch([search()])).rejects.toThrow(/^Invalid client credentials/)
    })
  })

  describe('the official Python client, as published', () => {
    const program = (baseUrl: string, authServer: string, type: 'RESULTS' | 'STATISTICS') =>
      [
        'import json, os',
        'from spinque_query_api import Api, Authentication, Query, RequestType',
        `auth = Authentication(client_id=${JSON.stringify(service.account.clientId)}, client_secret=os.environ["SECRET"], base_url=${JSON.stringify(baseUrl)}, auth_server=${JSON.stringify(authServer)})`,
        `api = Api(workspace="world", api="places", base_url=${JSON.stringify(baseUrl)}, authentication=auth)`,
        `print(json.dumps(api.fetch([Query(endpoint="search", parameters=[("query", "san")])], {"count": 3, "dev_version": "master"}, RequestType.${type})))`,
      ].join('\n')

    it('asks results and statistics with client credentials, on the embedded service and a real deployment (which ignores dev_version)', async () => {
      const before = deployment.requests.length
      const runs = await bounded(4, [
        () => clients.runPython(program(deployment.queryUrl, deployment.authUrl, 'RESULTS'), { SECRET: service.account.clientSecret }),
        () => clients.runPython(program(deployment.queryUrl, deployment.authUrl, 'STATISTICS'), { SECRET: service.account.clientSecret }),
      ])
      for (const run of runs) expect(run.code, run.stderr).toBe(0)
      expect(firstItem('results', JSON.parse(runs[0]!.stdout))).toEqual(await expectedFirst(service, token, BY_TYPE.results))
      expect(firstItem('statistics', JSON.parse(runs[1]!.stdout))).toEqual(await expectedFirst(service, token, BY_TYPE.statistics))
      const seen = deployment.requests.slice(before)
      expect(seen.filter((entry) => entry.host === 'auth').map((entry) => entry.audience)).toEqual([deployment.queryUrl, deployment.queryUrl])
      // Run side by side, so in either order: statistics takes no count either.
      expect(seen.filter((entry) => entry.host === 'query').map((entry) => entry.dropped?.join('&')).sort()).toEqual(['count=3&dev_version=master', 'dev_version=master'])
      // The embedded service takes the results program as it is (its query URL has no slash; it accepts the audience either way, and keeps no unknown option).
      const embedded = await clients.runPython(program(service.queryUrl, service.authUrl, 'RESULTS'), { SECRET: service.account.clientSecret })
      expect(embedded.code, embedded.stderr).toBe(0)
      expect(firstItem('results', JSON.parse(embedded.stdout))).toEqual(await expectedFirst(service, token, BY_TYPE.results))
    })
  })

  /** One way to run a "Copy as" text: the program, or for `url` the URL with a token, as a user would paste it into a client. */
  async function runText(kind: CopyAsKind, text: string, connection: CopyAsConnection): Promise<ProgramRun> {
    const env = { [SECRET_VARIABLE]: service.account.clientSecret }
    if (kind === 'typescript') return clients.runTypeScript(text, env)
    if (kind === 'python') return clients.runPython(text, env)
    if (kind === 'curl') return clients.runBash(text, env)
    const response = await fetch(text, { headers: connection.clientId ? { Authorization: `Bearer ${token}` } : {} })
    return { code: response.status === 200 ? 0 : response.status, stdout: await response.text(), stderr: '' }
  }

  interface Scenario {
    name: string
    request: QueryRequest
    /** The connection on each target; left out: OAuth with a version segment. */
    connection?: (target: 'embedded' | 'deployment') => CopyAsConnection
    /** Only where it can run: a connection with no version segment has no real deployment to reach. */
    embeddedOnly?: boolean
  }

  function deploymentConnection(overrides: Partial<CopyAsConnection> = {}): CopyAsConnection {
    return embeddedConnection(service, { authUrl: deployment.authUrl, queryUrl: deployment.queryUrl, ...overrides })
  }

  const SCENARIOS: Scenario[] = [
    ...TYPES.map((type) => ({ name: type, request: BY_TYPE[type] })),
    { name: 'a facet filter', request: request('results', [search(), { endpoint: 'country:FILTER', parameters: { value: 'ES' } }], { count: 3 }) },
    { name: 'a context step', request: request('results', [{ context: { query: 'san' } }, { endpoint: 'search', parameters: {} }], { count: 3 }) },
    { name: 'an option the app does not know', request: request('results', [search()], { count: 3, extra: { dev_version: 'master' } }) },
    { name: 'a value with a slash, spaces and quotes', request: request('count', [search(`san "jose" / x`)]) },
    { name: 'a value with a bidi control and a character beyond U+FFFF', request: request('count', [search('san \u202ejose\u202c \u{1F600}')]) },
    {
      name: 'a connection on the JSON token route (/api/auth)',
      request: BY_TYPE.results,
      connection: (target) =>
        target === 'embedded'
          ? embeddedConnection(service, { tokenRequest: 'json' })
          : embeddedConnection(service, { authUrl: jsonDeployment.authUrl, queryUrl: jsonDeployment.queryUrl, tokenRequest: 'json' }),
    },
    {
      name: 'an Audience set apart from a query URL typed without its slash',
      request: BY_TYPE.options,
      connection: (target) =>
        target === 'embedded'
          ? embeddedConnection(service, { audience: `${service.queryUrl}/` })
          : deploymentConnection({ queryUrl: deployment.queryUrl.replace(/\/$/, ''), audience: deployment.queryUrl }),
    },
    {
      name: 'an Audience other than the query URL',
      request: BY_TYPE.resultitem,
      connection: (target) =>
        target === 'embedded'
          ? embeddedConnection(service, { audience: `${service.queryUrl}//` })
          : embeddedConnection(service, { authUrl: audienceDeployment.authUrl, queryUrl: audienceDeployment.queryUrl, audience: AUDIENCE }),
    },
    {
      name: 'a public API, no client ID',
      request: request('results', [search()], { count: 3 }, { api: 'public' }),
      connection: (target) => (target === 'embedded' ? embeddedConnection(service, { api: 'public', clientId: '' }) : deploymentConnection({ api: 'public', clientId: '' })),
    },
    { name: 'no version segment', request: BY_TYPE['results,count'], connection: () => embeddedConnection(service, { version: undefined }), embeddedOnly: true },
  ]

  describe('"Copy as": every kind runs unmodified and prints the answer the service gives', () => {
    it('for every response type, a facet filter, a context step, an unknown option, the JSON token route, an Audience and a public API; on the embedded service and a real deployment', async () => {
      const secret = service.account.clientSecret
      const before = deployment.requests.length
      const jobs: Array<{ label: string; kind: CopyAsKind; text: string; connection: CopyAsConnection; scenario: Scenario }> = []
      for (const scenario of SCENARIOS) {
        for (const target of scenario.embeddedOnly ? (['embedded'] as const) : (['embedded', 'deployment'] as const)) {
          const connection = scenario.connection?.(target) ?? (target === 'embedded' ? embeddedConnection(service) : deploymentConnection())
          for (const kind of ['url', 'curl', 'typescript', 'python'] as const) {
            const text = copyAsText(kind, connection, scenario.request)
            // The canary: the secret the programs run with is never in the text they are.
            expect(text, `${scenario.name}, ${kind}`).not.toContain(secret)
            // Code shown to a person reads as what it runs: no invisible or reordering character in it raw.
            expect(text, `${scenario.name}, ${kind}`).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029](?<!\n)/u)
            jobs.push({ label: `${scenario.name} · ${target} · ${kind}`, kind, text, connection, scenario })
          }
        }
      }
      const expected = new Map<Scenario, unknown>()
      for (const scenario of SCENARIOS) expected.set(scenario, await expectedFirst(service, token, scenario.request))

      const runs = await bounded(4, jobs.map((job) => () => runText(job.kind, job.text, job.connection)))
      const failures: string[] = []
      runs.forEach((run, index) => {
        const job = jobs[index]!
        let printed: unknown
        try {
          if (run.code !== 0) throw new Error(`exit ${run.code}`)
          printed = firstItem(job.scenario.request.responseType, JSON.parse(run.stdout))
        } catch (error) {
          failures.push(`${job.label}: ${(error as Error).message}\n${run.stderr.slice(0, 2000)}${run.stdout.slice(0, 500)}\n--- text ---\n${job.text}`)
          return
        }
        try {
          expect(printed).toEqual(expected.get(job.scenario))
        } catch {
          failures.push(`${job.label}: printed another first item: ${JSON.stringify(printed).slice(0, 300)}`)
        }
      })
      expect(failures.join('\n\n')).toBe('')

      // What reached the deployment: tokens asked for its query URL exactly, and the unknown option sent (then dropped, as a real one ignores it).
      const seen = deployment.requests.slice(before)
      const audiences = new Set(seen.filter((seen) => seen.host === 'auth').map((seen) => seen.audience))
      expect([...audiences]).toEqual([deployment.queryUrl])
      const unknown = seen.filter((entry) => entry.dropped?.includes('dev_version=master'))
      expect(unknown.length).toBe(4)
      // curl, TypeScript and Python each asked for the Audience set, never the query URL, and got a token.
      const tokens = audienceDeployment.requests.filter((entry) => entry.host === 'auth')
      expect(tokens.map((entry) => [entry.audience, entry.status])).toEqual([[AUDIENCE, 200], [AUDIENCE, 200], [AUDIENCE, 200]])
    })
  })

  describe('"Copy as" knows what URL each client writes (checked against the clients themselves)', () => {
    /** Pieces that clients treat differently: slashes, dots, percent signs, reserved and non-ASCII characters. */
    const PIECES = ['a', 'B', '7', '/', '.', '..', ' ', '%', '%41', ':FILTER', '&', '=', '+', '?', '#', 'é', '~', '!', "'", '(', ')', '*', '|', ':', '"', '']
    const text = (min = 0) => fc.array(fc.constantFrom(...PIECES), { minLength: min, maxLength: 3 }).map((pieces) => pieces.join(''))
    const name = text(1).filter((value) => value !== '')
    const call = (types: readonly string[]) =>
      fc.record({
        baseUrl: fc.constantFrom('http://127.0.0.1:9/', 'http://127.0.0.1:9', 'http://127.0.0.1:9/rest//', 'https://rest.example.org/q'),
        version: fc.constantFrom('4', '4.1', '4/x', '..', ' 4'),
        workspace: name,
        api: name,
        config: text(),
        queries: fc.array(fc.record({ endpoint: name, parameters: fc.array(fc.tuple(name, text()), { maxLength: 2 }) }), { minLength: 1, maxLength: 3 }),
        requestType: fc.constantFrom(...types),
        options: fc.array(fc.tuple(name, text()), { maxLength: 3 }),
      })
    /** Entries as a JavaScript object orders them: the form both the client and "Copy as" get them in. */
    const asObject = (entries: Array<[string, string]>) => Object.fromEntries(entries)
    const settled = <T extends { queries: Array<{ parameters: Array<[string, string]> }>; options: Array<[string, string]> }>(value: T): T => ({
      ...value,
      queries: value.queries.map((query) => ({ ...query, parameters: Object.entries(asObject(query.parameters)) })),
      options: Object.entries(asObject(value.options)),
    })

    it('the TypeScript client: every request type, any names and values', () => {
      const { urlFromQueries } = createRequire(__filename)(clients.typeScriptClientDir) as any
      fc.assert(
        fc.property(call(TYPES).map(settled), (value) => {
          const theirs = urlFromQueries(
            { baseUrl: value.baseUrl, version: value.version, workspace: value.workspace, api: value.api, config: value.config },
            value.queries.map((query) => ({ endpoint: query.endpoint, parameters: asObject(query.parameters) })),
            asObject(value.options),
            value.requestType,
          )
          expect(typeScriptClientUrl(value)).toBe(theirs)
        }),
        { numRuns: 500 },
      )
    })

    it('the Python client with requests: results and statistics, any names and values', async () => {
      const calls = fc.sample(call(['results', 'statistics']).map(settled), 300)
      const script = [
        'import json, sys',
        'from requests.models import RequestEncodingMixin',
        'from spinque_query_api.types import Query, RequestType',
        'from spinque_query_api.utils import url_from_queries',
        'out = []',
        'for c in json.loads(sys.argv[1]):',
        '    try:',
        '        queries = [Query(q["endpoint"], [tuple(p) for p in q["parameters"]]) for q in c["queries"]]',
        '        kind = RequestType.STATISTICS if c["requestType"] == "statistics" else RequestType.RESULTS',
        '        url = url_from_queries(c["baseUrl"], c["version"], c["workspace"], c["api"], c["config"], queries, kind)',
        '        params = RequestEncodingMixin._encode_params(dict(c["options"]))',
        '        out.append(url + ("&" if "?" in url else "?") + params if params else url)',
        '    except Exception:',
        '        out.append(None)',
        'print(json.dumps(out))',
      ].join('\n')
      const run = await clients.runPython(`import sys\nsys.argv = ["", ${JSON.stringify(JSON.stringify(calls))}]\n${script}`)
      expect(run.code, run.stderr).toBe(0)
      const theirs = JSON.parse(run.stdout) as Array<string | null>
      // The client fails outright on a `..` that climbs above its first piece: nothing to compare there (Copy as never calls it so).
      const compared = calls.map((value, index) => [theirs[index], pythonClientUrl(value)]).filter(([written]) => written !== null)
      expect(compared.length).toBeGreaterThan(200)
      for (const [written, modelled] of compared) expect(modelled).toBe(written)
    })
  })
})

import { describe, expect, it } from 'vitest'
import { clientCall, clientLimit, clientQueries, copyPlan, type CopyAsConnection } from '../../src/shared/copy-as/copy-plan'
import type { QueryRequest } from '../../src/shared/query/model'

/**
 * What every "Copy as" text is built from: the URL the app sends (config
 * always), how the connection gets its token, and whether each official
 * client can send that request itself, or the sentence saying why not.
 */

const connection: CopyAsConnection = {
  authUrl: 'https://auth.example.org//',
  queryUrl: 'https://query.example.org/rest/',
  version: '4',
  workspace: 'world',
  api: 'places',
  config: '',
  clientId: 'client-42',
}

const request: QueryRequest = {
  workspace: 'world',
  api: 'places',
  steps: [{ endpoint: 'search', parameters: { query: 'san' } }],
  responseType: 'results',
  options: { count: 20, offset: 40 },
}

const TS_LIMIT =
  'it writes the version, workspace, API, facet, config and option values into the URL unencoded, and drops empty or dot segments, which would change this request'
const PY_LIMIT =
  'it encodes neither endpoint names nor the version, workspace, API and config, keeps `/` in values, and drops empty or dot segments, which would change this request'

describe('copyPlan', () => {
  it('sends config=default when neither the request nor the connection names one, and lists the other options after it', () => {
    const plan = copyPlan(connection, request)
    expect(plan.url).toBe('https://query.example.org/rest/4/world/api/places/e/search/p/query/san/results?config=default&count=20&offset=40')
    expect(plan.config).toBe('default')
    expect(plan.options).toEqual([
      ['count', '20'],
      ['offset', '40'],
    ])
    expect(plan.version).toBe('4')
    expect(plan.base).toBe('https://query.example.org/rest/')
  })

  it("the request's config wins over the connection's, which wins over default", () => {
    expect(copyPlan({ ...connection, config: 'conn' }, request).config).toBe('conn')
    expect(copyPlan({ ...connection, config: 'conn' }, { ...request, options: { config: 'own' } }).url).toBe(
      'https://query.example.org/rest/4/world/api/places/e/search/p/query/san/results?config=own',
    )
  })

  it('an empty connection version means no version segment', () => {
    const plan = copyPlan({ ...connection, version: '' }, request)
    expect(plan.version).toBeUndefined()
    expect(plan.url).toBe('https://query.example.org/rest/world/api/places/e/search/p/query/san/results?config=default&count=20&offset=40')
  })

  it('the token: none without a client ID; the JSON route by default; OAuth with the query URL as typed as its audience unless one is given', () => {
    expect(copyPlan({ ...connection, clientId: '' }, request).token).toEqual({ kind: 'none' })
    expect(copyPlan(connection, request).token).toEqual({ kind: 'json', authUrl: 'https://auth.example.org', clientId: 'client-42', workspace: 'world' })
    expect(copyPlan({ ...connection, tokenRequest: 'oauth' }, request).token).toEqual({
      kind: 'oauth',
      authUrl: 'https://auth.example.org',
      clientId: 'client-42',
      audience: 'https://query.example.org/rest/',
    })
    expect(copyPlan({ ...connection, tokenRequest: 'oauth', audience: 'urn:places' }, request).token).toMatchObject({ audience: 'urn:places' })
  })
})

describe('the clients: queries, call and limits', () => {
  it('a chain becomes the clients’ queries; an options request adds the facet last; a context step leaves none', () => {
    expect(clientQueries(copyPlan(connection, request))).toEqual([{ endpoint: 'search', parameters: [['query', 'san']] }])
    const options = copyPlan(connection, { ...request, responseType: 'options', facet: 'country:FILTER', options: {} })
    expect(clientQueries(options)).toEqual([
      { endpoint: 'search', parameters: [['query', 'san']] },
      { endpoint: 'country:FILTER', parameters: [] },
    ])
    expect(clientQueries(copyPlan(connection, { ...request, steps: [...request.steps, { context: { lang: 'en' } }] }))).toBeNull()
  })

  it('clientCall carries the plan to a base URL, and is null without a version or queries', () => {
    const plan = copyPlan(connection, request)
    expect(clientCall(plan, 'https://base/', clientQueries(plan))).toEqual({
      baseUrl: 'https://base/',
      version: '4',
      workspace: 'world',
      api: 'places',
      config: 'default',
      queries: [{ endpoint: 'search', parameters: [['query', 'san']] }],
      requestType: 'results',
      options: [
        ['count', '20'],
        ['offset', '40'],
      ],
    })
    expect(clientCall(plan, 'https://base/', null)).toBeNull()
    const unversioned = copyPlan({ ...connection, version: '' }, request)
    expect(clientCall(unversioned, 'https://base/', clientQueries(unversioned))).toBeNull()
  })

  it('no limit when the client writes exactly the URL the app sends', () => {
    const plan = copyPlan(connection, request)
    expect(clientLimit(plan, clientCall(plan, plan.base, clientQueries(plan)), 'typescript')).toBeNull()
    expect(clientLimit(plan, clientCall(plan, plan.base, clientQueries(plan)), 'python')).toBeNull()
  })

  it('each limit says why, in the order a reader needs it', () => {
    const limit = (r: QueryRequest, client: 'typescript' | 'python', c: CopyAsConnection = connection) => {
      const plan = copyPlan(c, r)
      return clientLimit(plan, clientCall(plan, plan.base, clientQueries(plan)), client)
    }
    expect(limit({ ...request, steps: [{ context: { lang: 'en' } }, ...request.steps] }, 'typescript')).toBe('its queries have no place for context steps (/c/<name>/<value>)')
    expect(limit(request, 'python', { ...connection, version: '' })).toBe('it always sends a version segment (/4/ by default), and this connection has none')
    expect(limit({ ...request, responseType: 'count' }, 'python')).toBe('it asks only results and statistics, not count')
    expect(limit({ ...request, responseType: 'count' }, 'typescript')).toBeNull()
    expect(limit({ ...request, steps: [] }, 'typescript')).toBe('it needs at least one query')
    // `..` climbs in the TypeScript client's joiner; the Python client keeps `/` in a value, which splits the segment.
    expect(limit({ ...request, steps: [{ endpoint: 'search', parameters: { query: '..' } }] }, 'typescript')).toBe(TS_LIMIT)
    expect(limit({ ...request, steps: [{ endpoint: 'search', parameters: { query: 'a/b' } }] }, 'python')).toBe(PY_LIMIT)
    expect(limit({ ...request, steps: [{ endpoint: 'search', parameters: { query: 'a/b' } }] }, 'typescript')).toBeNull()
  })

  it('a call the client cannot encode (a lone surrogate) is a limit, not a crash', () => {
    const plan = copyPlan(connection, request)
    const call = clientCall(plan, plan.base, [{ endpoint: 'search', parameters: [['query', '\uD800']] }])
    expect(clientLimit(plan, call, 'typescript')).toBe('a name or value is not well-formed text')
  })
})

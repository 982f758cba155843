import { describe, expect, it } from 'vitest'
import type { ApiDescription } from '../../src/shared/api-description'
import { facetOptionsRequest } from '../../src/shared/query/facets'
import { OPTION_ORDER, RESPONSE_TYPES, type OptionName, type QueryOptions, type QueryRequest, type ResponseType } from '../../src/shared/query/model'
import { CLIENT_ONLY_OPTIONS_BY_TYPE, OPTIONS_BY_TYPE } from '../../src/shared/query/response-types'
import { buildUrl, parseUrl } from '../../src/shared/query/url'
import { validateRequest } from '../../src/shared/query/validate'

/**
 * The response types of the official client libraries (`RequestType` of
 * `@spinque/query-api`: count, statistics, resultpage, resultitem, results,
 * results,count, options) in the codec and validation. The client's URLs are
 * written here the way its documentation describes `urlFromQueries`: the base,
 * `<version>/<workspace>/api/<api>`, each query as `e/<endpoint>` plus
 * `p/<name>/<value>` (each encodeURIComponent'ed), the request type, then
 * `?config=…` and the options in the order given. For a facet's options the
 * last query (the facet options endpoint) becomes `options/<facet>`.
 */

interface ClientQuery {
  endpoint: string
  parameters?: Record<string, string>
}

function clientUrl(base: string, version: string, workspace: string, api: string, queries: ClientQuery[], requestType: string, options: Record<string, unknown> = {}, config?: string): string {
  const parts = [base.replace(/\/$/, ''), version, workspace, 'api', api]
  let chain = queries
  if (requestType === 'options') {
    chain = queries.slice(0, -1)
  }
  for (const query of chain) {
    parts.push('e', encodeURIComponent(query.endpoint))
    for (const [name, value] of Object.entries(query.parameters ?? {})) parts.push('p', encodeURIComponent(name), encodeURIComponent(value))
  }
  parts.push(requestType === 'options' ? `options/${encodeURIComponent(queries[queries.length - 1]!.endpoint)}` : requestType)
  const query = [...(config ? [`config=${config}`] : []), ...Object.entries(options).map(([name, value]) => `${name}=${String(value)}`)]
  return parts.join('/') + (query.length ? `?${query.join('&')}` : '')
}

const BASE = 'https://rest.example.com'
const search = { endpoint: 'movie_search', parameters: { query: 'call me' } }

function model(responseType: ResponseType, options: QueryOptions = {}, extra: Partial<QueryRequest> = {}): QueryRequest {
  return { version: '4', workspace: 'my-workspace', api: 'movies', steps: [search], responseType, options, ...extra }
}

describe('the client libraries\' request types, byte for byte', () => {
  it.each([
    ['count', {}],
    ['statistics', {}],
    ['results', { count: 10, offset: 20 }],
    ['results,count', { count: 10, offset: 0 }],
    ['resultpage', { count: 25, offset: 50 }],
    ['resultitem', { rank: 3, column: 2 }],
  ] as const)('%s with %j', (type, options) => {
    const expected = clientUrl(BASE, '4', 'my-workspace', 'movies', [search], type, options, 'default')
    const request = model(type, { config: 'default', ...options })
    expect(buildUrl(BASE, request)).toBe(expected)
    expect(parseUrl(expected)).toEqual({ ok: true, value: { base: BASE, request } })
  })

  it('options/<facet>: the chain without the facet\'s filter, then the facet options endpoint as the last two segments', () => {
    const genreFilter = { endpoint: 'genre:FILTER', parameters: { value: '1(Drama)|1(Biography)' } }
    const queries = [search, genreFilter, { endpoint: 'director' }]
    const expected = clientUrl(BASE, '4', 'my-workspace', 'movies', queries, 'options', { multiselect: true }, 'default')
    expect(expected).toBe(
      'https://rest.example.com/4/my-workspace/api/movies/e/movie_search/p/query/call%20me/e/genre%3AFILTER/p/value/1(Drama)%7C1(Biography)/options/director?config=default&multiselect=true',
    )
    const read = parseUrl(expected)
    expect(read).toEqual({
      ok: true,
      value: {
        base: BASE,
        request: {
          version: '4',
          workspace: 'my-workspace',
          api: 'movies',
          steps: [search, genreFilter],
          responseType: 'options',
          facet: 'director',
          options: { config: 'default', multiselect: true },
        },
      },
    })
    // Ours keeps :FILTER literal (the contract's one exception); every other byte is the same.
    if (!read.ok) return
    expect(buildUrl(BASE, read.value.request)).toBe(expected.replace('genre%3AFILTER', 'genre:FILTER'))
  })

  it('writes the facet of an options request like an endpoint name, and puts it after the response type in the model', () => {
    const request = model('options', {}, { steps: [], facet: 'my "facet"/x' })
    const url = buildUrl(BASE, request)
    expect(url).toBe('https://rest.example.com/4/my-workspace/api/movies/options/my%20%22facet%22%2Fx')
    const read = parseUrl(url)
    expect(read.ok && Object.keys(read.value.request)).toEqual(['version', 'workspace', 'api', 'steps', 'responseType', 'facet', 'options'])
  })

  it('reads results,count with its comma percent-encoded, as a browser may copy it, and a trailing slash', () => {
    const read = parseUrl(`${BASE}/4/my-workspace/api/movies/e/movie_search/p/query/call%20me/results%2Ccount/`)
    expect(read.ok && read.value.request.responseType).toBe('results,count')
    const options = parseUrl(`${BASE}/w/api/a/e/s/options/country/`)
    expect(options.ok && options.value.request).toMatchObject({ responseType: 'options', facet: 'country' })
  })

  it('refuses options without a facet, or with more after it, naming the segment', () => {
    for (const url of [`${BASE}/w/api/a/e/s/options`, `${BASE}/w/api/a/e/s/options/`, `${BASE}/w/api/a/e/s/options/country/results`]) {
      const read = parseUrl(url)
      expect(read.ok, url).toBe(false)
      if (!read.ok) expect(read.error).toEqual({ segment: 'options', message: expect.stringContaining('/options/<facet>') })
    }
  })

  it('reads rank, column and multiselect, and refuses them when malformed', () => {
    const read = parseUrl(`${BASE}/w/api/a/e/s/resultitem?column=2&rank=3`)
    expect(read.ok && read.value.request.options).toEqual({ rank: 3, column: 2 })
    expect(parseUrl(`${BASE}/w/api/a/e/s/options/f?multiselect=yes`)).toMatchObject({ ok: false, error: { message: 'option multiselect must be true or false, not "yes"' } })
    expect(parseUrl(`${BASE}/w/api/a/e/s/resultitem?rank=third`)).toMatchObject({ ok: false, error: { message: 'option rank must be a number, not "third"' } })
  })
})

const DESCRIPTION: ApiDescription = {
  workspace: 'world',
  api: 'places',
  public: false,
  configs: ['default'],
  endpoints: [
    { name: 'search', kind: 'search', stackable: false, parameters: [{ name: 'query', type: 'STRING', required: true }], output: ['OBJ'] },
    { name: 'country', kind: 'facet-options', stackable: true, parameters: [], output: ['OBJ'] },
    { name: 'country:FILTER', kind: 'facet-filter', stackable: true, parameters: [{ name: 'value', type: 'TUPLE_LIST' }], output: ['OBJ'] },
  ],
}

const EXAMPLE_VALUES: Record<OptionName, string | number | boolean> = {
  config: 'default',
  count: 10,
  offset: 0,
  format: 'json',
  level: 1,
  homogeneousArrays: false,
  cutoff: 0.5,
  rank: 1,
  column: 1,
  multiselect: true,
}

function request(responseType: ResponseType, options: QueryOptions = {}): QueryRequest {
  return {
    workspace: 'world',
    api: 'places',
    steps: [{ endpoint: 'search', parameters: { query: 'paris' } }],
    responseType,
    ...(responseType === 'options' ? { facet: 'country' } : {}),
    options,
  }
}

describe('validation of the response types', () => {
  it('accepts each option on the types that take it and names option and type for the others', () => {
    for (const type of RESPONSE_TYPES) {
      for (const name of OPTION_ORDER) {
        const problems = validateRequest(request(type, { [name]: EXAMPLE_VALUES[name] }), { description: DESCRIPTION })
        // The official clients send count and offset with every type, multiselect with resultitem: sent, with a warning (validate.test.ts).
        if (OPTIONS_BY_TYPE[type].includes(name) || CLIENT_ONLY_OPTIONS_BY_TYPE[type].includes(name)) expect(problems, `${name} on ${type}`).toEqual([])
        else expect(problems, `${name} on ${type}`).toEqual([{ field: `options.${name}`, message: expect.stringMatching(new RegExp(`^Option ${name} applies to .*, not to ${type}$`)) }])
      }
    }
  })

  it('says where a misplaced option belongs', () => {
    expect(validateRequest(request('results', { rank: 2 }))).toEqual([{ field: 'options.rank', message: 'Option rank applies to resultitem only, not to results' }])
    expect(validateRequest(request('count', { multiselect: true }))).toEqual([{ field: 'options.multiselect', message: 'Option multiselect applies to options only, not to count' }])
    expect(validateRequest(request('resultitem', { count: 5 }))).toEqual([
      { field: 'options.count', message: 'Option count applies to results, results,count, resultpage and options, not to resultitem' },
    ])
  })

  it('takes rank and column from 1, as whole numbers', () => {
    expect(validateRequest(request('resultitem', { rank: 0, column: 1.5 }))).toEqual([
      { field: 'options.rank', message: 'Option rank must be a whole number, 1 or more, not 0' },
      { field: 'options.column', message: 'Option column must be a whole number, 1 or more, not 1.5' },
    ])
  })

  it('allows only json for results,count, whose answer is a JSON array', () => {
    expect(validateRequest(request('results,count', { format: 'csv' }))).toEqual([
      { field: 'options.format', message: 'Option format csv is not available for results,count, whose answer is a JSON array; use results for csv' },
    ])
  })

  it('needs the facet for options, and refuses it elsewhere', () => {
    const { facet: _facet, ...noFacet } = request('options')
    expect(validateRequest(noFacet)).toEqual([
      { field: 'facet', message: 'Response type options needs the facet options endpoint whose options are asked for (facet)' },
    ])
    expect(validateRequest({ ...request('results'), facet: 'country' })).toEqual([
      { field: 'facet', message: 'facet "country" belongs to response type options only, not to results; leave it out' },
    ])
    expect(validateRequest({ ...request('options'), facet: '..' })[0]?.message).toMatch(/^Facet name: ".." cannot be sent/)
  })

  it('checks the facet against the API description', () => {
    expect(validateRequest({ ...request('options'), facet: 'genre' }, { description: DESCRIPTION })).toEqual([
      { field: 'facet', message: 'The API "places" has no endpoint named "genre" to list options of' },
    ])
    expect(validateRequest({ ...request('options'), facet: 'search' }, { description: DESCRIPTION })).toEqual([
      { field: 'facet', message: 'Endpoint "search" is a search endpoint, not a facet options endpoint, so /options/search cannot be asked' },
    ])
  })

  it('takes the facet options endpoint as the request\'s endpoint when the chain has none', () => {
    expect(validateRequest({ ...request('options'), steps: [] }, { description: DESCRIPTION })).toEqual([])
    expect(validateRequest({ ...request('count'), steps: [] })).toEqual([{ field: 'steps', message: 'The request needs at least one endpoint step' }])
  })

  it('accepts a bare option id as a facet filter value, and keeps it as written', () => {
    const pasted = parseUrl('https://q.example.com/world/api/places/e/search/p/query/san/e/country:FILTER/p/value/ES/results')
    if (!pasted.ok) throw new Error(pasted.error.message)
    expect(pasted.value.request.steps[1]).toEqual({ endpoint: 'country:FILTER', parameters: { value: 'ES' } })
    expect(validateRequest(pasted.value.request, { description: DESCRIPTION })).toEqual([])
    expect(buildUrl(pasted.value.base, pasted.value.request)).toBe('https://q.example.com/world/api/places/e/search/p/query/san/e/country:FILTER/p/value/ES/results')
  })
})

describe('facetOptionsRequest', () => {
  it('asks options/<facet> on the chain without the facet\'s own filter, keeping only the config', () => {
    const chain: QueryRequest = {
      workspace: 'world',
      api: 'places',
      steps: [
        { endpoint: 'search', parameters: { query: 'san' } },
        { endpoint: 'country:FILTER', parameters: { value: 'ES' } },
        { endpoint: 'continent:FILTER', parameters: { value: '1("Europe")' } },
      ],
      responseType: 'results',
      options: { config: 'production', count: 25, offset: 25 },
    }
    const asked = facetOptionsRequest(chain, 'country', true)
    expect(asked).toEqual({
      workspace: 'world',
      api: 'places',
      steps: [chain.steps[0], chain.steps[2]],
      responseType: 'options',
      facet: 'country',
      options: { config: 'production', multiselect: true },
    })
    expect(validateRequest(asked)).toEqual([])
    expect(buildUrl('http://h', asked)).toBe(
      'http://h/world/api/places/e/search/p/query/san/e/continent:FILTER/p/value/1(%22Europe%22)/options/country?config=production&multiselect=true',
    )
  })
})

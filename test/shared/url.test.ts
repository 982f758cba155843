import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { buildDescriptionUrl, buildUrl, parseUrl, type ParsedUrl } from '../../src/shared/query/url'
import { ISSUE_EXAMPLE } from '../fixtures/issue-example'

const BASE = 'https://query.example.com'

function request(steps: QueryRequest['steps'], extra: Partial<QueryRequest> = {}): QueryRequest {
  return { workspace: 'ws', api: 'a', steps, responseType: 'results', options: {}, ...extra }
}

function parsed(url: string): ParsedUrl {
  const result = parseUrl(url)
  if (!result.ok) throw new Error(`expected ${url} to parse: ${result.error.message}`)
  return result.value
}

function rejected(url: string): { segment: string; message: string } {
  const result = parseUrl(url)
  if (result.ok) throw new Error(`expected ${url} to be rejected, got ${JSON.stringify(result.value)}`)
  return result.error
}

describe('buildUrl: the seed and the client libraries', () => {
  it('writes the issue example', () => {
    expect(buildUrl(BASE, ISSUE_EXAMPLE)).toBe(
      'https://query.example.com/4/world/api/places/c/lang/en/e/search/p/query/new%20york' +
        '/e/country:FILTER/p/value/1(%22https%3A%2F%2Fex.org%2FUS%22)/results?config=default&count=10&offset=0',
    )
  })

  it('writes the seed shape root/api/e/p/response type', () => {
    const url = buildUrl(BASE, request([{ endpoint: 'a', parameters: { b: 'c' } }]))
    expect(url).toBe('https://query.example.com/ws/api/a/e/a/p/b/c/results')
    expect(url).toContain('/e/a/p/b/c')
  })

  it('stacks endpoints in order (seed rule 4)', () => {
    const url = buildUrl(
      BASE,
      request([
        { endpoint: 'endpoint1', parameters: { name1: 'value1' } },
        { endpoint: 'endpoint2', parameters: { name2: 'value2' } },
        { endpoint: 'endpoint3', parameters: {} },
      ]),
    )
    expect(url).toBe('https://query.example.com/ws/api/a/e/endpoint1/p/name1/value1/e/endpoint2/p/name2/value2/e/endpoint3/results')
  })

  it('writes the facet options and filtered results URLs of seed rule 5', () => {
    const search = { endpoint: 'search', parameters: { query: 'paris' } }
    expect(buildUrl(BASE, request([search, { endpoint: 'country', parameters: {} }]))).toBe(
      'https://query.example.com/ws/api/a/e/search/p/query/paris/e/country/results',
    )
    expect(buildUrl(BASE, request([search, { endpoint: 'country:FILTER', parameters: { value: '1("FR")' } }]))).toBe(
      'https://query.example.com/ws/api/a/e/search/p/query/paris/e/country:FILTER/p/value/1(%22FR%22)/results',
    )
  })

  it('keeps :FILTER literal but encodes a colon elsewhere', () => {
    const url = buildUrl(BASE, request([{ endpoint: 'a:b:FILTER', parameters: {} }]))
    expect(url).toBe('https://query.example.com/ws/api/a/e/a%3Ab:FILTER/results')
    expect(buildUrl(BASE, request([{ endpoint: 'x:FILTERED', parameters: {} }]))).toContain('/e/x%3AFILTERED/')
  })

  it('encodes my-"crazy$-endpoint as my-%22crazy%24-endpoint, as the client libraries do', () => {
    expect(buildUrl(BASE, request([{ endpoint: 'my-"crazy$-endpoint', parameters: {} }]))).toBe(
      'https://query.example.com/ws/api/a/e/my-%22crazy%24-endpoint/results',
    )
  })

  it('writes the version segment 4 before the workspace', () => {
    expect(buildUrl(BASE, request([{ endpoint: 'e1', parameters: {} }], { version: '4' }))).toBe(
      'https://query.example.com/4/ws/api/a/e/e1/results',
    )
  })

  it('writes config first and the options in canonical order, whatever the order they were set in', () => {
    const url = buildUrl(
      BASE,
      request([{ endpoint: 'e1', parameters: {} }], {
        options: { cutoff: 0.5, homogeneousArrays: true, level: 2, format: 'csv', offset: 20, count: 5, config: 'production' },
      }),
    )
    expect(url.split('?')[1]).toBe('config=production&count=5&offset=20&format=csv&level=2&homogeneousArrays=true&cutoff=0.5')
  })

  it('writes an option set to its default, and leaves out one not set', () => {
    expect(buildUrl(BASE, request([{ endpoint: 'e1', parameters: {} }], { options: { count: 10, offset: 0 } }))).toMatch(
      /\/results\?count=10&offset=0$/,
    )
    expect(buildUrl(BASE, request([{ endpoint: 'e1', parameters: {} }], { options: { homogeneousArrays: false } }))).toMatch(
      /\?homogeneousArrays=false$/,
    )
    expect(buildUrl(BASE, request([{ endpoint: 'e1', parameters: {} }]))).not.toContain('?')
  })

  it('writes each response type as the final segment', () => {
    for (const responseType of ['results', 'statistics', 'count'] as const) {
      expect(buildUrl(BASE, request([{ endpoint: 'e1', parameters: {} }], { responseType }))).toBe(
        `https://query.example.com/ws/api/a/e/e1/${responseType}`,
      )
    }
  })

  it('writes a context parameter before the first endpoint and between endpoints', () => {
    expect(
      buildUrl(BASE, request([{ context: { lang: 'en' } }, { endpoint: 'x', parameters: {} }, { context: { n: 'v', m: 'w' } }, { endpoint: 'y', parameters: {} }])),
    ).toBe('https://query.example.com/ws/api/a/c/lang/en/e/x/c/n/v/c/m/w/e/y/results')
  })

  it('percent-encodes /, %, spaces, +, ?, #, quotes, unicode and astral characters as one segment', () => {
    const url = buildUrl(BASE, request([{ endpoint: 's', parameters: { q: 'a/b %2F c+d?e#f"g\'h é 😀' } }]))
    expect(url).toBe(
      "https://query.example.com/ws/api/a/e/s/p/q/a%2Fb%20%252F%20c%2Bd%3Fe%23f%22g'h%20%C3%A9%20%F0%9F%98%80/results",
    )
    expect(parsed(url).request.steps[0]).toEqual({ endpoint: 's', parameters: { q: 'a/b %2F c+d?e#f"g\'h é 😀' } })
  })

  it('trims trailing slashes of the base and keeps its path', () => {
    expect(buildUrl('https://h.example/query/', request([{ endpoint: 'e1', parameters: {} }]))).toBe(
      'https://h.example/query/ws/api/a/e/e1/results',
    )
  })

  it('writes an empty value as an empty segment, which reads back', () => {
    const url = buildUrl(BASE, request([{ endpoint: 'e1', parameters: { q: '' } }]))
    expect(url).toBe('https://query.example.com/ws/api/a/e/e1/p/q//results')
    expect(parsed(url).request.steps).toEqual([{ endpoint: 'e1', parameters: { q: '' } }])
  })

  it('writes the description URL with a trailing slash', () => {
    expect(buildDescriptionUrl(`${BASE}/`, { version: '4', workspace: 'my ws', api: 'places' })).toBe(
      'https://query.example.com/4/my%20ws/api/places/',
    )
  })

  it('merges adjacent context steps and drops empty ones (normal form)', () => {
    const url = buildUrl(BASE, request([{ context: {} }, { context: { a: '1' } }, { context: { a: '2', b: '3' } }, { endpoint: 'x', parameters: {} }]))
    expect(url).toBe('https://query.example.com/ws/api/a/c/a/2/c/b/3/e/x/results')
  })
})

describe('parseUrl: what people paste', () => {
  it('reads the issue example back', () => {
    expect(parsed(buildUrl(BASE, ISSUE_EXAMPLE))).toEqual({ base: BASE, request: ISSUE_EXAMPLE })
  })

  it('reads with and without the version segment', () => {
    expect(parsed(`${BASE}/4/world/api/places/e/search/p/query/x/results`).request.version).toBe('4')
    expect(parsed(`${BASE}/4.1/world/api/places/e/search/p/query/x/results`).request.version).toBe('4.1')
    const unversioned = parsed(`${BASE}/world/api/places/e/search/p/query/x/results`)
    expect(unversioned.request).not.toHaveProperty('version')
    expect(unversioned.base).toBe(BASE)
  })

  it('reads a trailing slash, after the response type or without one', () => {
    const expected = { endpoint: 'search', parameters: { query: 'x' } }
    expect(parsed(`${BASE}/w/api/a/e/search/p/query/x/results/`).request.steps).toEqual([expected])
    expect(parsed(`${BASE}/w/api/a/e/search/p/query/x/statistics/`).request.responseType).toBe('statistics')
    expect(parsed(`${BASE}/w/api/a/e/search/`).request).toEqual({ workspace: 'w', api: 'a', steps: [{ endpoint: 'search', parameters: {} }], responseType: 'results', options: {} })
  })

  it('takes results when the response type is missing', () => {
    expect(parsed(`${BASE}/w/api/a/e/search/p/query/x`).request.responseType).toBe('results')
    expect(parsed(`${BASE}/w/api/a/e/search/p/query/x?count=5`).request).toMatchObject({ responseType: 'results', options: { count: 5 } })
  })

  it('reads + and %20 in the query string as a space, and + in the path as a plus', () => {
    expect(parsed(`${BASE}/w/api/a/e/s/results?config=my+config`).request.options).toEqual({ config: 'my config' })
    expect(parsed(`${BASE}/w/api/a/e/s/results?config=my%20config`).request.options).toEqual({ config: 'my config' })
    expect(parsed(`${BASE}/w/api/a/e/s/results?config=a%2Bb`).request.options).toEqual({ config: 'a+b' })
    expect(parsed(`${BASE}/w/api/a/e/s/p/q/new+york/results`).request.steps).toEqual([{ endpoint: 's', parameters: { q: 'new+york' } }])
  })

  it('reads options in any order and returns them in canonical order', () => {
    const result = parsed(`${BASE}/w/api/a/e/s/results?cutoff=0.25&homogeneousArrays=true&level=0&format=xlsx&offset=30&count=100&config=c`)
    expect(result.request.options).toEqual({ config: 'c', count: 100, offset: 30, format: 'xlsx', level: 0, homogeneousArrays: true, cutoff: 0.25 })
    expect(Object.keys(result.request.options)).toEqual(['config', 'count', 'offset', 'format', 'level', 'homogeneousArrays', 'cutoff'])
  })

  it('reads an option given twice with the same value once', () => {
    expect(parsed(`${BASE}/w/api/a/e/s/results?count=5&count=5`).request.options).toEqual({ count: 5 })
  })

  it('reads unencoded unicode, spaces and quotes as browsers show them', () => {
    expect(parsed(`${BASE}/w/api/a/e/s/p/q/São Paulo "x"/results`).request.steps).toEqual([{ endpoint: 's', parameters: { q: 'São Paulo "x"' } }])
  })

  it('reads :FILTER written literally or encoded', () => {
    const literal = parsed(`${BASE}/w/api/a/e/s/e/country:FILTER/p/value/1(%22FR%22)/results`)
    const encoded = parsed(`${BASE}/w/api/a/e/s/e/country%3AFILTER/p/value/1(%22FR%22)/results`)
    expect(literal.request.steps[1]).toEqual({ endpoint: 'country:FILTER', parameters: { value: '1("FR")' } })
    expect(encoded.request).toEqual(literal.request)
  })

  it('ignores the fragment and surrounding whitespace', () => {
    expect(parsed(`  ${BASE}/w/api/a/e/s/results?count=3#top \n`).request.options).toEqual({ count: 3 })
  })

  it('reads the same parameter twice with the same value as one', () => {
    expect(parsed(`${BASE}/w/api/a/e/s/p/q/x/p/q/x/results`).request.steps).toEqual([{ endpoint: 's', parameters: { q: 'x' } }])
  })

  it('reads a /c/ pair between an endpoint and its parameters, which means the same', () => {
    expect(parsed(`${BASE}/w/api/a/e/s/c/lang/en/p/q/x/e/t/results`).request.steps).toEqual([
      { endpoint: 's', parameters: { q: 'x' } },
      { context: { lang: 'en' } },
      { endpoint: 't', parameters: {} },
    ])
  })

  it('reads a run of /c/ pairs as one context step, the later value winning', () => {
    expect(parsed(`${BASE}/w/api/a/c/a/1/c/b/2/c/a/3/e/s/results`).request.steps).toEqual([
      { context: { a: '3', b: '2' } },
      { endpoint: 's', parameters: {} },
    ])
  })

  it('keeps the query URL path as the base, even one that holds "api"', () => {
    expect(parsed('https://h.example/query/v/w/api/a/e/s/results').base).toBe('https://h.example/query/v')
    const withApi = parsed('https://h.example/api/v2/w/api/a/e/s/results')
    expect(withApi.base).toBe('https://h.example/api/v2')
    expect(withApi.request.workspace).toBe('w')
  })

  it('reads workspace and API names that are path markers', () => {
    const result = parsed(`${BASE}/api/api/e/e/e/p/p/p/results`)
    expect(result.request).toEqual({ workspace: 'api', api: 'e', steps: [{ endpoint: 'e', parameters: { p: 'p' } }], responseType: 'results', options: {} })
  })

  it('takes digits followed by <workspace>/api as the version (SERVICE-CONTRACT), even when another reading exists', () => {
    // Also readable as workspace "4", API "api", endpoints "e" and "results" (no response type).
    expect(parsed(`${BASE}/4/api/api/e/e/e/results`).request).toEqual({
      version: '4',
      workspace: 'api',
      api: 'e',
      steps: [{ endpoint: 'e', parameters: {} }],
      responseType: 'results',
      options: {},
    })
  })

  it('with the base given, reads only what follows it', () => {
    // Without the hint the shortest base wins: workspace "query", API "api", endpoints c, v, x.
    const url = 'http://h/query/api/api/e/c/e/v/e/x/results'
    expect(parsed(url)).toMatchObject({ base: 'http://h', request: { workspace: 'query', api: 'api' } })
    expect(parseUrl(url, { base: 'http://h/query/' })).toEqual({
      ok: true,
      value: {
        base: 'http://h/query',
        request: { workspace: 'api', api: 'e', steps: [{ context: { e: 'v' } }, { endpoint: 'x', parameters: {} }], responseType: 'results', options: {} },
      },
    })
    const other = parseUrl(url, { base: 'http://other' })
    expect(other.ok).toBe(false)
    if (!other.ok) expect(other.error.message).toContain('does not start with the query URL http://other')
  })

  it('reads a URL without an endpoint (validation reports it, not the parser)', () => {
    expect(parsed(`${BASE}/w/api/a/results`).request.steps).toEqual([])
    expect(parsed(`${BASE}/w/api/a/`).request.steps).toEqual([])
  })
})

describe('options this client does not know (a deployment\'s own)', () => {
  it('keeps dev_version=master as the Python client\'s README sends it, after the known options, and writes it back', () => {
    const url = `${BASE}/4/world/api/places/e/search/p/query/paris/results?dev_version=master&config=default&count=10`
    const read = parsed(url).request
    expect(read.options).toEqual({ config: 'default', count: 10, extra: { dev_version: 'master' } })
    expect(Object.keys(read.options)).toEqual(['config', 'count', 'extra'])
    expect(buildUrl(BASE, read)).toBe(`${BASE}/4/world/api/places/e/search/p/query/paris/results?config=default&count=10&dev_version=master`)
  })

  it('keeps their order, reads + and %20 as a space, and writes each name and value as one encoded segment', () => {
    const read = parsed(`${BASE}/w/api/a/e/s/results?z=1&a+b=x%26y&flag&z=1`).request
    expect(Object.entries(read.options.extra!)).toEqual([['z', '1'], ['a b', 'x&y'], ['flag', '']])
    expect(buildUrl(BASE, read)).toBe(`${BASE}/w/api/a/e/s/results?z=1&a%20b=x%26y&flag=`)
    expect(parsed(buildUrl(BASE, read)).request).toEqual(read)
  })

  it('takes __proto__ and constructor as names like any other', () => {
    const read = parsed(`${BASE}/w/api/a/e/s/count?__proto__=1&constructor=2`).request
    expect(Object.hasOwn(read.options.extra!, '__proto__')).toBe(true)
    expect(Object.entries(read.options.extra!)).toEqual([['__proto__', '1'], ['constructor', '2']])
    expect(buildUrl(BASE, read)).toBe(`${BASE}/w/api/a/e/s/count?__proto__=1&constructor=2`)
  })
})

describe('parseUrl: what it rejects, naming the segment', () => {
  const cases: [string, string, RegExp][] = [
    [`${BASE}/w/api/a/e/s/bogus/results`, 'bogus', /unexpected path segment "bogus" after endpoint "s"/],
    [`${BASE}/w/api/a/e/s/results/extra`, 'results', /unexpected path segment "results"/],
    [`${BASE}/w/api/a/e/s/p/q/1/p/q/2/results`, 'p/q/2', /parameter "q" of endpoint "s" is given twice with different values \("1" and "2"\)/],
    [`${BASE}/w/api/a/p/q/1/e/s/results`, 'p/q', /parameter "q" stands before any endpoint/],
    [`${BASE}/w/api/a/e/s/p/q`, 'p/q', /must be followed by a name and a value/],
    [`${BASE}/w/api/a/e/s/c/lang`, 'c/lang', /context parameter "\/c\/lang" must be followed by a name and a value/],
    [`${BASE}/w/api/a/e`, 'e', /must be followed by an endpoint name/],
    [`${BASE}/w/api/a/e/`, 'e', /must be followed by an endpoint name/],
    [`${BASE}/w/api/a/e/s/p/q/%E0%A4%A/results`, '%E0%A4%A', /value of "q" "%E0%A4%A" is not valid percent-encoding/],
    [`${BASE}/w/api/a/e/s%zz/results`, 's%zz', /endpoint name "s%zz" is not valid percent-encoding/],
    [`${BASE}/w%ff/api/a/e/s/results`, 'w%ff', /workspace "w%ff" is not valid percent-encoding/],
    [`${BASE}/w/api/a/e/s/results?count=ten`, 'count=ten', /option count must be a number, not "ten"/],
    [`${BASE}/w/api/a/e/s/results?count=`, 'count=', /option count must be a number/],
    [`${BASE}/w/api/a/e/s/results?homogeneousArrays=yes`, 'homogeneousArrays=yes', /must be true or false, not "yes"/],
    [`${BASE}/w/api/a/e/s/results?=name`, '=name', /an option needs a name before "=" \(got "=name"\)/],
    [`${BASE}/w/api/a/e/s/results?dev_version=master&dev_version=main`, 'dev_version=main', /option dev_version is given twice with different values \("master" and "main"\)/],
    [`${BASE}/w/api/a/e/s/results?count=5&count=6`, 'count=6', /option count is given twice with different values \("5" and "6"\)/],
    [`${BASE}/w/api/a/e/s/results?config=%`, '%', /option config "%" is not valid percent-encoding/],
    [`${BASE}/w/api`, 'api', /API name is missing/],
    [`${BASE}/api/a/e/s/results`, 'api', /workspace name is missing/],
    [`${BASE}/w/search/results`, '/w/search/results', /no "\/<workspace>\/api\/<api>" found/],
    [`${BASE}`, '/', /no "\/<workspace>\/api\/<api>" found/],
    ['ftp://h/w/api/a/e/s/results', 'ftp://h', /only http and https/],
    ['http:///w/api/a/e/s/results', 'http://', /no host/],
    ['query.example.com/w/api/a/e/s/results', 'query.example.com/w/api/a/e/s/results', /not an absolute http\(s\) URL/],
    ['', '', /not an absolute/],
  ]
  it.each(cases)('%s', (url, segment, message) => {
    const error = rejected(url)
    expect(error.segment).toBe(segment)
    expect(error.message).toMatch(message)
  })

  it('reports the error of the reading that got furthest, not of a base path holding "api"', () => {
    const error = rejected('https://h/x/api/y/w/api/a/e/s/bogus/results')
    expect(error.segment).toBe('bogus')
  })
})

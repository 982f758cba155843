import { describe, expect, it } from 'vitest'
import { buildUrl } from '../../src/shared/query/url-build'
import { parseTarget, parseUrl } from '../../src/shared/query/url-parse'
import { ISSUE_EXAMPLE } from '../fixtures/issue-example'
import { parsed } from '../fixtures/parsed-url'

/**
 * Reading a URL people paste back into a request: every form the clients and
 * browsers write, and what cannot be read refused naming the segment.
 * url-parse-reference.test.ts holds it to a slower reference reader.
 */

const BASE = 'https://query.example.com'

function rejected(url: string): { segment: string; message: string } {
  const result = parseUrl(url)
  if (result.ok) throw new Error(`expected ${url} to be rejected, got ${JSON.stringify(result.value)}`)
  return result.error
}

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

describe('parseTarget: the path and query string a service is asked', () => {
  it('reads the request, the path before it and whether a response type was written', () => {
    expect(parseTarget('/query/4/world/api/places/e/search/p/query/x/count', 'count=5')).toEqual({
      ok: true,
      value: {
        request: { version: '4', workspace: 'world', api: 'places', steps: [{ endpoint: 'search', parameters: { query: 'x' } }], responseType: 'count', options: { count: 5 } },
        prefix: ['query'],
        responseTypeGiven: true,
      },
    })
    expect(parseTarget('/world/api/places/')).toMatchObject({ ok: true, value: { request: { steps: [], responseType: 'results' }, prefix: [], responseTypeGiven: false } })
  })

  it('takes the prefix it is told, where another reading would take a shorter one', () => {
    // Read from the left, x is the workspace and y the API, with a parameter named "api"; told the first five segments are the query URL's, p and a.
    expect(parseTarget('/x/api/y/e/w/p/api/a/e/s')).toMatchObject({
      ok: true,
      value: { prefix: [], request: { workspace: 'x', api: 'y', steps: [{ endpoint: 'w', parameters: { api: 'a' } }, { endpoint: 's', parameters: {} }] } },
    })
    expect(parseTarget('/x/api/y/e/w/p/api/a/e/s', '', { prefixSegments: 5 })).toMatchObject({
      ok: true,
      value: { prefix: ['x', 'api', 'y', 'e', 'w'], request: { workspace: 'p', api: 'a', steps: [{ endpoint: 's', parameters: {} }] } },
    })
  })
})

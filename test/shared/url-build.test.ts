import { describe, expect, it } from 'vitest'
import type { QueryRequest } from '../../src/shared/query/model'
import { setEntry } from '../../src/shared/query/records'
import { buildDescriptionUrl, buildPath, buildQueryString, buildUrl, formatNumber, formatOption } from '../../src/shared/query/url-build'
import { ISSUE_EXAMPLE } from '../fixtures/issue-example'
import { parsed } from '../fixtures/parsed-url'

/** Writing a request as its URL (SERVICE-CONTRACT "URLs"), as the seed and the client libraries write it. */

const BASE = 'https://query.example.com'

function request(steps: QueryRequest['steps'], extra: Partial<QueryRequest> = {}): QueryRequest {
  return { workspace: 'ws', api: 'a', steps, responseType: 'results', options: {}, ...extra }
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

describe('the pieces of a URL', () => {
  it('writes a number as JavaScript does, -0 kept', () => {
    expect([formatNumber(1.5), formatNumber(-0), formatNumber(0), formatNumber(1e21)]).toEqual(['1.5', '-0', '0', '1e+21'])
  })

  it('writes an option as name=value, the value as one encoded segment', () => {
    expect(formatOption('config', 'my config/1')).toBe('config=my%20config%2F1')
    expect(formatOption('homogeneousArrays', true)).toBe('homogeneousArrays=true')
    expect(formatOption('cutoff', 0.25)).toBe('cutoff=0.25')
  })

  it('writes no query string for no options, and unknown options after the known ones', () => {
    expect(buildQueryString({})).toBe('')
    expect(buildQueryString({ offset: 0, count: 5 })).toBe('?count=5&offset=0')
    expect(buildQueryString({ extra: { x: '1' } })).toBe('?x=1')
  })

  it('writes options/<facet> as the last segments, the facet encoded as an endpoint name', () => {
    expect(buildPath(request([{ endpoint: 's', parameters: {} }], { responseType: 'options', facet: 'my facet' }))).toBe('/ws/api/a/e/s/options/my%20facet')
  })

  it('writes a parameter named __proto__ like any other', () => {
    const parameters: Record<string, string> = {}
    setEntry(parameters, '__proto__', 'x')
    expect(buildPath(request([{ endpoint: 's', parameters }]))).toBe('/ws/api/a/e/s/p/__proto__/x/results')
  })
})

import { describe, expect, it } from 'vitest'
import { pythonClientUrl, sameRequest, typeScriptClientUrl, type ClientCall } from '../../src/shared/copy-as/client-urls'

/**
 * The URL each official client writes for a call, as "Copy as" models it
 * (test/conformance/reference-clients.test.ts checks the model against the
 * clients themselves): hand-worked URLs for what each encodes, keeps raw or
 * drops, and when two URLs are one request to a server.
 */

const call: ClientCall = {
  baseUrl: 'https://q.example.org/rest',
  version: '4',
  workspace: 'world',
  api: 'places',
  config: 'default',
  queries: [
    { endpoint: 'search', parameters: [['query', 'san josé']] },
    { endpoint: 'country:FILTER', parameters: [['value', 'a/b']] },
  ],
  requestType: 'results',
  options: [['count', '10']],
}

describe('the TypeScript client URL', () => {
  it('percent-encodes names and values (but keeps :FILTER), adds the one slash after the base, and writes config first', () => {
    expect(typeScriptClientUrl(call)).toBe(
      'https://q.example.org/rest/4/world/api/places/e/search/p/query/san%20jos%C3%A9/e/country:FILTER/p/value/a%2Fb/results?config=default&count=10',
    )
  })

  it('an options request names the last query as the facet, :FILTER cut off, after the request type', () => {
    const options = { ...call, requestType: 'options', options: [], queries: [{ endpoint: 'search', parameters: [['q', 'x']] as Array<[string, string]> }, { endpoint: 'country:FILTER', parameters: [] }] }
    expect(typeScriptClientUrl(options)).toBe('https://q.example.org/rest/4/world/api/places/e/search/p/q/x/options/country?config=default')
  })

  it('writes option values raw, starts the query with ? when there is no config, and lets a .. value climb', () => {
    const raw = { ...call, config: '', options: [['q', 'a b&c'], ['n', '1']] as Array<[string, string]>, queries: [{ endpoint: 'search', parameters: [['q', '..']] as Array<[string, string]> }] }
    expect(typeScriptClientUrl(raw)).toBe('https://q.example.org/rest/4/world/api/places/e/search/p/results?q=a b&c&n=1')
  })
})

describe('the Python client URL', () => {
  it('leaves / in parameter values, encodes a quote, and form-encodes options (spaces as +, / as %2F)', () => {
    const python: ClientCall = {
      ...call,
      baseUrl: 'http://h/',
      workspace: 'w',
      api: 'a',
      queries: [{ endpoint: 's', parameters: [['q', "a/b it's"]] }],
      options: [['count', '10'], ['x', 'y z/w']],
    }
    expect(pythonClientUrl(python)).toBe("http://h/4/w/api/a/e/s/p/q/a/b%20it%27s/results?config=default&count=10&x=y+z%2Fw")
  })

  it('writes the endpoint name unencoded and adds no ? when there are neither config nor options', () => {
    const bare: ClientCall = { ...call, baseUrl: 'http://h', config: '', options: [], requestType: 'statistics', queries: [{ endpoint: 'a b', parameters: [] }] }
    expect(pythonClientUrl(bare)).toBe('http://h/4/world/api/places/e/a b/statistics')
  })
})

describe('sameRequest', () => {
  it('reads two URLs as one request only when a server would', () => {
    const url = 'http://h/4/w/api/a/e/s/p/q/x%20y/results?config=default&count=3'
    expect(sameRequest(url, 'http://h/4/w/api/a/e/s/p/q/x%20y/results?count=3&config=default')).toBe(true)
    expect(sameRequest(url, 'http://h/4/w/api/a/e/s/p/q/x y/results?config=default&count=3')).toBe(true)
    expect(sameRequest('http://h/e/a%2Fb/results', 'http://h/e/a/b/results')).toBe(false)
    expect(sameRequest(url, `${url}&dev_version=master`)).toBe(false)
    expect(sameRequest('http://h/e/s/p/q/a%26b/results', 'http://h/e/s/p/q/a&b/results')).toBe(true)
    expect(sameRequest('http://h/r?config=a%26b', 'http://h/r?config=a&b')).toBe(false)
  })

  it('compares the origin without case but apart from the scheme, and never matches a URL it cannot decode', () => {
    expect(sameRequest('HTTP://H/r', 'http://h/r')).toBe(true)
    expect(sameRequest('https://h/r', 'http://h/r')).toBe(false)
    expect(sameRequest('http://h/r/%E0%A4%A', 'http://h/r/%E0%A4%A')).toBe(false)
    expect(sameRequest('not a url', 'not a url')).toBe(false)
  })
})

import { describe, expect, it } from 'vitest'
import { buildUrl, parseUrl, type ParsedUrl } from '../../src/shared/query/url'

/**
 * The codec as a whole, through its public names: what one half writes the
 * other reads back. Each half's own cases are in url-build.test.ts and
 * url-parse.test.ts.
 */

const BASE = 'https://query.example.com'

function parsed(url: string): ParsedUrl {
  const result = parseUrl(url)
  if (!result.ok) throw new Error(`expected ${url} to parse: ${result.error.message}`)
  return result.value
}

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

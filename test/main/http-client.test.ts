import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitPlainUrl } from '../../src/main/http/http-client'
import { buildUrl } from '../../src/shared/query/url'
import { anyRequest } from '../shared/arbitraries'

/**
 * The HTTP client sends the URLs the app builds as they stand, without a
 * WHATWG parse per request (splitPlainUrl). That is only right where the
 * parse would change nothing: same origin, same path and query.
 */

function whatwg(text: string): { origin: string; path: string } {
  const url = new URL(text)
  return { origin: url.origin, path: url.pathname + url.search }
}

const bases = fc.constantFrom('http://127.0.0.1:8080', 'https://query.example.com', 'HTTP://Query.Example.COM:443', 'http://[::1]:9000/query', 'https://h/api/v2', 'http://h:80', 'http://user@h', 'http://h\\x')

describe('splitPlainUrl', () => {
  it('splits only URLs the WHATWG parser leaves as they are, for every request the app can build', () => {
    let split = 0
    fc.assert(
      fc.property(bases, anyRequest, (base, request) => {
        let url: string
        try {
          url = buildUrl(base, request)
        } catch {
          return // text with a lone surrogate: validation refuses it before any URL is built
        }
        const plain = splitPlainUrl(url)
        if (!plain) return
        split++
        let parsed: { origin: string; path: string }
        try {
          parsed = whatwg(url)
        } catch {
          throw new Error(`split a URL the parser refuses: ${url}`)
        }
        expect(whatwg(`${plain.prefix}/`).origin).toBe(parsed.origin)
        expect(plain.path).toBe(parsed.path)
      }),
      { numRuns: 5_000 },
    )
    expect(split).toBeGreaterThan(500)
  })

  it('leaves dot segments, encoded dots, characters the parser encodes, user info and an empty query to the parser', () => {
    for (const url of [
      'http://h/w/api/a/e/./results',
      'http://h/w/api/a/e/%2E%2E/results',
      'http://h/w/api/a/e/x/p/q/a%2eb/results',
      'http://h/w/api/a/e/x/p/q/it\'s/results',
      'http://h/w/api/a/e/x/p/q/a b/results',
      'http://h/w/api/a/e/x/results?config=a"b',
      'http://user:pw@h/w/api/a/e/x/results',
      'http://h\\evil/w/api/a/e/x/results',
      'http://h/w/api/a/e/x/results?',
      'ftp://h/w/api/a/e/x/results',
    ]) {
      expect(splitPlainUrl(url), url).toBeNull()
    }
    expect(splitPlainUrl('http://127.0.0.1:4000/query/world/api/places/e/search/p/query/new%20york/e/country:FILTER/p/value/1(%22US%22)/results?count=10')).toEqual({
      prefix: 'http://127.0.0.1:4000',
      path: '/query/world/api/places/e/search/p/query/new%20york/e/country:FILTER/p/value/1(%22US%22)/results?count=10',
    })
  })
})

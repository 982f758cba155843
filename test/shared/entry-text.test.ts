import { describe, expect, it } from 'vitest'
import { fullUrl, shortUrl, statusTitle } from '../../src/shared/history/entry-text'

/** The History list's text of a recorded run: the URL without its origin, the full URL, and the status's tooltip. */

const RLO = '\u202E'

describe('history entry text', () => {
  it('the short URL is the path and query, the origin left to the tooltip', () => {
    expect(shortUrl('https://query.example.org:8443/rest/4/w/api/a/e/search/p/q/san/results?config=default&count=10')).toBe(
      '/rest/4/w/api/a/e/search/p/q/san/results?config=default&count=10',
    )
    expect(shortUrl('http://h')).toBe('/')
    expect(fullUrl('https://h/x?y=1')).toBe('https://h/x?y=1')
  })

  it("shows History's URLs and a failed run's message escaped", () => {
    // A parsed URL comes back percent-encoded, which cannot reorder anything; one that does not parse is shown as recorded.
    expect(shortUrl(`http://127.0.0.1:1/w/api/search?query=a${RLO}b`)).toBe('/w/api/search?query=a%E2%80%AEb')
    expect(shortUrl(`not a URL ${RLO}`)).toBe('not a URL ⟨U+202E⟩')
    expect(fullUrl(`http://h/${RLO}`)).toBe('http://h/⟨U+202E⟩')
    expect(statusTitle({ error: { code: 'http', message: `Not found: Invoice${RLO}txt.exe` } })).toBe('Not found: Invoice⟨U+202E⟩txt.exe')
    expect(statusTitle({ error: null })).toBe('HTTP status')
  })
})

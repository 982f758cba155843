import { describe, expect, it } from 'vitest'
import { parseChain } from '../../src/shared/query/url-parse-chain'

/** The chain after `/api/<api>`, read where it stands: e, p and c groups, then the response type. */

const chain = (text: string) => parseChain(text, 0, text.length)

describe('parseChain', () => {
  it('reads endpoints with their parameters, context pairs and the response type', () => {
    expect(chain('e/search/p/query/new%20york/c/lang/en/e/country:FILTER/p/value/1(%22US%22)/count')).toEqual({
      ok: true,
      steps: [
        { endpoint: 'search', parameters: { query: 'new york' } },
        { context: { lang: 'en' } },
        { endpoint: 'country:FILTER', parameters: { value: '1("US")' } },
      ],
      responseType: 'count',
      given: true,
    })
  })

  it('reads only its range of the text', () => {
    const text = 'https://h/w/api/a/e/s/p/q/x/resultpage?count=5'
    const start = text.indexOf('/e/') + 1
    expect(parseChain(text, start, text.indexOf('?'))).toEqual({ ok: true, steps: [{ endpoint: 's', parameters: { q: 'x' } }], responseType: 'resultpage', given: true })
  })

  it('takes results when the chain ends without a response type, a trailing slash too, or is empty', () => {
    const results = (steps: unknown[]) => ({ ok: true, steps, responseType: 'results', given: false })
    expect(chain('e/s')).toEqual(results([{ endpoint: 's', parameters: {} }]))
    expect(chain('e/s/')).toEqual(results([{ endpoint: 's', parameters: {} }]))
    expect(chain('')).toEqual(results([]))
    expect(parseChain('abc', 4, 3)).toEqual(results([]))
    expect(chain('e/s/count/')).toMatchObject({ responseType: 'count', given: true })
    expect(chain('e/s/results%2Ccount')).toMatchObject({ responseType: 'results,count', given: true })
  })

  it('reads options/<facet> as the last two segments', () => {
    expect(chain('e/s/options/my%20facet')).toEqual({ ok: true, steps: [{ endpoint: 's', parameters: {} }], responseType: 'options', facet: 'my facet', given: true })
    for (const text of ['e/s/options', 'e/s/options/', 'e/s/options/country/more']) {
      expect(chain(text)).toEqual({
        ok: false,
        error: { segment: 'options', message: 'the response type "options" must be the last two segments, followed by the facet options endpoint: /options/<facet>' },
        at: 4,
      })
    }
  })

  it('gives a /p/ pair after a run of /c/ pairs to the endpoint before them; the later context value wins', () => {
    expect(chain('e/s/c/a/1/c/a/2/p/q/x')).toMatchObject({ steps: [{ endpoint: 's', parameters: { q: 'x' } }, { context: { a: '2' } }] })
  })

  it('reads empty names and values, and __proto__ as a name like any other', () => {
    const read = chain('e/s/p//v/p/__proto__/')
    expect(read.ok).toBe(true)
    const parameters = read.ok ? (read.steps[0] as { parameters: Record<string, string> }).parameters : {}
    expect(Object.entries(parameters)).toEqual([
      ['', 'v'],
      ['__proto__', ''],
    ])
  })

  it('takes a parameter given twice with one value, and refuses two values, past the names it compares one by one too', () => {
    expect(chain('e/s/p/q/1/p/q/1')).toMatchObject({ ok: true, steps: [{ parameters: { q: '1' } }] })
    const many = Array.from({ length: 20 }, (_, i) => `p/n${i}/${i}`).join('/')
    expect(chain(`e/s/${many}/p/n3/3`)).toMatchObject({ ok: true })
    expect(chain(`e/s/${many}/p/n3/x`)).toMatchObject({ ok: false, error: { segment: 'p/n3/x', message: 'parameter "n3" of endpoint "s" is given twice with different values ("3" and "x")' } })
  })

  it('refuses what cannot be read, saying where in the text', () => {
    expect(chain('e/s/bogus')).toEqual({
      ok: false,
      error: { segment: 'bogus', message: 'unexpected path segment "bogus" after endpoint "s": expected e, p, c or a response type (results, statistics, count, results,count, resultpage, resultitem, options/<facet>)' },
      at: 4,
    })
    expect(chain('p/q/1/e/s')).toMatchObject({ ok: false, error: { segment: 'p/q', message: 'parameter "q" stands before any endpoint; use /c/ for a context parameter' }, at: 0 })
    expect(chain('e/s/p/q')).toMatchObject({ ok: false, error: { segment: 'p/q', message: 'the parameter "/p/q" must be followed by a name and a value' }, at: 4 })
    expect(chain('e/s/c')).toMatchObject({ ok: false, error: { segment: 'c/', message: 'the context parameter "/c/" must be followed by a name and a value' } })
    expect(chain('e/')).toMatchObject({ ok: false, error: { segment: 'e', message: 'the endpoint marker "/e/" must be followed by an endpoint name' }, at: 0 })
    expect(chain('e/s/p/q/%E0%A4%A')).toMatchObject({ ok: false, error: { segment: '%E0%A4%A', message: 'value of "q" "%E0%A4%A" is not valid percent-encoding' }, at: 8 })
    expect(chain('e/s/options/%zz')).toMatchObject({ ok: false, error: { segment: '%zz', message: 'facet name "%zz" is not valid percent-encoding' } })
  })
})

import { describe, expect, it } from 'vitest'
import type { Step } from '../../src/shared/query/model'
import { suggestQueryName } from '../../src/shared/workspace/query-name'

/** The first name offered for a query being saved: its search text, capitalised, made unique; else nothing. */

const steps: Step[] = [
  { endpoint: 'search', parameters: { query: 'san' } },
  { endpoint: 'country:FILTER', parameters: { value: '1("ES")' } },
  { endpoint: 'population', parameters: { min: '100000' } },
]

describe('suggestQueryName', () => {
  it('offers the search text, capitalised, and a free variant of it', () => {
    expect(suggestQueryName(steps, [])).toBe('San')
    expect(suggestQueryName(steps, ['San', 'San 2'])).toBe('San 3')
    expect(suggestQueryName([{ endpoint: 'search', parameters: { query: '  new   york ' } }], [])).toBe('New york')
  })

  it('reads the first text parameter of the first endpoint that has one, past context steps and other parameters', () => {
    const chain: Step[] = [{ context: { lang: 'en' } }, { endpoint: 'films', parameters: { year: '1995', q: 'heat' } }, { endpoint: 'search', parameters: { query: 'later' } }]
    expect(suggestQueryName(chain, [])).toBe('Heat')
    // 60 characters is still a name; 61 is not.
    expect(suggestQueryName([{ endpoint: 'search', parameters: { terms: 'x'.repeat(60) } }], [])).toBe('X' + 'x'.repeat(59))
  })

  it('offers nothing for a chain without a search text that reads as a name', () => {
    expect(suggestQueryName([{ endpoint: 'countries', parameters: {} }], [])).toBe('')
    expect(suggestQueryName([{ endpoint: 'search', parameters: { query: '' } }], [])).toBe('')
    expect(suggestQueryName([{ endpoint: 'search', parameters: { query: '1("ES")|1("IT")' } }], [])).toBe('')
    expect(suggestQueryName([{ endpoint: 'search', parameters: { query: 'x'.repeat(61) } }], [])).toBe('')
    expect(suggestQueryName([{ endpoint: 'search', parameters: { query: 'a/b' } }], [])).toBe('')
    expect(suggestQueryName([], [])).toBe('')
  })
})

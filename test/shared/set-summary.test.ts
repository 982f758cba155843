import { describe, expect, it } from 'vitest'
import { DEFAULT_SCALE, QuerySetSchema } from '../../src/shared/relevance/query-set'
import { setSummary, SetSummarySchema } from '../../src/shared/relevance/set-summary'
import { CITIES } from '../fixtures/judgment-sets'

describe('setSummary', () => {
  it('counts the queries and judgments, and names the template', () => {
    const summary = setSummary(CITIES)
    expect(summary).toEqual({
      name: 'World cities',
      template: 'cities',
      notes: '',
      queries: 5,
      judgments: 7,
      scale: DEFAULT_SCALE,
      settings: { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'mean' },
    })
    expect(SetSummarySchema.parse(summary)).toEqual(summary)
  })

  it('gives a set with a request of its own no template, and its own notes, scale and settings', () => {
    const scale = [
      { grade: 0, label: 'No' },
      { grade: 1, label: 'Yes' },
    ]
    const set = QuerySetSchema.parse({
      name: 'Own',
      connection: 'Demo',
      request: { workspace: 'w', api: 'a', steps: [{ endpoint: 'search', parameters: { query: '{{query}}' } }], responseType: 'results', options: {} },
      notes: 'Judged in May',
      scale,
      settings: { gain: 'linear' },
      queries: [],
    })
    expect(setSummary(set)).toMatchObject({ template: null, notes: 'Judged in May', queries: 0, judgments: 0, scale, settings: { gain: 'linear', unjudged: 'zero', threshold: 1 } })
  })
})

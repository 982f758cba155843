import { describe, expect, it } from 'vitest'
import { raterKinds, ratersOf } from '../../src/shared/relevance/raters'

describe('ratersOf', () => {
  it('lists the set\'s raters in its order, then those only its judgments name, as people, in the order first seen', () => {
    const set = {
      raters: [{ name: 'llm:judge', kind: 'model' as const }],
      judgments: [
        { rater: 'bo' },
        { rater: 'llm:judge' },
        { rater: 'ann' },
        { rater: 'bo' },
        { rater: 'adjudication' },
      ],
    }
    expect(ratersOf(set)).toEqual([
      { name: 'llm:judge', kind: 'model' },
      { name: 'bo', kind: 'person' },
      { name: 'ann', kind: 'person' },
      // Settle's reserved name is of kind adjudication though no list names it.
      { name: 'adjudication', kind: 'adjudication' },
    ])
    expect(raterKinds(set)('llm:judge')).toBe('model')
    expect(raterKinds(set)('nobody')).toBeUndefined()
  })

  it('reads a file of the previous format, which lists no rater', () => {
    expect(ratersOf({ judgments: [{ rater: 'unnamed' }] })).toEqual([{ name: 'unnamed', kind: 'person' }])
    expect(ratersOf({ judgments: [] })).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { raterKinds, ratersOf, referenceRaters } from '../../src/shared/relevance/raters'

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

  it('an unlisted llm: rater is a model', () => {
    expect(ratersOf({ judgments: [{ rater: 'llm:demo' }] })).toEqual([{ name: 'llm:demo', kind: 'model' }])
  })
})

describe('referenceRaters', () => {
  it('measures a judge against the people who graded the set, never a model, a judge or the adjudicator', () => {
    const set = {
      raters: [{ name: 'rule', kind: 'model' as const }, { name: 'file', kind: 'import' as const }, { name: 'idle', kind: 'person' as const }],
      judgments: [{ rater: 'rule' }, { rater: 'llm:demo' }, { rater: 'ann' }, { rater: 'file' }, { rater: 'adjudication' }],
    }
    const reference = referenceRaters(set)
    // "idle" is listed but graded nothing.
    expect([reference.people, reference.names]).toEqual([true, ['file', 'ann']])
    expect(['ann', 'rule', 'llm:demo', 'adjudication'].map(reference.has)).toEqual([true, false, false, false])
  })

  it('a set no person graded (the example\'s rules) is measured against its other raters that are no LLM judge', () => {
    const set = {
      raters: [{ name: 'rule: as written', kind: 'model' as const }, { name: 'rule: strict', kind: 'model' as const }],
      judgments: [{ rater: 'rule: as written' }, { rater: 'rule: strict' }, { rater: 'llm:demo' }, { rater: 'llm:other' }],
    }
    expect(referenceRaters(set)).toMatchObject({ people: false, names: ['rule: as written', 'rule: strict'] })
    expect(referenceRaters({ judgments: [{ rater: 'llm:demo' }] }).names).toEqual([])
  })
})

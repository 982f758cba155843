import { describe, expect, it } from 'vitest'
import { raterAgreement } from '../../src/shared/relevance/rater-agreement'
import { setAgreement } from '../../src/shared/relevance/set-agreement'

const SCALE = [0, 1, 2, 3]
const QUERIES = [{ id: 'q1', text: 'paris' }]
const RATERS = [
  { name: 'ana', kind: 'person' as const },
  { name: 'ben', kind: 'person' as const },
  { name: 'cy', kind: 'import' as const },
  { name: 'adjudication', kind: 'adjudication' as const },
]
const j = (item: string, rater: string, grade: number) => ({ query: 'q1', item, rater, grade })

// ana and ben: a 0/3, b 1/1, c 2/2; cy: a 3, b 1; the adjudicator settled a at 2.
const JUDGMENTS = [j('a', 'ana', 0), j('a', 'ben', 3), j('a', 'cy', 3), j('a', 'adjudication', 2), j('b', 'ana', 1), j('b', 'ben', 1), j('b', 'cy', 1), j('c', 'ana', 2), j('c', 'ben', 2)]

describe('setAgreement', () => {
  it('leaves the adjudicator out of the figures and shows its grade as the settled one', () => {
    const found = setAgreement({ scale: SCALE, queries: QUERIES, judgments: JUDGMENTS, raters: RATERS, settled: true })
    const people = JUDGMENTS.filter((judgment) => judgment.rater !== 'adjudication')
    const { disagreements, ...figures } = found
    expect(figures).toEqual(raterAgreement({ scale: SCALE, judgments: people, raters: RATERS.slice(0, 3) }))
    expect(found.raters.map((rater) => rater.rater)).toEqual(['ana', 'ben', 'cy'])
    expect(disagreements.rows).toEqual([{ query: 'q1', text: 'paris', item: 'a', grades: [{ rater: 'ana', grade: 0 }, { rater: 'ben', grade: 3 }, { rater: 'cy', grade: 3 }], spread: 3, settled: 2 }])
    // Unless asked, the settled item is only counted.
    expect(setAgreement({ scale: SCALE, queries: QUERIES, judgments: JUDGMENTS, raters: RATERS }).disagreements).toEqual({ steps: 2, total: 0, settled: 1, rows: [] })
  })

  it('compares only the raters named, in figures and disagreements alike', () => {
    const found = setAgreement({ scale: SCALE, queries: QUERIES, judgments: JUDGMENTS, raters: RATERS, only: ['ben', 'cy'], settled: true })
    expect(found.pairs.map((pair) => [pair.a, pair.b, pair.n, pair.agreement])).toEqual([['ben', 'cy', 2, 1]])
    // ben and cy agree on a: no disagreement left.
    expect(found.disagreements.rows).toEqual([])
  })
})

import { describe, expect, it } from 'vitest'
import { raterAgreement } from '../../src/shared/relevance/rater-agreement'
import { MAX_PAIRS_SHOWN, setAgreement } from '../../src/shared/relevance/set-agreement'

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
    const { disagreements, pairsLeftOut, ...figures } = found
    expect(pairsLeftOut).toBe(0)
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

  it('sends at most 300 pairs, those sharing the most items, in the report\'s order, and says how many are left out', () => {
    // 30 raters, 435 pairs: r0…r4 grade items i0…i9, everyone else one item of their own, so only pairs among r0…r4 share items.
    const judgments = Array.from({ length: 30 }, (_, r) => (r < 5 ? Array.from({ length: 10 }, (_, i) => j(`i${i}`, `r${r}`, (i + r) % 4)) : [j(`own${r}`, `r${r}`, 1)])).flat()
    const raters = Array.from({ length: 30 }, (_, r) => ({ name: `r${r}`, kind: 'person' as const }))
    const found = setAgreement({ scale: SCALE, queries: QUERIES, judgments, raters })
    expect(found.pairs).toHaveLength(MAX_PAIRS_SHOWN)
    expect(found.pairsLeftOut).toBe(435 - MAX_PAIRS_SHOWN)
    // The ten pairs among r0…r4 (10 items each) are all there, first as the report orders them.
    expect(found.pairs.filter((pair) => pair.n > 0).map((pair) => `${pair.a}-${pair.b}`)).toEqual(['r0-r1', 'r0-r2', 'r0-r3', 'r0-r4', 'r1-r2', 'r1-r3', 'r1-r4', 'r2-r3', 'r2-r4', 'r3-r4'])
  })
})

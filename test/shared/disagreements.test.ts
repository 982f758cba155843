import { describe, expect, it } from 'vitest'
import { disagreements } from '../../src/shared/relevance/disagreements'

const SCALE = [0, 1, 2, 3]
const QUERIES = [
  { id: 'q1', text: 'paris' },
  { id: 'q2', text: 'rome' },
]
const RATERS = [
  { name: 'ana', kind: 'person' as const },
  { name: 'ben', kind: 'person' as const },
  { name: 'import', kind: 'import' as const },
  { name: 'adjudication', kind: 'adjudication' as const },
]

const j = (query: string, item: string, rater: string, grade: number) => ({ query, item, rater, grade })

describe('disagreements', () => {
  it('lists the items whose grades lie two or more places apart, widest first, with each rater\'s grade', () => {
    const judgments = [
      // q1/a: 0 and 3, three steps; q1/b: 1 and 2, one step (not listed); q2/c: 0, 2 and 1, two steps.
      j('q1', 'a', 'ben', 3), j('q1', 'a', 'ana', 0),
      j('q1', 'b', 'ana', 1), j('q1', 'b', 'ben', 2),
      j('q2', 'c', 'import', 1), j('q2', 'c', 'ana', 0), j('q2', 'c', 'ben', 2),
      // One rater only: nothing to differ from.
      j('q2', 'd', 'ana', 3),
    ]
    const found = disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS })
    expect(found).toEqual({
      steps: 2,
      total: 2,
      settled: 0,
      rows: [
        { query: 'q1', text: 'paris', item: 'a', grades: [{ rater: 'ana', grade: 0 }, { rater: 'ben', grade: 3 }], spread: 3, settled: null },
        { query: 'q2', text: 'rome', item: 'c', grades: [{ rater: 'ana', grade: 0 }, { rater: 'ben', grade: 2 }, { rater: 'import', grade: 1 }], spread: 2, settled: null },
      ],
    })
  })

  it('counts steps as places on the scale, not grade differences', () => {
    // Scale 0, 1, 3, 7: 1 and 7 are two places apart (a difference of 6); 0 and 3 two as well; 3 and 7 one.
    const scale = [0, 1, 3, 7]
    const judgments = [j('q1', 'a', 'ana', 1), j('q1', 'a', 'ben', 7), j('q1', 'b', 'ana', 3), j('q1', 'b', 'ben', 7), j('q2', 'c', 'ana', 0), j('q2', 'c', 'ben', 3)]
    const found = disagreements({ scale, queries: QUERIES, judgments, raters: RATERS })
    expect(found.rows.map((row) => [row.item, row.spread])).toEqual([['a', 2], ['c', 2]])
    // At one step, b (3 and 7) shows too, after the wider two.
    expect(disagreements({ scale, queries: QUERIES, judgments, raters: RATERS, steps: 1 }).rows.map((row) => row.item)).toEqual(['a', 'c', 'b'])
    // At three, none.
    expect(disagreements({ scale, queries: QUERIES, judgments, raters: RATERS, steps: 3 })).toMatchObject({ total: 0, rows: [] })
  })

  it('leaves a settled item out unless asked, shows its adjudicated grade, and never counts the adjudicator as a rater', () => {
    const judgments = [
      j('q1', 'a', 'ana', 0), j('q1', 'a', 'ben', 3), j('q1', 'a', 'adjudication', 2),
      j('q1', 'b', 'ana', 0), j('q1', 'b', 'ben', 2),
      // The adjudicator's 3 against ana's 0 is no disagreement: one rater graded c.
      j('q2', 'c', 'ana', 0), j('q2', 'c', 'adjudication', 3),
    ]
    expect(disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS })).toMatchObject({ total: 1, settled: 1, rows: [{ item: 'b', settled: null }] })
    const all = disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS, settled: true })
    expect(all).toMatchObject({ total: 2, settled: 1 })
    // Those still to settle first, whatever their spread: a settled row never hides one past the limit.
    expect(all.rows.map((row) => [row.item, row.settled, row.grades.length])).toEqual([['b', null, 2], ['a', 2, 2]])
    expect(disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS, settled: true, limit: 1 }).rows.map((row) => row.item)).toEqual(['b'])
  })

  it('compares only the raters named, when named', () => {
    const judgments = [j('q1', 'a', 'ana', 0), j('q1', 'a', 'ben', 1), j('q1', 'a', 'import', 3)]
    expect(disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS }).rows).toHaveLength(1)
    expect(disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS, only: ['ana', 'ben'] }).rows).toEqual([])
  })

  it('is bounded: the first N by spread, with the count of all', () => {
    const judgments = Array.from({ length: 50 }, (_, index) => [j('q1', `i${index}`, 'ana', 0), j('q1', `i${index}`, 'ben', index % 2 === 0 ? 2 : 3)]).flat()
    const found = disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS, limit: 10 })
    expect(found.total).toBe(50)
    expect(found.rows).toHaveLength(10)
    // The 25 of spread 3 come before those of spread 2.
    expect(found.rows.every((row) => row.spread === 3)).toBe(true)
  })

  it('orders rows of equal spread by the set\'s query order, then item; a grade off the scale is left out', () => {
    const judgments = [
      j('q2', 'b', 'ana', 0), j('q2', 'b', 'ben', 2),
      j('q1', 'z', 'ana', 0), j('q1', 'z', 'ben', 2),
      j('q1', 'y', 'ana', 0), j('q1', 'y', 'ben', 2),
      // 9 is no grade of the scale: y's x has ana's 0 alone.
      j('q1', 'x', 'ana', 0), j('q1', 'x', 'ben', 9),
    ]
    expect(disagreements({ scale: SCALE, queries: QUERIES, judgments, raters: RATERS }).rows.map((row) => `${row.query}/${row.item}`)).toEqual(['q1/y', 'q1/z', 'q2/b'])
  })
})

import { describe, expect, it } from 'vitest'
import { AggregateSchema, aggregateGrade, aggregateGrades, gradesOfRater, gradesOfSet } from '../../src/shared/relevance/grade-aggregate'
import type { RaterKind } from '../../src/shared/relevance/raters'

const people = (): RaterKind | undefined => 'person'
const graded = (...grades: number[]) => grades.map((grade, index) => ({ rater: `r${index}`, grade }))

describe('aggregateGrade', () => {
  it('mean (the default), median, majority, max and min of one item\'s grades', () => {
    const grades = graded(0, 3, 3, 1)
    expect(aggregateGrade(grades, 'mean', people)).toBe(1.75) // (0 + 3 + 3 + 1) / 4
    expect(aggregateGrade(grades, 'median', people)).toBe(2) // sorted 0 1 3 3: (1 + 3) / 2
    expect(aggregateGrade(graded(0, 3, 1), 'median', people)).toBe(1) // sorted 0 1 3: the middle one
    expect(aggregateGrade(grades, 'majority', people)).toBe(3) // 3 twice
    expect(aggregateGrade(grades, 'max', people)).toBe(3)
    expect(aggregateGrade(grades, 'min', people)).toBe(0)
  })

  it('majority breaks a tie to the lower grade', () => {
    expect(aggregateGrade(graded(2, 1, 2, 1), 'majority', people)).toBe(1)
    expect(aggregateGrade(graded(3, 0), 'majority', people)).toBe(0)
  })

  it('rater:NAME takes that rater\'s grade, and none where they gave none', () => {
    expect(aggregateGrade(graded(0, 2), 'rater:r1', people)).toBe(2)
    expect(aggregateGrade(graded(0, 2), 'rater:ann', people)).toBeUndefined()
    expect(aggregateGrade([], 'mean', people)).toBeUndefined()
  })

  it('an adjudicated grade wins under every rule', () => {
    const kindOf = (rater: string): RaterKind => (rater === 'lead' ? 'adjudication' : 'person')
    const grades = [...graded(0, 0, 0), { rater: 'lead', grade: 3 }]
    for (const rule of ['mean', 'median', 'majority', 'max', 'min', 'rater:r0'] as const) expect(aggregateGrade(grades, rule, kindOf)).toBe(3)
  })

  it('reads the rules as the command line writes them, and names a wrong one', () => {
    expect(['mean', 'median', 'majority', 'max', 'min', 'rater:ann'].map((text) => AggregateSchema.safeParse(text).success)).toEqual([true, true, true, true, true, true])
    const wrong = AggregateSchema.safeParse('average')
    expect(wrong.success).toBe(false)
    expect(JSON.stringify(wrong.error!.issues)).toContain('mean, median, majority, max, min or rater:NAME')
    expect(AggregateSchema.safeParse('rater:').success).toBe(false)
  })
})

describe('aggregateGrades', () => {
  const judgments = [
    { query: 'q1', item: 'a', rater: 'ann', grade: 1 },
    { query: 'q1', item: 'a', rater: 'bob', grade: 3 },
    { query: 'q1', item: 'b', rater: 'bob', grade: 2 },
    { query: 'q2', item: 'a', rater: 'ann', grade: 0 },
    { query: 'q2', item: 'a', rater: 'ann', grade: 2 },
    { query: 'q2', item: 'c', rater: 'ann', grade: 1 },
    { query: 'q2', item: 'c', rater: 'lead', grade: 3 },
  ]
  const raters = [{ name: 'lead', kind: 'adjudication' as const }]

  it('grades every item of every query, a rater\'s later grade counting, an adjudication winning', () => {
    expect(aggregateGrades(judgments, 'mean', raters)).toEqual(
      new Map([
        ['q1', new Map([['a', 2], ['b', 2]])],
        ['q2', new Map([['a', 2], ['c', 3]])],
      ]),
    )
  })

  it('leaves out, as unjudged, an item the rule gives no grade', () => {
    expect(aggregateGrades(judgments, 'rater:ann', raters)).toEqual(
      new Map([
        ['q1', new Map([['a', 1]])],
        ['q2', new Map([['a', 2], ['c', 3]])],
      ]),
    )
  })
})

describe('gradesOfSet and gradesOfRater', () => {
  const judgments = [
    { query: 'q1', item: 'a', rater: 'ann', grade: 1 },
    { query: 'q1', item: 'a', rater: 'bo', grade: 3 },
    { query: 'q1', item: 'b', rater: 'bo', grade: 0 },
  ]

  it("uses the set's own aggregate (mean when it names none), or the one given", () => {
    expect(gradesOfSet({ judgments })).toEqual(new Map([['q1', new Map([['a', 2], ['b', 0]])]]))
    expect(gradesOfSet({ judgments, settings: { aggregate: 'max' } })).toEqual(new Map([['q1', new Map([['a', 3], ['b', 0]])]]))
    expect(gradesOfSet({ judgments, settings: { aggregate: 'max' } }, 'min')).toEqual(new Map([['q1', new Map([['a', 1], ['b', 0]])]]))
  })

  it("settles an item by the reserved rater 'adjudication' though the set does not list it", () => {
    const settled = [...judgments, { query: 'q1', item: 'a', rater: 'adjudication', grade: 2 }]
    expect(gradesOfSet({ judgments: settled }, 'max').get('q1')!.get('a')).toBe(2)
  })

  it("gives one rater's own grades only", () => {
    expect(gradesOfRater(judgments, 'ann')).toEqual(new Map([['q1', new Map([['a', 1]])]]))
    expect(gradesOfRater(judgments, 'nobody').size).toBe(0)
  })
})

import { describe, expect, it } from 'vitest'
import {
  DEFAULT_SCALE,
  QuerySetSchema,
  ScaleSchema,
  scaleOf,
  scaleText,
  settingsOf,
} from '../../src/shared/relevance/query-set'
import { issuesOf } from '../fixtures/schema-issues'

/** A set's schema and its small helpers; quickJudgment is held equal to JudgmentSchema in quick-judgment.test.ts. */

const QUERIES = [
  { id: 'q1', text: 'paris' },
  { id: 'q2', text: 'rome' },
]

const problems = (value: unknown) => issuesOf(QuerySetSchema, value)

describe('QuerySetSchema', () => {
  it('reads a set with its own request, with no judgments yet', () => {
    const set = QuerySetSchema.parse({ name: 'Cities', query: 'cities', queries: QUERIES })
    expect(set.judgments).toEqual([])
    expect(set.queries).toEqual(QUERIES)
  })

  it('names each problem of queries and judgments: a twice-used id, an unknown query, a grade off the scale, an item judged twice by one rater', () => {
    const judgments = [
      { query: 'q1', item: 'a', rater: 'Ann', grade: 3 },
      { query: 'q9', item: 'a', rater: 'Ann', grade: 1 },
      { query: 'q1', item: 'b', rater: 'Ann', grade: 7 },
      { query: 'q1', item: 'a', rater: 'Ann', grade: 2 },
      // Another rater's grade of the same item is no problem.
      { query: 'q1', item: 'a', rater: 'Bo', grade: 0 },
    ]
    expect(problems({ name: 'Cities', query: 'cities', queries: [...QUERIES, { id: 'q1', text: 'lyon' }], judgments })).toEqual([
      'queries.2.id: the id "q1" is used by two queries of the set',
      'judgments.1.query: names no query of the set ("q9")',
      "judgments.2.grade: 7 is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)",
      'judgments.3: the rater "Ann" judges the item "a" twice for the query "q1"',
    ])
    expect(problems({ name: 'Cities', query: 'cities', queries: QUERIES, raters: [{ name: 'Ann', kind: 'person' }, { name: 'Ann', kind: 'import' }] })).toEqual([
      'raters.1.name: the rater "Ann" is listed twice',
    ])
  })

  it('counts the raters the judgments name with those listed: one past 1,000 is refused, naming it', () => {
    const judgments = (count: number) => Array.from({ length: count }, (_, i) => ({ query: 'q1', item: 'a', rater: `r${i}`, grade: 1 }))
    expect(problems({ name: 'Cities', query: 'cities', queries: QUERIES, raters: [{ name: 'lead', kind: 'adjudication' }], judgments: judgments(999) })).toEqual([])
    expect(problems({ name: 'Cities', query: 'cities', queries: QUERIES, raters: [{ name: 'lead', kind: 'adjudication' }], judgments: judgments(1_000) })).toEqual([
      'judgments.999.rater: "r999" is one rater more than the 1,000 a set may have',
    ])
  })

  it("reads a judgment of the previous format: its `by` is its rater, or 'unnamed' without one; `rater` wins over `by`", () => {
    const parsed = QuerySetSchema.parse({
      name: 'Cities',
      query: 'cities',
      queries: QUERIES,
      judgments: [
        { query: 'q1', item: 'a', grade: 3, by: 'Ann' },
        { query: 'q1', item: 'b', grade: 1 },
        { query: 'q1', item: 'c', grade: 2, by: '' },
        { query: 'q1', item: 'd', rater: 'Bo', grade: 0 },
        { query: 'q1', item: 'e', rater: 'Bo', grade: 0, by: 'Ann' },
      ],
    })
    expect(parsed.judgments).toEqual([
      { query: 'q1', item: 'a', rater: 'Ann', grade: 3 },
      { query: 'q1', item: 'b', rater: 'unnamed', grade: 1 },
      { query: 'q1', item: 'c', rater: 'unnamed', grade: 2 },
      { query: 'q1', item: 'd', rater: 'Bo', grade: 0 },
      { query: 'q1', item: 'e', rater: 'Bo', grade: 0 },
    ])
    // An empty rater is refused, naming the field.
    expect(problems({ name: 'Cities', query: 'cities', queries: QUERIES, judgments: [{ query: 'q1', item: 'a', rater: '', grade: 1 }] })[0]).toMatch(/^judgments\.0\.rater: /)
  })

  it('refuses a query id with white space, and a threshold above the highest grade of its scale', () => {
    expect(problems({ name: 'Cities', query: 'cities', queries: [{ id: 'q 1', text: 'paris' }] })).toEqual([
      'queries.0.id: is not a query id: it has white space in it (TREC files split their lines on white space)',
    ])
    const scale = [
      { grade: 0, label: 'No' },
      { grade: 1, label: 'Yes' },
    ]
    expect(problems({ name: 'Cities', query: 'cities', queries: QUERIES, scale, settings: { threshold: 2 } })).toEqual([
      "settings.threshold: 2 is above the scale's highest grade (1)",
    ])
  })
})

describe('ScaleSchema', () => {
  it('takes 2 to 11 steps whose grades go up, and says where they do not', () => {
    expect(ScaleSchema.parse(DEFAULT_SCALE)).toEqual(DEFAULT_SCALE)
    const down = ScaleSchema.safeParse([
      { grade: 0, label: 'Bad' },
      { grade: 2, label: 'Good' },
      { grade: 2, label: 'Same' },
    ])
    expect(down.error!.issues).toEqual([expect.objectContaining({ path: [2, 'grade'], message: 'grades go up one step after another: 2 follows 2' })])
    expect(ScaleSchema.safeParse([{ grade: 0, label: 'Only' }]).success).toBe(false)
    expect(ScaleSchema.safeParse(Array.from({ length: 12 }, (_, grade) => ({ grade, label: `g${grade}` }))).success).toBe(false)
  })
})

describe('scale and settings of a set', () => {
  it('gives the set\'s own, or the defaults, and the scale in words', () => {
    expect(scaleOf({})).toBe(DEFAULT_SCALE)
    expect(scaleText(DEFAULT_SCALE)).toBe('0 Poor, 1 Fair, 2 Good, 3 Perfect')
    expect(settingsOf({})).toEqual({ gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'mean' })
    expect(settingsOf({ settings: { gain: 'linear', unjudged: 'zero', threshold: 2 } })).toEqual({ gain: 'linear', unjudged: 'zero', threshold: 2, aggregate: 'mean' })
  })
})

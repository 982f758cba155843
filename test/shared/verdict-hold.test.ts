import { describe, expect, it } from 'vitest'
import { experimentStats } from '../../src/shared/experiments/experiment'
import { gradeSources, verdictHold, judgeCoverage } from '../../src/shared/experiments/verdict-hold'
import { VerdictHoldSchema } from '../../src/shared/ipc/judge-contract'
import { scoreRankings, type QueryRanking } from '../../src/shared/relevance/evaluation'
import { gradesOfSet } from '../../src/shared/relevance/grade-aggregate'
import { parseMetrics } from '../../src/shared/relevance/metrics'
import { settingsOf, type Judgment, type QuerySet } from '../../src/shared/relevance/query-set'

const JUDGE = 'llm:demo'
const QUERIES = Array.from({ length: 8 }, (_, index) => `q${index + 1}`)
const ranking = (id: string, items: string[]): QueryRanking => ({ id, text: id, items, labels: [], error: null, durationMs: 0 })
/** A ranks a above b on every query, B ranks b above a. */
const A = QUERIES.map((id) => ranking(id, ['a', 'b']))
const B = QUERIES.map((id) => ranking(id, ['b', 'a']))
const METRICS = (parseMetrics('p@1,ndcg@2,coverage@2') as { ok: true; metrics: never }).metrics
// The sets here keep the default settings (the mean of the raters' grades, threshold 1).
const scoring = () => ({ metrics: METRICS, settings: settingsOf({}), judgeDepth: 2 })

/** Every query's a and b graded by `rater`. */
const graded = (rater: string, a: number, b: number): Judgment[] => QUERIES.flatMap((query) => [{ query, item: 'a', rater, grade: a }, { query, item: 'b', rater, grade: b }])
const RATERS: QuerySet['raters'] = [
  { name: 'ann', kind: 'person' },
  { name: 'bob', kind: 'import' },
]

describe('verdictHold', () => {
  it("does not hold when the judge's grades reverse what people's say", () => {
    // People: b is good (2), a is poor (0), so B wins every query. The judge says the opposite.
    // Both (the mean): a and b are both 1, so the sides tie everywhere.
    const set = { raters: RATERS, judgments: [...graded('ann', 0, 2), ...graded(JUDGE, 2, 0)] }
    const found = verdictHold({ judge: JUDGE, set, sides: [A, B], scoring: scoring() })
    expect(VerdictHoldSchema.parse(found)).toEqual(found)
    // Eight paired queries, every delta of one sign: the exact test gives 2 / 2^8; Holm over the family of three
    // (P@1, nDCG@2 and Coverage@2, whose delta is 0 and p 1) gives 3 · 2/256 = 0.0234375 < 0.05.
    const p = 2 / 256
    // nDCG@2 of A under people: (2² − 1) / log2(3) over the ideal 3: 1 / log2(3) = 0.63093; B's is 1.
    const ndcgDelta = 1 - 1 / Math.log2(3)
    const byRow = (metric: string) => found.rows.filter((row) => row.metric === metric).map(({ side, grades, n, delta, p, pAdjusted, significant }) => ({ side, grades, n, delta, p, pAdjusted, significant }))
    expect(byRow('p@1')).toEqual([
      { side: 'B', grades: 'people', n: 8, delta: 1, p, pAdjusted: 3 * p, significant: true },
      { side: 'B', grades: 'judge', n: 8, delta: -1, p, pAdjusted: 3 * p, significant: true },
      { side: 'B', grades: 'both', n: 8, delta: 0, p: 1, pAdjusted: 1, significant: false },
    ])
    const ndcg = byRow('ndcg@2')
    expect(ndcg.map((row) => [row.grades, row.significant])).toEqual([
      ['people', true],
      ['judge', true],
      ['both', false],
    ])
    expect(ndcg[0]!.delta).toBeCloseTo(ndcgDelta, 12)
    expect(ndcg[1]!.delta).toBeCloseTo(-ndcgDelta, 12)
    // Coverage measures the judging, not the rankings: no row of its own.
    expect(found.rows.some((row) => row.metric.startsWith('coverage'))).toBe(false)
    expect(found.verdicts).toEqual([
      { side: 'B', metric: 'p@1', signChanges: true, significanceChanges: true, holds: false },
      { side: 'B', metric: 'ndcg@2', signChanges: true, significanceChanges: true, holds: false },
    ])
  })

  it('holds when the judge agrees with the people', () => {
    const set = { raters: RATERS, judgments: [...graded('ann', 0, 2), ...graded('bob', 0, 3), ...graded(JUDGE, 0, 3)] }
    const found = verdictHold({ judge: JUDGE, set, sides: [A, B], scoring: scoring() })
    expect(found.rows.filter((row) => row.metric === 'p@1').map((row) => [row.grades, row.delta, row.significant])).toEqual([
      ['people', 1, true],
      ['judge', 1, true],
      ['both', 1, true],
    ])
    expect(found.verdicts.map((verdict) => [verdict.metric, verdict.holds, verdict.signChanges, verdict.significanceChanges])).toEqual([
      ['p@1', true, false, false],
      ['ndcg@2', true, false, false],
    ])
  })

  it("gives, with both, the experiment's own table with the grades as they are now", () => {
    const set = { raters: RATERS, judgments: [...graded('ann', 0, 2), ...graded(JUDGE, 1, 3)].filter((judgment, index) => index % 3 !== 0) }
    const found = verdictHold({ judge: JUDGE, set, sides: [A, B], scoring: scoring() })
    const settings = settingsOf({})
    const side = (label: string, rankings: QueryRanking[]) => ({ label, rankings, scored: scoreRankings(rankings, set, METRICS, settings, 2) })
    const stats = experimentStats(side('A', A), [side('B', B)], gradesOfSet(set), 2)
    const both = found.rows.filter((row) => row.grades === 'both')
    expect(both.map((row) => [row.metric, row.n, row.delta, row.p, row.pAdjusted, row.significant])).toEqual(
      stats.comparisons.filter((c) => c.metric !== 'coverage@2').map((c) => [c.metric, c.n, c.meanDelta, c.p, c.pAdjusted, c.significant]),
    )
  })

  it('counts a comparison no query is paired in under one of the grades as a changed sign', () => {
    // No person graded anything: the people's table pairs no query.
    const set = { raters: RATERS, judgments: graded(JUDGE, 0, 2) }
    const found = verdictHold({ judge: JUDGE, set, sides: [A, B], scoring: scoring() })
    expect(found.rows.filter((row) => row.metric === 'p@1').map((row) => [row.grades, row.n, row.delta, row.p, row.significant])).toEqual([
      ['people', 0, null, null, false],
      ['judge', 8, 1, 2 / 256, true],
      ['both', 8, 1, 2 / 256, true],
    ])
    expect(found.verdicts[0]).toEqual({ side: 'B', metric: 'p@1', signChanges: true, significanceChanges: true, holds: false })
  })

  it("names each side after the baseline by letter and reads the people's, the judge's and every grade", () => {
    const C = QUERIES.map((id) => ranking(id, ['a']))
    const set = { raters: RATERS, judgments: [...graded('ann', 0, 2), ...graded(JUDGE, 2, 0), ...graded('adjudication', 1, 1).slice(0, 2), ...graded('llm:other', 3, 3)] }
    const found = verdictHold({ judge: JUDGE, set, sides: [A, B, C], scoring: scoring() })
    expect([...new Set(found.verdicts.map((verdict) => verdict.side))]).toEqual(['B', 'C'])
    const sources = gradeSources(set, JUDGE, undefined)
    // People: ann and the settled grades (q1's a and b); the judge: its own; both: every rater, another model too.
    expect(new Set(sources.people.judgments.map((judgment) => judgment.rater))).toEqual(new Set(['ann', 'adjudication']))
    expect(new Set(sources.judge.judgments.map((judgment) => judgment.rater))).toEqual(new Set([JUDGE]))
    expect(sources.both.judgments).toBe(set.judgments)
    // A rule naming the judge gives the people their mean, and the judge its own grades.
    expect(gradeSources(set, JUDGE, `rater:${JUDGE}`).people.aggregate).toBe('mean')
    expect(() => verdictHold({ judge: JUDGE, set, sides: [A], scoring: scoring() })).toThrow('sides: an experiment compares the baseline with at least one other side')
  })

  it("counts how much of each side's top items the judge graded, a failed query aside", () => {
    const ranking = (id: string, items: string[], error: string | null = null) => ({ id, text: id, items, labels: items, error, durationMs: 1 })
    const judgments = [
      { query: 'q1', item: 'a', rater: 'llm:j', grade: 1 },
      { query: 'q1', item: 'b', rater: 'Ann', grade: 1 },
      { query: 'q2', item: 'x', rater: 'llm:j', grade: 2 },
    ]
    const sides = [
      [ranking('q1', ['a', 'b', 'c']), ranking('q2', ['x', 'y'])],
      [ranking('q1', ['c', 'a']), ranking('q2', [], 'the service answered 504')],
    ]
    // Top 2: A holds a, b (a graded) and x, y (x graded); B holds c, a (a graded); B's failed q2 counts nothing.
    expect(judgeCoverage('llm:j', judgments, sides, 2)).toEqual([
      { side: 'A', graded: 2, items: 4 },
      { side: 'B', graded: 1, items: 2 },
    ])
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { experimentStats } from '../../src/shared/experiments/experiment'
import { scoreRankings, type QueryRanking } from '../../src/shared/relevance/evaluation'
import { gradesOfSet } from '../../src/shared/relevance/grade-aggregate'
import { evaluationIntervals, judgeNextEvaluation, judgeNextExperiment, type JudgeNextSet } from '../../src/shared/relevance/judge-next'
import { scoreQuery, type MetricSpec } from '../../src/shared/relevance/metrics'
import { DEFAULT_SCALE, DEFAULT_SETTINGS, type MetricSettings } from '../../src/shared/relevance/query-set'

const ranking = (id: string, items: string[], error: string | null = null): QueryRanking => ({ id, text: `text of ${id}`, items, labels: [], error, durationMs: 1 })
const judged = (list: [query: string, item: string, grade: number, rater?: string][]): JudgeNextSet => ({
  judgments: list.map(([query, item, grade, rater]) => ({ query, item, grade, rater: rater ?? 'ana' })),
})
const ndcg = (k: number): MetricSpec => ({ name: 'ndcg', k })
const p = (k: number): MetricSpec => ({ name: 'p', k })
const scoring = (metrics: MetricSpec[], settings: MetricSettings = DEFAULT_SETTINGS, judgeDepth = 10) => ({ metrics, settings, judgeDepth })

/** 1 / log2(3): DCG's discount at rank 2. */
const D2 = 1 / Math.log2(3)

describe('evaluationIntervals', () => {
  it('gives a query of 3 results with one unjudged its nDCG@3 and P@3 intervals, worked by hand', () => {
    // Ranking a, b, c; a graded 2, c graded 1, b unjudged; exponential gain (2^g − 1), scale 0–3, threshold 1.
    // Now (b unjudged, gains nothing): DCG = 3 + 0 + 1/2 = 3.5; ideal [2, 1]: IDCG = 3 + 1·D2 = 3.63093; nDCG = 0.96394.
    // b at the bottom (0): the same DCG and IDCG (a 0 gains nothing), 0.96394.
    // b at the top (3): DCG = 3 + 7·D2 + 1/2 = 7.91651; ideal [3, 2, 1]: IDCG = 7 + 3·D2 + 1/2 = 9.39279; nDCG = 0.84283:
    // lower than now, since b raises the ideal more than the ranking. So the interval is [0.84283, 0.96394].
    // P@3: now a and c are relevant, 2/3; b at 0 still 2/3; b at 3 makes 3/3. Interval [2/3, 1].
    const set = judged([['q1', 'a', 2], ['q1', 'c', 1]])
    const result = evaluationIntervals([ranking('q1', ['a', 'b', 'c'])], set, scoring([ndcg(3), p(3)]))
    const figures = result.queries[0]!.figures!
    expect(figures['ndcg@3']!.current).toBeCloseTo(3.5 / (3 + D2), 10)
    expect(figures['ndcg@3']!.current).toBeCloseTo(0.96394, 5)
    expect(figures['ndcg@3']!.low).toBeCloseTo((3 + 7 * D2 + 0.5) / (7 + 3 * D2 + 0.5), 10)
    expect(figures['ndcg@3']!.low).toBeCloseTo(0.84283, 5)
    expect(figures['ndcg@3']!.high).toBeCloseTo(0.96394, 5)
    expect(figures['p@3']).toEqual({ current: 2 / 3, low: 2 / 3, high: 1 })
    expect(result.queries[0]!.unjudged).toBe(1)
    expect(result.means['p@3']).toEqual({ current: 2 / 3, low: 2 / 3, high: 1 })
  })

  it('reads a fractional grade (the mean of two raters) through the gain as it is', () => {
    // a graded 1 by ana and 2 by ben: 1.5 under mean; gain 2^1.5 − 1 = 1.82843. Ranking a, u; u unjudged; nDCG@2.
    // Now: DCG = IDCG = 1.82843, nDCG 1. u at 3: DCG = 1.82843 + 7·D2 = 6.24494; IDCG = 7 + 1.82843·D2 = 8.15361; 0.76591.
    const set = judged([['q1', 'a', 1, 'ana'], ['q1', 'a', 2, 'ben']])
    const rankings = [ranking('q1', ['a', 'u'])]
    const result = evaluationIntervals(rankings, set, scoring([ndcg(2)]))
    const gain = 2 ** 1.5 - 1
    expect(result.queries[0]!.figures!['ndcg@2']).toEqual({ current: 1, low: expect.closeTo((gain + 7 * D2) / (7 + gain * D2), 10), high: 1 })
    expect(result.queries[0]!.figures!['ndcg@2']!.low).toBeCloseTo(0.76591, 5)
    // The current figure is the evaluation's own.
    expect(scoreRankings(rankings, set, [ndcg(2)], DEFAULT_SETTINGS, 10).queries[0]!.scores!['ndcg@2']).toBe(result.queries[0]!.figures!['ndcg@2']!.current)
  })

  it('leaves out failed queries and those with no judgment, and Coverage', () => {
    const set = judged([['q1', 'a', 1]])
    const result = evaluationIntervals([ranking('q1', ['a', 'u']), ranking('q2', ['x']), ranking('q3', [], 'timed out')], set, scoring([ndcg(2), { name: 'coverage', k: 2 }]))
    expect(result.metrics).toEqual(['ndcg@2'])
    expect(result.counted).toBe(1)
    expect(result.queries.map((query) => query.figures === null)).toEqual([false, true, true])
  })

  it('refuses a judge depth that is not a whole number of at least 1, naming it', () => {
    expect(() => evaluationIntervals([], judged([]), scoring([ndcg(2)], DEFAULT_SETTINGS, 0))).toThrow('judgeDepth is a whole number of at least 1, not 0')
  })
})

describe('judgeNextEvaluation', () => {
  it('queues the unjudged items by how much of their query’s intervals they carry, and says so', () => {
    // q1: two unjudged, at ranks 1 and 3; q2: one at rank 2. P@3 widths: q1 [1/3, 1] (2/3 over two items, evenly), q2 [1/3, 2/3].
    const set = judged([['q1', 'b', 1], ['q2', 'a', 1], ['q2', 'c', 0]])
    const result = judgeNextEvaluation([ranking('q1', ['u1', 'b', 'u2']), ranking('q2', ['a', 'v', 'c'])], set, scoring([p(3)]))
    expect(result.queue.map((entry) => [entry.query, entry.item])).toEqual([
      ['q1', 'u1'],
      ['q1', 'u2'],
      ['q2', 'v'],
    ])
    expect(result.queue.map((entry) => entry.priority)).toEqual([expect.closeTo(1 / 3, 12), expect.closeTo(1 / 3, 12), expect.closeTo(1 / 3, 12)])
    expect(result.queue[0]!.why).toBe('rank 1; could move P@3 by about 0.333 on this query')
    expect(result.summary).toBe('3 unjudged pairs could move the means: P@3 0.333 (between 0.333 and 0.833).')
    expect(judgeNextEvaluation([ranking('q1', ['u1', 'b', 'u2'])], set, scoring([p(3)]), { limit: 1 }).queue).toHaveLength(1)
    expect(() => judgeNextEvaluation([], set, scoring([p(3)]), { limit: -1 })).toThrow('limit is a whole number of at least 0, not -1')
  })
})

/** One query of the sign-flip case: A = [j, x], B = [u, j]; j graded 1, x 0, u unjudged. */
function flipCase(queries: number) {
  const ids = Array.from({ length: queries }, (_, index) => `q${index + 1}`)
  const set = judged(ids.flatMap((id): [string, string, number][] => [[id, 'j', 1], [id, 'x', 0]]))
  return { set, baseline: ids.map((id) => ranking(id, ['j', 'x'])), other: ids.map((id) => ranking(id, ['u', 'j'])) }
}

describe('judgeNextExperiment', () => {
  it('finds a delta whose sign the unjudged items can flip, and queues them', () => {
    // Each of 6 queries, nDCG@2, exponential gain. Now (u unjudged): A = 1 (DCG 1 over IDCG 1), B = D2 (j at rank 2): delta −(1 − D2) = −0.36907.
    // u at the bottom: the same. u at the top (3), on both sides: ideal [3, 1, 0], IDCG = 7 + D2;
    // A = 1 / (7 + D2) = 0.13105 (u is not in A's ranking, but is in the ideal); B = (7 + D2) / (7 + D2) = 1: delta +0.86895.
    // 6 equal deltas: exact randomization test, p = 2/64 = 0.03125 at both extremes (significant, alpha 0.05).
    const { set, baseline, other } = flipCase(6)
    const result = judgeNextExperiment({ baseline, others: [other] }, set, scoring([ndcg(2)]))
    expect(result.verdicts).toHaveLength(1)
    const verdict = result.verdicts[0]!
    expect(verdict.n).toBe(6)
    expect(verdict.delta.current).toBeCloseTo(-(1 - D2), 12)
    expect(verdict.delta.low).toBeCloseTo(-(1 - D2), 12)
    expect(verdict.delta.high).toBeCloseTo(1 - 1 / (7 + D2), 12)
    expect(verdict.signCanChange).toBe(true)
    expect(verdict.significant).toEqual({ current: true, low: true, high: true })
    expect(verdict.significanceCanChange).toBe(false)
    expect(verdict.decided).toBe(false)
    // One pair per query, equal priorities, so in query order. The effect: B's swing (1 − D2) all on u (rank 1 in B),
    // minus A's swing (1/(7 + D2) − 1) spread over the items A has none of (u alone): 1.23802, the whole range of the delta.
    expect(result.queue.map((entry) => entry.query)).toEqual(['q1', 'q2', 'q3', 'q4', 'q5', 'q6'])
    expect(result.queue[0]!.item).toBe('u')
    expect(result.queue[0]!.ranks).toEqual([null, 1])
    expect(result.queue[0]!.priority).toBeCloseTo(verdict.delta.high - verdict.delta.low, 12)
    expect(result.queue[0]!.why).toBe("not in A's ranking, rank 1 in B; could move the delta of nDCG@2 by about 1.238 on this query")
    expect(result.summary).toBe('6 unjudged pairs could change a verdict. nDCG@2: its delta −0.369 could go between −0.369 and +0.869, significant either way.')
  })

  it('finds a significance that the unjudged items can take away', () => {
    // q1–q3 fully judged, A = [j, x], B = [x, j]: delta D2 − 1 = −0.36907 whatever is judged. q4–q6 are the sign-flip case.
    // Now and at the baseline's extreme all 6 deltas are −0.36907: p = 2/64, significant. At B's extreme q4–q6 give +0.86895:
    // three of +0.86895 and three of −0.36907, and many of the 64 sign patterns reach |sum| ≥ 3·0.86895 − 3·0.36907:
    // not significant. Mean delta there (0.86895 − 0.36907) / 2 = +0.24994.
    const { set, baseline, other } = flipCase(6)
    const fixed = ['q1', 'q2', 'q3']
    const others = other.map((entry) => (fixed.includes(entry.id) ? ranking(entry.id, ['x', 'j']) : entry))
    const result = judgeNextExperiment({ baseline, others: [others] }, set, scoring([ndcg(2)]))
    const verdict = result.verdicts[0]!
    expect(verdict.delta.current).toBeCloseTo(D2 - 1, 12)
    expect(verdict.delta.high).toBeCloseTo((1 - 1 / (7 + D2) + D2 - 1) / 2, 12)
    expect(verdict.significant).toEqual({ current: true, low: true, high: false })
    expect(verdict.significanceCanChange).toBe(true)
    expect(verdict.decided).toBe(false)
    expect(result.queue.map((entry) => entry.query)).toEqual(['q4', 'q5', 'q6'])
    expect(result.summary).toBe("3 unjudged pairs could change a verdict. nDCG@2: its delta −0.369 could go between −0.369 and +0.250, significant now, not if the unjudged go the other side's way.")
  })

  it('refuses bad input, naming it', () => {
    const { set, baseline } = flipCase(2)
    expect(() => judgeNextExperiment({ baseline, others: [] }, set, scoring([ndcg(2)]))).toThrow('others: an experiment compares the baseline with at least one other side')
    expect(() => judgeNextExperiment({ baseline, others: [baseline] }, set, scoring([ndcg(2)]), { alpha: 1.5 })).toThrow('alpha is a number between 0 and 1, not 1.5')
  })

  it('says plainly, with the figures, when nothing left to judge changes a verdict', () => {
    // Each of 6 queries: A = [x, j, u], B = [j, x, u]; j graded 3, x 0, u unjudged at rank 3 on both sides. nDCG@3.
    // Now: A = 7·D2 / 7 = D2, B = 7/7 = 1, delta +0.36907. u at 3 on both: IDCG = 7 + 7·D2;
    // A = (7·D2 + 7/2) / (7 + 7·D2) = 0.69343, B = (7 + 7/2) / (7 + 7·D2) = 0.91972: delta +0.22629. Both positive,
    // and 6 equal deltas give p = 0.03125 either way: decided, the queue is empty.
    const ids = ['q1', 'q2', 'q3', 'q4', 'q5', 'q6']
    const set = judged(ids.flatMap((id): [string, string, number][] => [[id, 'j', 3], [id, 'x', 0]]))
    const result = judgeNextExperiment({ baseline: ids.map((id) => ranking(id, ['x', 'j', 'u'])), others: [ids.map((id) => ranking(id, ['j', 'x', 'u']))] }, set, scoring([ndcg(3)]))
    const verdict = result.verdicts[0]!
    expect(verdict.delta.current).toBeCloseTo(1 - D2, 12)
    expect(verdict.delta.high).toBeCloseTo(1 - D2, 12)
    expect(verdict.delta.low).toBeCloseTo((7 + 3.5 - (7 * D2 + 3.5)) / (7 + 7 * D2), 12)
    expect(verdict.decided).toBe(true)
    expect(result.queue).toEqual([])
    expect(result.total).toBe(0)
    expect(result.summary).toBe("Nothing left to judge changes a verdict: nDCG@3's delta stays between +0.226 and +0.369, significant either way.")
  })

  it('gives an item that both sides rank the same grade on both sides', () => {
    // A and B rank the same items in the same order: whatever u turns out to be, both sides read it alike and the delta stays 0.
    // (Graded separately, "u at the top in B, at the bottom in A" would make B better.)
    const ids = ['q1', 'q2', 'q3']
    const set = judged(ids.map((id): [string, string, number] => [id, 'j', 2]))
    const side = ids.map((id) => ranking(id, ['u', 'j', 'w']))
    const result = judgeNextExperiment({ baseline: side, others: [side] }, set, scoring([ndcg(3), p(3)]))
    for (const verdict of result.verdicts) {
      expect(verdict.delta).toEqual({ current: 0, low: 0, high: 0 })
      expect(verdict.significant).toEqual({ current: false, low: false, high: false })
      expect(verdict.decided).toBe(true)
    }
    expect(result.queue).toEqual([])
    expect(result.summary).toBe("Nothing left to judge changes a verdict: nDCG@3's delta stays between 0.000 and 0.000, not significant either way; P@3's delta stays between 0.000 and 0.000, not significant either way.")
  })

  it('puts the item with the most to move first, and ties by query order, then rank', () => {
    // The sign-flip case on q1–q6, and q7 where B = [u1, u2, j]: u1 at rank 1 carries more of B's swing than u2 at rank 2.
    const { set, baseline, other } = flipCase(6)
    const all: JudgeNextSet = { judgments: [...set.judgments, ...judged([['q7', 'j', 1], ['q7', 'x', 0]]).judgments] }
    const result = judgeNextExperiment({ baseline: [...baseline, ranking('q7', ['j', 'x'])], others: [[...other, ranking('q7', ['u1', 'u2', 'j'])]] }, all, scoring([ndcg(2)]))
    const order = result.queue.map((entry) => `${entry.query}:${entry.item}`)
    expect(order.indexOf('q7:u1')).toBeLessThan(order.indexOf('q7:u2'))
    const priorities = result.queue.map((entry) => entry.priority)
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a))
    // q1–q6 tie among themselves and keep the set's order.
    expect(order.filter((key) => key.endsWith(':u'))).toEqual(['q1:u', 'q2:u', 'q3:u', 'q4:u', 'q5:u', 'q6:u'])
    const priority = (item: string) => result.queue.find((entry) => entry.item === item)!.priority
    expect(priority('u1')).toBeGreaterThan(priority('u2'))
    // The q1–q6 items carry the whole range of their query's delta, more than either q7 item: they come first.
    expect(order.slice(-2)).toEqual(['q7:u1', 'q7:u2'])
  })

  it('takes the current p-values from the experiment’s own statistics when they match, and agrees with them', () => {
    const { set, baseline, other } = flipCase(20)
    const metrics = [ndcg(2), p(2), { name: 'coverage', k: 2 } as MetricSpec]
    const side = (rankings: QueryRanking[], label: string) => ({ label, rankings, scored: scoreRankings(rankings, set, metrics, DEFAULT_SETTINGS, 2) })
    const stats = experimentStats(side(baseline, 'A'), [side(other, 'B')], gradesOfSet(set), 2, { alpha: 0.05 })
    const own = judgeNextExperiment({ baseline, others: [other] }, set, scoring(metrics, DEFAULT_SETTINGS, 2))
    const given = judgeNextExperiment({ baseline, others: [other] }, set, scoring(metrics, DEFAULT_SETTINGS, 2), { stats })
    expect(given).toEqual(own)
    // Coverage is in Holm's family (as in the experiment) but gets no verdict.
    expect(own.verdicts.map((verdict) => verdict.metric)).toEqual(['ndcg@2', 'p@2'])
    for (const verdict of own.verdicts) {
      const comparison = stats.comparisons.find((c) => c.metric === verdict.metric)!
      expect(verdict.pAdjusted.current).toBe(comparison.pAdjusted)
      expect(verdict.delta.current).toBeCloseTo(comparison.meanDelta!, 12)
    }
  })
})

describe('intervals hold the current figure (property)', () => {
  const settings = fc.record({
    gain: fc.constantFrom('exponential' as const, 'linear' as const),
    unjudged: fc.constantFrom('zero' as const, 'skip' as const),
    threshold: fc.constantFrom(0, 1, 2),
    aggregate: fc.constantFrom('mean' as const, 'max' as const),
  })
  const metricsArb = fc.constant<MetricSpec[]>([ndcg(3), ndcg(5), p(3), { name: 'ap', k: null }, { name: 'rr', k: null }, { name: 'err', k: 4 }, { name: 'recall', k: 3 }])
  /** Up to 4 queries of up to 6 items from a pool of 8; each item unjudged, or graded by one or two raters. */
  const world = fc.record({
    queries: fc.array(
      fc.record({
        a: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 6 }),
        b: fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { maxLength: 6 }),
        grades: fc.array(fc.option(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.option(fc.integer({ min: 0, max: 3 }))), { nil: undefined }), { minLength: 8, maxLength: 8 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    settings,
    judgeDepth: fc.integer({ min: 1, max: 6 }),
  })
  const build = (input: { queries: { a: number[]; b: number[]; grades: ([number, number | null] | undefined)[] }[] }) => {
    const judgments: JudgeNextSet['judgments'] = []
    input.queries.forEach((query, q) =>
      query.grades.forEach((grade, item) => {
        if (!grade) return
        judgments.push({ query: `q${q}`, item: `i${item}`, rater: 'ana', grade: grade[0] })
        if (grade[1] !== null) judgments.push({ query: `q${q}`, item: `i${item}`, rater: 'ben', grade: grade[1] })
      }),
    )
    const side = (pick: 'a' | 'b') => input.queries.map((query, q) => ranking(`q${q}`, query[pick].map((item) => `i${item}`)))
    return { set: { judgments } as JudgeNextSet, a: side('a'), b: side('b') }
  }

  it('low ≤ current ≤ high for every query, metric and mean, and the interval is the exact range over bottom/top grades', () => {
    fc.assert(
      fc.property(world, metricsArb, (input, metrics) => {
        const { set, a } = build(input)
        const result = evaluationIntervals(a, set, scoring(metrics, input.settings, input.judgeDepth))
        const grades = gradesOfSet(set, input.settings.aggregate)
        a.forEach((rankingOfQuery, index) => {
          const figures = result.queries[index]!.figures
          if (!figures) return
          // Every way of grading the unjudged items of the top judgeDepth at 0 or 3, and the current figure: their range is the interval.
          const own = grades.get(rankingOfQuery.id)!
          const unjudged = rankingOfQuery.items.slice(0, input.judgeDepth).filter((item) => !own.has(item))
          const seen = [scoreQuery(rankingOfQuery.items, own, metrics, input.settings, DEFAULT_SCALE)]
          for (let mask = 0; mask < 2 ** unjudged.length; mask++) {
            const filled = new Map(own)
            unjudged.forEach((item, bit) => filled.set(item, (mask >> bit) & 1 ? 3 : 0))
            seen.push(scoreQuery(rankingOfQuery.items, filled, metrics, input.settings, DEFAULT_SCALE))
          }
          for (const [key, figure] of Object.entries(figures)) {
            expect(figure.low).toBeLessThanOrEqual(figure.current)
            expect(figure.current).toBeLessThanOrEqual(figure.high)
            const values = seen.map((scores) => scores[key]!)
            expect(figure.low).toBeCloseTo(Math.min(...values), 12)
            expect(figure.high).toBeCloseTo(Math.max(...values), 12)
          }
        })
        for (const mean of Object.values(result.means)) if (mean) expect(mean.low <= mean.current + 1e-12 && mean.current <= mean.high + 1e-12).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('low ≤ current ≤ high for every delta of an experiment', () => {
    fc.assert(
      fc.property(world, metricsArb, (input, metrics) => {
        const { set, a, b } = build(input)
        const result = judgeNextExperiment({ baseline: a, others: [b] }, set, scoring(metrics, input.settings, input.judgeDepth), { permutations: 50 })
        for (const verdict of result.verdicts) {
          expect(verdict.delta.low).toBeLessThanOrEqual(verdict.delta.current + 1e-12)
          expect(verdict.delta.current).toBeLessThanOrEqual(verdict.delta.high + 1e-12)
          expect(verdict.decided).toBe(!verdict.signCanChange && !verdict.significanceCanChange)
        }
        for (const entry of result.queue) expect(entry.priority).toBeGreaterThan(0)
      }),
      { numRuns: 200 },
    )
  })
})

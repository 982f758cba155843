import { describe, expect, it } from 'vitest'
import { experimentStats, gateFails, parseGate, type ExperimentSide, type MetricComparison } from '../../src/shared/experiments/experiment'
import type { QueryRanking, QueryScores, Scored } from '../../src/shared/relevance/evaluation'
import { seededRandom } from '../../src/shared/seeded-random'
import { gradesOfSet } from '../../src/shared/relevance/grade-aggregate'
import { gatedComparison, mean } from '../fixtures/deltas'
import { SMALL_JUDGMENTS, SMALL_RANKINGS_B, smallEvaluation, smallStats } from '../fixtures/small-evaluation'

// experimentStats over hand-built sides

interface QuerySpec {
  id: string
  items?: string[]
  error?: string
  /** null: ran, but the query has no judgment. */
  scores?: Record<string, number> | null
}

function side(label: string, metrics: string[], queries: QuerySpec[]): ExperimentSide {
  const rankings: QueryRanking[] = queries.map((query) => ({
    id: query.id,
    text: `text of ${query.id}`,
    items: query.error ? [] : (query.items ?? []),
    labels: [],
    error: query.error ?? null,
    durationMs: 1,
  }))
  const scores: QueryScores[] = queries.map((query) => ({
    id: query.id,
    text: `text of ${query.id}`,
    scores: query.error ? null : (query.scores ?? null),
    unjudged: 0,
    returned: query.items?.length ?? 0,
    error: query.error ?? null,
  }))
  const counted = scores.filter((query) => query.scores !== null)
  const scored: Scored = {
    metrics,
    queries: scores,
    means: Object.fromEntries(metrics.map((metric) => [metric, counted.length === 0 ? null : mean(counted.map((query) => query.scores![metric]!))])),
    counted: counted.length,
    unjudgedQueries: scores.filter((query) => query.scores === null && query.error === null).length,
    failed: scores.filter((query) => query.error !== null).length,
    unjudged: 0,
  }
  return { label, rankings, scored }
}

const GRADES = new Map<string, Map<string, number>>([
  ['q1', new Map([['a', 2], ['b', 0]])],
  ['q2', new Map([['a', 1]])],
  ['q3', new Map([['x', 3]])],
  ['q4', new Map([['a', 1]])],
  ['q5', new Map([['a', 1]])],
])

const A = side('production', ['ndcg@10', 'p@10', 'ap'], [
  { id: 'q1', items: ['a', 'b', 'c', 'a'], scores: { 'ndcg@10': 0.5, 'p@10': 0.3, ap: 0.4 } },
  { id: 'q2', items: ['a'], scores: { 'ndcg@10': 0.4, 'p@10': 0.2, ap: 0.5 } },
  { id: 'q3', items: ['y', 'x'], scores: { 'ndcg@10': 0.1, 'p@10': 0.1, ap: 0.2 } },
  { id: 'q4', items: ['a'], scores: { 'ndcg@10': 0.8, 'p@10': 0.5, ap: 0.9 } },
  { id: 'q5', error: 'timed out after 30 s' },
  { id: 'q6', items: ['z'], scores: null },
])

const B = side('staging', ['p@10', 'ndcg@10'], [
  { id: 'q1', items: ['c', 'd', 'a'], scores: { 'ndcg@10': 0.7, 'p@10': 0.3 } },
  { id: 'q2', items: ['a'], scores: { 'ndcg@10': 0.4, 'p@10': 0.1 } },
  { id: 'q3', items: ['x', 'y'], scores: { 'ndcg@10': 0.6, 'p@10': 0.4 } },
  { id: 'q4', error: 'HTTP 500' },
  { id: 'q5', items: ['a'], scores: { 'ndcg@10': 0.9, 'p@10': 0.6 } },
  { id: 'q6', items: ['z'], scores: null },
])

describe('experimentStats', () => {
  it('pairs the queries with figures on both sides, and lists the failed ones', () => {
    const stats = experimentStats(A, [B], GRADES, 2)
    // ap is the baseline's only: not compared. The order is the baseline's.
    expect(stats.metrics).toEqual(['ndcg@10', 'p@10'])
    expect(stats.alpha).toBe(0.05)
    expect(stats.failed).toEqual([
      { side: -1, id: 'q5', text: 'text of q5', error: 'timed out after 30 s' },
      { side: 0, id: 'q4', text: 'text of q4', error: 'HTTP 500' },
    ])
    expect(stats.comparisons.map((c) => `${c.other}:${c.metric}`)).toEqual(['0:ndcg@10', '0:p@10'])

    // q1–q3 are paired; q4 failed on B, q5 on A, q6 has no judgment.
    expect(stats.deltas['0:ndcg@10']).toEqual([
      // Top 2: A's {a, b}, B's {c, d}: c and d unjudged.
      { id: 'q1', text: 'text of q1', baseline: 0.5, other: 0.7, delta: 0.7 - 0.5, unjudged: 2, failed: null },
      { id: 'q2', text: 'text of q2', baseline: 0.4, other: 0.4, delta: 0, unjudged: 0, failed: null },
      { id: 'q3', text: 'text of q3', baseline: 0.1, other: 0.6, delta: 0.6 - 0.1, unjudged: 1, failed: null },
      { id: 'q4', text: 'text of q4', baseline: 0.8, other: null, delta: null, unjudged: 0, failed: 'other' },
      { id: 'q5', text: 'text of q5', baseline: null, other: 0.9, delta: null, unjudged: 0, failed: 'baseline' },
      { id: 'q6', text: 'text of q6', baseline: null, other: null, delta: null, unjudged: 1, failed: null },
    ])

    const [ndcg, p10] = stats.comparisons as [MetricComparison, MetricComparison]
    // nDCG@10: deltas 0.2, 0, 0.5. The zero is set aside; ±0.2 ± 0.5 gives
    // |sums| 0.7, 0.3, 0.3, 0.7: 2 of 4 reach 0.7, p = 0.5.
    expect(ndcg).toMatchObject({ metric: 'ndcg@10', other: 0, n: 3, wins: 2, ties: 1, losses: 0, p: 0.5, method: 'exact', permutations: 4 })
    expect(ndcg.baselineMean).toBeCloseTo(1 / 3, 12)
    expect(ndcg.otherMean).toBeCloseTo(1.7 / 3, 12)
    expect(ndcg.meanDelta).toBeCloseTo(0.7 / 3, 12)
    // P@10: deltas 0, −0.1, 0.3: ±0.1 ± 0.3 gives |sums| 0.2, 0.4, 0.4, 0.2: all reach 0.2, p = 1.
    expect(p10).toMatchObject({ metric: 'p@10', n: 3, wins: 1, ties: 1, losses: 1, p: 1, method: 'exact', permutations: 4 })
    expect(p10.meanDelta).toBeCloseTo(0.2 / 3, 12)
    // Holm over the two: 0.5 × 2 = 1, then 1.
    expect(stats.family).toBe(2)
    expect(ndcg.pAdjusted).toBe(1)
    expect(p10.pAdjusted).toBe(1)
    expect(ndcg.significant || p10.significant).toBe(false)
    for (const c of stats.comparisons) {
      expect(c.interval![0]).toBeLessThanOrEqual(c.meanDelta!)
      expect(c.interval![1]).toBeGreaterThanOrEqual(c.meanDelta!)
    }
  })

  it('finds nothing when B equals A: p = 1, interval [0, 0], all ties', () => {
    const stats = experimentStats(A, [A], GRADES, 10)
    expect(stats.metrics).toEqual(['ndcg@10', 'p@10', 'ap'])
    expect(stats.family).toBe(3)
    for (const c of stats.comparisons) {
      expect(c).toMatchObject({ n: 4, wins: 0, ties: 4, losses: 0, meanDelta: 0, p: 1, pAdjusted: 1, interval: [0, 0], significant: false })
      expect(c.baselineMean).toBe(c.otherMean)
    }
    // q5 failed on both sides, and is listed once for each.
    expect(stats.deltas['0:ap']!.find((row) => row.id === 'q5')!.failed).toBe('both')
    expect(stats.failed.map((entry) => entry.side)).toEqual([-1, 0])
  })

  it('corrects over every comparison of several other sides, and has no p where nothing is paired', () => {
    const broken = side('broken', ['ndcg@10'], A.rankings.map((ranking) => ({ id: ranking.id, error: 'refused' })))
    const stats = experimentStats(A, [B, A, broken], GRADES, 10)
    expect(stats.comparisons.map((c) => `${c.other}:${c.metric}`)).toEqual(['0:ndcg@10', '0:p@10', '1:ndcg@10', '1:p@10', '1:ap', '2:ndcg@10'])
    const none = stats.comparisons[5]!
    expect(none).toMatchObject({ n: 0, baselineMean: null, meanDelta: null, p: null, method: null, permutations: 0, pAdjusted: null, interval: null, significant: false })
    // Five comparisons have a p: 0.5 is the smallest, × 5 → 1.
    expect(stats.family).toBe(5)
    expect(stats.comparisons[0]!.pAdjusted).toBe(1)
    expect(stats.failed.filter((entry) => entry.side === 2)).toHaveLength(6)
  })

  it('finds a consistent improvement significant, and gates on it', () => {
    const random = seededRandom(7)
    const queries = Array.from({ length: 30 }, (_, index) => `q${index}`)
    const base = queries.map((id) => ({ id, items: ['a'], scores: { 'ndcg@10': 0.3 + random() * 0.4 } }))
    const better = base.map((query) => ({ ...query, scores: { 'ndcg@10': query.scores['ndcg@10'] + 0.05 + random() * 0.1 } }))
    const before = side('A', ['ndcg@10'], base)
    const after = side('B', ['ndcg@10'], better)
    const grades = new Map(queries.map((id) => [id, new Map([['a', 1]])]))

    const up = experimentStats(before, [after], grades, 10).comparisons[0]!
    expect(up).toMatchObject({ n: 30, wins: 30, ties: 0, losses: 0, method: 'sampled', permutations: 10_000, p: 1 / 10_001, significant: true })
    expect(up.meanDelta!).toBeGreaterThan(0.05)
    expect(up.interval![0]).toBeGreaterThan(0.05)
    expect(gateFails(up, -0.01, 0.05)).toBe(false)
    expect(gateFails(up, 0.05, 0.05)).toBe(false)
    expect(gateFails(up, 0.2, 0.05)).toBe(true)

    const down = experimentStats(after, [before], grades, 10).comparisons[0]!
    expect(down).toMatchObject({ wins: 0, losses: 30, significant: true })
    expect(gateFails(down, -0.01, 0.05)).toBe(true)
    expect(gateFails(down, 0, 0.05)).toBe(true)
    expect(gateFails(down, -0.2, 0.05)).toBe(false)

    const same = experimentStats(before, [before], grades, 10, { alpha: 0.01, seed: 1 })
    expect(same.alpha).toBe(0.01)
    expect(same.comparisons[0]!.p).toBe(1)
  })
})

describe('experimentStats on the small set', () => {
  it('gives the statistics worked by hand in test/fixtures/small-evaluation.ts, which the report writers are tested on', () => {
    // Deltas B − A: P@2 0 and 0 (q3 failed on A); RR 0 (q1) and 0.5 (q2). Zeros are set aside, so
    // P@2 has one sign pattern (p = 1) and RR two, +0.5 and −0.5, both as extreme as the observed (p = 1).
    const [a, b] = [smallEvaluation('A'), smallEvaluation('B', SMALL_RANKINGS_B)].map(({ targetText, rankings, scored }) => ({ label: targetText, rankings, scored }))
    expect(experimentStats(a!, [b!], gradesOfSet({ judgments: SMALL_JUDGMENTS }), 2)).toEqual(smallStats())
  })
})

describe('gateFails', () => {
  const comparison = (meanDelta: number | null, pAdjusted: number | null) => gatedComparison('ndcg@10', meanDelta, pAdjusted)

  it('with margin ≤ 0, fails on a significant drop beyond the margin only', () => {
    expect(gateFails(comparison(-0.03, 0.001), -0.01, 0.05)).toBe(true)
    expect(gateFails(comparison(-0.03, 0.2), -0.01, 0.05)).toBe(false) // noise
    expect(gateFails(comparison(-0.005, 0.001), -0.01, 0.05)).toBe(false) // within the margin
    expect(gateFails(comparison(-0.01, 0.001), -0.01, 0.05)).toBe(false) // at the margin
    expect(gateFails(comparison(0.02, 0.001), -0.01, 0.05)).toBe(false)
    expect(gateFails(comparison(-0.001, 0.01), 0, 0.05)).toBe(true)
    expect(gateFails(comparison(-0.03, 0.05), -0.01, 0.05)).toBe(false) // p must be below alpha
  })

  it('with margin > 0, fails unless a significant improvement of at least the margin', () => {
    expect(gateFails(comparison(0.03, 0.001), 0.02, 0.05)).toBe(false)
    expect(gateFails(comparison(0.02, 0.001), 0.02, 0.05)).toBe(false)
    expect(gateFails(comparison(0.01, 0.001), 0.02, 0.05)).toBe(true)
    expect(gateFails(comparison(0.03, 0.3), 0.02, 0.05)).toBe(true)
    expect(gateFails(comparison(-0.03, 0.3), 0.02, 0.05)).toBe(true)
  })

  it('fails when nothing was paired', () => {
    expect(gateFails(comparison(null, null), -0.01, 0.05)).toBe(true)
    expect(gateFails(comparison(null, null), 0.01, 0.05)).toBe(true)
  })
})

describe('parseGate', () => {
  const message = (text: string) => {
    const parsed = parseGate(text)
    return parsed.ok ? 'ok' : parsed.message
  }

  it('reads metric:margin, the metric as a metric list writes it', () => {
    expect(parseGate('ndcg@10:-0.01')).toEqual({ ok: true, metric: 'ndcg@10', margin: -0.01 })
    expect(parseGate(' NDCG @ 10 : +0.02 ')).toEqual({ ok: true, metric: 'ndcg@10', margin: 0.02 })
    expect(parseGate('ap:0')).toEqual({ ok: true, metric: 'ap', margin: 0 })
    expect(parseGate('p@10:-0')).toEqual({ ok: true, metric: 'p@10', margin: 0 })
    expect(parseGate('rr:.05')).toEqual({ ok: true, metric: 'rr', margin: 0.05 })
    expect(parseGate('recall@100:-1')).toEqual({ ok: true, metric: 'recall@100', margin: -1 })
  })

  it('refuses anything else, naming the rule', () => {
    const rule = 'write metric:margin, e.g. ndcg@10:-0.01 (fail when nDCG@10 is significantly more than 0.01 below the baseline)'
    expect(message('ndcg@10')).toBe(`"ndcg@10" is not a gate: ${rule}`)
    expect(message('ndcg@10:')).toBe(`"ndcg@10:" is not a gate: "" is not a margin (a decimal number such as -0.01); ${rule}`)
    expect(message('ndcg@10:1%')).toBe(`"ndcg@10:1%" is not a gate: "1%" is not a margin (a decimal number such as -0.01); ${rule}`)
    expect(message('ndcg@10:1e-2')).toMatch(/"1e-2" is not a margin/)
    expect(message(':-0.01')).toBe(`":-0.01" is not a gate: it names no single metric before the colon; ${rule}`)
    expect(message('ndcg@10,p@10:0')).toMatch(/names no single metric/)
    expect(message('map:-0.01')).toBe('"map:-0.01" is not a gate: "map" is not a metric here: write ap (the mean of AP over the queries is MAP)')
    expect(message('p:-0.01')).toBe('"p:-0.01" is not a gate: "p" needs a depth: write p@10')
    expect(message('ndcg@10:-1.5')).toBe(`"ndcg@10:-1.5" is not a gate: the margin is from -1 to 1 (every figure lies in [0, 1]); ${rule}`)
  })
})

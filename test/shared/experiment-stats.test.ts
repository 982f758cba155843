import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bootstrapInterval } from '../../src/shared/experiments/bootstrap'
import { experimentStats, gateFails, parseGate, type ExperimentSide, type MetricComparison } from '../../src/shared/experiments/experiment'
import { holmAdjust } from '../../src/shared/experiments/holm'
import { pairedRandomizationTest } from '../../src/shared/experiments/paired-randomization'
import type { QueryRanking, QueryScores, Scored } from '../../src/shared/relevance/evaluation'
import { seededRandom } from '../../src/shared/seeded-random'

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

/** Deltas as a metric in [0, 1] gives them: any double in [−1, 1], or tenths (P@10), which tie often. */
const delta = fc.oneof(
  fc.double({ min: -1, max: 1, noNaN: true }),
  fc.integer({ min: -10, max: 10 }).map((tenths) => tenths / 10),
)

describe('pairedRandomizationTest', () => {
  it('gives p = 1 when there is nothing to test: no delta, or only zeros', () => {
    expect(pairedRandomizationTest([])).toEqual({ p: 1, method: 'exact', permutations: 1 })
    expect(pairedRandomizationTest([0, 0, 0])).toEqual({ p: 1, method: 'exact', permutations: 1 })
    expect(pairedRandomizationTest(new Array(40).fill(0))).toEqual({ p: 1, method: 'exact', permutations: 1 })
  })

  it('enumerates a hand-worked case of n = 4', () => {
    // deltas 0.4, 0.2, 0.1, −0.1: observed sum 0.6, mean 0.15. The 16 sign
    // patterns (± on 0.4, 0.2, 0.1, 0.1; the last delta's own sign does not
    // change the set) give the means (sum / 4):
    //   + + + +  0.20     − − − −  −0.20
    //   + + + −  0.15     − − − +  −0.15
    //   + + − +  0.15     − − + −  −0.15
    //   + + − −  0.10     − − + +  −0.10
    //   + − + +  0.10     − + − −  −0.10
    //   + − + −  0.05     − + − +  −0.05
    //   + − − +  0.05     − + + −  −0.05
    //   + − − −  0.00     − + + +   0.00
    // |mean| ≥ 0.15: 0.20, 0.15, 0.15 and their negatives, 6 of 16.
    // Three of the six tie the observed 0.15 exactly: they count only because
    // the comparison allows for rounding (0.4 + 0.2 + 0.1 − 0.1 is not
    // 0.4 + 0.2 − 0.1 + 0.1 in floating point).
    expect(pairedRandomizationTest([0.4, 0.2, 0.1, -0.1])).toEqual({ p: 6 / 16, method: 'exact', permutations: 16 })
    // Zeros are set aside: each pattern above would occur 4 times among 64.
    expect(pairedRandomizationTest([0, 0.4, 0.2, 0, 0.1, -0.1])).toEqual({ p: 6 / 16, method: 'exact', permutations: 16 })
    // The sign of every delta flipped: the same p.
    expect(pairedRandomizationTest([-0.4, -0.2, -0.1, 0.1]).p).toBe(6 / 16)
  })

  it("reproduces Fisher's test on Darwin's Zea mays pairs: 1726 of 32768 patterns, p = 5.267%", () => {
    // Fisher, The Design of Experiments (1935), §21: the 15 differences in
    // height (cross- minus self-fertilized, eighths of an inch) sum to 314;
    // 863 of the 2^15 sign patterns give a sum of at least 314, as many at
    // most −314, so the two-sided p is 1726 / 32768 = 5.267 per cent.
    const darwin = [49, -67, 8, 16, 6, 23, 28, 41, 14, 29, 56, 24, 75, 60, -48]
    expect(darwin.reduce((sum, value) => sum + value, 0)).toBe(314)
    expect(pairedRandomizationTest(darwin)).toEqual({ p: 1726 / 32768, method: 'exact', permutations: 32768 })
    expect(pairedRandomizationTest(darwin).p).toBeCloseTo(0.05267, 5)
    // The same as figures of a metric (scaled into [−1, 1]): the same count, ties and all.
    expect(pairedRandomizationTest(darwin.map((value) => value / 80)).p).toBe(1726 / 32768)
  })

  it('finds no evidence in one huge win among small losses (n = 10: p = 1)', () => {
    // deltas +0.9 and nine of −0.05: observed sum 0.45. Let j be how many of
    // the nine losses a pattern turns into +0.05; they then sum to
    // 0.05·(2j − 9).
    //   +0.9 kept:    sum = 0.9 + 0.1j − 0.45 = 0.45 + 0.1j ≥ 0.45 for every j: 512 patterns.
    //   +0.9 flipped: sum = −0.9 + 0.1j − 0.45 = 0.1j − 1.35, from −1.35 (j = 0)
    //                 to −0.45 (j = 9): |sum| ≥ 0.45 for every j: 512 patterns
    //                 (j = 9, all signs flipped, ties the observed value).
    // All 1024 patterns are at least as extreme: p = 1. A single query carries
    // the whole mean, and the test says so.
    const deltas = [0.9, ...new Array<number>(9).fill(-0.05)]
    expect(pairedRandomizationTest(deltas)).toEqual({ p: 1, method: 'exact', permutations: 1024 })
    // The bootstrap: a draw's mean is (0.95k − 0.5)/10 when it holds the win k
    // times, k ~ Binomial(10, 0.1). P(k = 0) = 0.9^10 = 0.349 > 0.025, so the
    // lower end is −0.05; P(k ≤ 2) = 0.930 and P(k ≤ 3) = 0.987, so the 97.5%
    // point is at k = 3: (2.85 − 0.5)/10 = 0.235.
    const interval = bootstrapInterval(deltas)!
    expect(interval[0]).toBeCloseTo(-0.05, 12)
    expect(interval[1]).toBeCloseTo(0.235, 12)
    expect(interval[0]).toBeLessThanOrEqual(mean(deltas))
    expect(interval[1]).toBeGreaterThanOrEqual(mean(deltas))
  })

  it('finds a consistent small win significant, and a sampled p is never 0', () => {
    // Eight wins of 0.1: only the two patterns with all signs alike reach |sum| 0.8.
    expect(pairedRandomizationTest(new Array(8).fill(0.1))).toEqual({ p: 2 / 256, method: 'exact', permutations: 256 })
    // Forty: sampled; none of 10,000 draws reaches it, p = 1/10001 (Phipson & Smyth).
    expect(pairedRandomizationTest(new Array(40).fill(0.1))).toEqual({ p: 1 / 10_001, method: 'sampled', permutations: 10_000 })
    expect(pairedRandomizationTest(new Array(40).fill(0.1), { permutations: 99 }).p).toBe(1 / 100)
  })

  it('agrees, sampling, with the exact enumeration within the sampling error (n = 14, 100,000 draws)', () => {
    const random = seededRandom(14)
    const deltas = Array.from({ length: 14 }, () => Math.round((random() - 0.35) * 60) / 100)
    const exact = pairedRandomizationTest(deltas)
    expect(exact.method).toBe('exact')
    expect(exact.permutations).toBe(2 ** deltas.filter((value) => value !== 0).length)
    expect(exact.p).toBeGreaterThan(0.01)
    expect(exact.p).toBeLessThan(0.99)
    const N = 100_000
    const sampled = pairedRandomizationTest(deltas, { exactUpTo: 0, permutations: N })
    expect(sampled.method).toBe('sampled')
    expect(sampled.permutations).toBe(N)
    expect(Math.abs(sampled.p - exact.p)).toBeLessThan(4 * Math.sqrt((exact.p * (1 - exact.p)) / N) + 1 / N)
  })

  it('refuses options it cannot honour', () => {
    expect(() => pairedRandomizationTest([0.1], { permutations: 0 })).toThrow(RangeError)
    expect(() => pairedRandomizationTest([0.1], { permutations: 1.5 })).toThrow(RangeError)
    expect(() => pairedRandomizationTest([0.1], { exactUpTo: 27 })).toThrow(RangeError)
    expect(() => pairedRandomizationTest([0.1, Number.NaN])).toThrow(RangeError)
  })

  it('gives p in (0, 1], the same p to the same seed, and the same p to the deltas negated', () => {
    fc.assert(
      fc.property(fc.array(delta, { maxLength: 22 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (deltas, seed) => {
        const options = { permutations: 300, seed }
        const result = pairedRandomizationTest(deltas, options)
        expect(result.p).toBeGreaterThan(0)
        expect(result.p).toBeLessThanOrEqual(1)
        expect(pairedRandomizationTest(deltas, options)).toEqual(result)
        expect(pairedRandomizationTest(deltas.map((value) => -value), options).p).toBe(result.p)
        // The observed pattern and its mirror image are always among those counted.
        if (result.method === 'exact' && result.permutations > 1) expect(result.p).toBeGreaterThanOrEqual(2 / result.permutations)
      }),
      { numRuns: 200 },
    )
  })
})

describe('bootstrapInterval', () => {
  it('is null with no delta, and [c, c] when every delta is c', () => {
    expect(bootstrapInterval([])).toBeNull()
    expect(bootstrapInterval([0, 0, 0])).toEqual([0, 0])
    expect(bootstrapInterval([0.1, 0.1, 0.1])).toEqual([0.1, 0.1])
    expect(bootstrapInterval([-0.3])).toEqual([-0.3, -0.3])
  })

  it('reads the quantiles by Hyndman & Fan definition 7', () => {
    // Two deltas, 0 and 1: a draw's mean is 0, 0.5 or 1 (¼, ½, ¼). With 10,000
    // draws the 2.5% and 97.5% points fall well inside the first and last
    // groups; at level 0.4 the 30% and 70% points fall inside the middle one.
    expect(bootstrapInterval([0, 1])).toEqual([0, 1])
    expect(bootstrapInterval([0, 1], { level: 0.4 })).toEqual([0.5, 0.5])
  })

  it('refuses options it cannot honour', () => {
    expect(() => bootstrapInterval([0.1], { resamples: 0 })).toThrow(RangeError)
    expect(() => bootstrapInterval([0.1], { level: 1 })).toThrow(RangeError)
    expect(() => bootstrapInterval([0.1], { level: 0 })).toThrow(RangeError)
  })

  it('contains the mean delta, lies within the deltas, and reruns alike with the same seed', () => {
    fc.assert(
      fc.property(fc.array(delta, { minLength: 2, maxLength: 30 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (deltas, seed) => {
        const options = { resamples: 400, seed }
        const [low, high] = bootstrapInterval(deltas, options)!
        const average = mean(deltas)
        // The mean as summed here and as summed in a draw differ by rounding only.
        const slack = 1e-12 * Math.max(...deltas.map(Math.abs))
        expect(low).toBeLessThanOrEqual(average + slack)
        expect(high).toBeGreaterThanOrEqual(average - slack)
        expect(low).toBeLessThanOrEqual(high)
        expect(low).toBeGreaterThanOrEqual(Math.min(...deltas))
        expect(high).toBeLessThanOrEqual(Math.max(...deltas))
        expect(bootstrapInterval(deltas, options)).toEqual([low, high])
      }),
      { numRuns: 300 },
    )
  })

  it('is [c, c] whenever all deltas are c', () => {
    fc.assert(
      fc.property(delta, fc.integer({ min: 1, max: 40 }), (c, n) => {
        const value = c === 0 ? 0 : c // −0 and 0 are one figure
        expect(bootstrapInterval(new Array(n).fill(value), { resamples: 50 })).toEqual([value, value])
      }),
    )
  })
})

describe('holmAdjust', () => {
  it('adjusts a hand-worked family of four, in the input order', () => {
    // Sorted: 0.005 × 4 = 0.02; 0.01 × 3 = 0.03; 0.03 × 2 = 0.06; 0.04 × 1 = 0.04, raised to 0.06.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005])
    expect(adjusted[0]).toBeCloseTo(0.03, 15)
    expect(adjusted[1]).toBeCloseTo(0.06, 15)
    expect(adjusted[2]).toBeCloseTo(0.06, 15)
    expect(adjusted[3]).toBeCloseTo(0.02, 15)
    expect(holmAdjust([0.5, 0.4])).toEqual([0.8, 0.8])
    expect(holmAdjust([0.9, 0.6, 0.01])).toEqual([1, 1, 0.03])
    expect(holmAdjust([])).toEqual([])
  })

  it('is at least the raw p, at most 1, monotone in the sorted order, and leaves one p-value alone', () => {
    const p = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom(0, 0.01, 0.05, 1))
    fc.assert(
      fc.property(fc.array(p, { maxLength: 20 }), (pValues) => {
        const adjusted = holmAdjust(pValues)
        expect(adjusted).toHaveLength(pValues.length)
        adjusted.forEach((value, index) => {
          expect(value).toBeGreaterThanOrEqual(pValues[index]!)
          expect(value).toBeLessThanOrEqual(1)
        })
        const order = pValues.map((_, index) => index).sort((a, b) => pValues[a]! - pValues[b]!)
        for (let i = 1; i < order.length; i++) expect(adjusted[order[i]!]!).toBeGreaterThanOrEqual(adjusted[order[i - 1]!]!)
      }),
    )
    fc.assert(
      fc.property(p, (value) => {
        expect(holmAdjust([value])[0] === value).toBe(true) // −0 comes back as 0
      }),
    )
  })

  it('refuses a p-value outside [0, 1]', () => {
    expect(() => holmAdjust([0.5, 1.5])).toThrow(RangeError)
    expect(() => holmAdjust([Number.NaN])).toThrow(RangeError)
  })
})

// ---------------------------------------------------------------------------
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

describe('gateFails', () => {
  const comparison = (meanDelta: number | null, pAdjusted: number | null): MetricComparison => ({
    metric: 'ndcg@10',
    other: 0,
    baselineMean: meanDelta === null ? null : 0.5,
    otherMean: meanDelta === null ? null : 0.5 + meanDelta,
    n: meanDelta === null ? 0 : 40,
    meanDelta,
    wins: 0,
    ties: 0,
    losses: 0,
    p: pAdjusted,
    method: pAdjusted === null ? null : 'sampled',
    permutations: 0,
    pAdjusted,
    interval: null,
    significant: pAdjusted !== null && pAdjusted < 0.05,
  })

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

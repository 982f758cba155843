import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_METRICS,
  deepestK,
  metricKey,
  metricLabel,
  parseMetrics,
  scoreQuery,
  unjudgedInTop,
  type MetricName,
  type MetricSpec,
} from '../../src/shared/relevance/metrics'
import { DEFAULT_SCALE, type MetricSettings } from '../../src/shared/relevance/query-set'

const LINEAR: MetricSettings = { gain: 'linear', unjudged: 'zero', threshold: 1 }
const EXPONENTIAL: MetricSettings = { gain: 'exponential', unjudged: 'zero', threshold: 1 }

/** Parses a metric list the test knows to be good. */
function specs(text: string): MetricSpec[] {
  const parsed = parseMetrics(text)
  if (!parsed.ok) throw new Error(parsed.message)
  return parsed.metrics
}

function score(ranking: string[], grades: Record<string, number>, metrics: string, settings: MetricSettings = LINEAR) {
  return scoreQuery(ranking, new Map(Object.entries(grades)), specs(metrics), settings, DEFAULT_SCALE)
}

/** 1 / log2(i + 1): the discount at rank i. */
const at = (rank: number) => 1 / Math.log2(rank + 1)

describe('parseMetrics', () => {
  it('reads the default list, in any case and with spaces, and writes it back', () => {
    expect(specs('ndcg@10,p@10,ap,rr,err@10,recall@100,coverage@10')).toEqual(DEFAULT_METRICS)
    expect(specs('  NDCG @ 10 , P@10, Ap,RR , ERR@10,Recall@100 ,Coverage@10, ')).toEqual(DEFAULT_METRICS)
    expect(DEFAULT_METRICS.map(metricKey).join(',')).toBe('ndcg@10,p@10,ap,rr,err@10,recall@100,coverage@10')
    expect(DEFAULT_METRICS.map(metricLabel)).toEqual(['nDCG@10', 'P@10', 'AP', 'RR', 'ERR@10', 'Recall@100', 'Coverage@10'])
  })

  it('takes a depth on every metric, and none on those that read the whole ranking', () => {
    expect(specs('ap@10, rr@5, ndcg, err, recall')).toEqual([
      { name: 'ap', k: 10 },
      { name: 'rr', k: 5 },
      { name: 'ndcg', k: null },
      { name: 'err', k: null },
      { name: 'recall', k: null },
    ])
    expect(specs('p@1, p@10000, p@007').map(metricKey)).toEqual(['p@1', 'p@10000', 'p@7'])
  })

  it('refuses a bad entry, naming it and the rule', () => {
    const message = (text: string) => {
      const parsed = parseMetrics(text)
      return parsed.ok ? 'ok' : parsed.message
    }
    expect(message('ndcg@10, p')).toBe('"p" needs a depth: write p@10')
    expect(message('Coverage')).toBe('"Coverage" needs a depth: write coverage@10')
    expect(message('p@0')).toBe('"p@0": the depth after @ is a whole number from 1 to 10000')
    expect(message('p@10001')).toMatch(/^"p@10001": the depth after @ is a whole number from 1 to 10000/)
    expect(message('ndcg@1.5')).toMatch(/^"ndcg@1.5": the depth/)
    expect(message('ndcg@')).toMatch(/^"ndcg@": the depth/)
    expect(message('ndcg@-3')).toMatch(/^"ndcg@-3": the depth/)
    expect(message('f1@10')).toBe('"f1@10" is not a metric: the metrics are ndcg, p, ap, rr, err, recall, coverage')
    expect(message('map')).toBe('"map" is not a metric here: write ap (the mean of AP over the queries is MAP)')
    expect(message('mrr@10')).toMatch(/^"mrr@10" is not a metric here: write rr/)
    expect(message('ndcg 10')).toMatch(/^"ndcg 10" is not a metric/)
    expect(message('ndcg@10, p@10, NDCG @ 10')).toBe('"NDCG @ 10" is listed twice (as ndcg@10)')
    expect(message('')).toMatch(/^no metric is listed/)
    expect(message(' , ,')).toMatch(/^no metric is listed/)
  })

  it('deepestK is the largest depth, null when no metric has one', () => {
    expect(deepestK(DEFAULT_METRICS)).toBe(100)
    expect(deepestK(specs('ap, rr'))).toBeNull()
    expect(deepestK([])).toBeNull()
  })
})

describe('scoreQuery: hand-worked cases', () => {
  it('a graded query with unjudged items, counted as not relevant (values also from trec_eval)', () => {
    // Grades d1 3, d2 2, d3 0, d4 1, d5 2, d6 1: R = 5 relevant (grade ≥ 1); d5 is never retrieved.
    // Ranking d3 u1 d2 d6 u2 d1 u3 d4 → grades 0 0 2 1 0 3 0 1 (u = unjudged = 0).
    const grades = { d1: 3, d2: 2, d3: 0, d4: 1, d5: 2, d6: 1 }
    const ranking = ['d3', 'u1', 'd2', 'd6', 'u2', 'd1', 'u3', 'd4']
    const figures = score(ranking, grades, 'ndcg@5, ndcg@10, ndcg, p@5, p@10, ap, ap@5, rr, recall@5, recall@10, coverage@5, coverage@10')
    // DCG@5 = 2/log2(4) + 1/log2(5); ideal 3 2 2 1 1 (0): IDCG@5 = 3 + 2/log2(3) + 2/log2(4) + 1/log2(5) + 1/log2(6).
    const idcg5 = 3 * at(1) + 2 * at(2) + 2 * at(3) + at(4) + at(5)
    expect(figures['ndcg@5']).toBeCloseTo((2 * at(3) + at(4)) / idcg5, 12) // 1.430677 / 6.079390 = 0.2353
    // DCG@10 adds 3/log2(7) + 1/log2(9); IDCG@10 = IDCG@5 (the 6th ideal grade is 0).
    const dcg10 = 2 * at(3) + at(4) + 3 * at(6) + at(8)
    expect(figures['ndcg@10']).toBeCloseTo(dcg10 / idcg5, 12) // 0.4630
    expect(figures['ndcg']).toBeCloseTo(dcg10 / idcg5, 12)
    expect(figures['p@5']).toBe(2 / 5)
    expect(figures['p@10']).toBe(4 / 10) // 8 results, still divided by 10
    // AP = (1/3 + 2/4 + 3/6 + 4/8) / 5 = 0.3667; cut at 5: (1/3 + 2/4) / 5 = 0.1667 (still over R).
    expect(figures['ap']).toBeCloseTo((1 / 3 + 2 / 4 + 3 / 6 + 4 / 8) / 5, 12)
    expect(figures['ap@5']).toBeCloseTo((1 / 3 + 2 / 4) / 5, 12)
    expect(figures['rr']).toBeCloseTo(1 / 3, 12)
    expect(figures['recall@5']).toBe(2 / 5)
    expect(figures['recall@10']).toBe(4 / 5)
    // Judged in the top 5: d3 d2 d6 → 3/5; in the top 10 (8 returned): 5/8.
    expect(figures['coverage@5']).toBe(3 / 5)
    expect(figures['coverage@10']).toBe(5 / 8)
    // trec_eval 9.0.8 -q -m ndcg_cut.5,10 -m ndcg -m P.5,10 -m map -m map_cut.5 -m recip_rank -m recall.5,10 on these qrels and run:
    const trecEval = { 'ndcg@5': 0.2353, 'ndcg@10': 0.463, ndcg: 0.463, 'p@5': 0.4, 'p@10': 0.4, ap: 0.3667, 'ap@5': 0.1667, rr: 0.3333, 'recall@5': 0.4, 'recall@10': 0.8 }
    for (const [key, value] of Object.entries(trecEval)) expect(Math.abs(figures[key]! - value), key).toBeLessThanOrEqual(0.00005)
  })

  it('the same query with unjudged items skipped (condensed list; values also from trec_eval -J)', () => {
    const grades = { d1: 3, d2: 2, d3: 0, d4: 1, d5: 2, d6: 1 }
    const ranking = ['d3', 'u1', 'd2', 'd6', 'u2', 'd1', 'u3', 'd4']
    const figures = score(ranking, grades, 'ndcg@5, p@5, p@10, ap, rr, recall@5, coverage@5', { ...LINEAR, unjudged: 'skip' })
    // Condensed: d3 d2 d6 d1 d4 → grades 0 2 1 3 1. R stays 5.
    const idcg5 = 3 * at(1) + 2 * at(2) + 2 * at(3) + at(4) + at(5)
    expect(figures['ndcg@5']).toBeCloseTo((2 * at(2) + at(3) + 3 * at(4) + at(5)) / idcg5, 12) // 3.440743 / 6.079390 = 0.5660
    expect(figures['p@5']).toBe(4 / 5)
    expect(figures['p@10']).toBe(4 / 10)
    expect(figures['ap']).toBeCloseTo((1 / 2 + 2 / 3 + 3 / 4 + 4 / 5) / 5, 12) // 0.5433
    expect(figures['rr']).toBe(1 / 2)
    expect(figures['recall@5']).toBe(4 / 5)
    // Coverage reads the ranking before anything is skipped.
    expect(figures['coverage@5']).toBe(3 / 5)
    // trec_eval 9.0.8 -q -J: ndcg_cut_5 0.5660, P_5 0.8000, P_10 0.4000, map 0.5433, recip_rank 0.5000, recall_5 0.8000.
    const trecEval = { 'ndcg@5': 0.566, 'p@5': 0.8, 'p@10': 0.4, ap: 0.5433, rr: 0.5, 'recall@5': 0.8 }
    for (const [key, value] of Object.entries(trecEval)) expect(Math.abs(figures[key]! - value), key).toBeLessThanOrEqual(0.00005)
  })

  it('a threshold of 2 changes P, AP, RR and Recall but not nDCG (trec_eval -l 2 agrees)', () => {
    const grades = { d1: 3, d2: 2, d3: 0, d4: 1, d5: 2, d6: 1 }
    const ranking = ['d3', 'u1', 'd2', 'd6', 'u2', 'd1', 'u3', 'd4']
    const figures = score(ranking, grades, 'ndcg@5, p@5, ap, rr, recall@10', { ...LINEAR, threshold: 2 })
    // Relevant now: d1, d2, d5 (R = 3); retrieved at ranks 3 and 6.
    expect(figures['p@5']).toBe(1 / 5)
    expect(figures['ap']).toBeCloseTo((1 / 3 + 2 / 6) / 3, 12) // 0.2222, as trec_eval -l 2 prints
    expect(figures['rr']).toBeCloseTo(1 / 3, 12)
    expect(figures['recall@10']).toBeCloseTo(2 / 3, 12)
    expect(figures['ndcg@5']).toBeCloseTo(score(ranking, grades, 'ndcg@5')['ndcg@5']!, 12) // 0.2353 either way
  })

  it('threshold 0: every judged item is relevant, an unjudged one still is not (as trec_eval -l 0)', () => {
    // Grades a 0, b 2; ranking u a b (u unjudged). Relevant: a and b (R = 2); u is not.
    const figures = score(['u', 'a', 'b'], { a: 0, b: 2 }, 'p@3, ap, rr', { ...LINEAR, threshold: 0 })
    expect(figures['p@3']).toBeCloseTo(2 / 3, 12)
    expect(figures['ap']).toBeCloseTo((1 / 2 + 2 / 3) / 2, 12)
    expect(figures['rr']).toBe(1 / 2)
  })

  it('another small query, checked against trec_eval', () => {
    // Grades a 2, b 0, c 1; ranking a z c (z unjudged). R = 2.
    // nDCG@5 = (2 + 1/log2(4)) / (2 + 1/log2(3)) = 2.5 / 2.630930 = 0.9502; AP = (1/1 + 2/3)/2 = 0.8333; P@5 = 2/5.
    const figures = score(['a', 'z', 'c'], { a: 2, b: 0, c: 1 }, 'ndcg@5, ap, p@5, rr, recall@5')
    expect(figures['ndcg@5']).toBeCloseTo(2.5 / (2 + at(2)), 12)
    expect(figures['ap']).toBeCloseTo(5 / 6, 12)
    // trec_eval 9.0.8 -q: ndcg_cut_5 0.9502, map 0.8333, P_5 0.4000, recip_rank 1.0000, recall_5 1.0000.
    const trecEval = { 'ndcg@5': 0.9502, ap: 0.8333, 'p@5': 0.4, rr: 1, 'recall@5': 1 }
    for (const [key, value] of Object.entries(trecEval)) expect(Math.abs(figures[key]! - value), key).toBeLessThanOrEqual(0.00005)
  })

  it('ties in grades: any order of equally graded items is ideal', () => {
    // Grades a 2, b 2, c 1: ideal 2 2 1. b a c and a b c both score nDCG 1.
    expect(score(['b', 'a', 'c'], { a: 2, b: 2, c: 1 }, 'ndcg@3')['ndcg@3']).toBe(1)
    expect(score(['a', 'b', 'c'], { a: 2, b: 2, c: 1 }, 'ndcg@3')['ndcg@3']).toBe(1)
    // c a b: DCG = 1 + 2/log2(3) + 2/log2(4) = 3.261860; IDCG = 2 + 2/log2(3) + 1/2 = 3.761860 → 0.8671.
    expect(score(['c', 'a', 'b'], { a: 2, b: 2, c: 1 }, 'ndcg@3')['ndcg@3']).toBeCloseTo((1 + 2 * at(2) + 2 * at(3)) / (2 + 2 * at(2) + at(3)), 12)
  })

  it('no relevant item: every figure is 0, coverage still counts the judged', () => {
    // Grades a 0, b 0: IDCG = 0 → nDCG 0; R = 0 → AP and Recall 0 (trec_eval prints 0 for such a query and counts it in the mean).
    const figures = score(['a', 'x', 'b'], { a: 0, b: 0 }, 'ndcg@10, ndcg, p@10, ap, rr, err@10, recall@10, coverage@10', EXPONENTIAL)
    expect(figures).toEqual({ 'ndcg@10': 0, ndcg: 0, 'p@10': 0, ap: 0, rr: 0, 'err@10': 0, 'recall@10': 0, 'coverage@10': 2 / 3 })
    // No judgment at all: the same zeros, coverage 0.
    expect(score(['x', 'y'], {}, 'ndcg@10, ap, coverage@10')).toEqual({ 'ndcg@10': 0, ap: 0, 'coverage@10': 0 })
  })

  it('fewer results than k: P divides by k, coverage by what came back, the ideal is cut at k', () => {
    // One result, relevant; two relevant items judged. Ideal 1 1: IDCG@10 = 1 + 1/log2(3).
    const figures = score(['a'], { a: 1, b: 1 }, 'p@10, coverage@10, recall@10, ndcg@10, ndcg@1')
    expect(figures['p@10']).toBe(1 / 10)
    expect(figures['coverage@10']).toBe(1)
    expect(figures['recall@10']).toBe(1 / 2)
    expect(figures['ndcg@10']).toBeCloseTo(1 / (1 + at(2)), 12) // 0.6131
    expect(figures['ndcg@1']).toBe(1)
  })

  it('an empty ranking: coverage 1 (nothing to judge), everything else 0', () => {
    const figures = score([], { a: 3 }, 'ndcg@10, p@10, ap, rr, err@10, recall@10, coverage@10')
    expect(figures).toEqual({ 'ndcg@10': 0, 'p@10': 0, ap: 0, rr: 0, 'err@10': 0, 'recall@10': 0, 'coverage@10': 1 })
  })

  it('unjudged items: zero keeps their places, skip takes them out', () => {
    // u1 a u2 b, grades a 1, b 1. zero: relevant at 2 and 4; skip: a b at 1 and 2.
    const ranking = ['u1', 'a', 'u2', 'b']
    const zero = score(ranking, { a: 1, b: 1 }, 'p@2, ap, rr, coverage@4')
    expect(zero).toEqual({ 'p@2': 1 / 2, ap: (1 / 2 + 2 / 4) / 2, rr: 1 / 2, 'coverage@4': 2 / 4 })
    const skip = score(ranking, { a: 1, b: 1 }, 'p@2, ap, rr, coverage@4', { ...LINEAR, unjudged: 'skip' })
    expect(skip).toEqual({ 'p@2': 1, ap: 1, rr: 1, 'coverage@4': 2 / 4 })
    expect(unjudgedInTop(ranking, new Map([['a', 1], ['b', 1]]), 3)).toBe(2)
  })

  it('a repeated id counts at its first place only', () => {
    // x a a b → x a b. AP = (1/2 + 2/3)/2 = 7/12 (counting the repeat would give (1/2 + 2/3 + 3/4)/2).
    const figures = score(['x', 'a', 'a', 'b'], { a: 1, b: 1 }, 'ap, p@3, coverage@3')
    expect(figures['ap']).toBeCloseTo(7 / 12, 12)
    expect(figures['p@3']).toBe(2 / 3)
    expect(figures['coverage@3']).toBe(2 / 3)
    expect(unjudgedInTop(['x', 'x', 'y', 'a'], new Map([['a', 1]]), 3)).toBe(2)
  })

  it('ERR by hand, exponential (Chapelle) and linear', () => {
    // Scale 0..3, exponential: R(g) = (2^g − 1)/2^3 → R(2) = 3/8, R(0) = 0, R(3) = 7/8.
    // Ranking graded 2 0 3: ERR = 3/8 + (5/8)·0/2 + (5/8)(1)(7/8)/3 = 72/192 + 35/192 = 107/192 = 0.5573.
    const grades = { a: 2, b: 0, c: 3 }
    expect(score(['a', 'b', 'c'], grades, 'err@10', EXPONENTIAL)['err@10']).toBeCloseTo(107 / 192, 12)
    // Linear: R(g) = g/3 → R(2) = 2/3, R(3) = 1: ERR = 2/3 + (1/3)(1)(1)/3 = 7/9 = 0.7778.
    expect(score(['a', 'b', 'c'], grades, 'err@10')['err@10']).toBeCloseTo(7 / 9, 12)
    // Cut at 2: only 3/8 (the grade-0 item adds nothing).
    expect(score(['a', 'b', 'c'], grades, 'err@2', EXPONENTIAL)['err@2']).toBeCloseTo(3 / 8, 12)
    // A perfect item first: exponential leaves 1/8 of users going on (ERR@1 = 7/8), linear stops them all (1).
    expect(score(['c'], grades, 'err', EXPONENTIAL)['err']).toBe(7 / 8)
    expect(score(['c'], grades, 'err')['err']).toBe(1)
    // ERR reads the scale's top grade even when no item has it: grade 1 alone on 0..3 is (2 − 1)/8.
    expect(score(['a'], { a: 1 }, 'err', EXPONENTIAL)['err']).toBe(1 / 8)
  })

  it('exponential and linear gain weigh grades differently in nDCG', () => {
    // Grades a 3, b 1; ranking b a.
    // Linear: DCG = 1 + 3/log2(3) = 2.892789, IDCG = 3 + 1/log2(3) = 3.630930 → 0.7967.
    // Exponential: gains 7 and 1: DCG = 1 + 7/log2(3) = 5.416508, IDCG = 7 + 1/log2(3) = 7.630930 → 0.7098.
    expect(score(['b', 'a'], { a: 3, b: 1 }, 'ndcg@10')['ndcg@10']).toBeCloseTo((1 + 3 * at(2)) / (3 + at(2)), 12)
    expect(score(['b', 'a'], { a: 3, b: 1 }, 'ndcg@10', EXPONENTIAL)['ndcg@10']).toBeCloseTo((1 + 7 * at(2)) / (7 + at(2)), 12)
    // Gain does not touch P, AP, RR, Recall.
    const binary = 'p@2, ap, rr, recall@2'
    expect(score(['b', 'a'], { a: 3, b: 1 }, binary, EXPONENTIAL)).toEqual(score(['b', 'a'], { a: 3, b: 1 }, binary))
  })

  it('refuses P or coverage without a depth', () => {
    expect(() => scoreQuery(['a'], new Map(), [{ name: 'p', k: null }], LINEAR, DEFAULT_SCALE)).toThrow(/P needs a depth/)
  })
})

describe('scoreQuery: properties', () => {
  const ITEMS = Array.from({ length: 12 }, (_, index) => `i${index}`)
  const gradesArb = fc
    .uniqueArray(fc.tuple(fc.constantFrom(...ITEMS), fc.integer({ min: 0, max: 3 })), { selector: ([item]) => item, maxLength: 12 })
    .map((pairs) => new Map(pairs))
  // Judged and unjudged ids, repeats allowed.
  const rankingArb = fc.array(fc.constantFrom(...ITEMS, 'u0', 'u1', 'u2', 'u3'), { maxLength: 20 })
  const settingsArb = fc.record({
    gain: fc.constantFrom<MetricSettings['gain'][]>('exponential', 'linear'),
    unjudged: fc.constantFrom<MetricSettings['unjudged'][]>('zero', 'skip'),
    threshold: fc.integer({ min: 1, max: 3 }),
  })
  const NAMES: MetricName[] = ['ndcg', 'p', 'ap', 'rr', 'err', 'recall', 'coverage']
  const metricsArb = fc
    .array(fc.record({ name: fc.constantFrom(...NAMES), k: fc.option(fc.integer({ min: 1, max: 25 }), { nil: null }) }), { minLength: 1, maxLength: 8 })
    .map((list) => list.map((spec) => (spec.k === null && (spec.name === 'p' || spec.name === 'coverage') ? { ...spec, k: 10 } : spec)))

  it('every figure is within [0, 1]', () => {
    fc.assert(
      fc.property(rankingArb, gradesArb, metricsArb, settingsArb, (ranking, grades, metrics, settings) => {
        for (const value of Object.values(scoreQuery(ranking, grades, metrics, settings, DEFAULT_SCALE))) {
          expect(value).toBeGreaterThanOrEqual(0)
          expect(value).toBeLessThanOrEqual(1)
        }
      }),
    )
  })

  it('nDCG is 1 for the ideal ranking (every judged item, highest grade first) whenever IDCG > 0', () => {
    fc.assert(
      fc.property(gradesArb, fc.option(fc.integer({ min: 1, max: 15 }), { nil: null }), settingsArb, (grades, k, settings) => {
        fc.pre([...grades.values()].some((grade) => grade > 0))
        const ideal = [...grades].sort((a, b) => b[1] - a[1]).map(([item]) => item)
        const spec: MetricSpec = { name: 'ndcg', k }
        expect(scoreQuery(ideal, grades, [spec], settings, DEFAULT_SCALE)[metricKey(spec)]).toBeCloseTo(1, 12)
      }),
    )
  })

  it('P@k · k is the number of relevant items in the top k of the ranking evaluated', () => {
    fc.assert(
      fc.property(rankingArb, gradesArb, fc.integer({ min: 1, max: 25 }), settingsArb, (ranking, grades, k, settings) => {
        const evaluated = [...new Set(ranking)].filter((item) => settings.unjudged === 'zero' || grades.has(item))
        const count = evaluated.slice(0, k).filter((item) => (grades.get(item) ?? 0) >= settings.threshold).length
        expect(scoreQuery(ranking, grades, [{ name: 'p', k }], settings, DEFAULT_SCALE)[`p@${k}`]! * k).toBeCloseTo(count, 9)
      }),
    )
  })

  it('skip and zero agree when every ranked item is judged', () => {
    fc.assert(
      fc.property(rankingArb, gradesArb, metricsArb, settingsArb, (ranking, grades, metrics, settings) => {
        const judgedOnly = ranking.filter((item) => grades.has(item))
        const zero = scoreQuery(judgedOnly, grades, metrics, { ...settings, unjudged: 'zero' }, DEFAULT_SCALE)
        expect(scoreQuery(judgedOnly, grades, metrics, { ...settings, unjudged: 'skip' }, DEFAULT_SCALE)).toEqual(zero)
      }),
    )
  })

  it('AP, RR, ERR and Recall at a depth covering the whole ranking equal their form without a depth', () => {
    // (Not nDCG: its ideal is cut at k too, so nDCG@k and nDCG differ when more items are judged than returned.)
    fc.assert(
      fc.property(rankingArb, gradesArb, settingsArb, (ranking, grades, settings) => {
        const k = Math.max(1, new Set(ranking).size)
        for (const name of ['ap', 'rr', 'err', 'recall'] as const) {
          const figures = scoreQuery(ranking, grades, [{ name, k }, { name, k: null }], settings, DEFAULT_SCALE)
          expect(figures[`${name}@${k}`]).toBeCloseTo(figures[name]!, 12)
        }
      }),
    )
  })
})

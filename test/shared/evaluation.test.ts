import { describe, expect, it } from 'vitest'
import { judgeDepthOf, rankingScorer, scoreRankings, type QueryRanking } from '../../src/shared/relevance/evaluation'
import { DEFAULT_METRICS } from '../../src/shared/relevance/metrics'
import { metrics, SMALL_JUDGMENTS, SMALL_METRICS, SMALL_RANKINGS, SMALL_RANKINGS_B, SMALL_SCORED_QUERIES, SMALL_SETTINGS } from '../fixtures/small-evaluation'

/**
 * An evaluation's figures (src/shared/relevance/evaluation.ts), on the three
 * queries of test/fixtures/small-evaluation.ts, scored by hand there: P@2 and
 * RR at threshold 1; q1 [p1 3, p2 0], q2 [b2 unjudged, b1 2], q3 failed.
 */

const set = { judgments: SMALL_JUDGMENTS }
const score = (rankings: readonly QueryRanking[], judgeDepth = 2, judgments = SMALL_JUDGMENTS) => scoreRankings(rankings, { judgments }, SMALL_METRICS, SMALL_SETTINGS, judgeDepth)

describe('judgeDepthOf', () => {
  it("looks as deep as Coverage's k, else nDCG's, else 10", () => {
    expect(judgeDepthOf(metrics('ndcg@20,coverage@5'))).toBe(5)
    expect(judgeDepthOf(metrics('p@3,ndcg@20'))).toBe(20)
    expect(judgeDepthOf(metrics('p@2,rr'))).toBe(10)
    expect(judgeDepthOf(DEFAULT_METRICS)).toBe(10)
  })
})

describe('scoreRankings', () => {
  it("scores each query, leaves a failed one out of the means, and counts what is unjudged in each query's top", () => {
    expect(score(SMALL_RANKINGS)).toEqual({
      metrics: ['p@2', 'rr'],
      queries: SMALL_SCORED_QUERIES,
      means: { 'p@2': 0.5, rr: 0.75 },
      counted: 2,
      unjudgedQueries: 0,
      failed: 1,
      unjudged: 1,
    })
  })

  it('leaves a query with no judgment at all out of the means, as trec_eval does, and counts it', () => {
    // B: q2's b1 first (RR 1), q3 answered with o1, which nobody judged.
    const scored = score(SMALL_RANKINGS_B)
    expect(scored.queries.map((query) => [query.id, query.scores, query.unjudged])).toEqual([
      ['q1', { 'p@2': 0.5, rr: 1 }, 0],
      ['q2', { 'p@2': 0.5, rr: 1 }, 1],
      ['q3', null, 1],
    ])
    expect([scored.means, scored.counted, scored.unjudgedQueries, scored.failed, scored.unjudged]).toEqual([{ 'p@2': 0.5, rr: 1 }, 2, 1, 0, 2])
  })

  it('follows new judgments without running anything again', () => {
    // o1 judged 2: q3 now counts, P@2 1/2 and RR 1; the means are over three queries.
    const scored = score(SMALL_RANKINGS_B, 2, [...SMALL_JUDGMENTS, { query: 'q3', item: 'o1', rater: 'r1', grade: 2 }])
    expect(scored.queries[2]!.scores).toEqual({ 'p@2': 0.5, rr: 1 })
    expect([scored.means, scored.counted, scored.unjudgedQueries, scored.unjudged]).toEqual([{ 'p@2': 0.5, rr: 1 }, 3, 0, 1])
  })

  it('counts unjudged items only in the top judgeDepth', () => {
    // q2 ranks the unjudged b2 first in A, second in B.
    expect(score(SMALL_RANKINGS, 1).queries[1]!.unjudged).toBe(1)
    expect(score(SMALL_RANKINGS_B, 1).queries[1]!.unjudged).toBe(0)
  })

  it("carries a ranking's note to its figures", () => {
    const noted: QueryRanking = { ...SMALL_RANKINGS[0]!, note: 'Probabilities left out: the service gave none.' }
    expect(score([noted]).queries[0]).toMatchObject({ id: 'q1', note: 'Probabilities left out: the service gave none.', scores: { 'p@2': 0.5, rr: 1 } })
    expect(score(SMALL_RANKINGS).queries[0]).not.toHaveProperty('note')
  })

  it('gives no mean (null, not 0) when no query has figures', () => {
    expect(score([])).toEqual({ metrics: ['p@2', 'rr'], queries: [], means: { 'p@2': null, rr: null }, counted: 0, unjudgedQueries: 0, failed: 0, unjudged: 0 })
    expect(score([SMALL_RANKINGS[2]!]).means).toEqual({ 'p@2': null, rr: null })
  })
})

describe('rankingScorer', () => {
  it('gives the figures scoreRankings gives, a ranking at a time, and the figures so far at any point', () => {
    const scorer = rankingScorer(set, SMALL_METRICS, SMALL_SETTINGS, 2)
    scorer.add(SMALL_RANKINGS[0]!)
    expect(scorer.result()).toEqual(score(SMALL_RANKINGS.slice(0, 1)))
    scorer.add(SMALL_RANKINGS[1]!)
    scorer.add(SMALL_RANKINGS[2]!)
    expect(scorer.result()).toEqual(score(SMALL_RANKINGS))
  })
})

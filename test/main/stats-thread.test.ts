import { describe, expect, it } from 'vitest'
import { statsInThread } from '../../src/main/experiments/stats-thread'
import type { StatsRequest } from '../../src/main/experiments/stats-protocol'
import { experimentStats } from '../../src/shared/experiments/experiment'
import { scoreRankings, type QueryRanking } from '../../src/shared/relevance/evaluation'
import { DEFAULT_SETTINGS } from '../../src/shared/relevance/query-set'
import { failureOf } from '../fixtures/failure-of'

/** An experiment's statistics on a real worker thread of their own, started for one request. */

const judgments = [
  { query: 'q1', item: 'a', rater: 'r1', grade: 1 },
  { query: 'q2', item: 'b', rater: 'r1', grade: 1 },
]
const metrics = [{ name: 'rr', k: null }] as const
const ranking = (id: string, items: string[]): QueryRanking => ({ id, text: id, items, labels: items, error: null, durationMs: 1 })
const side = (label: string, rankings: QueryRanking[]) => ({ label, rankings, scored: scoreRankings(rankings, { judgments }, metrics, DEFAULT_SETTINGS, 10) })

const request: StatsRequest = {
  // The baseline finds each relevant item second (RR 1/2); the other finds both first (RR 1).
  baseline: side('A', [ranking('q1', ['x', 'a']), ranking('q2', ['x', 'b'])]),
  others: [side('B', [ranking('q1', ['a', 'x']), ranking('q2', ['b', 'x'])])],
  grades: [
    ['q1', [['a', 1]]],
    ['q2', [['b', 1]]],
  ],
  judgeDepth: 10,
  options: { seed: 7 },
}

describe('statsInThread', () => {
  it('answers what the statistics give in process: B wins both queries by 1/2', async () => {
    const stats = await statsInThread(request)
    const grades = new Map(request.grades.map(([query, items]) => [query, new Map(items)]))
    expect(stats).toEqual(experimentStats(request.baseline, request.others, grades, request.judgeDepth, request.options))
    expect(stats.comparisons[0]).toMatchObject({ metric: 'rr', other: 0, n: 2, baselineMean: 0.5, otherMean: 1, meanDelta: 0.5, wins: 2, ties: 0, losses: 0 })
  })

  it('a cancelled request starts no work and says it was cancelled', async () => {
    const cancelled = new AbortController()
    cancelled.abort()
    const error = await failureOf(statsInThread(request, cancelled.signal))
    expect([error.code, error.message]).toEqual(['cancelled', 'The experiment was cancelled.'])
  })

  it('a request the statistics cannot read fails with their words', async () => {
    const error = await failureOf(statsInThread({ ...request, baseline: undefined as never }))
    expect(error.code).toBe('internal')
    expect(error.message).toMatch(/^The experiment's statistics failed: /)
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { evaluateSet, judgmentsDigest, setDigest, type EvaluateSetInput } from '../../src/main/evaluation/evaluate-set'
import { DEFAULT_SETTINGS, type QuerySet } from '../../src/shared/relevance/query-set'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { search } from './support'

/** A whole evaluation of a set on one target: run, scored against the set's judgments, stamped and digested. */

const SET: QuerySet = {
  name: 'Cities',
  query: 'Template',
  queries: [
    { id: 'q1', text: 'three' },
    { id: 'q2', text: 'broken' },
  ],
  judgments: [
    { query: 'q1', item: 'b', rater: 'r1', grade: 1 },
    { query: 'q1', item: 'z', rater: 'r1', grade: 0 },
  ],
}

describe('evaluateSet', () => {
  let api: RankingServer
  beforeAll(async () => {
    api = await startRankingServer({ three: ['a', 'b', 'c'], broken: { status: 500, message: 'down' } })
  })
  afterAll(() => api?.close())

  const input = (extra: Partial<EvaluateSetInput> = {}): EvaluateSetInput => ({
    runner: api.runner,
    target: api.target,
    targetSpec: null,
    targetText: 'Ranking server',
    overrides: {},
    workspaceName: 'team',
    set: SET,
    template: search('{{query}}'),
    metrics: [
      { name: 'p', k: 2 },
      { name: 'rr', k: null },
    ],
    settings: DEFAULT_SETTINGS,
    depth: 3,
    runId: 'eval',
    now: () => new Date('2026-01-02T03:04:05.000Z'),
    ...extra,
  })

  it('scores each query against the judgments and stamps the evaluation with what it ran on', async () => {
    const evaluation = await evaluateSet(input())
    expect(evaluation).toMatchObject({
      set: 'Cities',
      workspace: 'team',
      target: null,
      targetText: 'Ranking server',
      at: '2026-01-02T03:04:05.000Z',
      depth: 3,
      judgeDepth: 10,
      state: 'done',
      setDigest: setDigest(SET, search('{{query}}')),
      judgmentsDigest: judgmentsDigest(SET),
    })
    expect(evaluation.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(evaluation.rankings.map((ranking) => [ranking.id, ranking.items])).toEqual([
      ['q1', ['a', 'b', 'c']],
      ['q2', []],
    ])
    // q1: b, the one relevant item, is second: P@2 = 1/2, RR = 1/2. q2 failed and is not counted.
    expect(evaluation.scored).toMatchObject({ metrics: ['p@2', 'rr'], means: { 'p@2': 0.5, rr: 0.5 }, counted: 1, failed: 1 })
    expect(evaluation).not.toHaveProperty('step')
    expect((await evaluateSet(input({ step: 'Step 1' }))).step).toBe('Step 1')
  })

  it('a cancelled evaluation says so', async () => {
    const cancelled = new AbortController()
    cancelled.abort()
    const evaluation = await evaluateSet(input({ signal: cancelled.signal }))
    expect(evaluation.state).toBe('cancelled')
    expect(evaluation.scored.counted).toBe(0)
  })

  it('the set digest follows the template and the queries; the judgments digest the grades, not their order', () => {
    const template = search('{{query}}')
    const digest = setDigest(SET, template)
    expect(digest).toMatch(/^[0-9a-f]{64}$/)
    expect(setDigest({ ...SET, judgments: [] }, template)).toBe(digest)
    expect(setDigest(SET, search('{{query}} city'))).not.toBe(digest)
    expect(setDigest({ ...SET, queries: [...SET.queries].reverse() }, template)).not.toBe(digest)

    const judged = judgmentsDigest(SET)
    expect(judgmentsDigest({ ...SET, judgments: [...SET.judgments].reverse() })).toBe(judged)
    expect(judgmentsDigest({ ...SET, queries: [] })).toBe(judged)
    expect(judgmentsDigest({ ...SET, judgments: [{ ...SET.judgments[0]!, grade: 2 }, SET.judgments[1]!] })).not.toBe(judged)
  })
})

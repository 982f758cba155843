import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeScale, judgeSet, MAX_FAILURES_KEPT, type JudgingProgress } from '../../src/main/judges/judge-set'
import type { JudgeTask } from '../../src/main/judges/judge-plan'
import { DEFAULT_SCALE, type Judgment, type QuerySet } from '../../src/shared/relevance/query-set'
import { citiesSet } from '../fixtures/judgment-sets'
import { judgeOn, startLlmServer, type LlmServer } from '../fixtures/llm-servers'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { search } from './support'

/**
 * One judging of a set as the window's job and the command line both run it:
 * the set's results from a Query API on 127.0.0.1, grades from an
 * OpenAI-compatible server on 127.0.0.1.
 */

const newProgress = (): JudgingProgress => ({ phase: '', done: 0, total: 0, estimate: null, graded: 0, cached: 0, failures: [], calls: 0, tokens: { input: 0, output: 0 }, stoppedByBudget: false, left: 0 })

describe('judgeSet', () => {
  let api: RankingServer
  let llm: LlmServer
  beforeAll(async () => {
    api = await startRankingServer({ paris: ['p1', 'p2', 'p3'], lyon: ['l1', 'l2'] })
    llm = await startLlmServer('openai')
  })
  afterAll(async () => {
    await api.close()
    await llm.close()
  })

  const run = (set: QuerySet, overrides: Partial<Parameters<typeof judgeSet>[0]> = {}) => {
    const rated: { task: JudgeTask; grade: number }[] = []
    const progress = newProgress()
    const ended = judgeSet({
      judge: judgeOn(llm, { name: 'j' }),
      set,
      baseUrl: llm.baseUrl,
      key: null,
      fetch: { runner: api.runner, target: api.target, template: search('{{query}}'), runId: 'test' },
      depth: 10,
      scope: 'ungraded',
      only: null,
      budget: { calls: 100 },
      concurrency: 2,
      dryRun: false,
      cache: null,
      signal: new AbortController().signal,
      progress,
      rate: async (task, graded) => {
        rated.push({ task, grade: graded.grade })
      },
      ...overrides,
    })
    return { ended, rated, progress }
  }

  it('judges only the pairs asked (a judge-next queue), saying which are no longer in the results', async () => {
    llm.otherwise = () => ({ grade: 1 })
    const before = llm.requests.length
    const { ended, rated, progress } = run(citiesSet([]), { only: { pairs: [{ query: 'q1', item: 'p3' }, { query: 'q1', item: 'gone' }], queries: [] } })
    expect(await ended).toEqual({ state: 'done', message: '1 graded, 0 from the cache, 1 failed as llm:j.' })
    expect(rated.map((each) => [each.task.query, each.task.item])).toEqual([['q1', 'p3']])
    expect(progress.failures).toEqual([{ query: 'q1', item: 'gone', reason: "The item is no longer in the query's top 10." }])
    // Only paris was asked of the Query API, and one item of the model.
    expect(llm.requests.length - before).toBe(1)
  })

  it('a dry run estimates without a call; a judge of another scale than the set is refused, naming the field', async () => {
    const before = llm.requests.length
    const { ended, progress } = run(citiesSet([]), { dryRun: true })
    expect((await ended).message).toMatch(/^Estimate: about 5 calls, \d+ input tokens; 0 from the cache, 0 stale, 0 graded already\.$/)
    expect(progress.estimate).toMatchObject({ calls: 5 })
    expect(llm.requests.length).toBe(before)
    const twoStep = judgeOn(llm, { name: 'j', scale: [{ grade: 0, label: 'No' }, { grade: 1, label: 'Yes' }] })
    expect(() => judgeScale(twoStep, citiesSet([]))).toThrow('scale: the judge "j" grades on 0 No, 1 Yes, the set "Cities" on 0 Poor, 1 Fair, 2 Good, 3 Perfect')
    expect(judgeScale(judgeOn(llm, { scale: DEFAULT_SCALE }), citiesSet([]))).toEqual(DEFAULT_SCALE)
  })

  it('a cancel while fetching grades nothing, and says so', async () => {
    const controller = new AbortController()
    controller.abort()
    const { ended, rated } = run(citiesSet([]), { signal: controller.signal })
    expect(await ended).toEqual({ state: 'cancelled', message: 'Cancelled while fetching the results: nothing was graded.' })
    expect(rated).toEqual([])
  })

  it('counts down what is left as each item is graded or fails; failures are counted apart', async () => {
    llm.otherwise = (request) => (request.prompt.includes('name: P2') ? { grade: 7, explanation: 'Seven.' } : { grade: 1 })
    const progress = newProgress()
    const seen: number[] = []
    const { ended } = run(citiesSet([]), {
      progress,
      concurrency: 1,
      rate: async () => void seen.push(progress.left),
    })
    expect((await ended).message).toBe('4 graded, 0 from the cache, 1 failed as llm:j.')
    // As each grade is taken: the items not yet graded nor failed (p2 failed between the first grade and the second).
    expect(seen).toEqual([5, 3, 2, 1])
    expect(progress).toMatchObject({ left: 0, graded: 4 })
    expect(progress.failures).toHaveLength(1)
  })

  it('keeps the first MAX_FAILURES_KEPT failures and counts the rest; a retry says how many of the earlier run were not kept', async () => {
    llm.otherwise = () => ({ grade: 1 })
    const gone = Array.from({ length: MAX_FAILURES_KEPT + 50 }, (_, i) => ({ query: 'q1', item: `gone-${i}` }))
    const { ended, progress } = run(citiesSet([]), { only: { pairs: [{ query: 'q1', item: 'p1' }, ...gone], queries: [], notKept: 7 } })
    expect((await ended).message).toBe(
      '1 graded, 0 from the cache, 10,050 failed (7 failures of the earlier run were not kept, so not retried: judge the set again for them) as llm:j.',
    )
    expect(progress.failures).toHaveLength(MAX_FAILURES_KEPT)
    expect(progress.failuresNotKept).toBe(50)
  })

  describe('few-shot examples', () => {
    // alice graded lyon's second result only: the one example any paris item can get.
    const graded: Judgment[] = [{ query: 'q2', item: 'l2', rater: 'alice', grade: 3 }]
    const set = (): QuerySet => ({ ...citiesSet(graded), raters: [{ name: 'alice', kind: 'person' }] })
    const digests = async (overrides: Partial<Parameters<typeof judgeSet>[0]>) => {
      const seen = new Map<string, string>()
      const { ended } = run(set(), { judge: judgeOn(llm, { name: 'j', fewShot: 2 }), rate: async (task, graded) => void seen.set(`${task.query}/${task.item}`, graded.promptDigest), ...overrides })
      expect((await ended).state).toBe('done')
      return seen
    }

    it('are the same in a retry of one item as in the run of every query', async () => {
      llm.otherwise = () => ({ grade: 1 })
      const before = llm.requests.length
      const full = await digests({})
      expect(llm.requests.slice(before).find((request) => request.prompt.includes('name: P3'))?.prompt).toContain('name: L2')
      const retry = await digests({ only: { pairs: [{ query: 'q1', item: 'p3' }], queries: [] } })
      expect([...retry.keys()]).toEqual(['q1/p3'])
      expect(retry.get('q1/p3')).toBe(full.get('q1/p3'))
    })

    it('do not depend on how deep the run looks', async () => {
      llm.otherwise = () => ({ grade: 1 })
      const shallow = await digests({ depth: 1 })
      const deep = await digests({ depth: 3 })
      expect(shallow.get('q1/p1')).toBe(deep.get('q1/p1'))
    })
  })
})

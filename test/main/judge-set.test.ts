import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { judgeScale, judgeSet, type JudgingProgress } from '../../src/main/judges/judge-set'
import type { JudgeTask } from '../../src/main/judges/judge-plan'
import { DEFAULT_SCALE, type QuerySet } from '../../src/shared/relevance/query-set'
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
})

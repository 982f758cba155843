import { describe, expect, it } from 'vitest'
import { planJudging, type JudgeTask } from '../../src/main/judges/judge-plan'
import { cacheKey, promptDigest } from '../../src/main/judges/prompt-digest'
import { judgeCacheOf } from '../../src/main/storage/data-store/judge-cache-table'
import { ESTIMATED_OUTPUT_TOKENS, estimateTokens, JudgeSchema, renderJudgePrompt } from '../../src/shared/relevance/llm-judge'
import { DEFAULT_SCALE, type Judgment } from '../../src/shared/relevance/query-set'
import { useDataStores } from '../fixtures/data-stores'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * What a run will do before it sends anything: each item's prompt, digest
 * and cache key; which items the judge graded already under this prompt
 * (current), under another (stale), or not at all; what the cache answers;
 * and the estimate from them.
 */

const judge = JudgeSchema.parse({ name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge' })
const task = (query: string, item: string, name = item): JudgeTask => ({ query, queryText: `text of ${query}`, item, fields: { name, population: 1000 } })
const tasks = [task('q1', 'a'), task('q1', 'b'), task('q2', 'c'), task('q2', 'd')]
const promptOf = (each: JudgeTask) => renderJudgePrompt(judge, DEFAULT_SCALE, each.queryText, { item: each.item, fields: each.fields })

/** The judge graded a under this very prompt, b under another; a person graded c (no grade of the judge's). */
const existing: Judgment[] = [
  { query: 'q1', item: 'a', rater: 'llm:demo', grade: 2, explanation: 'x', promptDigest: promptDigest(promptOf(tasks[0]!)) },
  { query: 'q1', item: 'b', rater: 'llm:demo', grade: 1, explanation: 'y', promptDigest: 'f'.repeat(64) },
  { query: 'q2', item: 'c', rater: 'alice', grade: 3 },
]

describe('planJudging', () => {
  const tempDir = useTempDirs('qe-judge-plan')
  const dataStore = useDataStores()

  it('grades what the judge has not graded by default; stale adds grades under another prompt; all adds the current ones', async () => {
    const plan = (scope: 'ungraded' | 'stale' | 'all') => planJudging({ judge, scale: DEFAULT_SCALE, tasks, existing, cache: null, scope })
    const ungraded = await plan('ungraded')
    expect(ungraded.toGrade.map((each) => [each.task.item, each.state])).toEqual([
      ['c', 'new'],
      ['d', 'new'],
    ])
    expect((await plan('stale')).toGrade.map((each) => each.task.item)).toEqual(['b', 'c', 'd'])
    expect((await plan('all')).toGrade.map((each) => each.task.item)).toEqual(['a', 'b', 'c', 'd'])
    expect(ungraded.estimate).toMatchObject({ current: 1, stale: 1, cached: 0, calls: 2 })
  })

  it("estimates a call per item, its prompt's tokens, and the output each answer costs", async () => {
    const { toGrade, estimate } = await planJudging({ judge, scale: DEFAULT_SCALE, tasks, existing: [], cache: null, scope: 'ungraded' })
    const input = tasks.reduce((sum, each) => sum + estimateTokens(promptOf(each)), 0)
    expect(estimate).toEqual({ calls: 4, inputTokens: input, outputTokens: 4 * ESTIMATED_OUTPUT_TOKENS, cached: 0, current: 0, stale: 0, text: `about 4 calls, ${input} input tokens` })
    expect(toGrade[0]).toMatchObject({ prompt: promptOf(tasks[0]!), promptDigest: promptDigest(promptOf(tasks[0]!)), key: cacheKey(judge, judge.baseUrl, promptOf(tasks[0]!)) })
  })

  it('takes what the cache holds first and counts no call for it; an item listed twice is judged once', async () => {
    const cache = judgeCacheOf(dataStore(tempDir()))
    await cache.set(cacheKey(judge, judge.baseUrl, promptOf(tasks[3]!)), { grade: 3, explanation: 'cached', promptDigest: promptDigest(promptOf(tasks[3]!)) })
    const { toGrade, estimate } = await planJudging({ judge, scale: DEFAULT_SCALE, tasks: [...tasks, task('q2', 'd')], existing: [], cache, scope: 'ungraded' })
    expect(toGrade.map((each) => [each.task.item, each.cached])).toEqual([
      ['d', { grade: 3, explanation: 'cached' }],
      ['a', null],
      ['b', null],
      ['c', null],
    ])
    expect(estimate).toMatchObject({ calls: 3, cached: 1 })
  })

  it("a changed item or prompt makes the judge's grade stale, and the key changes with the model", async () => {
    const changed = [{ ...tasks[0]!, fields: { name: 'a', population: 2000 } }]
    const { toGrade } = await planJudging({ judge, scale: DEFAULT_SCALE, tasks: changed, existing, cache: null, scope: 'stale' })
    expect(toGrade.map((each) => each.state)).toEqual(['stale'])
    const other = await planJudging({ judge: { ...judge, model: 'other' }, scale: DEFAULT_SCALE, tasks: [tasks[0]!], existing, cache: null, scope: 'all' })
    expect(other.toGrade[0]!.key).not.toBe(cacheKey(judge, judge.baseUrl, promptOf(tasks[0]!)))
  })
})

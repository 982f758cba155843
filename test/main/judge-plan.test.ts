import { describe, expect, it } from 'vitest'
import { PLAN_CHUNK_ITEMS, planJudging, type JudgeCache, type JudgeTask } from '../../src/main/judges/judge-plan'
import { cacheKey, promptDigest } from '../../src/main/judges/prompt-digest'
import { judgeCacheOf } from '../../src/main/storage/data-store/judge-cache-table'
import { ESTIMATED_OUTPUT_TOKENS, estimateTokens, JudgeSchema, renderJudgePrompt, type FewShotExample } from '../../src/shared/relevance/llm-judge'
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
const digestOf = (each: JudgeTask) => promptDigest(judge, promptOf(each))
const keyOf = (each: JudgeTask) => cacheKey(judge.baseUrl, DEFAULT_SCALE, digestOf(each))

/** The judge graded a under this very prompt, b under another; a person graded c (no grade of the judge's). */
const existing: Judgment[] = [
  { query: 'q1', item: 'a', rater: 'llm:demo', grade: 2, explanation: 'x', promptDigest: digestOf(tasks[0]!) },
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
    expect(toGrade[0]).toMatchObject({ promptDigest: digestOf(tasks[0]!), key: keyOf(tasks[0]!) })
    expect(toGrade[0]!.prompt).toBe(promptOf(tasks[0]!))
  })

  it('takes what the cache holds first and counts no call for it; an item listed twice is judged once', async () => {
    const cache = judgeCacheOf(dataStore(tempDir()))
    await cache.set(keyOf(tasks[3]!), { grade: 3, explanation: 'cached', promptDigest: digestOf(tasks[3]!) })
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
    expect(other.toGrade[0]!.key).not.toBe(keyOf(tasks[0]!))
  })

  it('a grade made by another model, temperature or seed is stale, and counted so', async () => {
    for (const changed of [{ model: 'gpt-b' }, { temperature: 0.7 }, { seed: 5 }, { structured: false }]) {
      const plan = await planJudging({ judge: { ...judge, ...changed }, scale: DEFAULT_SCALE, tasks: [tasks[0]!], existing, cache: null, scope: 'stale' })
      expect(plan.estimate.stale).toBe(1)
      expect(plan.toGrade.map((each) => each.state)).toEqual(['stale'])
    }
  })

  it("a cached answer given on another scale is not taken: the item needs a call", async () => {
    // A template without {{scale}}: the prompt is the same text on either scale.
    const bare = JudgeSchema.parse({ ...judge, prompt: 'Grade {{item}} for {{query}}' })
    const binary = [{ grade: 0, label: 'No' }, { grade: 1, label: 'Yes' }]
    const cache = judgeCacheOf(dataStore(tempDir()))
    const first = await planJudging({ judge: bare, scale: DEFAULT_SCALE, tasks: [tasks[0]!], existing: [], cache, scope: 'ungraded' })
    await cache.set(first.toGrade[0]!.key, { grade: 3, explanation: 'on 0-3', promptDigest: first.toGrade[0]!.promptDigest })
    expect((await planJudging({ judge: bare, scale: DEFAULT_SCALE, tasks: [tasks[0]!], existing: [], cache, scope: 'ungraded' })).estimate).toMatchObject({ cached: 1, calls: 0 })
    const other = await planJudging({ judge: bare, scale: binary, tasks: [tasks[0]!], existing: [], cache, scope: 'ungraded' })
    expect(other.toGrade[0]!.cached).toBeNull()
    expect(other.estimate).toMatchObject({ cached: 0, calls: 1 })
  })
})

describe('planJudging, a large set', () => {
  const many = (n: number): JudgeTask[] => Array.from({ length: n }, (_, i) => task(`q${i % 10}`, `item-${i}`))
  const examples: FewShotExample[] = Array.from({ length: 5 }, (_, i) => ({ query: `example query ${i}`, fields: { name: `Example city ${i}` }, grade: i % 4 }))

  it('gives the event loop back while it renders, a chunk at a time', async () => {
    let turns = 0
    let going = true
    const tick = () => {
      turns++
      if (going) setImmediate(tick)
    }
    setImmediate(tick)
    const plan = await planJudging({ judge, scale: DEFAULT_SCALE, tasks: many(5 * PLAN_CHUNK_ITEMS), existing: [], cache: null, scope: 'ungraded' })
    going = false
    expect(plan.toGrade).toHaveLength(5 * PLAN_CHUNK_ITEMS)
    // Other work ran between the chunks: a plan of 1,000 items gives way at least 4 times.
    expect(turns).toBeGreaterThanOrEqual(4)
  })

  it('stops when its signal is aborted, between chunks', async () => {
    const controller = new AbortController()
    setImmediate(() => controller.abort())
    await expect(planJudging({ judge, scale: DEFAULT_SCALE, tasks: many(20 * PLAN_CHUNK_ITEMS), existing: [], cache: null, scope: 'ungraded', signal: controller.signal })).rejects.toThrow()
  })

  it('keeps no prompt per item: each is rendered again, the same, when it is read', async () => {
    const plan = await planJudging({ judge, scale: DEFAULT_SCALE, tasks: many(3), existing: [], cache: null, scope: 'ungraded', examples: () => examples })
    const planned = plan.toGrade[0]!
    const prompt = renderJudgePrompt(judge, DEFAULT_SCALE, planned.task.queryText, { item: planned.task.item, fields: planned.task.fields }, examples)
    expect(planned.prompt).toBe(prompt)
    expect(planned.promptDigest).toBe(promptDigest(judge, prompt))
    // What the plan holds of the item: its task, digest, key and state; the examples' text is in no planned item.
    expect(JSON.stringify(plan.toGrade)).not.toContain('Example city')
    expect(plan.estimate.inputTokens).toBe(3 * estimateTokens(prompt))
  })

  it('asks the cache a chunk at a time, not every item at once', async () => {
    let waiting = 0
    let most = 0
    // A cache whose answers come a turn later, counting the lookups waiting at once.
    const cache: JudgeCache = {
      get: (key) => {
        most = Math.max(most, ++waiting)
        return new Promise((resolve) => setImmediate(() => (waiting--, resolve(key.endsWith('0') ? { grade: 2, explanation: 'kept' } : null))))
      },
      set: async () => undefined,
    }
    const plan = await planJudging({ judge, scale: DEFAULT_SCALE, tasks: many(5 * PLAN_CHUNK_ITEMS), existing: [], cache, scope: 'ungraded' })
    expect(most).toBeLessThanOrEqual(PLAN_CHUNK_ITEMS)
    expect(plan.estimate.cached + plan.estimate.calls).toBe(5 * PLAN_CHUNK_ITEMS)
    expect(plan.estimate.cached).toBeGreaterThan(0)
  })
})

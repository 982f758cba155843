import { afterEach, describe, expect, it } from 'vitest'
import { CallMeter } from '../../src/main/judges/call-meter'
import { planJudging, type JudgeCache, type JudgeTask } from '../../src/main/judges/judge-plan'
import { runJudging, type GradedItem } from '../../src/main/judges/judge-run'
import { judgeClient, type JudgeClient } from '../../src/main/judges/provider-client'
import { judgeCacheOf } from '../../src/main/storage/data-store/judge-cache-table'
import { DEFAULT_SCALE } from '../../src/shared/relevance/query-set'
import { useDataStores } from '../fixtures/data-stores'
import { judgeOn, startLlmServer, type LlmServer } from '../fixtures/llm-servers'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * The judging engine over a real OpenAI-compatible server on 127.0.0.1 and
 * the provider's own client: each grade handed over as it comes, the cache
 * answering a second run with no call, at most `concurrency` calls at once,
 * the budget and a cancel each stopping the run with what was graded kept.
 */

const tasks = (n: number): JudgeTask[] => Array.from({ length: n }, (_, i) => ({ query: `q${(i % 3) + 1}`, queryText: `city ${i % 3}`, item: `item-${i}`, fields: { name: `City ${i}`, population: 1000 * i } }))

describe('runJudging', () => {
  const servers: LlmServer[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })
  const tempDir = useTempDirs('qe-judge-run')
  const dataStore = useDataStores()

  async function setUp(n: number, options: { budget?: number; cache?: JudgeCache | null; concurrency?: number } = {}) {
    const server = await startLlmServer('openai')
    servers.push(server)
    const judge = judgeOn(server, { name: 'test' })
    const plan = await planJudging({ judge, scale: DEFAULT_SCALE, tasks: tasks(n), existing: [], cache: options.cache ?? null, scope: 'ungraded' })
    const meter = new CallMeter({ calls: options.budget ?? 1_000 })
    const client = judgeClient(judge, judge.baseUrl, null, meter, { maxRetries: 0 })
    return { server, judge, plan, meter, client }
  }

  function collect() {
    const graded: { item: string; answer: GradedItem }[] = []
    const failed: { item: string; reason: string }[] = []
    return { graded, failed, onGraded: (task: JudgeTask, answer: GradedItem) => void graded.push({ item: task.item, answer }), onFailed: (task: JudgeTask, reason: string) => void failed.push({ item: task.item, reason }) }
  }

  it('hands over each grade with its prompt digest, keeps it in the cache, and a second run costs no call', async () => {
    const cache = judgeCacheOf(dataStore(tempDir()))
    const first = await setUp(5, { cache })
    first.server.script({ grade: 3, explanation: 'Named exactly.' })
    const seen = collect()
    const result = await runJudging({ planned: first.plan.toGrade, scale: DEFAULT_SCALE, client: first.client, meter: first.meter, concurrency: 2, signal: new AbortController().signal, cache, ...seen })
    expect(result).toEqual({ graded: 5, cached: 0, failed: 0, stoppedByBudget: false, cancelled: false, left: 0 })
    expect(first.server.requests).toHaveLength(5)
    const byItem = new Map(seen.graded.map((each) => [each.item, each.answer]))
    const planned = first.plan.toGrade.find((each) => each.task.item === 'item-0')!
    expect(byItem.get('item-0')).toEqual({ grade: 3, explanation: 'Named exactly.', promptDigest: planned.promptDigest, cached: false })
    // The server got the very prompt planned.
    expect(first.server.requests.map((request) => request.prompt)).toContain(planned.prompt)

    // Judged again with the same settings (the cache key names the judge as its file names it): all from the cache, no call.
    const again = await planJudging({ judge: first.judge, scale: DEFAULT_SCALE, tasks: tasks(5), existing: [], cache, scope: 'ungraded' })
    expect(again.estimate).toMatchObject({ calls: 0, cached: 5 })
    const meter = new CallMeter({ calls: 1_000 })
    const second = collect()
    const cachedRun = await runJudging({ planned: again.toGrade, scale: DEFAULT_SCALE, client: judgeClient(first.judge, first.judge.baseUrl, null, meter), meter, concurrency: 2, signal: new AbortController().signal, cache, ...second })
    expect(cachedRun).toMatchObject({ graded: 0, cached: 5, left: 0 })
    expect(meter.calls).toBe(0)
    expect(first.server.requests).toHaveLength(5)
    expect(second.graded.find((each) => each.item === 'item-0')?.answer).toEqual({ grade: 3, explanation: 'Named exactly.', promptDigest: planned.promptDigest, cached: true })
  })

  it('keeps at most `concurrency` calls going at once, and uses them all', async () => {
    const { server, plan, meter, client } = await setUp(12)
    let going = 0
    let most = 0
    // The real client, its calls counted as they start and end.
    const counted: JudgeClient = {
      async grade(prompt, scale, signal) {
        most = Math.max(most, ++going)
        try {
          return await client.grade(prompt, scale, signal)
        } finally {
          going--
        }
      },
    }
    const seen = collect()
    const result = await runJudging({ planned: plan.toGrade, scale: DEFAULT_SCALE, client: counted, meter, concurrency: 3, signal: new AbortController().signal, ...seen })
    expect(result.graded).toBe(12)
    expect(most).toBe(3)
    expect(server.requests).toHaveLength(12)
  })

  it('stops at the budget: N requests sent, what they graded kept, the rest left, and that is no failure', async () => {
    const { server, plan, meter, client } = await setUp(8, { budget: 3 })
    const seen = collect()
    const result = await runJudging({ planned: plan.toGrade, scale: DEFAULT_SCALE, client, meter, concurrency: 2, signal: new AbortController().signal, ...seen })
    expect(server.requests).toHaveLength(3)
    expect(result).toEqual({ graded: 3, cached: 0, failed: 0, stoppedByBudget: true, cancelled: false, left: 5 })
    expect(seen.graded).toHaveLength(3)
    expect(seen.failed).toEqual([])
  })

  it('a cancel keeps what was graded, and the calls it cut short are left, not failed', async () => {
    const { server, plan, meter, client } = await setUp(10)
    server.script({ grade: 2 }, { grade: 2 }, { grade: 2 })
    server.otherwise = () => ({ hang: true })
    const controller = new AbortController()
    const seen = collect()
    const result = await runJudging({
      planned: plan.toGrade,
      scale: DEFAULT_SCALE,
      client,
      meter,
      concurrency: 2,
      signal: controller.signal,
      ...seen,
      onGraded: (task, answer) => {
        seen.onGraded(task, answer)
        // Cancelled once the third grade is in: the calls then going hang until cut short.
        if (seen.graded.length === 3) void server.received(5).then(() => controller.abort())
      },
    })
    expect(result).toEqual({ graded: 3, cached: 0, failed: 0, stoppedByBudget: false, cancelled: true, left: 7 })
    expect(seen.graded.map((each) => each.answer.grade)).toEqual([2, 2, 2])
    expect(server.requests).toHaveLength(5)
  })

  it('a cached answer off the scale is no grade: the item is sent to the model and graded on the scale', async () => {
    const { server, plan, meter, client } = await setUp(2)
    const binary = [{ grade: 0, label: 'No' }, { grade: 1, label: 'Yes' }]
    // A plan whose cache answered 3 (given on a 0-3 set) for the first item.
    plan.toGrade[0]!.cached = { grade: 3, explanation: 'from a 0-3 set' }
    server.otherwise = () => ({ grade: 1, explanation: 'Yes.' })
    const seen = collect()
    const result = await runJudging({ planned: plan.toGrade, scale: binary, client, meter, concurrency: 1, signal: new AbortController().signal, ...seen })
    expect(result).toMatchObject({ graded: 2, cached: 0, failed: 0, left: 0 })
    expect(seen.graded.map((each) => [each.item, each.answer.grade, each.answer.cached])).toEqual([
      ['item-0', 1, false],
      ['item-1', 1, false],
    ])
    expect(server.requests).toHaveLength(2)
  })

  it('an answer off the scale fails its item with the model\'s words, and the run goes on', async () => {
    const { server, plan, meter, client } = await setUp(3)
    server.script({ grade: 7, explanation: 'Seven of ten.' })
    const seen = collect()
    const result = await runJudging({ planned: plan.toGrade, scale: DEFAULT_SCALE, client, meter, concurrency: 1, signal: new AbortController().signal, ...seen })
    expect(result).toMatchObject({ graded: 2, failed: 1, left: 0 })
    expect(seen.failed).toEqual([{ item: 'item-0', reason: expect.stringMatching(/grade 7 is not on the scale \(0, 1, 2, 3\).*Seven of ten/) }])
  })
})

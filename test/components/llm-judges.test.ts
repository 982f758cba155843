import { describe, expect, it } from 'vitest'
import type { JudgeEstimate } from '../../src/shared/ipc/judge-contract'
import type { QuerySet } from '../../src/shared/relevance/query-set'
import { TWO_QUERY_SET } from './demo-set-view'
import { DEMO_JUDGE, GPT_JUDGE, judgeStatus, judgesView } from './judge-fixtures'
import { bridgeForFile, demoWindow } from './mount-with-bridge'

/**
 * The LLM judges store (src/renderer/stores/llm-judges.ts): the workspace's
 * judges as main's view lists them (each save or delete answers the view,
 * which the store shows), the one chosen, each judge's key asked about, set
 * and forgotten by the judge's name (the key only passes through), and
 * judging as a background job: an Estimate's dry run keeps its estimate; a
 * run is followed to its end, then the workspace and the set are read again
 * so the new grades show; one run at a time, Cancel, Retry failed, and the
 * reasons a run did not start or failed.
 */

const fake = bridgeForFile()

const SET = TWO_QUERY_SET
const CHOICE = { depth: 5, scope: 'ungraded' as const, budgetCalls: 50, concurrency: 4, target: { connectionId: 'c1' } }
const ESTIMATE: JudgeEstimate = { calls: 10, inputTokens: 4000, outputTokens: 600, cached: 0, current: 2, stale: 0, text: 'about 10 calls, 4,000 input tokens' }

async function open(answers: Record<string, unknown> = {}) {
  const pinia = demoWindow(fake, { 'sets:get': SET, 'eval:list': [], ...answers })
  const [{ useLlmJudgesStore }, { useWorkspaceStore }, { useQuerySetsStore }] = await Promise.all([
    import('../../src/renderer/stores/llm-judges'),
    import('../../src/renderer/stores/workspace'),
    import('../../src/renderer/stores/query-sets'),
  ])
  const workspace = useWorkspaceStore(pinia)
  const sets = useQuerySetsStore(pinia)
  workspace.show(judgesView(SET))
  // The set is read, as the Evaluation view reads it.
  await expect.poll(() => sets.set?.name).toBe(SET.name)
  return { store: useLlmJudgesStore(pinia), workspace, sets, pinia }
}

const sent = (channel: string) => fake.calls.filter((call) => call.channel === channel).map((call) => call.request)
/** The next status question of the run followed (asked after the store's poll interval). */
async function nextStatusQuestion() {
  await expect.poll(() => fake.held.length, { timeout: 5_000 }).toBe(1)
  return fake.held.shift()!
}

describe('llm-judges store', () => {
  it("lists the workspace's judges, the first chosen until another is, and again when the one chosen is gone", async () => {
    const { store, workspace } = await open()
    expect(store.judges.map((judge) => judge.name)).toEqual(['demo', 'gpt'])
    expect(store.chosen?.name).toBe('demo')
    store.chosenName = 'gpt'
    expect(store.chosen?.name).toBe('gpt')
    workspace.show(judgesView(SET, [DEMO_JUDGE]))
    expect(store.chosen?.name).toBe('demo')
    workspace.show(judgesView(SET, []))
    expect(store.chosen).toBeNull()
  })

  it("tells the demo service's stand-in model from a real one", async () => {
    await open()
    const { isDemoJudge } = await import('../../src/renderer/stores/llm-judges')
    expect([isDemoJudge(DEMO_JUDGE), isDemoJudge(GPT_JUDGE), isDemoJudge({ model: 'demo-judge-busy' })]).toEqual([true, false, true])
  })

  it('saves a judge, under its previous name when renamed, and shows the judges of the view main answers; the one saved is chosen', async () => {
    const { store } = await open()
    const renamed = { ...GPT_JUDGE, name: 'gpt-4o' }
    fake.answers['judges:save'] = judgesView(SET, [DEMO_JUDGE, renamed])
    await store.save(renamed, 'gpt')
    expect(sent('judges:save')).toEqual([{ judge: renamed, previousName: 'gpt' }])
    expect(store.judges.map((judge) => judge.name)).toEqual(['demo', 'gpt-4o'])
    expect(store.chosen?.name).toBe('gpt-4o')

    const added = { ...GPT_JUDGE, name: 'mini' }
    fake.answers['judges:save'] = judgesView(SET, [DEMO_JUDGE, renamed, added])
    await store.save(added)
    expect(sent('judges:save')[1]).toEqual({ judge: added })
    expect(store.chosen?.name).toBe('mini')
  })

  it('deletes a judge by name and shows the judges main has left', async () => {
    const { store } = await open({ 'judges:delete': judgesView(SET, [DEMO_JUDGE]) })
    await store.remove('gpt')
    expect(sent('judges:delete')).toEqual([{ name: 'gpt' }])
    expect(store.judges.map((judge) => judge.name)).toEqual(['demo'])
  })

  it("asks about, sets and forgets each judge's key by the judge's name, keeping nothing of the key", async () => {
    const canary = 'sk-canary-0123456789'
    const { store, pinia } = await open({
      'judges:key-status': { origin: 'https://api.openai.com', stored: false, storage: 'os' },
      'judges:set-key': { origin: 'https://api.openai.com', stored: true, storage: 'memory' },
      'judges:clear-key': { cleared: true },
    })
    expect(await store.keyStatus('gpt')).toEqual({ origin: 'https://api.openai.com', stored: false, storage: 'os' })
    expect(await store.setKey('gpt', canary)).toEqual({ origin: 'https://api.openai.com', stored: true, storage: 'memory' })
    expect(await store.clearKey('gpt')).toEqual({ cleared: true })
    expect(fake.calls.filter((call) => call.channel.startsWith('judges:')).map((call) => [call.channel, call.request])).toEqual([
      ['judges:key-status', { name: 'gpt' }],
      ['judges:set-key', { name: 'gpt', key: canary }],
      ['judges:clear-key', { name: 'gpt' }],
    ])
    expect(JSON.stringify(pinia.state.value)).not.toContain(canary)
  })

  it('keeps the estimate of a dry run with what it was of, and reads nothing again (nothing was graded)', async () => {
    const { store } = await open({ 'judges:start': judgeStatus(SET.name, { state: 'done', phase: 'done', estimate: ESTIMATE }) })
    await store.start('demo', SET.name, CHOICE, true)
    expect(sent('judges:start')).toEqual([
      { runId: expect.any(String), judge: 'demo', set: SET.name, target: { connectionId: 'c1' }, depth: 5, scope: 'ungraded', budgetCalls: 50, concurrency: 4, dryRun: true },
    ])
    await expect.poll(() => store.estimate).toEqual({ judge: 'demo', set: SET.name, scope: 'ungraded', depth: 5, next: null, estimate: ESTIMATE })
    expect([store.dryRun, store.running, store.gradingRun, store.gradedRuns]).toEqual([true, false, null, 0])
    expect(sent('workspace:current')).toEqual([])
  })

  it('forgets the estimate and the run when another workspace opens (main cancels the run judging the last one)', async () => {
    const { store, workspace } = await open({ 'judges:start': judgeStatus(SET.name, { state: 'done', phase: 'done', estimate: ESTIMATE }), 'workspace:new': judgesView(SET) })
    await store.start('demo', SET.name, CHOICE, true)
    await expect.poll(() => store.estimate).not.toBeNull()
    await workspace.newWorkspace()
    await expect.poll(() => [store.estimate, store.run, store.started]).toEqual([null, null, null])
  })

  it('follows a run to its end, then shows the workspace and reads the set again so its new grades show', async () => {
    const graded: QuerySet = { ...SET, judgments: [...SET.judgments, { query: 'q01', item: 'paris-1', rater: 'llm:demo', grade: 2, explanation: 'A city named Paris.' }] }
    const { store, workspace, sets } = await open({ 'judges:start': judgeStatus(SET.name, { state: 'done', phase: 'done', estimate: ESTIMATE }) })
    await store.start('demo', SET.name, CHOICE, true)
    await expect.poll(() => store.estimate).not.toBeNull()

    fake.answers['judges:start'] = judgeStatus(SET.name)
    fake.hold('judges:status')
    const first = await store.start('demo', SET.name, { ...CHOICE, budgetTokens: 20_000 }, false)
    expect(first?.state).toBe('running')
    expect(sent('judges:start')[1]).toMatchObject({ budgetCalls: 50, budgetTokens: 20_000, dryRun: false })
    expect(sent('judges:start')[1]).not.toHaveProperty('retryOf')
    // What a run grades makes the estimate before it out of date.
    expect(store.estimate).toBeNull()
    expect([store.running, store.dryRun, store.gradingRun?.runId]).toEqual([true, false, 'r1'])

    ;(await nextStatusQuestion()).answer(judgeStatus(SET.name, { graded: 3, calls: 3, done: 3 }))
    await expect.poll(() => store.run?.graded).toBe(3)
    expect(store.running).toBe(true)

    fake.answers['workspace:current'] = { workspace: { ...judgesView(graded), dirty: true }, draft: null }
    fake.answers['sets:get'] = graded
    const question = await nextStatusQuestion()
    expect(question.request).toEqual({ runId: 'r1' })
    question.answer(judgeStatus(SET.name, { state: 'done', phase: 'done', graded: 5, calls: 5, done: 5, left: 0 }))
    await expect.poll(() => store.gradedRuns).toBe(1)
    expect(store.running).toBe(false)
    expect(store.gradingRun?.graded).toBe(5)
    expect(workspace.view?.dirty).toBe(true)
    expect(sets.set?.judgments.filter((judgment) => judgment.rater === 'llm:demo')).toHaveLength(1)
  })

  it('runs one at a time; Cancel asks main to stop the run followed', async () => {
    const { store } = await open({ 'judges:start': judgeStatus(SET.name) })
    fake.hold('judges:status')
    await store.start('demo', SET.name, CHOICE, false)
    expect(await store.start('gpt', SET.name, CHOICE, false)).toBeNull()
    expect(sent('judges:start')).toHaveLength(1)

    fake.answers['judges:cancel'] = judgeStatus(SET.name, { state: 'cancelled', graded: 0, left: 170 })
    await store.cancel()
    expect(sent('judges:cancel')).toEqual([{ runId: 'r1' }])
    expect([store.run?.state, store.running]).toEqual(['cancelled', false])
  })

  it("Retry failed starts the same judge, set and choice again on the failures of the run shown, and nothing when it had none", async () => {
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'timed out' }]
    const { store } = await open({ 'judges:start': judgeStatus(SET.name, { state: 'done', phase: 'done', calls: 3, left: 0 }) })
    await store.start('demo', SET.name, CHOICE, false)
    await expect.poll(() => store.gradingRun?.state).toBe('done')
    expect(await store.retryFailed()).toBeNull()
    expect(sent('judges:start')).toHaveLength(1)

    fake.answers['judges:start'] = judgeStatus(SET.name, { runId: 'r2', state: 'done', phase: 'done', calls: 3, left: 0, failedCount: 1, failures })
    await store.start('demo', SET.name, CHOICE, false)
    await expect.poll(() => store.gradingRun?.runId).toBe('r2')
    fake.answers['judges:start'] = judgeStatus(SET.name, { runId: 'r3', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await store.retryFailed()
    expect(sent('judges:start')[2]).toEqual({ ...sent('judges:start')[1], runId: expect.any(String), retryOf: 'r2' })
    await expect.poll(() => store.gradingRun?.runId).toBe('r3')
  })

  it('keeps the last grading run through an Estimate: its failures, and Retry failed with its own choice', async () => {
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'timed out' }]
    const { store } = await open({ 'judges:start': judgeStatus(SET.name, { state: 'done', phase: 'done', calls: 3, left: 0, failedCount: 1, failures }) })
    await store.start('demo', SET.name, CHOICE, false)
    await expect.poll(() => store.gradingRun?.failedCount).toBe(1)

    fake.answers['judges:start'] = judgeStatus(SET.name, { runId: 'r2', state: 'done', phase: 'estimated', estimate: ESTIMATE })
    await store.start('demo', SET.name, { ...CHOICE, scope: 'all', budgetCalls: 500 }, true)
    await expect.poll(() => store.estimate).not.toBeNull()
    expect([store.run?.runId, store.gradingRun?.runId, store.gradingRun?.failures]).toEqual(['r2', 'r1', failures])

    fake.answers['judges:start'] = judgeStatus(SET.name, { runId: 'r3', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await store.retryFailed()
    expect(sent('judges:start')[2]).toEqual({ ...sent('judges:start')[0], runId: expect.any(String), retryOf: 'r1' })
    await expect.poll(() => store.gradingRun?.runId).toBe('r3')
  })

  it("sends a run of a judge-next queue as main takes it (no depth: the pairs' ranks say how deep), and Retry failed without the queue", async () => {
    const failures = [{ query: 'q02', item: 'rome-9', reason: 'timed out' }]
    const { store } = await open({ 'judges:start': judgeStatus(SET.name, { state: 'done', phase: 'done', calls: 3, left: 0, failedCount: 1, failures }) })
    const next = { from: 'evaluation' as const, id: 'e7', limit: 20 }
    await store.start('demo', SET.name, { ...CHOICE, next }, false)
    expect(sent('judges:start')).toEqual([
      { runId: expect.any(String), judge: 'demo', set: SET.name, target: { connectionId: 'c1' }, next, scope: 'ungraded', budgetCalls: 50, concurrency: 4, dryRun: false },
    ])
    await expect.poll(() => store.gradingRun?.failedCount).toBe(1)
    fake.answers['judges:start'] = judgeStatus(SET.name, { runId: 'r2', state: 'done', phase: 'done', graded: 1, calls: 1, left: 0 })
    await store.retryFailed()
    // Main refuses a queue with Retry failed: the failures are the run.
    expect(sent('judges:start')[1]).toEqual({
      runId: expect.any(String), judge: 'demo', set: SET.name, target: { connectionId: 'c1' }, depth: 5, scope: 'ungraded', budgetCalls: 50, concurrency: 4, dryRun: false, retryOf: 'r1',
    })
  })

  it('says why a run or an estimate did not start, and tells a failed run in its own words', async () => {
    const { store } = await open()
    fake.hold('judges:start')
    const refused = store.start('demo', SET.name, CHOICE, false)
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.refuse({ code: 'invalid', message: 'budgetCalls: at most 1000000.' })
    expect(await refused).toBeNull()
    expect(store.error).toMatch(/^The judging did not start: .*budgetCalls: at most 1000000\./)

    const estimated = store.start('demo', SET.name, CHOICE, true)
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.refuse({ code: 'not-found', message: 'No judge named demo.' })
    await estimated
    expect(store.error).toMatch(/^The estimate could not be made: .*No judge named demo\./)

    const failing = store.start('demo', SET.name, CHOICE, false)
    await expect.poll(() => fake.held.length).toBe(1)
    fake.held.shift()!.answer(judgeStatus(SET.name, { state: 'failed', phase: 'done', message: "The set's results could not be fetched: connection refused." }))
    await failing
    await expect.poll(() => store.error).toBe("The set's results could not be fetched: connection refused.")
    // It graded nothing: nothing is read again.
    expect(sent('workspace:current')).toEqual([])
    expect(store.gradedRuns).toBe(0)
  })
})

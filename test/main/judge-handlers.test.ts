import { describe, expect, it } from 'vitest'
import { memorySecretStore } from '../../src/main/credentials/secret-store'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { ExperimentStore } from '../../src/main/experiments/experiment-store'
import { judgeHandlers } from '../../src/main/ipc/handlers/judge-handlers'
import { relevanceHandlers } from '../../src/main/ipc/handlers/relevance-handlers'
import { EvaluationRuns } from '../../src/main/evaluation/evaluation-runs'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { JudgeRuns } from '../../src/main/judges/judge-jobs'
import { JudgeKeys } from '../../src/main/judges/judge-keys'
import { judgeCacheOf } from '../../src/main/storage/data-store/judge-cache-table'
import type { JudgeRunStatus } from '../../src/shared/ipc/judge-contract'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { citiesWorkspace, CITY_RANKINGS, localConnection, useHandlerSessions } from '../fixtures/handler-session'
import { serializeWorkspace } from '../../src/shared/workspace/workspace-file'
import { emptyWorkspace } from '../../src/shared/workspace/workspace-schema'
import { canaryKey, judgeOn, startLlmServer } from '../fixtures/llm-servers'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

/**
 * LLM judges through their channels, over a real workspace session, data
 * folder database (the ratings journal, the judges' cache) and registry: the
 * set's results come from a Query API on 127.0.0.1, the grades from an
 * OpenAI-compatible server on 127.0.0.1 that records every request.
 */

/** Every file under a folder. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true }).filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

const CONTENTS = citiesWorkspace([{ query: 'q1', item: 'p1', rater: 'Ann', grade: 3 }])
/** paris: p1, p2, p3; lyon: l1, l2. */
const ITEMS = 5

describe('judgeHandlers', () => {
  const tempDir = useTempDirs('qe-judge-handlers')
  const dataStore = useDataStores()
  const sessions = useHandlerSessions(tempDir, CITY_RANKINGS)

  async function handlersOn() {
    const parts = await sessions.open(CONTENTS)
    const data = dataStore(parts.dataDir)
    const runs = sessions.closeAfter(new JudgeRuns(parts.log))
    const keys = new JudgeKeys(memorySecretStore('test'))
    const server = await startLlmServer('openai', { model: 'grader' })
    sessions.closeAfter(server)
    const evaluations = new EvaluationStore(data)
    const handlers = judgeHandlers({ ...parts, runs, keys, cache: judgeCacheOf(data), evaluations, experiments: new ExperimentStore(data) })
    const ended = (runId: string) => untilEnded(() => handlers['judges:status']({ runId }, {})) as Promise<JudgeRunStatus>
    const document = async () => (await parts.session.testContext()).workspace
    /** An evaluation of the set, kept as the window's Evaluation view keeps one: its id. */
    const evaluate = async () => {
      const relevance = relevanceHandlers({
        ...parts,
        runs: sessions.closeAfter(new EvaluationRuns(evaluations, parts.log)),
        store: evaluations,
        files: { dialogs: null, uploads: null },
        prefs: () => ({}),
        downloads: null,
        exportsDir: join(parts.dataDir, 'exports'),
      })
      await relevance['eval:start']({ runId: 'eval', set: 'Cities', depth: 10, metrics: 'ndcg@10' }, {})
      const status = await untilEnded(() => relevance['eval:status']({ runId: 'eval' }, {}))
      return status.evaluationId!
    }
    return { ...parts, handlers, server, ended, document, evaluate }
  }

  it('grades a set\'s top k as the judge\'s rater, with the explanation and prompt digest on each line; a second run makes no call', async () => {
    const { handlers, server, ended, document } = await handlersOn()
    server.otherwise = () => ({ grade: 2, explanation: 'Named as asked.' })
    const judge = judgeOn(server, { name: 'gpt' })
    const view = await handlers['judges:save']({ judge }, {})
    expect(view.judges.map((each) => each.name)).toEqual(['gpt'])

    await handlers['judges:start']({ runId: 'estimate', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: true }, {})
    const estimate = await ended('estimate')
    expect(estimate.estimate).toMatchObject({ calls: ITEMS, cached: 0, current: 0, stale: 0 })
    expect(estimate.estimate!.text).toMatch(/^about 5 calls, \d+ input tokens$/)
    expect(server.requests).toHaveLength(0)

    await handlers['judges:start']({ runId: 'run', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false }, {})
    const run = await ended('run')
    expect(run).toMatchObject({ state: 'done', graded: ITEMS, cached: 0, failedCount: 0, calls: ITEMS, stoppedByBudget: false, left: 0 })
    expect(server.requests).toHaveLength(ITEMS)
    const set = (await document()).sets![0]!
    const graded = set.judgments.filter((judgment) => judgment.rater === 'llm:gpt')
    expect(graded).toHaveLength(ITEMS)
    for (const judgment of graded) {
      expect(judgment).toMatchObject({ grade: 2, explanation: 'Named as asked.' })
      expect(judgment.promptDigest).toMatch(/^[0-9a-f]{64}$/)
    }
    // Ann's grade stands beside the judge's.
    expect(set.judgments).toContainEqual({ query: 'q1', item: 'p1', rater: 'Ann', grade: 3 })
    // An edit after the run goes through the file thread, which followed the batches of grades: they are in the document it reads back.
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'second' }) }, {})
    const reread = (await document()).sets![0]!.judgments.filter((judgment) => judgment.rater === 'llm:gpt')
    expect(reread).toEqual(graded)

    await handlers['judges:start']({ runId: 'again', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false }, {})
    expect(await ended('again')).toMatchObject({ state: 'done', graded: 0, calls: 0, estimate: { current: ITEMS, calls: 0 } })
    // Every grade again (scope all): the cache answers them, still no call.
    await handlers['judges:start']({ runId: 'all', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'all', dryRun: false }, {})
    expect(await ended('all')).toMatchObject({ state: 'done', graded: 0, cached: ITEMS, calls: 0 })
    expect(server.requests).toHaveLength(ITEMS)
  })

  it('stops at the budget, keeping what was graded and saying how many are left; a changed prompt makes the grades stale', async () => {
    const { handlers, server, ended } = await handlersOn()
    server.otherwise = () => ({ grade: 1 })
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'gpt', concurrency: 1 }) }, {})
    await handlers['judges:start']({ runId: 'budget', judge: 'gpt', set: 'Cities', budgetCalls: 2, scope: 'ungraded', dryRun: false }, {})
    const stopped = await ended('budget')
    expect(stopped).toMatchObject({ state: 'done', graded: 2, calls: 2, stoppedByBudget: true, left: ITEMS - 2, failedCount: 0 })
    expect(stopped.message).toMatch(/^Stopped at the budget of 2 calls: 2 graded, 0 from the cache, 3 left\.$/)
    expect(server.requests).toHaveLength(2)

    const changed = judgeOn(server, { name: 'gpt', concurrency: 1, prompt: 'Grade {{item}} for {{query}} on {{scale}}.' })
    await handlers['judges:save']({ judge: changed, previousName: 'gpt' }, {})
    await handlers['judges:start']({ runId: 'stale', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: true }, {})
    expect((await ended('stale')).estimate).toMatchObject({ stale: 2, current: 0, calls: ITEMS - 2 })
  })

  it('lists an answer off the scale as a failure with the model\'s words, and Retry failed grades it', async () => {
    const { handlers, server, ended } = await handlersOn()
    let bad = true
    server.otherwise = (request) => (bad && request.prompt.includes('name: P2') ? { text: 'I would say 7 out of 10.' } : { grade: 3 })
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'gpt', structured: false }) }, {})
    await handlers['judges:start']({ runId: 'first', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false }, {})
    const first = await ended('first')
    expect(first).toMatchObject({ state: 'done', graded: ITEMS - 1, failedCount: 1 })
    expect(first.failures[0]).toMatchObject({ query: 'q1', item: 'p2' })
    expect(first.failures[0]!.reason).toContain('I would say 7 out of 10.')
    bad = false
    const calls = server.requests.length
    await handlers['judges:start']({ runId: 'retry', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false, retryOf: 'first' }, {})
    expect(await ended('retry')).toMatchObject({ state: 'done', graded: 1, failedCount: 0 })
    expect(server.requests.length - calls).toBe(1)
    expect((await failureOf(handlers['judges:start']({ runId: 'x', judge: 'gpt', set: 'Cities', budgetCalls: 1, scope: 'ungraded', dryRun: false, retryOf: 'retry' }, {}))).message).toMatch(/no failures to retry/)
  })

  it('keeps the key in the keychain for the judge\'s origin only: sent there, never to a judge naming another origin, never in a reply', async () => {
    const { handlers, server, ended, ...parts } = await handlersOn()
    const other = await startLlmServer('openai', { model: 'grader' })
    sessions.closeAfter(other)
    server.otherwise = () => ({ grade: 2 })
    other.otherwise = () => ({ grade: 2 })
    const key = canaryKey()
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'gpt' }) }, {})
    const stored = await handlers['judges:set-key']({ name: 'gpt', key }, {})
    expect(stored).toEqual({ origin: server.origin, stored: true, storage: 'memory' })
    expect(JSON.stringify(stored)).not.toContain(key)
    await handlers['judges:start']({ runId: 'run', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false }, {})
    const run = await ended('run')
    expect(JSON.stringify(run)).not.toContain(key)
    expect(server.requests.every((request) => request.headers.authorization === `Bearer ${key}`)).toBe(true)
    // A provider that echoes the key in its errors: the failures, the log and every file of the data folder are searched for it.
    server.otherwise = () => ({ status: 500, message: `upstream refused the key ${key}` })
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'gpt', prompt: 'Again: {{query}} {{item}} {{scale}}' }), previousName: 'gpt' }, {})
    await handlers['judges:start']({ runId: 'echo', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'all', dryRun: false }, {})
    const echoed = await ended('echo')
    expect(echoed.failedCount).toBe(ITEMS)
    expect(echoed.failures[0]!.reason).toContain('upstream refused the key')
    const needles = [key, Buffer.from(key).toString('base64')]
    expect(needles.some((needle) => JSON.stringify(echoed).includes(needle))).toBe(false)

    // The same judge, its base URL edited to another origin (as a shared file could): no key there.
    await handlers['judges:save']({ judge: judgeOn(other, { name: 'gpt' }), previousName: 'gpt' }, {})
    expect(await handlers['judges:key-status']({ name: 'gpt' }, {})).toEqual({ origin: other.origin, stored: false, storage: 'memory' })
    await handlers['judges:start']({ runId: 'other', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'all', dryRun: false }, {})
    await ended('other')
    expect(other.requests.length).toBeGreaterThan(0)
    for (const request of other.requests) expect(JSON.stringify(request.headers)).not.toContain(key)
    expect(await handlers['judges:clear-key']({ name: 'gpt' }, {})).toEqual({ cleared: false })
    // The session written (session.json, the journal let go), then every file of the data folder searched, the log among them.
    await parts.session.close()
    const files = filesUnder(parts.dataDir)
    expect(files.some((file) => file.endsWith('main.log'))).toBe(true)
    for (const file of files) {
      const text = readFileSync(file, 'latin1')
      for (const needle of needles) expect(text.includes(needle), `${file} holds the key`).toBe(false)
    }
  })

  it("judges the first pairs of a kept evaluation's What to judge next queue, and only those", async () => {
    const { handlers, server, ended, document, evaluate } = await handlersOn()
    server.otherwise = () => ({ grade: 1 })
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'gpt' }) }, {})
    const evaluationId = await evaluate()
    await handlers['judges:start']({ runId: 'next', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false, next: { from: 'evaluation', id: evaluationId, limit: 2 } }, {})
    expect(await ended('next')).toMatchObject({ state: 'done', graded: 2, failedCount: 0, calls: 2 })
    const graded = (await document()).sets![0]!.judgments.filter((judgment) => judgment.rater === 'llm:gpt')
    expect(graded).toHaveLength(2)
    // The queue never holds what is judged already: Ann's p1.
    expect(graded.map((judgment) => judgment.item)).not.toContain('p1')
    expect((await failureOf(handlers['judges:start']({ runId: 'x', judge: 'gpt', set: 'Cities', budgetCalls: 1, scope: 'ungraded', dryRun: false, next: { from: 'experiment', id: 'nope', limit: 2 } }, {}))).code).toBe('not_found')
  })

  it('cancels a run when another workspace opens, and writes none of its grades into that one', async () => {
    const { handlers, server, ended, session, document } = await handlersOn()
    await handlers['judges:save']({ judge: judgeOn(server, { name: 'gpt', concurrency: 1 }) }, {})
    // The first answer comes; the second hangs until the run is cancelled.
    server.script({ grade: 2 })
    server.otherwise = () => ({ hang: true })
    await handlers['judges:start']({ runId: 'run', judge: 'gpt', set: 'Cities', budgetCalls: 100, scope: 'ungraded', dryRun: false }, {})
    await server.received(2)
    await session.import('other.qxw.json', serializeWorkspace({ ...emptyWorkspace(), connections: [localConnection(sessions.api())], ...citiesWorkspace([]) }))
    const status = await ended('run')
    expect(status.state).toBe('cancelled')
    // The other workspace's set of the same name holds no grade of the run.
    expect((await document()).sets![0]!.judgments).toEqual([])
  })
})

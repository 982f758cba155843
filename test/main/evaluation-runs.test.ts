import { afterEach, describe, expect, it } from 'vitest'
import { EvaluationRuns, MAX_RUNNING_EVALUATIONS, scrubbedEvaluation } from '../../src/main/evaluation/evaluation-runs'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { createLogger } from '../../src/main/logging/logger'
import type { Evaluation } from '../../src/shared/relevance/evaluation'
import { useDataStores } from '../fixtures/data-stores'
import { refusal } from '../fixtures/failure-of'
import { bigEvaluation } from '../fixtures/kept-evaluation'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

/** Evaluations of this launch: run in the background, their progress polled, kept when they end (cancelled or not), secrets scrubbed. */

/** A promise the test settles by hand. */
function held<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((yes) => (resolve = yes))
  return { promise, resolve }
}

// 100 queries, the 100th failed with the service's words: "The service answered 504."
const withSecret = (state: Evaluation['state'] = 'done'): Evaluation => {
  const evaluation = bigEvaluation('ev1', 100, 5)
  const leak = (error: string | null) => (error === null ? null : `${error} token tok-123`)
  return {
    ...evaluation,
    state,
    rankings: evaluation.rankings.map((ranking) => ({ ...ranking, error: leak(ranking.error) })),
    scored: { ...evaluation.scored, queries: evaluation.scored.queries.map((query) => ({ ...query, error: leak(query.error) })) },
  }
}

describe('EvaluationRuns', () => {
  const tempDir = useTempDirs('qe-evaluation-runs')
  const dataStore = useDataStores()

  // Every case's runs are closed after it, passed or not: a run still going is stopped before its store closes.
  const opened: EvaluationRuns[] = []
  afterEach(async () => {
    for (const runs of opened.splice(0)) await runs.close()
  })

  function open() {
    const dir = tempDir()
    const log = createLogger(dir)
    const store = new EvaluationStore(dataStore(dir))
    const runs = new EvaluationRuns(store, log)
    opened.push(runs)
    return { runs, store, log }
  }

  it('counts queries as they end, then keeps the evaluation with the secrets the log knows scrubbed', async () => {
    const { runs, store, log } = open()
    log.redact('tok-123')
    const gate = held<void>()
    let report!: (failed: boolean) => void
    const started = runs.start({
      runId: 'r1',
      set: 'Big set',
      targetText: 'Local',
      total: 100,
      work: async (_signal, onQuery) => {
        report = onQuery
        await gate.promise
        return withSecret()
      },
    })
    expect(started).toMatchObject({ runId: 'r1', state: 'running', set: 'Big set', targetText: 'Local', total: 100, done: 0, failed: 0, evaluationId: null })
    report(false)
    report(true)
    expect(runs.status('r1')).toMatchObject({ done: 2, failed: 1, state: 'running' })
    gate.resolve()
    const ended = await untilEnded(async () => runs.status('r1'))
    expect([ended.state, ended.evaluationId]).toEqual(['done', 'ev1'])
    const kept = await store.ranking('ev1', 'q99')
    expect(kept?.error).toBe('The service answered 504. token [redacted]')
    expect(JSON.stringify(await store.head('ev1'))).not.toContain('tok-123')
  })

  it('a cancelled evaluation ends cancelled and is kept, its queries that ran worth looking at', async () => {
    const { runs, store } = open()
    runs.start({ runId: 'r2', set: 'Big set', targetText: 'Local', total: 100, work: async () => withSecret('cancelled') })
    const ended = await untilEnded(async () => runs.status('r2'))
    expect([ended.state, ended.evaluationId]).toEqual(['cancelled', 'ev1'])
    expect((await store.list()).map((summary) => [summary.id, summary.state])).toEqual([['ev1', 'cancelled']])
  })

  it('runs two at a time', async () => {
    const { runs } = open()
    const gate = held<void>()
    for (let n = 0; n < MAX_RUNNING_EVALUATIONS; n++) {
      runs.start({ runId: `busy${n}`, set: 's', targetText: 't', total: 1, work: () => gate.promise.then(() => bigEvaluation(`ev${n}`, 2, 2)) })
    }
    expect(refusal(() => runs.start({ runId: 'third', set: 's', targetText: 't', total: 1, work: async () => bigEvaluation('ev9', 2, 2) })).code).toBe('validation')
    gate.resolve()
    for (let n = 0; n < MAX_RUNNING_EVALUATIONS; n++) expect((await untilEnded(async () => runs.status(`busy${n}`))).evaluationId).toBe(`ev${n}`)
  })
})

describe('scrubbedEvaluation', () => {
  it("scrubs each failed query's error in the rankings and the figures, and leaves the rest as it was", () => {
    const evaluation = withSecret()
    const clean = scrubbedEvaluation(evaluation, (text) => text.replace('tok-123', '[redacted]'))
    expect(clean.rankings[99]!.error).toBe('The service answered 504. token [redacted]')
    expect(clean.scored.queries[99]!.error).toBe('The service answered 504. token [redacted]')
    expect(clean.rankings[0]).toBe(evaluation.rankings[0])
    expect({ ...clean, rankings: [], scored: { ...clean.scored, queries: [] } }).toEqual({ ...evaluation, rankings: [], scored: { ...evaluation.scored, queries: [] } })
  })
})

import { describe, expect, it } from 'vitest'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { ExperimentRuns } from '../../src/main/experiments/experiment-runs'
import { ExperimentStore } from '../../src/main/experiments/experiment-store'
import { experimentHandlers } from '../../src/main/ipc/handlers/experiment-handlers'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { citiesWorkspace, CITY_RANKINGS, useHandlerSessions } from '../fixtures/handler-session'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

/**
 * An experiment through its channels, over a real workspace session, data
 * folder database (each side's evaluation kept, the record kept) and the
 * statistics thread, against a Query API on 127.0.0.1 answering rankings the
 * test wrote (the same on every side: the comparison is all ties).
 */

const CONTENTS = citiesWorkspace([
  { query: 'q1', item: 'p2', rater: 'r1', grade: 3 },
  { query: 'q2', item: 'l1', rater: 'r1', grade: 1 },
])

describe('experimentHandlers', () => {
  const tempDir = useTempDirs('qe-experiment-handlers')
  const dataStore = useDataStores()
  const sessions = useHandlerSessions(tempDir, CITY_RANKINGS)

  async function handlersOn() {
    const parts = await sessions.open(CONTENTS)
    const data = dataStore(parts.dataDir)
    const evaluations = new EvaluationStore(data)
    const experiments = new ExperimentStore(data)
    const experimentRuns = sessions.closeAfter(new ExperimentRuns(parts.log))
    return { ...parts, evaluations, handlers: experimentHandlers({ ...parts, runs: experimentRuns, evaluations, experiments }) }
  }

  it('evaluates each side, keeps their evaluations and the compared record, and reads it back', async () => {
    const { handlers, evaluations, connectionId } = await handlersOn()
    await handlers['experiments:start']({ runId: 'x1', set: 'Cities', sides: [{ connectionId, config: 'a' }, { connectionId, config: 'b' }], depth: 10, metrics: 'rr' }, {})
    const ended = await untilEnded(() => handlers['experiments:status']({ runId: 'x1' }, {}))
    // Two queries, two sides: four queries asked, all done.
    expect([ended.state, ended.phase, ended.done, ended.total]).toEqual(['done', 'done', 4, 4])
    const record = await handlers['experiments:get']({ id: ended.experimentId! }, {})
    // q1: p2 second (RR 1/2); q2: l1 first (RR 1): each side's mean 3/4, and no difference between them.
    expect(record.sides.map((side) => [side.label, side.means])).toEqual([
      ['Local, config a', { rr: 0.75 }],
      ['Local, config b', { rr: 0.75 }],
    ])
    expect(record.stats.comparisons).toMatchObject([{ metric: 'rr', n: 2, meanDelta: 0, wins: 0, ties: 2, losses: 0 }])
    expect((await evaluations.list()).map((summary) => summary.id).sort()).toEqual(record.sides.map((side) => side.evaluationId).sort())
    expect((await handlers['experiments:list']({ set: 'Cities' }, {})).map((summary) => summary.id)).toEqual([record.id])
  })

  it('refuses an unknown side at once, before anything runs, and an unknown kept experiment by its id', async () => {
    const { handlers, connectionId } = await handlersOn()
    const before = sessions.api().asked().length
    const refused = await failureOf(handlers['experiments:start']({ runId: 'x2', set: 'Cities', sides: [{ connectionId }, { connectionId: 'gone' }], depth: 10 }, {}))
    expect(refused.code).toBe('not_found')
    expect(sessions.api().asked().length).toBe(before)
    expect((await failureOf(handlers['experiments:start']({ runId: 'x3', set: 'Nope', sides: [{ connectionId }, { connectionId }], depth: 10 }, {}))).code).toBe('not_found')
    const missing = await failureOf(handlers['experiments:get']({ id: 'no-such-id' }, {}))
    expect([missing.code, missing.message]).toEqual(['not_found', 'There is no kept experiment with the id "no-such-id".'])
  })
})

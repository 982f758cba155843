import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EvaluationRuns } from '../../src/main/evaluation/evaluation-runs'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { relevanceHandlers } from '../../src/main/ipc/handlers/relevance-handlers'
import { SetAgreementSchema } from '../../src/shared/ipc/relevance-contract'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { citiesWorkspace, CITY_RANKINGS, useHandlerSessions } from '../fixtures/handler-session'
import { useTempDirs } from '../fixtures/temp-dirs'

/**
 * `sets:agreement` over a real workspace session holding a set judged by
 * three raters (a file imported as a team shares it): the figures and the
 * disagreements, a disagreement settled through `sets:settle`, and then
 * counted as settled, its grade shown.
 */

const j = (query: string, item: string, rater: string, grade: number) => ({ query, item, rater, grade })
// q1 (paris): p1 0/3/3 (three steps), p2 1/1/2, p3 2/2/2. q2 (lyon): l1 0/2/1 (two steps), l2 3/3 (cy did not grade it).
const JUDGMENTS = [
  j('q1', 'p1', 'ana', 0), j('q1', 'p1', 'ben', 3), j('q1', 'p1', 'cy', 3),
  j('q1', 'p2', 'ana', 1), j('q1', 'p2', 'ben', 1), j('q1', 'p2', 'cy', 2),
  j('q1', 'p3', 'ana', 2), j('q1', 'p3', 'ben', 2), j('q1', 'p3', 'cy', 2),
  j('q2', 'l1', 'ana', 0), j('q2', 'l1', 'ben', 2), j('q2', 'l1', 'cy', 1),
  j('q2', 'l2', 'ana', 3), j('q2', 'l2', 'ben', 3),
]

describe('sets:agreement', () => {
  const tempDir = useTempDirs('qe-relevance-agreement')
  const dataStore = useDataStores()
  const sessions = useHandlerSessions(tempDir, CITY_RANKINGS)

  async function handlersOn() {
    const parts = await sessions.open(citiesWorkspace(JUDGMENTS))
    const store = new EvaluationStore(dataStore(parts.dataDir))
    const runs = sessions.closeAfter(new EvaluationRuns(store, parts.log))
    return relevanceHandlers({ ...parts, runs, store, files: { dialogs: null, uploads: null }, downloads: null, exportsDir: join(parts.dataDir, 'exports'), prefs: () => ({ rater: 'ana' }) })
  }

  it('gives the raters\' figures and the items they differ on; a settled one is then counted as settled, its grade shown', async () => {
    const handlers = await handlersOn()
    const report = await handlers['sets:agreement']({ set: 'Cities' }, {})
    expect(SetAgreementSchema.parse(report)).toEqual(report)
    expect(report.raters).toEqual([
      { rater: 'ana', kind: 'person', judgments: 5 },
      { rater: 'ben', kind: 'person', judgments: 5 },
      { rater: 'cy', kind: 'person', judgments: 4 },
    ])
    expect(report.pairs.map((pair) => [pair.a, pair.b, pair.n, pair.agreement])).toEqual([['ana', 'ben', 5, 0.6], ['ana', 'cy', 4, 0.25], ['ben', 'cy', 4, 0.5]])
    // Fleiss on the 4 items graded by three (the most common count).
    expect(report.fleiss).toMatchObject({ n: 4, raters: 3 })
    expect(report.queries.map((query) => [query.id, query.n])).toEqual([['q1', 3], ['q2', 2]])
    expect(report.disagreements).toEqual({
      steps: 2, total: 2, settled: 0,
      rows: [
        { query: 'q1', text: 'paris', item: 'p1', grades: [{ rater: 'ana', grade: 0 }, { rater: 'ben', grade: 3 }, { rater: 'cy', grade: 3 }], spread: 3, settled: null },
        { query: 'q2', text: 'lyon', item: 'l1', grades: [{ rater: 'ana', grade: 0 }, { rater: 'ben', grade: 2 }, { rater: 'cy', grade: 1 }], spread: 2, settled: null },
      ],
    })

    await handlers['sets:settle']({ set: 'Cities', query: 'q1', item: 'p1', grade: 2 }, {})
    const after = await handlers['sets:agreement']({ set: 'Cities' }, {})
    // The adjudicator is no rater: the figures stay as they were.
    expect(after.raters.map((rater) => rater.rater)).toEqual(['ana', 'ben', 'cy'])
    expect(after.pairs).toEqual(report.pairs)
    expect(after.disagreements).toMatchObject({ total: 1, settled: 1, rows: [{ item: 'l1' }] })
    const withSettled = await handlers['sets:agreement']({ set: 'Cities', settled: true }, {})
    // Still to settle first, then the settled one.
    expect(withSettled.disagreements.rows.map((row) => [row.item, row.settled])).toEqual([['l1', null], ['p1', 2]])
  })

  it('takes the steps and the raters asked for; a set that is not there is named', async () => {
    const handlers = await handlersOn()
    const oneStep = await handlers['sets:agreement']({ set: 'Cities', steps: 1 }, {})
    expect(oneStep.disagreements.rows.map((row) => row.item)).toEqual(['p1', 'l1', 'p2'])
    const two = await handlers['sets:agreement']({ set: 'Cities', raters: ['ben', 'cy'] }, {})
    expect(two.raters.map((rater) => rater.rater)).toEqual(['ben', 'cy'])
    expect(two.disagreements.rows).toEqual([])
    expect((await failureOf(handlers['sets:agreement']({ set: 'Towns' }, {}))).code).toBe('not_found')
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { EvaluationRuns } from '../../src/main/evaluation/evaluation-runs'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { ExperimentRuns } from '../../src/main/experiments/experiment-runs'
import { ExperimentStore } from '../../src/main/experiments/experiment-store'
import { experimentHandlers } from '../../src/main/ipc/handlers/experiment-handlers'
import { relevanceHandlers } from '../../src/main/ipc/handlers/relevance-handlers'
import { calibrationOf, verdictOf } from '../../src/main/judges/calibration'
import { verdictHold } from '../../src/shared/experiments/verdict-hold'
import { JudgeCalibrationSchema, VerdictHoldSchema } from '../../src/shared/ipc/judge-contract'
import type { QueryRanking } from '../../src/shared/relevance/evaluation'
import { judgeCalibration } from '../../src/shared/relevance/judge-calibration'
import { JudgeSchema } from '../../src/shared/relevance/llm-judge'
import { parseMetrics } from '../../src/shared/relevance/metrics'
import { settingsOf, type Judgment, type QuerySet } from '../../src/shared/relevance/query-set'
import type { Workspace } from '../../src/shared/workspace/workspace-file'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { TEMPLATE_QUERY, useHandlerSessions } from '../fixtures/handler-session'
import { startRankingServer, type RankingServer } from '../fixtures/ranking-server'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

/**
 * A judge's calibration and "does the verdict hold" as the handlers get
 * them (calibrationOf, verdictOf): over a real workspace session, data folder
 * database (the experiment's kept record and its sides' rankings, read a page
 * at a time) and the calibration worker thread, against two Query APIs on
 * 127.0.0.1: side A's ranks a above b for every query, side B's b above a.
 * The answers are what judge-calibration.ts and verdict-hold.ts give in
 * process over the set and the whole kept rankings as they are when asked.
 */

const JUDGE = 'llm:demo'
const TEXTS = Array.from({ length: 8 }, (_, index) => `town${index + 1}`)
const graded = (rater: string, a: number, b: number, explanation?: string): Judgment[] =>
  TEXTS.flatMap((_, index) => [
    { query: `q${index + 1}`, item: 'a', rater, grade: a, ...(explanation ? { explanation } : {}) },
    { query: `q${index + 1}`, item: 'b', rater, grade: b, ...(explanation ? { explanation } : {}) },
  ])
const METRICS = 'p@1,ndcg@2'
const JUDGE_SETTINGS = JudgeSchema.parse({ name: 'demo', provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'demo-judge' })

/** Ann (a person) says b is good and a poor; the judge says the opposite, explaining why. */
function townsWorkspace(judgments: Judgment[]): Partial<Workspace> {
  const set: QuerySet = {
    name: 'Towns',
    query: 'Template',
    raters: [{ name: 'ann', kind: 'person' }],
    queries: TEXTS.map((text, index) => ({ id: `q${index + 1}`, text })),
    judgments,
  }
  return { queries: [TEMPLATE_QUERY], sets: [set], judges: [JUDGE_SETTINGS] }
}
const CONTENTS = townsWorkspace([...graded('ann', 0, 2), ...graded(JUDGE, 2, 0, 'the town is named in the title')])

describe('calibrationOf and verdictOf', () => {
  const tempDir = useTempDirs('qe-judge-calibration')
  const dataStore = useDataStores()
  const sessions = useHandlerSessions(tempDir, Object.fromEntries(TEXTS.map((text) => [text, ['a', 'b']])))
  let reversed: RankingServer | undefined
  afterEach(async () => {
    await reversed?.close()
    reversed = undefined
  })

  async function handlersOn(contents = CONTENTS) {
    const parts = await sessions.open(contents)
    const data = dataStore(parts.dataDir)
    const evaluations = new EvaluationStore(data)
    const experiments = new ExperimentStore(data)
    const relevance = relevanceHandlers({
      ...parts,
      runs: sessions.closeAfter(new EvaluationRuns(evaluations, parts.log)),
      store: evaluations,
      files: { dialogs: null, uploads: null },
      prefs: () => ({ rater: 'ann' }),
      downloads: null,
      exportsDir: parts.dataDir,
    })
    const handlers = experimentHandlers({ ...parts, runs: sessions.closeAfter(new ExperimentRuns(parts.log)), evaluations, experiments })
    return { ...parts, relevance, handlers, evaluations, experiments }
  }

  it('calibrates the judge against the set as it is now, with the explanations beside the differences', async () => {
    const { session, relevance } = await handlersOn()
    const first = await calibrationOf(session, 'Towns', 'demo')
    expect(JudgeCalibrationSchema.parse(first)).toEqual(first)
    // Every item graded 2 by one and 0 by the other: no agreement, the most disagreement a kappa can show on two grades.
    expect([first.n, first.agreement, first.kappaQuadratic]).toEqual([16, 0, -1])
    expect(first.differences).toHaveLength(16)
    expect(first.differences[0]).toEqual({ query: 'q1', text: 'town1', item: 'a', judgeGrade: 2, explanation: 'the town is named in the title', people: [{ rater: 'ann', grade: 0 }], peopleGrade: 0, spread: 2, settled: null })
    expect(first).toEqual(judgeCalibration(await relevance['sets:get']({ name: 'Towns' }, {}), JUDGE))

    // Settled: the item's row shows the settled grade; ann grading again moves the figures.
    await relevance['sets:settle']({ set: 'Towns', query: 'q1', item: 'a', grade: 1 }, {})
    await relevance['sets:rate']({ set: 'Towns', query: 'q2', item: 'a', grade: 2 }, {})
    const second = await calibrationOf(session, 'Towns', 'demo')
    expect(second.differences.find((row) => row.query === 'q1' && row.item === 'a')?.settled).toBe(1)
    expect(second.agreement).toBe(1 / 16)
    expect(second).toEqual(judgeCalibration(await relevance['sets:get']({ name: 'Towns' }, {}), JUDGE))
  })

  it('refuses a set or a judge that is not there, and says why a defined judge that graded nothing has no figures', async () => {
    const { session } = await handlersOn(townsWorkspace(graded('ann', 0, 2)))
    const noSet = await failureOf(calibrationOf(session, 'Nowhere', 'demo'))
    expect([noSet.code, noSet.message]).toEqual(['not_found', 'There is no query set named "Nowhere" in this workspace.'])
    const noJudge = await failureOf(calibrationOf(session, 'Towns', 'other'))
    expect([noJudge.code, noJudge.message]).toEqual(['not_found', 'There is no judge named "other" in this workspace, and the set "Towns" holds no grade by llm:other.'])
    const none = await calibrationOf(session, 'Towns', 'demo')
    expect([none.n, none.kappaQuadratic, none.reasons.kappaQuadratic]).toEqual([0, null, 'the judge llm:demo has graded no item of the set'])
  })

  it("says a kept experiment's verdict does not hold when the judge's grades reverse the people's, from its kept rankings", async () => {
    const { handlers, relevance, evaluations, experiments, session, connectionId, registry } = await handlersOn()
    reversed = await startRankingServer(Object.fromEntries(TEXTS.map((text) => [text, ['b', 'a']])))
    const other = await registry.save({ name: 'Reversed', authUrl: '', queryUrl: reversed.target.queryUrl, workspace: 'world', api: 'places', clientId: '' })
    await handlers['experiments:start']({ runId: 'x1', set: 'Towns', sides: [{ connectionId }, { connectionId: other.id }], depth: 10, metrics: METRICS }, {})
    const ended = await untilEnded(() => handlers['experiments:status']({ runId: 'x1' }, {}))
    const record = await handlers['experiments:get']({ id: ended.experimentId! }, {})

    const found = await verdictOf(record.id, 'demo', { session, evaluations, experiments })
    expect(VerdictHoldSchema.parse(found)).toEqual(found)
    expect(found.verdicts).toEqual([
      { side: 'B', metric: 'p@1', signChanges: true, significanceChanges: true, holds: false },
      { side: 'B', metric: 'ndcg@2', signChanges: true, significanceChanges: true, holds: false },
    ])
    // People: B better on all eight queries (2/2^8, Holm over two: 1/64); the judge: worse alike; both (the mean, 1 and 1): ties.
    expect(found.rows.filter((row) => row.metric === 'p@1').map((row) => [row.grades, row.n, row.delta, row.pAdjusted, row.significant])).toEqual([
      ['people', 8, 1, 1 / 64, true],
      ['judge', 8, -1, 1 / 64, true],
      ['both', 8, 0, 1, false],
    ])
    // With both, the experiment's own table (the set unchanged since it ran).
    expect(found.rows.filter((row) => row.grades === 'both').map((row) => [row.metric, row.n, row.delta, row.p, row.pAdjusted, row.significant])).toEqual(
      record.stats.comparisons.map((c) => [c.metric, c.n, c.meanDelta, c.p, c.pAdjusted, c.significant]),
    )
    // The same as verdict-hold.ts over the whole kept rankings and the set as it is.
    const rankings = async (id: string): Promise<QueryRanking[]> => (await relevance['eval:rankings']({ id, offset: 0, limit: 100 }, {})).rankings
    const set = await relevance['sets:get']({ name: 'Towns' }, {})
    const scoring = { metrics: (parseMetrics(METRICS) as { ok: true; metrics: never }).metrics, settings: settingsOf(set), judgeDepth: record.judgeDepth }
    const sides = await Promise.all(record.sides.map((side) => rankings(side.evaluationId)))
    expect(found).toEqual(verdictHold({ judge: JUDGE, set, sides, scoring, options: { alpha: record.stats.alpha } }))

    // Every item settled the people's way: the table with both now says B is better, as people's does (asked again, the set as it is now);
    // the judge's alone still reverses it, so the verdict still does not hold.
    for (const index of TEXTS.keys()) {
      await relevance['sets:settle']({ set: 'Towns', query: `q${index + 1}`, item: 'a', grade: 0 }, {})
      await relevance['sets:settle']({ set: 'Towns', query: `q${index + 1}`, item: 'b', grade: 2 }, {})
    }
    const settled = await verdictOf(record.id, 'demo', { session, evaluations, experiments })
    expect(settled.rows.filter((row) => row.metric === 'p@1').map((row) => [row.grades, row.delta, row.significant])).toEqual([
      ['people', 1, true],
      ['judge', -1, true],
      ['both', 1, true],
    ])
    expect(settled.verdicts.map((verdict) => [verdict.signChanges, verdict.significanceChanges, verdict.holds])).toEqual([
      [true, false, false],
      [true, false, false],
    ])

    const missing = await failureOf(verdictOf('no-such-id', 'demo', { session, evaluations, experiments }))
    expect([missing.code, missing.message]).toEqual(['not_found', 'There is no kept experiment with the id "no-such-id".'])
  })
})

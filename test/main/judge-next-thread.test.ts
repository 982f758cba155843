import fc from 'fast-check'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EvaluationRuns } from '../../src/main/evaluation/evaluation-runs'
import { judgmentColumns } from '../../src/main/evaluation/agreement-protocol'
import { EvaluationStore } from '../../src/main/evaluation/evaluation-store'
import { cutRanking, itemsNamed, judgeNextDepth } from '../../src/main/evaluation/judge-next-thread'
import { ExperimentRuns } from '../../src/main/experiments/experiment-runs'
import { answerInThread } from '../../src/main/jobs/worker-entry'
import { ExperimentStore } from '../../src/main/experiments/experiment-store'
import { experimentHandlers } from '../../src/main/ipc/handlers/experiment-handlers'
import { relevanceHandlers } from '../../src/main/ipc/handlers/relevance-handlers'
import { ExplorerError } from '../../src/shared/ipc/errors'
import { EvaluationJudgeNextSchema, ExperimentJudgeNextSchema } from '../../src/shared/ipc/relevance-contract'
import type { QueryRanking } from '../../src/shared/relevance/evaluation'
import { judgeNextEvaluation, judgeNextExperiment } from '../../src/shared/relevance/judge-next'
import { parseMetrics } from '../../src/shared/relevance/metrics'
import { settingsOf, type MetricSettings } from '../../src/shared/relevance/query-set'
import { useDataStores } from '../fixtures/data-stores'
import { failureOf } from '../fixtures/failure-of'
import { citiesWorkspace, useHandlerSessions } from '../fixtures/handler-session'
import { useTempDirs } from '../fixtures/temp-dirs'
import { untilEnded } from './support'

/**
 * What to judge next through `eval:judge-next` and `experiments:judge-next`,
 * over a real workspace session, data folder database (the kept rankings
 * read a page at a time) and the judge-next worker thread, against a Query
 * API on 127.0.0.1 answering rankings the test wrote: the answers are what
 * judge-next.ts gives in process over the whole kept rankings and the set
 * as it is at the time of asking.
 */

// paris: 12 results (deeper than p@2 and ndcg@5 read, and one repeated); lyon: 2.
const RANKINGS = { paris: ['p1', 'p2', 'p3', 'p2', 'p4', 'p5', 'p6', 'p7', 'p8', 'p9', 'p10', 'p11'], lyon: ['l1', 'l2'] }
const CONTENTS = citiesWorkspace([
  { query: 'q1', item: 'p2', rater: 'r1', grade: 3 },
  { query: 'q1', item: 'p4', rater: 'r1', grade: 0 },
  { query: 'q2', item: 'l1', rater: 'r1', grade: 1 },
])
const METRICS = 'p@2,ndcg@5,coverage@5'

describe('What to judge next, through its channels', () => {
  const tempDir = useTempDirs('qe-judge-next')
  const dataStore = useDataStores()
  const sessions = useHandlerSessions(tempDir, RANKINGS)

  async function handlersOn() {
    const parts = await sessions.open(CONTENTS)
    const data = dataStore(parts.dataDir)
    const store = new EvaluationStore(data)
    const relevance = relevanceHandlers({
      ...parts,
      runs: sessions.closeAfter(new EvaluationRuns(store, parts.log)),
      store,
      files: { dialogs: null, uploads: null },
      prefs: () => ({ rater: 'Ann' }),
      downloads: null,
      exportsDir: parts.dataDir,
    })
    const experiments = experimentHandlers({ ...parts, runs: sessions.closeAfter(new ExperimentRuns(parts.log)), evaluations: store, experiments: new ExperimentStore(data) })
    return { ...parts, relevance, experiments }
  }

  async function allRankings(relevance: Awaited<ReturnType<typeof handlersOn>>['relevance'], id: string): Promise<QueryRanking[]> {
    return (await relevance['eval:rankings']({ id, offset: 0, limit: 100 }, {})).rankings
  }

  it("gives a kept evaluation's intervals and queue with the judgments as they are now, in the worker thread", async () => {
    const { relevance } = await handlersOn()
    await relevance['eval:start']({ runId: 'e1', set: 'Cities', depth: 20, metrics: METRICS }, {})
    const id = (await untilEnded(() => relevance['eval:status']({ runId: 'e1' }, {}))).evaluationId!
    const head = await relevance['eval:get']({ id }, {})
    const inProcess = async (limit: number) => {
      const set = await relevance['sets:get']({ name: 'Cities' }, {})
      const scoring = { metrics: (parseMetrics(METRICS) as { ok: true; metrics: never }).metrics, settings: settingsOf(set), judgeDepth: head.judgeDepth }
      return judgeNextEvaluation(await allRankings(relevance, id), set, scoring, { limit })
    }

    const first = await relevance['eval:judge-next']({ id, limit: 3 }, {})
    expect(EvaluationJudgeNextSchema.parse(first)).toEqual(first)
    const expected = await inProcess(3)
    // The same figures and queue as over the whole rankings, each entry named as the kept ranking names it (the server's labels: the id in capitals).
    expect(first).toEqual({ ...expected, queue: expected.queue.map((entry) => ({ ...entry, label: entry.item.toUpperCase() })) })
    expect(first.metrics).toEqual(['p@2', 'ndcg@5'])
    expect(first.queue).toHaveLength(3)
    expect(first.total).toBeGreaterThan(3)
    const p1 = first.queries[0]!.figures!['p@2']!
    // q1's P@2 is 1/2 now (p2 relevant, p1 unjudged): p1 judged could make it 1.
    expect([p1.current, p1.low, p1.high]).toEqual([0.5, 0.5, 1])

    // Judged (by Ann, the window's rater): the pair leaves the queue and q1's P@2 is settled.
    await relevance['sets:rate']({ set: 'Cities', query: 'q1', item: 'p1', grade: 2 }, {})
    const second = await relevance['eval:judge-next']({ id, limit: 1_000 }, {})
    const again = await inProcess(1_000)
    expect(second).toEqual({ ...again, queue: again.queue.map((entry) => ({ ...entry, label: entry.item.toUpperCase() })) })
    expect(second.queue.some((entry) => entry.item === 'p1')).toBe(false)
    expect(second.queries[0]!.figures!['p@2']).toEqual({ current: 1, low: 1, high: 1 })

    // A limit of 0 lists nothing but still says how many there are.
    const none = await relevance['eval:judge-next']({ id, limit: 0 }, {})
    expect([none.queue.length, none.total]).toEqual([0, second.total])
  })

  it('refuses an evaluation that is not kept, and one whose set is gone, saying why', async () => {
    const { relevance } = await handlersOn()
    const missing = await failureOf(relevance['eval:judge-next']({ id: 'no-such-id', limit: 10 }, {}))
    expect([missing.code, missing.message]).toEqual(['not_found', 'There is no kept evaluation with the id "no-such-id".'])
    await relevance['eval:start']({ runId: 'e2', set: 'Cities', depth: 10, metrics: 'p@2' }, {})
    const id = (await untilEnded(() => relevance['eval:status']({ runId: 'e2' }, {}))).evaluationId!
    await relevance['sets:delete']({ name: 'Cities' }, {})
    const gone = await failureOf(relevance['eval:judge-next']({ id, limit: 10 }, {}))
    expect([gone.code, gone.message]).toEqual(['not_found', 'The set "Cities" this evaluation ran on is no longer in the workspace: there are no judgments to weigh its figures with.'])
  })

  it("gives a kept experiment's verdicts from its sides' kept rankings, and says when nothing left to judge changes one", async () => {
    const { relevance, experiments, connectionId } = await handlersOn()
    await experiments['experiments:start']({ runId: 'x1', set: 'Cities', sides: [{ connectionId, config: 'a' }, { connectionId, config: 'b' }], depth: 20, metrics: METRICS }, {})
    const ended = await untilEnded(() => experiments['experiments:status']({ runId: 'x1' }, {}))
    const record = await experiments['experiments:get']({ id: ended.experimentId! }, {})
    const answer = await experiments['experiments:judge-next']({ id: record.id, limit: 50 }, {})
    expect(ExperimentJudgeNextSchema.parse(answer)).toEqual(answer)
    const set = await relevance['sets:get']({ name: 'Cities' }, {})
    const [baseline, other] = await Promise.all(record.sides.map((side) => allRankings(relevance, side.evaluationId)))
    const scoring = { metrics: (parseMetrics(METRICS) as { ok: true; metrics: never }).metrics, settings: settingsOf(set), judgeDepth: record.judgeDepth }
    const expected = judgeNextExperiment({ baseline: baseline!, others: [other!] }, set, scoring, { limit: 50, alpha: record.stats.alpha, stats: record.stats })
    expect(answer).toEqual({ ...expected, queue: expected.queue.map((entry) => ({ ...entry, label: entry.item.toUpperCase() })) })
    // Both sides rank alike: an item has one grade on both, so no delta can move.
    expect(answer.verdicts.map((verdict) => [verdict.metric, verdict.decided, verdict.delta])).toEqual([
      ['p@2', true, { current: 0, low: 0, high: 0 }],
      ['ndcg@5', true, { current: 0, low: 0, high: 0 }],
    ])
    expect(answer.queue).toEqual([])
    expect(answer.summary).toMatch(/^Nothing left to judge changes a verdict: P@2's delta stays between 0\.000 and 0\.000, not significant either way/)
    const missing = await failureOf(experiments['experiments:judge-next']({ id: 'no-such-id', limit: 10 }, {}))
    expect([missing.code, missing.message]).toEqual(['not_found', 'There is no kept experiment with the id "no-such-id".'])
  })
})

describe('answerInThread with parts sent ahead', () => {
  const entry = { caller: join(__dirname, '../../src/main/evaluation/judge-next-thread.ts'), source: 'judge-next-worker.ts', built: 'judge-next.js', what: 'What to judge next' }
  const request = { kind: 'evaluation', sides: 1, set: { judgments: judgmentColumns([{ query: 'q1', item: 'a', rater: 'r', grade: 2 }]) }, scoring: { metrics: (parseMetrics('p@2') as { ok: true; metrics: never }).metrics, settings: settingsOf({}), judgeDepth: 2 }, limit: 5 }

  it('hands the work every part sent before the request, in order', async () => {
    const ranking = (id: string, items: string[]): QueryRanking => ({ id, text: id, items, labels: [], error: null, durationMs: 0 })
    const answer = await answerInThread<{ queries: { id: string }[]; queue: { item: string }[] }>(entry, request, {
      parts: async (send) => {
        send({ side: 0, rankings: [ranking('q1', ['b', 'a'])] })
        send({ side: 0, rankings: [ranking('q2', ['c'])] })
      },
    })
    expect(answer.queries.map((query) => query.id)).toEqual(['q1', 'q2'])
    expect(answer.queue.map((entry) => entry.item)).toEqual(['b'])
  })

  it('answers the error of parts that fail, the thread stopped', async () => {
    const failed = await failureOf(answerInThread(entry, request, { parts: async () => Promise.reject(new ExplorerError('not_found', 'There is no kept evaluation with the id "x".')) }))
    expect([failed.code, failed.message]).toEqual(['not_found', 'There is no kept evaluation with the id "x".'])
  })
})

describe('cutRanking', () => {
  const settings = (unjudged: MetricSettings['unjudged']): MetricSettings => ({ ...settingsOf({}), unjudged })
  it('changes no figure of judge-next: rankings cut to the depth the metrics and Judge read give the same answer as whole ones', () => {
    const item = fc.integer({ min: 0, max: 40 }).map((n) => `i${n}`)
    fc.assert(
      fc.property(
        fc.array(fc.array(item, { maxLength: 60 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), item, fc.integer({ min: 0, max: 3 })), { maxLength: 60 }),
        fc.constantFrom<MetricSettings['unjudged']>('zero', 'skip'),
        fc.constantFrom('p@5,ndcg@10,coverage@10', 'ap@3,rr@20,err@10,recall@8', 'ndcg@30,p@25', 'ndcg@2'),
        fc.integer({ min: 1, max: 12 }),
        (lists, grades, unjudged, metricText, judgeDepth) => {
          const rankings: QueryRanking[] = lists.map((items, q) => ({ id: `q${q}`, text: `q${q}`, items, labels: items.map((each) => each.toUpperCase()), error: null, durationMs: 0 }))
          const judgments = grades.map(([q, item, grade]) => ({ query: `q${q}`, item, rater: 'r', grade }))
          const scoring = { metrics: (parseMetrics(metricText) as { ok: true; metrics: never }).metrics, settings: settings(unjudged), judgeDepth }
          const depth = judgeNextDepth(scoring)
          expect(depth === null).toBe(unjudged === 'skip')
          const cut = rankings.map((ranking) => cutRanking(ranking, depth, scoring.judgeDepth))
          const set = { judgments }
          expect(judgeNextEvaluation(cut.map((each) => each.ranking), set, scoring)).toEqual(judgeNextEvaluation(rankings, set, scoring))
          // An experiment of these against the same queries ranked backwards.
          const backwards = rankings.map((ranking) => ({ ...ranking, items: [...ranking.items].reverse(), labels: [...ranking.labels].reverse() }))
          // Each side's first judgeDepth items, as a kept evaluation's head previews them: every side is kept down to the deepest of them.
          const previews = [rankings, backwards].map((side) => Object.fromEntries(side.map((ranking) => [ranking.id, ranking.items.slice(0, scoring.judgeDepth)])))
          const named = itemsNamed(previews)
          const cutSides = [rankings, backwards].map((side) => side.map((ranking) => cutRanking(ranking, depth, scoring.judgeDepth, named.get(ranking.id)).ranking))
          const options = { permutations: 200 }
          expect(judgeNextExperiment({ baseline: cutSides[0]!, others: [cutSides[1]!] }, set, scoring, options)).toEqual(
            judgeNextExperiment({ baseline: rankings, others: [backwards] }, set, scoring, options),
          )
          // Each item of a top judgeDepth keeps the label of its first place (the labels here are the ids in capitals).
          for (const { ranking, labels } of cut) {
            expect([...labels.keys()]).toEqual(ranking.items.slice(0, scoring.judgeDepth))
            for (const [key, label] of labels) expect(label).toBe(key.toUpperCase())
          }
        },
      ),
      { numRuns: 150 },
    )
  })
})

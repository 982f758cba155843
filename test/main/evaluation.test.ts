import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { EvalRunStatusSchema, type EvalRunStatus } from '../../src/shared/ipc/relevance-contract'
import type { ConnectionView, WorkspaceView } from '../../src/shared/ipc/contract'
import { scoreRankings, type Evaluation } from '../../src/shared/relevance/evaluation'
import { DEFAULT_METRICS } from '../../src/shared/relevance/metrics'
import { QuerySetSchema, settingsOf, type QuerySet } from '../../src/shared/relevance/query-set'
import { keptEvaluation, runFileOf } from './kept-evaluation'
import { call, downloadedFile, failure, keychainMissing, type TestServer, untilEnded, uploadText } from './support'
import { openDemoBench, type DemoBench } from './demo-bench'

/**
 * Query sets and their evaluation over IPC, as the Evaluation view uses
 * them: the example workspace's judged set evaluated on the real demo
 * (default and production), ratings, judgment files in and out, a TREC run,
 * a cancelled evaluation, and the refusals. Real keychain, real HTTP on 127.0.0.1.
 */

const missing = await keychainMissing()
const WORLD = join(__dirname, '../../examples/world.qxw.json')
const SET = 'World cities (synthetic judgments)'

describe.skipIf(missing !== null)('query sets and evaluations over IPC', () => {
  let bench: DemoBench
  let core: AppCore
  let silent: TestServer
  let silentConnection: ConnectionView
  let runs = 0

  beforeAll(async () => {
    bench = await openDemoBench('eval')
    ;({ core, silent, silentConnection } = bench)
    await call<WorkspaceView>(core, 'workspace:import', { upload: await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8')) })
  })
  afterAll(() => bench?.close())

  /** Polls until the run ends. */
  const finished = (runId: string): Promise<EvalRunStatus> => untilEnded(async () => EvalRunStatusSchema.parse(await call(core, 'eval:status', { runId })))

  async function evaluate(request: Record<string, unknown>): Promise<Evaluation> {
    const runId = `eval-${++runs}`
    await call(core, 'eval:start', { runId, set: SET, ...request })
    const status = await finished(runId)
    expect(status.state, status.message ?? '').toBe('done')
    return keptEvaluation(core, status.evaluationId!)
  }

  const getSet = async () => QuerySetSchema.parse(await call(core, 'sets:get', { name: SET }))

  /** A file as the browser-host page sends it (the upload route's table, without its HTTP): the upload's id, for `sets:import`. */
  async function uploaded(fileName: string, text: string): Promise<string> {
    const bytes = Buffer.from(text)
    const ticket = await core.uploads!.open('this page', fileName, bytes.length)
    await core.uploads!.append('this page', ticket, 0, bytes)
    return ticket
  }

  it('lists the example set in the workspace view, without its judgments', async () => {
    const view = await call<WorkspaceView>(core, 'workspace:current', {}).then((reply) => (reply as unknown as { workspace: WorkspaceView }).workspace)
    expect(view.sets).toEqual([
      expect.objectContaining({ name: SET, template: 'City search (query set template)', queries: 36, judgments: 2349, settings: { gain: 'exponential', unjudged: 'zero', threshold: 1, aggregate: 'mean' } }),
    ])
  })

  it('evaluates the set on default and production: the figures the example script printed, production ahead', async () => {
    const a = await evaluate({ target: { connectionId: 'demo', config: 'default' }, depth: 100 })
    const b = await evaluate({ target: { connectionId: 'demo', config: 'production' }, depth: 100 })
    expect(a.targetText).toBe('Demo, config default')
    expect(a.scored.counted).toBe(36)
    expect(a.scored.failed).toBe(0)
    // The example script's own nDCG@10 (its inline function, not this code) printed 0.6116 and 0.9363 (the mean of the three raters' grades).
    expect(a.scored.means['ndcg@10']).toBeCloseTo(0.6116, 4)
    expect(b.scored.means['ndcg@10']).toBeCloseTo(0.9363, 4)
    // The set was pooled from both configurations' top 20: nothing in either top 10 is unjudged.
    expect(a.scored.unjudged).toBe(0)
    expect(b.scored.queries.every((query) => query.scores!['coverage@10'] === 1)).toBe(true)
    // Kept: listed newest first, with their digests equal (same set, same judgments).
    const kept = await call<{ id: string; setDigest: string; judgmentsDigest: string }[]>(core, 'eval:list', { set: SET })
    expect(kept.slice(0, 2).map((entry) => entry.id)).toEqual([b.id, a.id])
    expect(kept[0]!.setDigest).toBe(kept[1]!.setDigest)
    expect(kept[0]!.judgmentsDigest).toBe(kept[1]!.judgmentsDigest)
    // The figures kept are those the window scores from the kept rankings.
    const set = await getSet()
    expect(scoreRankings(b.rankings, set, DEFAULT_METRICS, settingsOf(set), b.judgeDepth)).toEqual(b.scored)
  })

  it('takes a rating at once, refuses a grade off the scale, and clears it', async () => {
    const before = await getSet()
    const view = await call<WorkspaceView>(core, 'sets:rate', { set: SET, query: 'q01', item: 'no-such-city', grade: 2 })
    expect(view.dirty).toBe(true)
    expect(view.sets[0]!.judgments).toBe(before.judgments.length + 1)
    expect((await getSet()).judgments).toContainEqual(expect.objectContaining({ query: 'q01', item: 'no-such-city', grade: 2 }))
    const refused = await failure(core, 'sets:rate', { set: SET, query: 'q01', item: 'no-such-city', grade: 7 })
    expect(refused).toMatchObject({ code: 'validation', message: "grade: 7 is not a grade of the set's scale (0 Poor, 1 Fair, 2 Good, 3 Perfect)." })
    expect((await failure(core, 'sets:rate', { set: SET, query: 'q999', item: 'x', grade: 1 })).code).toBe('not_found')
    await call(core, 'sets:rate', { set: SET, query: 'q01', item: 'no-such-city', grade: null })
    expect((await getSet()).judgments).toEqual(before.judgments)
  })

  it('imports a Quepid CSV whole (a new query joins the set) or not at all, and exports qrels', async () => {
    const before = await getSet()
    const bad = await failure(core, 'sets:import', { set: SET, upload: await uploaded('ratings.csv', 'query,docid,rating\nparis,2988507,3\nparis,123,9\n') })
    expect(bad.code).toBe('validation')
    expect(bad.message).toContain('line 3')
    expect(await getSet()).toEqual(before)

    const reply = await call<{ queries: number; judgments: number; replaced: number }>(core, 'sets:import', {
      set: SET,
      upload: await uploaded('ratings.csv', 'query,docid,rating\nparis,2988507,2\nzaragoza,3104324,3\n'),
    })
    // The file's grades are its own rater's (ratings.csv), beside the example's three raters': none of theirs is replaced.
    expect(reply).toMatchObject({ queries: 1, judgments: 2, replaced: 0 })
    const after = await getSet()
    const zaragoza = after.queries.find((query) => query.text === 'zaragoza')!
    expect(after.judgments).toContainEqual(expect.objectContaining({ query: zaragoza.id, item: '3104324', grade: 3 }))

    const exported = await call<{ fileName: string; downloadUrl: string }>(core, 'sets:export', { set: SET, format: 'trec-qrels' })
    const qrels = downloadedFile(core, exported.downloadUrl)
    expect(qrels.fileName).toMatch(/\.qrels$/)
    expect(qrels.text.split('\n')).toContain(`${zaragoza.id} 0 3104324 3`)
  })

  it('writes a kept evaluation as a TREC run: rank-ordered, strictly decreasing scores', async () => {
    const evaluation = await evaluate({ target: { connectionId: 'demo', config: 'production' }, depth: 10 })
    const run = await runFileOf(core, evaluation.id)
    expect(run.fileName).toMatch(/\.run\.txt$/)
    const first = evaluation.rankings[0]!
    const lines = run.text.trim().split('\n').filter((line) => line.startsWith(`${first.id} `))
    expect(lines.map((line) => line.split(' ')[2])).toEqual(first.items)
    expect(lines[0]).toMatch(new RegExp(`^${first.id} Q0 ${first.items[0]} 1 \\S+ \\S+$`))
    const scores = lines.map((line) => Number(line.split(' ')[4]))
    expect(scores.every((score, index) => index === 0 || score < scores[index - 1]!)).toBe(true)
  })

  it('cancels an evaluation mid-way and keeps what ran, the rest saying it did not run', async () => {
    await call(core, 'eval:start', { runId: 'to-cancel', set: SET, target: { connectionId: silentConnection.id }, depth: 10, concurrency: 2 })
    while (silent.seen.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await failure(core, 'eval:start', { runId: 'to-cancel', set: SET, depth: 10 })).message).toContain('is running already')
    const cancelled = EvalRunStatusSchema.parse(await call(core, 'eval:cancel', { runId: 'to-cancel' }))
    expect(cancelled.state).toBe('cancelled')
    const kept = await keptEvaluation(core, cancelled.evaluationId!)
    expect(kept.state).toBe('cancelled')
    expect(kept.scored.failed).toBe(kept.rankings.length)
    expect(kept.rankings.every((ranking) => ranking.error === 'Not run: the evaluation was cancelled.')).toBe(true)
  })

  it('adds, renames and deletes a set; refuses a template without {{query}} and bad metrics', async () => {
    const form = { name: 'Two cities', template: { kind: 'saved', query: 'San, default ranking' }, queries: [{ id: 'a', text: 'paris' }, { id: 'b', text: 'rome' }] }
    const added = await call<WorkspaceView>(core, 'sets:save', { set: form })
    expect(added.sets.map((set) => set.name)).toEqual([SET, 'Two cities'])
    const refused = await failure(core, 'eval:start', { runId: 'no-placeholder', set: 'Two cities', depth: 10 })
    expect(refused.message).toContain('holds no {{query}}')
    const renamed = await call<WorkspaceView>(core, 'sets:save', { set: { ...form, name: 'Two capitals', template: { kind: 'saved', query: 'City search (query set template)' } }, previousName: 'Two cities' })
    expect(renamed.sets.map((set) => set.name)).toEqual([SET, 'Two capitals'])
    const metrics = await failure(core, 'eval:start', { runId: 'bad-metrics', set: 'Two capitals', depth: 10, metrics: 'ndcg@10,p' })
    expect(metrics).toMatchObject({ code: 'validation' })
    expect(metrics.message).toMatch(/^metrics: .*"p"/)
    const taken = await failure(core, 'sets:save', { set: { ...form, name: SET } })
    expect(taken.message).toContain('exists')
    const deleted = await call<WorkspaceView>(core, 'sets:delete', { name: 'Two capitals' })
    expect(deleted.sets.map((set) => set.name)).toEqual([SET])
  })

  it('evaluates a query an import added with the template; a query with no judgment stays out of the means', async () => {
    const set: QuerySet = await getSet()
    expect(set.queries.length).toBe(37)
    await call(core, 'sets:save', {
      set: { name: SET, template: { kind: 'saved', query: set.query }, notes: set.notes, queries: [...set.queries, { id: 'unjudged', text: 'reykjavik' }] },
      previousName: SET,
    })
    expect((await getSet()).judgments).toEqual(set.judgments)
    const evaluation = await evaluate({ target: { connectionId: 'demo', config: 'default' }, depth: 10 })
    expect(evaluation.scored).toMatchObject({ counted: 37, unjudgedQueries: 1, failed: 0 })
    const unjudged = evaluation.scored.queries.find((query) => query.id === 'unjudged')!
    expect(unjudged.scores).toBeNull()
    expect(unjudged.unjudged).toBeGreaterThan(0)
  })
})

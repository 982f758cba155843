import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/app/app-core'
import { ExperimentRecordSchema, type ExperimentRecord } from '../../src/shared/experiments/experiment-record'
import type { WorkspaceView } from '../../src/shared/ipc/contract'
import { ExperimentRunStatusSchema, type ExperimentRunStatus } from '../../src/shared/ipc/experiment-contract'
import type { ConnectionView } from '../../src/shared/ipc/contract'
import { keptEvaluation } from './kept-evaluation'
import { call, failure, keychainMissing, type TestServer, untilEnded, uploadText } from './support'
import { openDemoBench, type DemoBench } from './demo-bench'

/**
 * Experiments over IPC, as the Experiments view runs them, on the real demo:
 * the example set on default against production (the difference real and
 * significant), a side against itself (nothing to tell apart, every page
 * asked once), per-step attribution, the sides' evaluations kept on their
 * own, and the refusals. Real keychain, real HTTP on 127.0.0.1; the
 * statistics run in a worker thread, as in the app.
 */

const missing = await keychainMissing()
const WORLD = join(__dirname, '../../examples/world.qxw.json')
const SET = 'World cities (synthetic judgments)'

describe.skipIf(missing !== null)('experiments over IPC', () => {
  let bench: DemoBench
  let core: AppCore
  /** Holds every request it gets until the test ends: an experiment on it stays under way for as long as the test needs. */
  let silent: TestServer
  let silentConnection: ConnectionView
  let runs = 0

  beforeAll(async () => {
    bench = await openDemoBench('experiments')
    ;({ core, silent, silentConnection } = bench)
    await call<WorkspaceView>(core, 'workspace:import', { upload: await uploadText(core, 'world.qxw.json', readFileSync(WORLD, 'utf8')) })
  })
  afterAll(() => bench?.close())

  /** Polls until the run ends. */
  const finished = (runId: string): Promise<ExperimentRunStatus> => untilEnded(async () => ExperimentRunStatusSchema.parse(await call(core, 'experiments:status', { runId })))

  async function experiment(request: Record<string, unknown>): Promise<ExperimentRecord> {
    const runId = `experiment-${++runs}`
    await call(core, 'experiments:start', { runId, set: SET, depth: 10, ...request })
    const status = await finished(runId)
    expect(status.state, status.message ?? '').toBe('done')
    expect(status.done).toBe(status.total)
    return ExperimentRecordSchema.parse(await call(core, 'experiments:get', { id: status.experimentId }))
  }

  it('default against production: production is ahead on nDCG@10, and the difference is significant after Holm', async () => {
    const record = await experiment({ sides: [{ connectionId: 'demo', config: 'default' }, { connectionId: 'demo', config: 'production' }], attribution: true })
    expect(record.sides.map((side) => side.label)).toEqual(['Demo, config default', 'Demo, config production'])
    const ndcg = record.stats.comparisons.find((comparison) => comparison.metric === 'ndcg@10')!
    // The example's own figures (its script's inline nDCG): 0.6116 and 0.9363.
    expect(ndcg.baselineMean).toBeCloseTo(0.6116, 4)
    expect(ndcg.otherMean).toBeCloseTo(0.9363, 4)
    expect(ndcg.meanDelta).toBeCloseTo(0.9363 - 0.6116, 3)
    expect(ndcg).toMatchObject({ n: 36, method: 'sampled', permutations: 10_000, significant: true })
    expect(ndcg.wins).toBeGreaterThan(ndcg.losses)
    expect(ndcg.wins + ndcg.ties + ndcg.losses).toBe(36)
    expect(ndcg.pAdjusted!).toBeGreaterThanOrEqual(ndcg.p!)
    expect(ndcg.interval![0]).toBeGreaterThan(0)
    expect(ndcg.interval![0]).toBeLessThanOrEqual(ndcg.meanDelta!)
    expect(ndcg.interval![1]).toBeGreaterThanOrEqual(ndcg.meanDelta!)
    expect(record.stats.family).toBe(record.stats.comparisons.filter((comparison) => comparison.p !== null).length)
    // Per query, sorted by the view: every query of the set has its delta.
    expect(record.stats.deltas['0:ndcg@10']).toHaveLength(36)
    // The template has one step: its one prefix is the whole template on A, whose pages were fetched already.
    expect(record.attribution).toEqual([expect.objectContaining({ label: '1: search', steps: 1, means: record.sides[0]!.means })])
    expect(record.reused).toBe(36)
    // Each side's evaluation is kept on its own, with its rankings.
    const side = await keptEvaluation(core, record.sides[1]!.evaluationId)
    expect(side.targetText).toBe('Demo, config production')
    expect(side.rankings[0]!.probabilities).toHaveLength(side.rankings[0]!.items.length)
    expect(await call<{ id: string }[]>(core, 'experiments:list', { set: SET })).toEqual([expect.objectContaining({ id: record.id, significant: expect.any(Number) })])
  })

  it('a side against itself: p = 1, an interval of [0, 0], all ties; its pages are asked once', async () => {
    const record = await experiment({ sides: [{ connectionId: 'demo', config: 'default' }, { connectionId: 'demo', config: 'default' }] })
    for (const comparison of record.stats.comparisons) {
      expect(comparison, comparison.metric).toMatchObject({ p: 1, interval: [0, 0], wins: 0, losses: 0, ties: 36, significant: false, meanDelta: 0 })
    }
    expect(record.reused).toBe(36)
  })

  it('refuses fewer than two sides, an unknown connection or set, and a second experiment while one runs; Cancel stops one under way', async () => {
    expect((await failure(core, 'experiments:start', { runId: 'one', set: SET, depth: 10, sides: [{ connectionId: 'demo' }] })).code).toBe('validation')
    expect((await failure(core, 'experiments:start', { runId: 'nowhere', set: SET, depth: 10, sides: [{ connectionId: 'demo' }, { connectionId: 'nope' }] })).code).toBe('not_found')
    expect((await failure(core, 'experiments:start', { runId: 'no-set', set: 'No such set', depth: 10, sides: [{ connectionId: 'demo' }, { connectionId: 'demo' }] })).code).toBe('not_found')
    await call(core, 'experiments:start', { runId: 'first', set: SET, depth: 10, sides: [{ connectionId: silentConnection.id }, { connectionId: 'demo' }] })
    while (silent.seen.length < 1) await new Promise((resolve) => setTimeout(resolve, 5))
    expect((await failure(core, 'experiments:start', { runId: 'second', set: SET, depth: 10, sides: [{ connectionId: 'demo' }, { connectionId: 'demo' }] })).message).toContain('running already')
    const cancelled = ExperimentRunStatusSchema.parse(await call(core, 'experiments:cancel', { runId: 'first' }))
    expect(cancelled).toMatchObject({ state: 'cancelled', experimentId: null, phase: 'A: Silent, config default' })
    expect(cancelled.message).toMatch(/^Cancelled: the evaluations that finished are kept/)
  })
})

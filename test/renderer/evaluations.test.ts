import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { CITIES } from '../fixtures/judgment-sets'
import { answerAsDemo, fakeBridge, installBridge, settle } from './fake-bridge'

/**
 * The evaluations store (src/renderer/stores/evaluations.ts): where an
 * evaluation runs, what it asks main, and the one shown when it has ended,
 * with the figures main scored again from the set's judgments as they are now.
 */

const fake = fakeBridge()
installBridge(fake)
const { useEvaluationsStore } = await import('../../src/renderer/stores/evaluations')
const { useConnectionsStore } = await import('../../src/renderer/stores/connections')
const { useWorkspaceStore } = await import('../../src/renderer/stores/workspace')

const VIEW = {
  name: 'w', fileName: null, folder: null, saveTarget: 'download', judges: [], dirty: false, queries: [], tests: [], bindings: [],
  sets: [{ name: 'World cities', queries: 5, judgments: 7 }],
} as never
const HEAD = { id: 'e1', set: 'World cities', scored: { metrics: ['ndcg@10'], means: { 'ndcg@10': 0.5 } }, previews: { q1: ['Q90'] } }
const RESCORED = { metrics: ['ndcg@10'], means: { 'ndcg@10': 0.75 } }
const channels = () => fake.calls.map((call) => call.channel)

beforeEach(() => {
  answerAsDemo(fake)
  fake.answers['sets:get'] = CITIES
  fake.answers['eval:list'] = []
  setActivePinia(createPinia())
})

describe('evaluations store', () => {
  it('evaluates nothing, and says why, while no connection is chosen', async () => {
    const evaluations = useEvaluationsStore()
    useWorkspaceStore().show(VIEW)
    await settle()
    await evaluations.start()
    expect(evaluations.error).toBe('Choose a connection to evaluate on.')
    expect(channels()).not.toContain('eval:start')
  })

  it('runs the chosen set on the chosen connection, config and depth, then shows the kept evaluation as main scores it now', async () => {
    await useConnectionsStore().load()
    const evaluations = useEvaluationsStore()
    useWorkspaceStore().show(VIEW)
    await settle()
    evaluations.config = 'staging'
    evaluations.depth = 20
    evaluations.metrics = [{ name: 'ndcg', k: 10 }, { name: 'recall', k: 50 }]
    expect(evaluations.neededDepth).toBe(50)
    fake.answers['eval:start'] = { runId: 'r1', state: 'done', durationMs: 5, message: null, set: 'World cities', targetText: 'Demo', total: 5, done: 5, failed: 0, evaluationId: 'e1' }
    fake.answers['eval:get'] = HEAD
    fake.answers['eval:list'] = [{ id: 'e1', set: 'World cities' }, { id: 'e0', set: 'World cities' }, { id: 'cut', set: 'World cities', step: 1 }]
    fake.answers['eval:scored'] = RESCORED
    await evaluations.start()
    await settle()
    await settle()
    const started = fake.calls.find((call) => call.channel === 'eval:start')!.request
    expect(started).toEqual({ runId: started.runId, set: 'World cities', target: { connectionId: 'c1', config: 'staging' }, depth: 20, metrics: 'ndcg@10,recall@50' })
    expect(evaluations.shown?.id).toBe('e1')
    // An attribution's cut-short evaluations are its experiment's, not listed here.
    expect(evaluations.kept.map((entry) => entry.id)).toEqual(['e1', 'e0'])
    expect(evaluations.previous?.id).toBe('e0')
    expect(evaluations.scored).toEqual(RESCORED)
    expect(evaluations.previewOf('q1')).toEqual(['Q90'])
    expect(evaluations.error).toBeNull()
  })
})
